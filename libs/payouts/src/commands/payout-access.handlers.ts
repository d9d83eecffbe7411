import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  decidePayout,
  DomainError,
  Environment,
  evolvePayout,
  initialPayoutState,
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PAYOUT_STREAM_TYPE,
  PayoutCommand,
  payoutStreamId,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import type { Clock } from '@payouts/clock';
import { loadAggregate, toNewEvents } from '../support/aggregate-streams';
import { appendWithReadModels } from '../support/append-with-read-models';
import { ClaimLinkTokens } from '../support/claim-link-tokens';
import { AccessToken, newHandoffToken } from '../support/identifiers';
import { retryOnConflict } from '../support/retry-on-conflict';
import {
  IssueClaimLinkCommand,
  PayoutAccessResult,
  StartRedirectSessionCommand,
} from './payout-access.commands';

/** Decide one access command on one payout of this account and environment; append with its version. */
async function changeAccess(
  store: EventStore,
  clock: Clock,
  scope: { accountId: string; environment: Environment; payoutId: string },
  command: (ids: { id: string; tokenHash: string }) => PayoutCommand,
  issue: (payoutId: string) => AccessToken,
): Promise<PayoutAccessResult> {
  return retryOnConflict(async () => {
    const streamId = payoutStreamId(scope.payoutId);
    const payout = await loadAggregate(store, streamId, evolvePayout, initialPayoutState());
    if (
      payout.state.status === 'none' ||
      payout.state.accountId !== scope.accountId ||
      payout.state.environment !== scope.environment
    ) {
      throw new DomainError('payout_not_found', 'no such payout');
    }
    const access = issue(scope.payoutId);
    const events = decidePayout(
      command({ id: access.id, tokenHash: access.tokenHash }),
      payout.state,
      clock.now(scope.environment),
    );
    if (events.length === 0) return { payout: payout.state, accessToken: null, accessExpiresAt: null };
    await appendWithReadModels(store, [
      {
        streamId,
        streamType: PAYOUT_STREAM_TYPE,
        expectedVersion: payout.version,
        events: toNewEvents(events, PAYOUT_EVENT_SCHEMA_VERSIONS),
      },
    ]);
    const issued = events.find((e) => e.type === 'ClaimLinkIssued' || e.type === 'RedirectSessionStarted');
    return {
      payout: events.reduce(evolvePayout, payout.state),
      accessToken: issued ? access.token : null,
      accessExpiresAt: issued?.data.expiresAt ?? null,
    };
  });
}

@CommandHandler(IssueClaimLinkCommand)
export class IssueClaimLinkHandler implements ICommandHandler<IssueClaimLinkCommand, PayoutAccessResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly links: ClaimLinkTokens,
  ) {}

  execute(command: IssueClaimLinkCommand): Promise<PayoutAccessResult> {
    return changeAccess(
      this.store,
      this.clock,
      command,
      ({ id, tokenHash }) => ({
        type: 'IssueClaimLink',
        data: { linkId: id, tokenHash, rotate: command.rotate },
      }),
      (payoutId) => this.links.issue(payoutId),
    );
  }
}

@CommandHandler(StartRedirectSessionCommand)
export class StartRedirectSessionHandler implements ICommandHandler<
  StartRedirectSessionCommand,
  PayoutAccessResult
> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(command: StartRedirectSessionCommand): Promise<PayoutAccessResult> {
    return changeAccess(
      this.store,
      this.clock,
      command,
      ({ id, tokenHash }) => ({
        type: 'StartRedirectSession',
        data: { sessionId: id, tokenHash, customerId: command.customerId },
      }),
      newHandoffToken,
    );
  }
}
