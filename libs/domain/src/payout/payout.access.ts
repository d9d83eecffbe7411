import { DomainError } from '../kernel/domain-error';
import { addMs, earlier, parseIso, reached } from '../kernel/time';
import { ConsumeRedirectHandoff, IssueClaimLink, StartRedirectSession } from './payout.commands';
import { PayoutEvent } from './payout.events';
import { REDIRECT_HANDOFF_MS } from './payout.limits';
import { isFinalPayout, Payout, PayoutState } from './payout.state';

/** The ways a recipient gets in: claim links (link delivery) and one-time handoffs (redirect). */

export function handoffExpiresAt(now: Date, payoutExpiresAt: Date): string {
  return earlier(addMs(now, REDIRECT_HANDOFF_MS), payoutExpiresAt).toISOString();
}

export function decideIssueClaimLink(data: IssueClaimLink['data'], payout: Payout, now: Date): PayoutEvent[] {
  if (payout.delivery !== 'link') {
    throw new DomainError(
      'wrong_delivery',
      'Claim links exist only for link payouts; use a redirect session',
    );
  }
  // Re-showing the current link is the application's job; it never adds a deadline or a fee.
  if (!data.rotate) return [];
  if (isFinalPayout(payout)) {
    throw new DomainError('not_resumable', `The payout is ${payout.status}; its link cannot be rotated`);
  }
  if (payout.status !== 'awaiting_choice') {
    throw new DomainError(
      'invalid_transition',
      'The recipient has already confirmed; the link cannot be rotated',
    );
  }
  if (reached(now, payout.payoutExpiresAt)) {
    throw new DomainError(
      'not_resumable',
      'The payout has passed payout_expires_at; its link cannot be rotated',
    );
  }
  return [
    {
      type: 'ClaimLinkIssued',
      data: {
        payoutId: payout.payoutId,
        linkId: data.linkId,
        tokenHash: data.tokenHash,
        rotated: true,
        issuedAt: now.toISOString(),
        expiresAt: payout.payoutExpiresAt,
      },
    },
  ];
}

export function decideStartRedirectSession(
  data: StartRedirectSession['data'],
  payout: Payout,
  now: Date,
): PayoutEvent[] {
  if (payout.delivery !== 'redirect') {
    throw new DomainError(
      'wrong_delivery',
      'Redirect sessions exist only for redirect payouts; use the claim link',
    );
  }
  if (data.customerId !== payout.customerId) {
    throw new DomainError(
      'customer_mismatch',
      'customer_id differs from the customer bound to the payout',
      'customer_id',
    );
  }
  if (isFinalPayout(payout)) {
    throw new DomainError('not_resumable', `The payout is ${payout.status}; it cannot be resumed`);
  }
  if (reached(now, payout.payoutExpiresAt)) {
    throw new DomainError('not_resumable', 'The payout has passed payout_expires_at; it cannot be resumed');
  }
  return [
    {
      type: 'RedirectSessionStarted',
      data: {
        payoutId: payout.payoutId,
        sessionId: data.sessionId,
        tokenHash: data.tokenHash,
        startedAt: now.toISOString(),
        expiresAt: handoffExpiresAt(now, parseIso(payout.payoutExpiresAt)),
      },
    },
  ];
}

/** Every failure gives the same code, so a handoff URL reveals nothing about the payout behind it. */
export function decideConsumeRedirectHandoff(
  data: ConsumeRedirectHandoff['data'],
  state: PayoutState,
  now: Date,
): PayoutEvent[] {
  if (state.status === 'none') throw new DomainError('handoff_invalid', 'The payout does not exist');
  const why = whyHandoffInvalid(data.sessionId, state, now);
  if (why !== null) throw new DomainError('handoff_invalid', why);
  return [
    {
      type: 'RedirectHandoffConsumed',
      data: { payoutId: state.payoutId, sessionId: data.sessionId, consumedAt: now.toISOString() },
    },
  ];
}

function whyHandoffInvalid(sessionId: string, payout: Payout, now: Date): string | null {
  if (payout.delivery !== 'redirect') return 'The payout is not a redirect payout';
  if (isFinalPayout(payout)) return `The payout is ${payout.status}`;
  const session = payout.currentSession;
  if (session === null || session.sessionId !== sessionId) return 'The session was replaced by a newer one';
  if (session.consumed) return 'The handoff was already used';
  if (reached(now, session.expiresAt)) return 'The handoff has expired';
  return null;
}
