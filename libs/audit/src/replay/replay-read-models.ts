import type { SqlClient } from '@payouts/database';
import { EventStore, PostgresEventStore } from '@payouts/event-store';
import type { StreamSource } from '@payouts/read-models';
import { READ_MODEL_TABLES } from '@payouts/read-models';
import { FEED_ORIGIN, FeedKey } from '../feed/audit-feed';
import { compareTable, tableShape } from './compare-tables';
import { forEachPinnedPage } from './pinned-feed';
import { BatchProjection, ProjectionPipeline, REPLAY_CONNECTIONS } from './projection-batches';
import { ReportDifference } from './replay-differences';
import {
  analyzeScratch,
  buildDeferredIndexes,
  createAndPin,
  dropScratchSchemas,
  refreshStatistics,
  ScratchSchemas,
  scratchSchemaNames,
  statisticsDue,
} from './scratch-schemas';

/**
 * Events per batch: one read, then one projection (a transaction per scratch connection). Larger
 * batches write fewer rows twice (a row covered by a settlement in its own batch is inserted
 * covered, not updated later). At 1M events (docs/audit.md), 10,000 replayed in about the time of
 * 20,000 (61 s against 55-60 s) with a peak RSS of 190 MiB against 245-260 MiB; 5,000 took longer.
 */
export const REPLAY_BATCH_SIZE = 10_000;
/** The largest batch allowed (Tiger style: a bound on what one batch holds in memory). */
export const MAX_REPLAY_BATCH_SIZE = 50_000;
/** Differing keys per page read from a table's comparison. */
export const COMPARE_PAGE_SIZE = 1_000;

export type ReplayPhase = 'copy' | 'live-copy' | 'replay' | 'compare';

export interface ReplayOptions {
  onDifference: ReportDifference;
  /** Told after each batch or page: the phase, a count so far, where it is (a position, or a table). */
  onProgress?: (phase: ReplayPhase, count: number, at: string) => void;
  batchSize?: number;
  /**
   * Where the scratch schemas are written: a writable session on the same database. On a server
   * the audit's own sessions are read-only, so the tool opens a second one; default `db` itself.
   */
  scratch?: SqlClient;
  /** Scratch transactions side by side on a server (its pool must allow as many); default 2. */
  connections?: number;
  /** Rows per transaction of the live tables' copy on a server (live-copy.ts); tests make it small. */
  copyChunkRows?: number;
  /** Keep both scratch schemas for inspection instead of dropping them at the end. */
  keep?: boolean;
  /** Stops between batches; the scratch schemas are then dropped. */
  signal?: AbortSignal;
  /** Where the log is read (pinned, then replayed): by default the event store over `db`. */
  store?: Pick<EventStore, 'feedSnapshot' | 'loadCheckpoint' | 'readFeed' | 'readStreams'>;
  /**
   * Where the replayed projections read the rest of a stream: by default the event store over the
   * scratch connection, each read inside its scratch transaction. A store whose events live
   * elsewhere (EventStoreDB) is given here.
   */
  streamSource?: StreamSource;
}

export interface ReplayReport {
  /** Events replayed from position zero: the whole pinned log. */
  events: number;
  /** Wall time of the pin (with the scratch schemas' creation), and of the live tables' copy and its catch-up. */
  pinMs: number;
  copyMs: number;
  /** Wall time of the replay alone (beside the copy on a server, after it embedded), of the comparison, and of the whole run. */
  replayMs: number;
  compareMs: number;
  elapsedMs: number;
  /** The last event of the pinned log (the feed position compared at); null for an empty log. */
  end: FeedKey | null;
  /** The live projector's checkpoint at the pinned moment, and the events after it applied to the copy. */
  liveCheckpoint: FeedKey;
  liveCopyEvents: number;
  tables: number;
  rowsCompared: number;
  differences: number;
  schemas: ScratchSchemas;
  kept: boolean;
}

/**
 * Rebuilds every read model from position zero into a fresh schema with the product's own
 * projection code, and compares it row by row with the live read models at the same moment of
 * the log (docs/audit.md, "What replay proves"):
 * 1. One snapshot pins the end: the live rows are copied into a second scratch schema there, with
 *    the live projector's checkpoint; the log replayed is exactly what that snapshot saw.
 * 2. The copy is brought to that end as the live projector itself would (the events after its
 *    checkpoint, projected over rows that already hold what commands projected inline).
 * 3. The replay projects the whole pinned log, batch by batch, into its own schema; on a server,
 *    while 1 and 2 copy and catch up (after the pin), on connections of their own.
 * 4. Each table is merged in key order with the copy; every difference is reported.
 * Live tables are never written; the scratch schemas are dropped unless `keep`.
 */
