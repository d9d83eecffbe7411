import {
  decidePayout,
  DomainError,
  Environment,
  evolvePayout,
  PAYOUT_AGGREGATE,
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PAYOUT_STREAM_TYPE,
  PayoutCommand,
  PayoutState,
  payoutStreamId,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { appendTo, Decision, loadAggregate } from '@payouts/write-side';
import type { AccessToken } from './identifiers';
import { payoutJobRows } from './payout-job-rows';

export interface PayoutAccessResult {
  payout: PayoutState;
  /** A new link or handoff token (shown once); null when nothing new was issued. */
  accessToken: string | null;
  accessExpiresAt: string | null;
  /**
   * The route's answer: Get or Rotate Claim Link's always; Start Redirect Session's when the
   * command carried the request's Idempotency-Key.
   */
  answer?: { body: Record<string, unknown> };
}

/** Decides one access command on one payout of this account and environment. */
export async function decideAccess(
  store: EventStore,
  now: Date,
  scope: { accountId: string; environment: Environment; payoutId: string },
  command: (ids: { id: string; tokenHash: string }) => PayoutCommand,
  access: AccessToken,
): Promise<Decision<PayoutAccessResult>> {
  const streamId = payoutStreamId(scope.payoutId);
  const payout = await loadAggregate(store, streamId, PAYOUT_AGGREGATE);
  if (
    payout.state.status === 'none' ||
    payout.state.accountId !== scope.accountId ||
    payout.state.environment !== scope.environment
  ) {
    throw new DomainError('payout_not_found', 'no such payout');
  }
  const events = decidePayout(command({ id: access.id, tokenHash: access.tokenHash }), payout.state, now);
  const issued = events.find((e) => e.type === 'ClaimLinkIssued' || e.type === 'RedirectSessionStarted');
  return {
    plan: {
      appends:
        events.length === 0
          ? []
          : [appendTo(streamId, PAYOUT_STREAM_TYPE, payout.version, events, PAYOUT_EVENT_SCHEMA_VERSIONS)],
      rows: payoutJobRows(events),
    },
    result: {
      payout: events.reduce(evolvePayout, payout.state),
      accessToken: issued ? access.token : null,
      accessExpiresAt: issued?.data.expiresAt ?? null,
    },
    cached: [],
  };
}
