import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  decideFloat,
  decidePayout,
  DomainError,
  Environment,
  evolveFloat,
  evolvePayout,
  FLOAT_EVENT_SCHEMA_VERSIONS,
  FLOAT_STREAM_TYPE,
  FloatCommand,
  FloatState,
  floatStreamId,
  floatView,
  initialFloatState,
  initialPayoutState,
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PAYOUT_STREAM_TYPE,
  PayoutState,
  payoutStreamId,
} from '@payouts/domain';
import type { EventStore, StreamAppend } from '@payouts/event-store';
import type { Clock } from '@payouts/clock';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import { AggregateCache } from '../support/aggregate-cache';
import { expectedVersionOf, loadAggregate, LoadedAggregate, toNewEvents } from '../support/aggregate-streams';
import { appendWithReadModels } from '../support/append-with-read-models';
import { LedgerLocks } from '../support/ledger-locks';
import { retryOnConflict } from '../support/retry-on-conflict';
import { FloatResult, GetFloatQuery, ReserveFloatCommand, TopUpFloatCommand } from './float.commands';

function result(environment: Environment, state: FloatState, version: number): FloatResult {
  return { environment, floatVersion: version, ...floatView(state) };
}

/** Load the float, decide, append with its expected version; retried on conflict. */
async function runFloatCommand(
  store: EventStore,
  cache: AggregateCache,
  environment: Environment,
  now: () => Date,
  command: (version: number) => FloatCommand | null,
): Promise<FloatResult> {
  const streamId = floatStreamId(environment);
  return retryOnConflict(async () => {
    const float = await cache.load(store, streamId, evolveFloat, initialFloatState());
    const decided = command(float.version);
    const events = decided === null ? [] : decideFloat(decided, float.state, now());
    if (events.length === 0) return result(environment, float.state, float.version);
    const appended = await appendWithReadModels(store, [
      {
        streamId,
        streamType: FLOAT_STREAM_TYPE,
        expectedVersion: expectedVersionOf(float.version),
        events: toNewEvents(events, FLOAT_EVENT_SCHEMA_VERSIONS),
      },
    ]);
    const version = appended.streams[0]?.version ?? float.version + events.length;
    const state = events.reduce(evolveFloat, float.state);
    cache.remember(streamId, { state, version });
    return result(environment, state, version);
  });
}

@CommandHandler(TopUpFloatCommand)
export class TopUpFloatHandler implements ICommandHandler<TopUpFloatCommand, FloatResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly locks: LedgerLocks,
    private readonly cache: AggregateCache,
  ) {}

  execute({ environment, amount, reference, onlyIfNew }: TopUpFloatCommand): Promise<FloatResult> {
    return this.locks.run(floatStreamId(environment), () =>
      runFloatCommand(
        this.store,
        this.cache,
        environment,
        () => this.clock.now(environment),
        // The expected version (no stream) makes "only if new" hold across processes too.
        (version) =>
          onlyIfNew && version > 0 ? null : { type: 'TopUpFloat', data: { environment, amount, reference } },
      ),
    );
  }
}

/**
 * Sets a processing payout's amount aside in its environment's float. Refused with
 * float_insufficient when the float cannot cover it; the worker then queues the payout. A payout
 * that was queued (safe_reason awaiting_float) leaves the queue in the same atomic append as its
 * reservation, each stream with its expected version: the merchant's view is never stale.
 */
@CommandHandler(ReserveFloatCommand)
export class ReserveFloatHandler implements ICommandHandler<ReserveFloatCommand, FloatResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly locks: LedgerLocks,
    private readonly cache: AggregateCache,
  ) {}

  async execute({ payoutId }: ReserveFloatCommand): Promise<FloatResult> {
    const streamId = payoutStreamId(payoutId);
    const first = await loadAggregate(this.store, streamId, evolvePayout, initialPayoutState());
    if (first.state.status === 'none') throw new DomainError('payout_not_found', 'no such payout');
    const { environment } = first.state;
    return this.locks.run(floatStreamId(environment), () =>
      retryOnConflict(async (tries) => {
        const payout =
          tries === 1 ? first : await loadAggregate(this.store, streamId, evolvePayout, initialPayoutState());
        return this.reserve(payout, environment);
      }),
    );
  }

  private async reserve(
    payout: LoadedAggregate<PayoutState>,
    environment: Environment,
  ): Promise<FloatResult> {
    const now = this.clock.now(environment);
    if (payout.state.status === 'none') throw new DomainError('payout_not_found', 'no such payout');
    const { payoutId, amount } = payout.state;
    // The payout first: only a confirmed payout on its way out needs the rail's money (one under
    // review already has it), so any other status is refused before the float is looked at.
    const payoutEvents = decidePayout({ type: 'LeaveFloatQueue', data: {} }, payout.state, now);
    const floatId = floatStreamId(environment);
    const float = await this.cache.load(this.store, floatId, evolveFloat, initialFloatState());
    const floatEvents = decideFloat(
      { type: 'ReserveFloat', data: { environment, payoutId, amount } },
      float.state,
      now,
    );
    const appends: StreamAppend[] = [];
    if (floatEvents.length > 0) {
      appends.push({
        streamId: floatId,
        streamType: FLOAT_STREAM_TYPE,
        expectedVersion: expectedVersionOf(float.version),
        events: toNewEvents(floatEvents, FLOAT_EVENT_SCHEMA_VERSIONS),
      });
    }
    // Also alone: a reservation written before this event existed left its payout queued.
    if (payoutEvents.length > 0) {
      appends.push({
        streamId: payoutStreamId(payoutId),
        streamType: PAYOUT_STREAM_TYPE,
        expectedVersion: payout.version,
        events: toNewEvents(payoutEvents, PAYOUT_EVENT_SCHEMA_VERSIONS),
      });
    }
    if (appends.length === 0) return result(environment, float.state, float.version);
    await appendWithReadModels(this.store, appends);
    // The append checked the expected version, so the new one is the old plus what was written.
    const version = float.version + floatEvents.length;
    const state = floatEvents.reduce(evolveFloat, float.state);
    if (floatEvents.length > 0) this.cache.remember(floatId, { state, version });
    return result(environment, state, version);
  }
}

@QueryHandler(GetFloatQuery)
export class GetFloatHandler implements IQueryHandler<GetFloatQuery, FloatResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly cache: AggregateCache,
  ) {}

  async execute({ environment }: GetFloatQuery): Promise<FloatResult> {
    const float = await this.cache.load(
      this.store,
      floatStreamId(environment),
      evolveFloat,
      initialFloatState(),
    );
    return result(environment, float.state, float.version);
  }
}