export async function replayReadModels(db: SqlClient, options: ReplayOptions): Promise<ReplayReport> {
  const started = Date.now();
  const scratch = options.scratch ?? db;
  const store = options.store ?? new PostgresEventStore(db);
  const batchSize = options.batchSize ?? REPLAY_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_REPLAY_BATCH_SIZE) {
    throw new RangeError(`batch size must be 1 to ${MAX_REPLAY_BATCH_SIZE}, not ${batchSize}`);
  }
  // Columns are read from the live tables first, so a database without them fails before any write.
  const shapes = await Promise.all(READ_MODEL_TABLES.map((table) => tableShape(db, table)));
  const schemas = scratchSchemaNames();
  let finished = false;
  try {
    const { end, copied } = await createAndPin(db, store, scratch, schemas, shapes, {
      chunkRows: options.copyChunkRows,
      onCopied: (table, rows) => options.onProgress?.('copy', rows, table),
    });
    const pinMs = Date.now() - started;
    // A failure of the live copy or of the rebuild stops the other at its next batch.
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    const pass = async (from: FeedKey, phase: ReplayPhase, withEarlier: boolean, how: BatchProjection) => {
      let count = 0;
      let batches = 0;
      const reading = { pageSize: batchSize, readAhead: db.kind === 'postgres', withEarlier };
      const pipeline = new ProjectionPipeline(scratch, how, options.streamSource);
      try {
        await forEachPinnedPage(store, end.snapshot, from, reading, async ({ events, earlier }) => {
          signal.throwIfAborted();
          await pipeline.push(earlier.length > 0 ? [...earlier, ...events] : events);
          count += events.length;
          batches += 1;
          if (phase === 'replay' && statisticsDue(batches)) {
            // Statistics of every row written so far: the batches in flight finish first.
            await pipeline.drain();
            await refreshStatistics(scratch, how.schema);
          }
          options.onProgress?.(phase, count, events[events.length - 1]!.globalPosition);
        });
        await pipeline.finish();
      } finally {
        // Nothing may still be writing a scratch schema when the run ends or drops them.
        await pipeline.settle();
      }
      return count;
    };

    // The live copy, then its catch-up, beside the rebuild on a server (one scratch connection
    // more; docs/audit.md): they write different schemas, and the rebuild reads only the log. The
    // first failure of the two is what the run reports.
    const copyStarted = Date.now();
    const liveCopy = (async () => {
      await copied;
      // The copy catches up as the live projector does: stream by stream, in its own batches.
      const count = await pass(end.liveCheckpoint, 'live-copy', false, {
        schema: schemas.live,
        concurrentStreams: false,
        connections: 1,
      });
      return { count, ms: Date.now() - copyStarted };
    })();
    liveCopy.catch(() => stop.abort());
    // Embedded, the one connection takes one transaction at a time: the copy first, as it was.
    if (scratch.kind !== 'postgres') await liveCopy;
    const replayStarted = Date.now();
    // From zero, as commands' appends project: every stream of a batch at once, on several
    // connections, with the earlier events of its payouts and orders so that each is folded from
    // its start without reading back (new payouts, and ledgers at the version before the batch, are one
    // statement per batch). Measured about twice as fast as the projector's way (docs/audit.md).
    const connections = scratch.kind === 'postgres' ? (options.connections ?? REPLAY_CONNECTIONS) : 1;
    const replayed = pass(FEED_ORIGIN, 'replay', true, {
      schema: schemas.replay,
      concurrentStreams: true,
      connections,
    });
    replayed.catch(() => stop.abort());
    const [events, copiedLive] = await bothOrFirstFailure(replayed, liveCopy);
    const replayMs = Date.now() - replayStarted;

    const compareStarted = Date.now();
    const compared = await compareAll(scratch, shapes, schemas, options);
    // Kept schemas get the API's indexes and statistics too, to be queried as the live tables are.
    if (options.keep === true) {
      await buildDeferredIndexes(scratch, end.deferredIndexes);
      await analyzeScratch(scratch, schemas);
    }
    finished = true;
    return {
      events,
      pinMs,
      replayMs,
      compareMs: Date.now() - compareStarted,
      elapsedMs: Date.now() - started,
      end: end.last,
      liveCheckpoint: end.liveCheckpoint,
      liveCopyEvents: copiedLive.count,
      copyMs: copiedLive.ms,
      tables: shapes.length,
      ...compared,
      schemas,
      kept: options.keep === true,
    };
  } finally {
    // A failed or interrupted run leaves nothing behind, --keep or not: its schemas are partial.
    if (!finished || options.keep !== true) await dropOrExplain(scratch, schemas, finished);
  }
}

async function compareAll(
  scratch: SqlClient,
  shapes: Awaited<ReturnType<typeof tableShape>>[],
  schemas: ScratchSchemas,
  options: ReplayOptions,
): Promise<{ rowsCompared: number; differences: number }> {
  let rowsCompared = 0;
  let differences = 0;
  for (const shape of shapes) {
    options.signal?.throwIfAborted();
    const table = await compareTable(scratch, shape, schemas, {
      pageSize: COMPARE_PAGE_SIZE,
      report: options.onDifference,
    });
    options.onProgress?.('compare', table.rows, shape.table);
    rowsCompared += table.rows;
    differences += table.differences;
  }
  return { rowsCompared, differences };
}

/**
 * Waits for both; the first failure in time is the one thrown (the other is then usually the stop
 * it caused), after both have settled, so nothing still writes when the schemas are dropped.
 */
async function bothOrFirstFailure<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  let first: { error: unknown } | undefined;
  const note = (error: unknown) => {
    first ??= { error };
    throw error;
  };
  const [ra, rb] = await Promise.allSettled([a.catch(note), b.catch(note)]);
  if (first !== undefined) throw first.error;
  return [(ra as PromiseFulfilledResult<A>).value, (rb as PromiseFulfilledResult<B>).value];
}

/** A drop that fails (the connection lost) names the schemas, so someone can drop them by hand. */
async function dropOrExplain(scratch: SqlClient, schemas: ScratchSchemas, finished: boolean): Promise<void> {
  try {
    await dropScratchSchemas(scratch, schemas);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = `could not drop the scratch schemas ${schemas.replay} and ${schemas.live} (drop them by hand with DROP SCHEMA ... CASCADE): ${reason}`;
    // After a failure, that failure is the news; the drop's is only logged with it.
    if (finished) throw new Error(message, { cause: error });
    process.emitWarning(message);
  }
}
