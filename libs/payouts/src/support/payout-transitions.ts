import type { SqlQueryable } from '@payouts/database';
import { Inject, Injectable } from '@nestjs/common';
import {
  decideFloat,
  decideLedger,
  decidePayout,
  DomainError,
  evolveFloat,
  evolveLedger,
  evolvePayout,
  FLOAT_EVENT_SCHEMA_VERSIONS,
  FLOAT_STREAM_TYPE,
  FloatCommand,
  floatStreamId,
  initialFloatState,
  initialLedgerState,
  initialPayoutState,
  LEDGER_EVENT_SCHEMA_VERSIONS,
  LEDGER_STREAM_TYPE,
  LedgerCommand,
  ledgerStreamId,
  Payout,
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PAYOUT_STREAM_TYPE,
  PayoutCommand,
  PayoutEvent,
  PayoutState,
  payoutStreamId,
} from '@payouts/domain';
import type { EventStore, StreamAppend } from '@payouts/event-store';
import type { Clock } from '@payouts/clock';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import { AggregateCache } from './aggregate-cache';
import {
  expectedVersionOf,
  loadAggregate,
  LoadedAggregate,
  reservationClosedUnderUs,
  toNewEvents,
} from './aggregate-streams';
import { appendWithReadModels } from './append-with-read-models';
import { LedgerLocks } from './ledger-locks';
import { retryOnConflict } from './retry-on-conflict';

/** What one payout command does: the payout's own change and, when money moves, the other streams'. */
export interface TransitionPlan {
  payout: PayoutCommand;
  /** The merchant's ledger (amount + fee): release or settle. */
  ledger?: LedgerCommand;
  /** The environment's payout float (amount): release or pay out. */
  float?: FloatCommand;
  /** Runs in the append's own transaction, so it commits (or fails) with the events. */
  alsoInTransaction?: (tx: SqlQueryable) => Promise<void>;
}

/** Payout events after which the reserved amount + fee must have left the holds. */
const MONEY_ENDING_EVENTS: ReadonlySet<PayoutEvent['type']> = new Set([
  'PayoutPaid',
  'PayoutFailed',
  'PayoutExpired',
  'PayoutCancelled',
]);

/**
 * Load → decide → append for one payout, with the ledger and float moves that go with it written
 * in the same atomic append, each stream with its expected version, so a payout is never paid,
 * failed or expired without its money following. Retried on a version conflict, deciding again
 * on fresh state. A command that changes nothing (a repeat) writes nothing.
 */
@Injectable()
export class PayoutTransitions {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly locks: LedgerLocks,
    private readonly cache: AggregateCache,
  ) {}

  async run(
    payoutId: string,
    plan: (payout: Payout) => TransitionPlan,
    options: { movesMoney: boolean; missing?: PayoutCommand },
  ): Promise<PayoutState> {
    const streamId = payoutStreamId(payoutId);
    const first = await loadAggregate(this.store, streamId, evolvePayout, initialPayoutState());
    if (first.state.status === 'none') {
      // A handoff refuses a missing payout like any other bad handoff, revealing nothing.
      if (options.missing) decidePayout(options.missing, first.state, this.clock.now());
      throw new DomainError('payout_not_found', 'no such payout');
    }
    const { accountId, environment } = first.state;
    const attempt = () =>
      retryOnConflict(async (tries) => {
        const payout =
          tries === 1 ? first : await loadAggregate(this.store, streamId, evolvePayout, initialPayoutState());
        if (payout.state.status === 'none') throw new Error(`payout ${payoutId} vanished`);
        return this.decideAndAppend(payout as LoadedAggregate<Payout>, plan(payout.state));
      });
    if (!options.movesMoney) return attempt();
    // Always the ledger before the float, so two commands never wait on each other's lock.
    return this.locks.run(ledgerStreamId(accountId, environment), () =>
      this.locks.run(floatStreamId(environment), attempt),
    );
  }

  private async decideAndAppend(payout: LoadedAggregate<Payout>, plan: TransitionPlan): Promise<PayoutState> {
    const { payoutId, accountId, environment } = payout.state;
    const now = this.clock.now(environment);
    const payoutEvents = decidePayout(plan.payout, payout.state, now);
    if (payoutEvents.length === 0) return payout.state;

    const appends: StreamAppend[] = [
      {
        streamId: payoutStreamId(payoutId),
        streamType: PAYOUT_STREAM_TYPE,
        expectedVersion: payout.version,
        events: toNewEvents(payoutEvents, PAYOUT_EVENT_SCHEMA_VERSIONS),
      },
    ];
    const remember: (() => void)[] = [];
    const ledgerId = ledgerStreamId(accountId, environment);
    if (plan.ledger) {
      const ledger = await this.cache.load(this.store, ledgerId, evolveLedger, initialLedgerState());
      const ledgerEvents = decideLedger(plan.ledger, ledger.state, now);
      const ends = payoutEvents.some((e) => MONEY_ENDING_EVENTS.has(e.type));
      if (ends && ledgerEvents.length === 0) {
        await reservationClosedUnderUs(this.store, payoutStreamId(payoutId), payout.version);
      }
      // Tiger style: a payout that ends must take its reservation with it, in the same append.
      if (ends && ledgerEvents.length !== 1) {
        throw new Error(
          `payout ${payoutId} ends but its ledger reservation moved ${ledgerEvents.length} times`,
        );
      }
      if (ledgerEvents.length > 0) {
        appends.push({
          streamId: ledgerId,
          streamType: LEDGER_STREAM_TYPE,
          expectedVersion: expectedVersionOf(ledger.version),
          events: toNewEvents(ledgerEvents, LEDGER_EVENT_SCHEMA_VERSIONS),
        });
        const next = ledgerEvents.reduce(evolveLedger, ledger.state);
        remember.push(() => this.rememberAfter(ledgerId, next, ledger.version, ledgerEvents.length));
      }
    } else if (payoutEvents.some((e) => MONEY_ENDING_EVENTS.has(e.type))) {
      throw new Error(`payout ${payoutId} would end without moving its ledger reservation`);
    }
    if (plan.float) {
      const floatId = floatStreamId(environment);
      const float = await this.cache.load(this.store, floatId, evolveFloat, initialFloatState());
      const floatEvents = decideFloat(plan.float, float.state, now);
      if (floatEvents.length > 0) {
        appends.push({
          streamId: floatId,
          streamType: FLOAT_STREAM_TYPE,
          expectedVersion: expectedVersionOf(float.version),
          events: toNewEvents(floatEvents, FLOAT_EVENT_SCHEMA_VERSIONS),
        });
        const next = floatEvents.reduce(evolveFloat, float.state);
        remember.push(() => this.rememberAfter(floatId, next, float.version, floatEvents.length));
      }
    }
    await appendWithReadModels(
      this.store,
      appends,
      plan.alsoInTransaction ? { alsoInTransaction: plan.alsoInTransaction } : {},
    );
    for (const r of remember) r();
    return payoutEvents.reduce(evolvePayout, payout.state as PayoutState);
  }

  /** The append checked the expected version, so the new version is the old one plus what we wrote. */
  private rememberAfter<State>(streamId: string, state: State, version: number, written: number): void {
    this.cache.remember(streamId, { state, version: version + written });
  }
}
