import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  decideLedger,
  decidePayout,
  DomainError,
  evolveLedger,
  evolvePayout,
  initialLedgerState,
  initialPayoutState,
  LEDGER_EVENT_SCHEMA_VERSIONS,
  LEDGER_STREAM_TYPE,
  ledgerStreamId,
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PAYOUT_STREAM_TYPE,
  PayoutState,
  payoutStreamId,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { appendWithReadModels } from '../support/append-with-read-models';
import {
  expectedVersionOf,
  loadAggregate,
  reservationClosedUnderUs,
  toNewEvents,
} from '../support/aggregate-streams';
import type { Clock } from '@payouts/clock';
import { AggregateCache } from '../support/aggregate-cache';
import { LedgerLocks } from '../support/ledger-locks';
import { retryOnConflict } from '../support/retry-on-conflict';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import { CancelPayoutCommand } from './cancel-payout.command';

/**
 * Cancels an unclaimed payout and returns amount + fee to the balance in one atomic append
 * (payout and ledger, both with expected versions). Already cancelled, expired or failed payouts
 * come back unchanged.
 */
@CommandHandler(CancelPayoutCommand)
export class CancelPayoutHandler implements ICommandHandler<CancelPayoutCommand, PayoutState> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly locks: LedgerLocks,
    private readonly cache: AggregateCache,
  ) {}

  async execute({ accountId, environment, payoutId }: CancelPayoutCommand): Promise<PayoutState> {
    const ledgerId = ledgerStreamId(accountId, environment);
    return this.locks.run(ledgerId, () =>
      retryOnConflict(async () => {
        const now = this.clock.now(environment);
        const payout = await loadAggregate(
          this.store,
          payoutStreamId(payoutId),
          evolvePayout,
          initialPayoutState(),
        );
        // Another account's (or environment's) payout does not exist for this caller.
        if (
          payout.state.status === 'none' ||
          payout.state.accountId !== accountId ||
          payout.state.environment !== environment
        ) {
          throw new DomainError('payout_not_found', 'no such payout');
        }
        const payoutEvents = decidePayout({ type: 'CancelPayout', data: {} }, payout.state, now);
        if (payoutEvents.length === 0) return payout.state;

        const ledger = await this.cache.load(this.store, ledgerId, evolveLedger, initialLedgerState());
        const ledgerEvents = decideLedger(
          { type: 'ReleasePayoutFunds', data: { payoutId, reason: 'cancelled' } },
          ledger.state,
          now,
        );
        if (ledgerEvents.length === 0)
          await reservationClosedUnderUs(this.store, payoutStreamId(payoutId), payout.version);
        const appended = await appendWithReadModels(this.store, [
          {
            streamId: payoutStreamId(payoutId),
            streamType: PAYOUT_STREAM_TYPE,
            expectedVersion: payout.version,
            events: toNewEvents(payoutEvents, PAYOUT_EVENT_SCHEMA_VERSIONS),
          },
          {
            streamId: ledgerId,
            streamType: LEDGER_STREAM_TYPE,
            expectedVersion: expectedVersionOf(ledger.version),
            events: toNewEvents(ledgerEvents, LEDGER_EVENT_SCHEMA_VERSIONS),
          },
        ]);
        const ledgerVersion = appended.streams.find((s) => s.streamId === ledgerId)?.version;
        if (ledgerVersion !== undefined) {
          // The next create trusts the cached ledger: give it the release, not a stale reservation.
          this.cache.remember(ledgerId, {
            state: ledgerEvents.reduce(evolveLedger, ledger.state),
            version: ledgerVersion,
          });
        }
        return payoutEvents.reduce(evolvePayout, payout.state);
      }),
    );
  }
}
