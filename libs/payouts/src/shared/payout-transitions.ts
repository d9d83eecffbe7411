import { Inject, Injectable } from '@nestjs/common';
import type { PlannedRow } from '@payouts/write-side';
import {
  decideFloat,
  decideLedger,
  decidePayout,
  DomainError,
  evolveFloat,
  evolveLedger,
  evolvePayout,
  FLOAT_AGGREGATE,
  FLOAT_EVENT_SCHEMA_VERSIONS,
  FLOAT_STREAM_TYPE,
  FloatCommand,
  floatStreamId,
  initialPayoutState,
  LEDGER_AGGREGATE,
  LEDGER_EVENT_SCHEMA_VERSIONS,
  LEDGER_STREAM_TYPE,
  LedgerCommand,
  ledgerStreamId,
  Payout,
  PAYOUT_AGGREGATE,
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PAYOUT_STREAM_TYPE,
  PayoutCommand,
  PayoutEvent,
  PayoutState,
  payoutStreamId,
} from '@payouts/domain';
import type { Environment } from '@payouts/domain';
import type { EventStore, StreamAppend } from '@payouts/event-store';
import type { Clock } from '@payouts/clock';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import {
  AggregateCache,
  appendTo,
  CachedStateAfter,
  Decision,
  loadAggregate,
  reservationClosedUnderUs,
} from '@payouts/write-side';
import { payoutJobRows } from './payout-job-rows';

/** What one payout command does: the payout's own change and, when money moves, the other streams'. */
export interface TransitionPlan {
  payout: PayoutCommand;
  /** The merchant's ledger (amount + fee): release or settle. */
  ledger?: LedgerCommand;
  /** The environment's payout float (amount): release or pay out. */
  float?: FloatCommand;
  /** Rows written in the same commit when the payout changes (details sealed with a confirm). */
  rows?: readonly PlannedRow[];
}

export interface TransitionOptions {
  /** Decided on a missing payout instead of payout_not_found (a handoff refuses like any bad one). */
  missing?: PayoutCommand;
  /** The caller's account and environment: another's payout does not exist for it. */
  owner?: { accountId: string; environment: Environment };
}

/** Payout events after which the reserved amount + fee must have left the holds. */
const MONEY_ENDING_EVENTS: ReadonlySet<PayoutEvent['type']> = new Set([
  'PayoutPaid',
  'PayoutFailed',
  'PayoutExpired',
  'PayoutCancelled',
]);

/**
 * Load → decide for one payout, with the ledger and float moves that go with it in the same plan,
 * each stream with its expected version, so a payout is never paid, failed or expired without
 * its money following. A command that changes nothing (a repeat) plans nothing.
 */
@Injectable()
export class PayoutTransitions {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly cache: AggregateCache,
  ) {}

  async decide(
    payoutId: string,
    plan: (payout: Payout) => TransitionPlan,
    options: TransitionOptions = {},
  ): Promise<Decision<PayoutState>> {
    const streamId = payoutStreamId(payoutId);
    const payout = await loadAggregate(this.store, streamId, PAYOUT_AGGREGATE);
    const state = payout.state;
    const owner = options.owner;
    if (
      state.status === 'none' ||
      (owner && (state.accountId !== owner.accountId || state.environment !== owner.environment))
    ) {
      if (options.missing) decidePayout(options.missing, initialPayoutState(), this.clock.now());
      throw new DomainError('payout_not_found', 'no such payout');
    }
    const { accountId, environment } = state;
    const now = this.clock.now(environment);
    const transition = plan(state);
    const payoutEvents = decidePayout(transition.payout, state, now);
    if (payoutEvents.length === 0) return { plan: { appends: [], rows: [] }, result: state, cached: [] };

    const appends: StreamAppend[] = [
      appendTo(streamId, PAYOUT_STREAM_TYPE, payout.version, payoutEvents, PAYOUT_EVENT_SCHEMA_VERSIONS),
    ];
    const cached: CachedStateAfter[] = [];
    const ends = payoutEvents.some((e) => MONEY_ENDING_EVENTS.has(e.type));
    if (transition.ledger) {
      const ledgerId = ledgerStreamId(accountId, environment);
      const ledger = await this.cache.load(this.store, ledgerId, LEDGER_AGGREGATE);
      const ledgerEvents = decideLedger(transition.ledger, ledger.state, now);
      if (ends && ledgerEvents.length === 0)
        await reservationClosedUnderUs(this.store, streamId, payout.version);
      // Tiger style: a payout that ends must take its reservation with it, in the same append.
      if (ends && ledgerEvents.length !== 1) {
        throw new Error(
          `payout ${payoutId} ends but its ledger reservation moved ${ledgerEvents.length} times`,
        );
      }
      if (ledgerEvents.length > 0) {
        appends.push(
          appendTo(ledgerId, LEDGER_STREAM_TYPE, ledger.version, ledgerEvents, LEDGER_EVENT_SCHEMA_VERSIONS),
        );
        cached.push({
          streamId: ledgerId,
          state: ledgerEvents.reduce(evolveLedger, ledger.state),
          version: ledger.version + ledgerEvents.length,
        });
      }
    } else if (ends) {
      throw new Error(`payout ${payoutId} would end without moving its ledger reservation`);
    }
    if (transition.float) {
      const floatId = floatStreamId(environment);
      const float = await this.cache.load(this.store, floatId, FLOAT_AGGREGATE);
      const floatEvents = decideFloat(transition.float, float.state, now);
      if (floatEvents.length > 0) {
        appends.push(
          appendTo(floatId, FLOAT_STREAM_TYPE, float.version, floatEvents, FLOAT_EVENT_SCHEMA_VERSIONS),
        );
        cached.push({
          streamId: floatId,
          state: floatEvents.reduce(evolveFloat, float.state),
          version: float.version + floatEvents.length,
        });
      }
    }
    return {
      plan: { appends, rows: [...payoutJobRows(payoutEvents), ...(transition.rows ?? [])] },
      result: payoutEvents.reduce(evolvePayout, state as PayoutState),
      cached,
    };
  }
}
