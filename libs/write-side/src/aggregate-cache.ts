import { Injectable } from '@nestjs/common';
import type { EventStore } from '@payouts/event-store';
import { Aggregate, foldStored } from '@payouts/domain';
import { LoadedAggregate } from './aggregate-streams';

/** Bounded like every cache here: past this many streams the least recently used goes. */
const MAX_CACHED_STREAMS = 10_000;

/**
 * Folded states of long-lived streams (an account's ledger grows with every payout), so a command
 * reads only the events appended since the cached version instead of the whole stream. Events are
 * immutable, so a cached state is never wrong, only possibly behind; other processes' appends are
 * picked up by the read from the cached version on. States must be treated as immutable.
 */
@Injectable()
export class AggregateCache {
  private readonly entries = new Map<string, LoadedAggregate<unknown>>();

  /**
   * `trustCached`: answer a cached state without asking the store. Only for a command whose append
   * checks the expected version and whose refusals are decided again on fresh state
   * (`firstAttemptOptimistic`), so a state that fell behind costs a retry, never a wrong decision.
   */
  async load<Event extends { type: string }, State>(
    store: EventStore,
    streamId: string,
    aggregate: Aggregate<Event, State>,
    options: { trustCached?: boolean } = {},
  ): Promise<LoadedAggregate<State>> {
    const cached = this.entries.get(streamId) as LoadedAggregate<State> | undefined;
    if (cached && options.trustCached) return cached;
    const { version, events } = await store.readStream(streamId, { fromVersion: (cached?.version ?? 0) + 1 });
    if (cached && version < cached.version) {
      // Cannot happen with an append-only store; start over rather than trust the cache.
      this.entries.delete(streamId);
      return this.load(store, streamId, aggregate);
    }
    const state = foldStored(aggregate, events, cached?.state ?? aggregate.initial());
    const loaded = { state, version };
    this.remember(streamId, loaded);
    return loaded;
  }

  /** After a successful append: the state the command produced, at the version the store gave. */
  remember<State>(streamId: string, loaded: LoadedAggregate<State>): void {
    const current = this.entries.get(streamId);
    if (current && current.version > loaded.version) return;
    this.entries.delete(streamId);
    this.entries.set(streamId, loaded);
    if (this.entries.size > MAX_CACHED_STREAMS) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
