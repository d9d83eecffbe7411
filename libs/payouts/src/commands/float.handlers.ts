import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  decideFloat,
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
  payoutStreamId,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import type { Clock } from '@payouts/platform';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import { AggregateCache } from '../support/aggregate-cache';
import { expectedVersionOf, loadAggregate, toNewEvents } from '../support/aggregate-streams';
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
 * float_insufficient when the float cannot cover it; the worker then queues the payout.
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
    const payout = await loadAggregate(
      this.store,
      payoutStreamId(payoutId),
      evolvePayout,
      initialPayoutState(),
    );
    if (payout.state.status === 'none') throw new DomainError('payout_not_found', 'no such payout');
    // Only a confirmed payout on its way out needs the rail's money; a payout under review already has it.
    if (payout.state.status !== 'processing') {
      throw new DomainError(
        'invalid_transition',
        `Cannot set float aside for a payout that is ${payout.state.status}`,
      );
    }
    const { environment, amount } = payout.state;
    return this.locks.run(floatStreamId(environment), () =>
      runFloatCommand(
        this.store,
        this.cache,
        environment,
        () => this.clock.now(environment),
        () => ({ type: 'ReserveFloat', data: { environment, payoutId, amount } }),
      ),
    );
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
