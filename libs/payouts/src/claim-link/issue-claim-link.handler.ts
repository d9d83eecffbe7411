import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@payouts/config';
import { DomainError, PayoutState } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { answerRow } from '@payouts/idempotency';
import type { Clock } from '@payouts/clock';
import { APP_CONFIG, CLOCK, EVENT_STORE } from '@payouts/platform';
import { Decides, Decision, WritePath } from '@payouts/write-side';
import { ClaimLinkTokens } from '../shared/claim-link-tokens';
import { decideAccess, PayoutAccessResult } from '../shared/payout-access';
import { payoutUrl } from '../shared/payout-responses';
import { SealedAnswerUrls } from '../shared/sealed-answer-urls';
import { IssueClaimLinkCommand } from './issue-claim-link.command';

/**
 * Get or Rotate Claim Link (`POST /api/payout/{payout_id}/link`): its answer (the link) is the
 * result's `answer`. With the request's key, the answer (sealed in the stored copy: kept 30 days,
 * it must not hold a working link in clear) commits with it.
 */
@CommandHandler(IssueClaimLinkCommand)
export class IssueClaimLinkHandler
  implements
    ICommandHandler<IssueClaimLinkCommand, PayoutAccessResult>,
    Decides<IssueClaimLinkCommand, PayoutAccessResult>
{
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly links: ClaimLinkTokens,
    private readonly answerUrls: SealedAnswerUrls,
    private readonly writes: WritePath,
  ) {}

  execute(command: IssueClaimLinkCommand): Promise<PayoutAccessResult> {
    return this.writes.execute(command, this);
  }

  async decide(command: IssueClaimLinkCommand): Promise<Decision<PayoutAccessResult>> {
    const decision = await decideAccess(
      this.store,
      this.clock.now(command.environment),
      command,
      ({ id, tokenHash }) => ({
        type: 'IssueClaimLink',
        data: { linkId: id, tokenHash, rotate: command.rotate },
      }),
      this.links.issue(command.payoutId),
    );
    const issued = decision.result;
    const link =
      issued.accessToken !== null && issued.accessExpiresAt !== null
        ? { token: issued.accessToken, expiresAt: issued.accessExpiresAt }
        : this.linkShownAgain(issued.payout);
    const url = payoutUrl(this.config.publicBaseUrl, command.environment, 'link', link.token);
    const answer = {
      payout_id: command.payoutId,
      rotated: command.rotate,
      access_link_expires_at: link.expiresAt,
    };
    const result = { ...issued, answer: { body: { ...answer, url } } };
    // Without a key (the dashboard's payout page showing the current link) nothing is stored.
    if (!command.hold) return { ...decision, result };
    return {
      ...decision,
      plan: {
        ...decision.plan,
        rows: [answerRow(command.hold, 200, this.answerUrls.seal(answer, 'url', url))],
      },
      result,
    };
  }

  /**
   * The payout's current claim link again (docs/design.md#delivery-links-and-expiry), derived from
   * its link id; a link another key issued (ENCRYPTION_KEY changed since) cannot be, and is rotated
   * instead.
   */
  private linkShownAgain(payout: PayoutState): { token: string; expiresAt: string } {
    const shown = payout.status !== 'none' && payout.delivery === 'link' ? payout : null;
    const link = shown?.currentLink ?? null;
    const token = shown && link ? this.links.shownAgain(shown.payoutId, link) : null;
    if (!link || token === null) {
      throw new DomainError(
        'link_unavailable',
        'the existing claim link cannot be shown again; send rotate: true',
      );
    }
    return { token, expiresAt: link.expiresAt };
  }
}
