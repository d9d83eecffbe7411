import type { StreamAppend } from '@payouts/event-store';
import type { LoadedAggregate } from '@payouts/write-side';

/** One stream's part of a command's append, with the state the stream is in once it commits. */
export interface CommittedPart {
  append: StreamAppend;
  after: unknown;
  /** The stream reached a final state (a closed payout or order, a claimed reference): nothing follows. */
  closed?: boolean;
}

/** Where a command's append goes once decided: the log writer (one call per append, as one commit). */
export type AppendSink = (appends: readonly StreamAppend[]) => void;

/**
 * The event store and aggregate cache of the write side, in memory: each stream's state and
 * version as the deciders left them. A command decides on these, as the handlers decide on what
 * they load, and commits its streams' appends together; the expected versions are checked as the
 * store checks them, so a builder bug shows as a conflict here rather than as an illegal log.
 * Closed streams are forgotten (no decider appends to them again), so memory follows what is open.
 */
export class MemoryStreams {
  private readonly streams = new Map<string, LoadedAggregate<unknown>>();

  constructor(private readonly sink: AppendSink) {}

  load<State>(streamId: string, initial: () => State): LoadedAggregate<State> {
    const loaded = this.streams.get(streamId) as LoadedAggregate<State> | undefined;
    return loaded ?? { state: initial(), version: 0 };
  }

  /** One command's append: every part at its expected version, all or nothing, then to the sink. */
  commit(parts: readonly CommittedPart[]): void {
    const written = parts.filter((part) => part.append.events.length > 0);
    if (written.length === 0) return;
    for (const { append } of written) {
      const version = this.streams.get(append.streamId)?.version ?? 0;
      const expected = append.expectedVersion === 'no_stream' ? 0 : append.expectedVersion;
      if (expected !== version) {
        throw new Error(`${append.streamId} is at ${version}, the append expected ${String(expected)}`);
      }
    }
    for (const { append, after, closed } of written) {
      const version = (this.streams.get(append.streamId)?.version ?? 0) + append.events.length;
      if (closed) this.streams.delete(append.streamId);
      else this.streams.set(append.streamId, { state: after, version });
    }
    this.sink(written.map((part) => part.append));
  }
}
