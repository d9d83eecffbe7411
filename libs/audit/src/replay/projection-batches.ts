import { settledInOrder, SqlClient } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { projectReadModels, StreamSource } from '@payouts/read-models';
import type { PinnedEvent } from './pinned-feed';
import { inScratchSchema } from './scratch-schemas';

/**
 * Scratch connections a replay projects on at once, on a server (the embedded database has one).
 * No two streams share a read-model row (a payout's row, an order's, a ledger's balance, its
 * transactions and its settlements), so a batch split by stream can be projected by several
 * transactions side by side, as concurrent commands' appends are.
 */
export const REPLAY_CONNECTIONS = 2;

export interface BatchProjection {
  /** The scratch schema written. */
  schema: string;
  /** projectReadModels' option: true as a command's append projects, false as the projector does. */
  concurrentStreams: boolean;
  /** Transactions side by side, each with a share of the batch's streams. */
  connections: number;
}

/**
 * Batches projected into one scratch schema with the product's own projection code, split by
 * stream into one share per connection. Each share's batches run in feed order, one transaction
 * each; a share whose part of a batch is done goes on to its part of the next while the other
 * finishes (with several connections, up to two batches are unfinished), so neither waits for the
 * slower at every batch. That is safe for the reason the split is: a share's streams touch only
 * their own rows, and every event of a stream is in the same share.
 */
export class ProjectionPipeline {
  private readonly tails: Promise<void>[];
  private readonly unfinished: Promise<void>[] = [];
  /** Batches unfinished at most: one alone (each batch done before the next is read) on one connection. */
  private readonly depth: number;
  /**
   * Where the projections read the rest of a stream: the event store on the scratch connection,
   * each read inside the scratch transaction. A read is bounded by a version of the batch, so it
   * sees the pinned log's events of that stream and no others.
   */
  private readonly source: StreamSource;

  constructor(
    private readonly scratch: SqlClient,
    private readonly how: BatchProjection,
    source?: StreamSource,
  ) {
    this.source = source ?? new PostgresEventStore(scratch);
    this.tails = Array.from({ length: how.connections }, () => Promise.resolve());
    this.depth = how.connections > 1 ? 2 : 1;
  }

  /**
   * Queues a batch; returns once another may be queued. A failure of any earlier batch is thrown
   * here (and that share runs nothing more).
   */
  async push(events: readonly PinnedEvent[]): Promise<void> {
    const parts: Promise<void>[] = [];
    sharesOf(events, this.how.connections).forEach((share, i) => {
      if (share.length === 0) return;
      const part = this.tails[i]!.then(() =>
        inScratchSchema(this.scratch, this.how.schema, (tx) =>
          projectReadModels(tx, this.source, share, { concurrentStreams: this.how.concurrentStreams }),
        ),
      );
      // Observed when its batch is awaited; a part that fails before then is not "unhandled".
      part.catch(() => undefined);
      this.tails[i] = part;
      parts.push(part);
    });
    const batch = settledInOrder(parts).then(() => undefined);
    batch.catch(() => undefined);
    this.unfinished.push(batch);
    while (this.unfinished.length >= this.depth) await this.unfinished.shift();
  }

  /** Waits for every queued batch; throws the first failure. */
  async finish(): Promise<void> {
    await settledInOrder([...this.unfinished, ...this.tails]);
  }

  /** Waits for every queued batch (throwing the first failure); further batches may then be pushed. */
  async drain(): Promise<void> {
    await this.finish();
    this.unfinished.length = 0;
  }

  /** Waits for whatever is still running, failed or not (before the scratch schemas are dropped). */
  async settle(): Promise<void> {
    await Promise.allSettled(this.tails);
  }
}

/** The batch's events by share, each in feed order. */
function sharesOf(events: readonly PinnedEvent[], count: number): PinnedEvent[][] {
  const shares: PinnedEvent[][] = Array.from({ length: count }, () => []);
  for (const event of events) shares[shareOf(event.streamId, count)]!.push(event);
  return shares;
}

/** FNV-1a of the stream id: every event of a stream goes to the same share. */
function shareOf(streamId: string, shares: number): number {
  if (shares === 1) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < streamId.length; i += 1) hash = Math.imul(hash ^ streamId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shares;
}
