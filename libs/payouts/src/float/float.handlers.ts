import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  decideFloat,
  decidePayout,
  DomainError,
  Environment,
  evolveFloat,
  FLOAT_AGGREGATE,
  FLOAT_EVENT_SCHEMA_VERSIONS,
  FLOAT_STREAM_TYPE,
  FloatState,
  floatStreamId,
  floatView,
  PAYOUT_AGGREGATE,
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PAYOUT_STREAM_TYPE,
  payoutStreamId,
} from '@payouts/domain';
import type { EventStore, StreamAppend } from '@payouts/event-store';
import type { Clock } from '@payouts/clock';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import {
  AggregateCache,
  appendTo,
  Decides,
  Decision,
  loadAggregate,
  oneStreamDecision,
  WritePath,
} from '@payouts/write-side';
import { payoutJobRows } from '../shared/payout-job-rows';
import { FloatResult, GetFloatQuery, ReserveFloatCommand, TopUpFloatCommand } from './float.commands';

function result(environment: Environment, state: FloatState, version: number): FloatResult {
  return { environment, floatVersion: version, ...floatView(state) };
}

@CommandHandler(TopUpFloatCommand)
export class TopUpFloatHandler
  implements ICommandHandler<TopUpFloatCommand, FloatResult>, Decides<TopUpFloatCommand, FloatResult>
{
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly cache: AggregateCache,
    private readonly writes: WritePath,
  ) {}

  execute(command: TopUpFloatCommand): Promise<FloatResult> {
    return this.writes.execute(command, this);
  }

  locksFor({ environment }: TopUpFloatCommand): readonly string[] {
    return [floatStreamId(environment)];
  }

  async decide({
    environment,
    amount,
    reference,
    onlyIfNew,
  }: TopUpFloatCommand): Promise<Decision<FloatResult>> {
    const streamId = floatStreamId(environment);
    const float = await this.cache.load(this.store, streamId, FLOAT_AGGREGATE);
    // The expected version (no stream) makes "only if new" hold across processes too.
    const events =
      onlyIfNew && float.version > 0
        ? []
        : decideFloat(
            { type: 'TopUpFloat', data: { environment, amount, reference } },
            float.state,
            this.clock.now(environment),
          );
    return oneStreamDecision({
      streamId,
      streamType: FLOAT_STREAM_TYPE,
      schemaVersions: FLOAT_EVENT_SCHEMA_VERSIONS,
      loaded: float,
      events,
      evolve: evolveFloat,
      result: (state, version) => result(environment, state, version),
    });
  }
}

/**
 * Sets a processing payout's amount aside in its environment's float. Refused with
 * float_insufficient when the float cannot cover it; the worker then queues the payout. A payout
 * that was queued (safe_reason awaiting_float) leaves the queue in the same atomic append as its
 * reservation, each stream with its expected version: the merchant's view is never stale.
 */
@CommandHandler(ReserveFloatCommand)
export class ReserveFloatHandler
  implements ICommandHandler<ReserveFloatCommand, FloatResult>, Decides<ReserveFloatCommand, FloatResult>
{
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly cache: AggregateCache,
    private readonly writes: WritePath,
  ) {}

  execute(command: ReserveFloatCommand): Promise<FloatResult> {
    return this.writes.execute(command, this);
  }

  async decide({ payoutId }: ReserveFloatCommand): Promise<Decision<FloatResult>> {
    const payout = await loadAggregate(this.store, payoutStreamId(payoutId), PAYOUT_AGGREGATE);
    if (payout.state.status === 'none') throw new DomainError('payout_not_found', 'no such payout');
    const { environment, amount } = payout.state;
    const now = this.clock.now(environment);
    // The payout first: only a confirmed payout on its way out needs the rail's money (one under
    // review already has it), so any other status is refused before the float is looked at.
    const payoutEvents = decidePayout({ type: 'LeaveFloatQueue', data: {} }, payout.state, now);
    const floatId = floatStreamId(environment);
    const float = await this.cache.load(this.store, floatId, FLOAT_AGGREGATE);
    const floatEvents = decideFloat(
      { type: 'ReserveFloat', data: { environment, payoutId, amount } },
      float.state,
      now,
    );
    const appends: StreamAppend[] = [];
    if (floatEvents.length > 0) {
      appends.push(
        appendTo(floatId, FLOAT_STREAM_TYPE, float.version, floatEvents, FLOAT_EVENT_SCHEMA_VERSIONS),
      );
    }
    // Also alone: a reservation written before this event existed left its payout queued.
    if (payoutEvents.length > 0) {
      appends.push(
        appendTo(
          payoutStreamId(payoutId),
          PAYOUT_STREAM_TYPE,
          payout.version,
          payoutEvents,
          PAYOUT_EVENT_SCHEMA_VERSIONS,
        ),
      );
    }
    const state = floatEvents.reduce(evolveFloat, float.state);
    const version = float.version + floatEvents.length;
    return {
      plan: { appends, rows: payoutJobRows(payoutEvents) },
      result: result(environment, state, version),
      cached: floatEvents.length === 0 ? [] : [{ streamId: floatId, state, version }],
    };
  }
}

@QueryHandler(GetFloatQuery)
export class GetFloatHandler implements IQueryHandler<GetFloatQuery, FloatResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly cache: AggregateCache,
  ) {}

  async execute({ environment }: GetFloatQuery): Promise<FloatResult> {
    const float = await this.cache.load(this.store, floatStreamId(environment), FLOAT_AGGREGATE);
    return result(environment, float.state, float.version);
  }
}
