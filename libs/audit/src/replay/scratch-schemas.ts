import { randomBytes } from 'node:crypto';
import type { SqlClient, SqlQueryable } from '@payouts/database';
import type { EventStore } from '@payouts/event-store';
import {
  PROJECTION_LOOKUP_INDEXES,
  READ_MODEL_SUBSCRIPTION_ID,
  READ_MODEL_TABLES,
} from '@payouts/read-models';
import { compareFeedKeys, FeedKey } from '../feed/audit-feed';
import type { TableShape } from './compare-tables';
import { copyLiveTable } from './live-copy';
import type { PinnedSnapshot } from './pinned-feed';

/**
 * The two scratch schemas of one replay: `replay` is rebuilt from position zero; `live` starts as
 * a copy of the live read models and is brought to the same end by the projector's own catch-up.
 * Each holds the read-model tables (shaped like the live ones: `LIKE … INCLUDING ALL`, so they
 * cannot drift).
 */
export interface ScratchSchemas {
  replay: string;
  live: string;
}

/** Where the live read models are: the service's migrations create them in public. */
export const LIVE_SCHEMA = 'public';

/** `audit_replay_<UTC yyyymmddhhmmss>_<4 hex>`, and the same with `_live` for the live copy. */
export function scratchSchemaNames(now: Date = new Date()): ScratchSchemas {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const replay = `audit_replay_${stamp}_${randomBytes(2).toString('hex')}`;
  return { replay, live: `${replay}_live` };
}

const quoted = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a scratch schema name: ${name}`);
  return `"${name}"`;
};

/** The moment a replay compares at, as the copy's transaction saw it. */
export interface PinnedEnd {
  /** The log as that transaction saw it (the event store's feedSnapshot, taken in it). */
  snapshot: PinnedSnapshot;
  /** The live projector's checkpoint then: live rows reflect at least every event up to it. */
  liveCheckpoint: FeedKey;
  /** The last event of the pinned log in feed order; null for an empty log. */
  last: FeedKey | null;
  /**
   * Indexes of the live tables left out of the scratch schemas, as statements: those only the
   * API's reads use, and the live copy's own when nothing is projected into it (the comparison
   * joins without them). Built at the end only if the schemas are kept.
   */
  deferredIndexes: string[];
}

/** The pinned end, and the copy of the live rows as of it: under way on a server, done embedded. */
export interface Pinning {
  end: PinnedEnd;
  /** Settles once every live table is copied (on a server, when the pin's transaction has ended too). */
  copied: Promise<void>;
}

/** What pinning reads of the log, inside the pin's transaction: the event store port. */
export type PinSource = Pick<EventStore, 'feedSnapshot' | 'loadCheckpoint'>;

/**
 * Pins the end of the log and copies the live rows as of that moment into `schemas.live`.
 *
 * On a server, without holding back the event feed: a read-only REPEATABLE READ transaction on the
 * live session (which takes no transaction id, so the feed never waits for it) pins the snapshot
 * and exports it; the schemas are created in one short transaction; then the end is answered and
 * each live table is copied, while the caller replays, in chunks of short transactions that
 * import that snapshot (live-copy.ts). The pin's transaction ends with the copy. Embedded, the one
 * connection does it all in one REPEATABLE READ transaction (nothing else reads its feed then)
 * before answering.
 *
 * Live tables are only read, named with their schema; the scratch search path holds the scratch
 * schema alone, so no unqualified name can reach a live table.
 */
export async function createAndPin(
  live: SqlClient,
  store: PinSource,
  scratch: SqlClient,
  schemas: ScratchSchemas,
  shapes: readonly TableShape[],
  copy: { chunkRows?: number; onCopied?: (table: string, rows: number) => void } = {},
): Promise<Pinning> {
  // Embedded: one connection. A server session pool has several: the pin holds one meanwhile.
  if (scratch.kind !== 'postgres')
    return { end: await createAndPinInOne(scratch, store, schemas), copied: Promise.resolve() };
  let answer: { resolve: (end: PinnedEnd) => void; reject: (error: unknown) => void } | undefined;
  const pinned = new Promise<PinnedEnd>((resolve, reject) => (answer = { resolve, reject }));
  const copied = live.transaction(async (pin) => {
    await pin.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    // Every statement of this transaction sees its one snapshot: the log's, the checkpoint's and
    // the one exported for the copy of the live tables are the same moment.
    const { rows } = await pin.query<{ exported: string }>('SELECT pg_export_snapshot() AS exported');
    const { exported } = rows[0]!;
    const end = await pinnedEnd(store, pin);
    const replayIndexes = await indexStatements(pin, schemas.replay);
    const liveIndexes = await indexStatements(pin, schemas.live);
    await scratch.transaction(async (tx) => {
      await createScratchSchemas(tx, schemas);
      for (const { statement } of replayIndexes.writing) await tx.query(statement);
    });
    const projected = catchesUp(end);
    answer!.resolve({ ...end, deferredIndexes: deferred(replayIndexes, liveIndexes, projected) });
    for (const shape of shapes) {
      const table = shape.table;
      await copyLiveTable(scratch, shape, schemas.live, exported, {
        chunkRows: copy.chunkRows,
        onChunk: (copied) => copy.onCopied?.(table, copied),
      });
      // One index a transaction: each build is one sort of the copied rows, a second or so.
      for (const index of projected ? liveIndexes.writing.filter((index) => index.table === table) : []) {
        await scratch.transaction((tx) => tx.query(index.statement));
      }
    }
  });
  // A failure before the end is answered fails the pin; one after, the copy (rejecting an answered promise does nothing).
  copied.catch((error: unknown) => answer!.reject(error));
  return { end: await pinned, copied };
}

/** Embedded: one transaction creates, copies and pins; it commits together or not at all. */
function createAndPinInOne(
  scratch: SqlClient,
  store: PinSource,
  schemas: ScratchSchemas,
): Promise<PinnedEnd> {
  return scratch.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    // First, so that the transaction's snapshot, which the copy below reads too, is the log's.
    const end = await pinnedEnd(store, tx);
    await createScratchSchemas(tx, schemas);
    const replayIndexes = await indexStatements(tx, schemas.replay);
    const liveIndexes = await indexStatements(tx, schemas.live);
    for (const { statement } of replayIndexes.writing) await tx.query(statement);
    for (const table of READ_MODEL_TABLES) {
      await tx.query(`INSERT INTO ${quoted(schemas.live)}.${table} SELECT * FROM ${LIVE_SCHEMA}.${table}`);
    }
    const projected = catchesUp(end);
    for (const { statement } of projected ? liveIndexes.writing : []) await tx.query(statement);
    return { ...end, deferredIndexes: deferred(replayIndexes, liveIndexes, projected) };
  });
}

/** Whether the live copy will have events projected into it: the log goes on past the projector's checkpoint. */
function catchesUp(end: { liveCheckpoint: FeedKey; last: FeedKey | null }): boolean {
  return end.last !== null && compareFeedKeys(end.last, end.liveCheckpoint) > 0;
}

function deferred(replay: IndexStatements, live: IndexStatements, liveProjected: boolean): string[] {
  const liveWriting = liveProjected ? [] : live.writing.map((index) => index.statement);
  return [...replay.reading, ...liveWriting, ...live.reading];
}

/** Both schemas, each with the read-model tables. */
async function createScratchSchemas(tx: SqlQueryable, schemas: ScratchSchemas): Promise<void> {
  await tx.query(`SET LOCAL search_path TO ${quoted(schemas.replay)}`);
  for (const schema of [schemas.replay, schemas.live]) {
    await tx.query(`CREATE SCHEMA ${quoted(schema)}`);
    // Unlogged: scratch rows need no crash safety, and writing no WAL for them is most of the
    // server's work saved (a crash loses the run, which is then simply run again). Keys and
    // indexes come after (indexStatements): the replay's before its rows, the copy's after.
    for (const table of READ_MODEL_TABLES) {
      await tx.query(
        `CREATE UNLOGGED TABLE ${quoted(schema)}.${table} (LIKE ${LIVE_SCHEMA}.${table} INCLUDING ALL EXCLUDING INDEXES)`,
      );
    }
  }
}

/** The live tables' keys and indexes as statements for a scratch schema's tables (createAndPin). */
interface IndexStatements {
  /** Keys, unique indexes and PROJECTION_LOOKUP_INDEXES (what the projections' statements need), by table. */
  writing: { table: string; statement: string }[];
  /** The indexes only the API's lists read: a replay builds them only for a schema it keeps. */
  reading: string[];
}

/**
 * The live read-model tables' keys and indexes, rewritten for `schema`. A scratch table is written
 * with only those its projections need: every other index of a row is one more write per row
 * version (balance_transactions has eight, and a settlement's start rewrites every row it covers),
 * and the comparison reads by the key alone. Built over rows already there, an index is one sort:
 * a fraction of maintaining it row by row (the live copy's, docs/audit.md).
 */
async function indexStatements(db: SqlQueryable, schema: string): Promise<IndexStatements> {
  const { rows } = await db.query<{ table: string; statement: string; writing: boolean }>(
    `SELECT t.relname AS table, CASE WHEN c.oid IS NOT NULL
                 THEN format('ALTER TABLE %I.%I ADD CONSTRAINT %I %s', $1::text, t.relname, c.conname,
                             pg_get_constraintdef(c.oid))
                 ELSE replace(pg_get_indexdef(i.indexrelid), format(' ON %I.%I ', '${LIVE_SCHEMA}', t.relname),
                              format(' ON %I.%I ', $1::text, t.relname)) END AS statement,
            (c.oid IS NOT NULL OR i.indisunique OR x.relname = ANY($3::text[])) AS writing
       FROM pg_index i
       JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_class x ON x.oid = i.indexrelid
       LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid
      WHERE t.relnamespace = '${LIVE_SCHEMA}'::regnamespace AND t.relname = ANY($2::text[])
      ORDER BY array_position($2::text[], t.relname::text), i.indexrelid`,
    [schema, [...READ_MODEL_TABLES], [...PROJECTION_LOOKUP_INDEXES]],
  );
  return {
    writing: rows.filter((row) => row.writing),
    reading: rows.filter((row) => !row.writing).map((row) => row.statement),
  };
}

/** The indexes left out of both scratch schemas, for a replay that keeps them: the same shape as live. */
export async function buildDeferredIndexes(scratch: SqlClient, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await scratch.transaction((tx) => tx.query(statement));
}

/** The log, its last event and the live projector's checkpoint, as the pin's transaction `tx` sees them. */
async function pinnedEnd(store: PinSource, tx: SqlQueryable): Promise<Omit<PinnedEnd, 'deferredIndexes'>> {
  const snapshot = await store.feedSnapshot({ within: tx });
  const liveCheckpoint = await store.loadCheckpoint(READ_MODEL_SUBSCRIPTION_ID, { within: tx });
  return { snapshot, liveCheckpoint, last: snapshot.head };
}

/**
 * A transaction whose search path is the scratch schema alone: the product's projection code,
 * unchanged, then writes that schema's tables, and a statement naming any other table fails
 * instead of reaching a live one (the event store's reads inside it name their own tables).
 */
export function inScratchSchema<T>(
  scratch: SqlClient,
  schema: string,
  work: (tx: SqlQueryable) => Promise<T>,
): Promise<T> {
  return scratch.transaction(async (tx) => {
    await tx.query(`SET LOCAL search_path TO ${quoted(schema)}`);
    return work(tx);
  });
}

/** The planner has no statistics for tables just filled: a kept schema gets them, for whoever queries it. */
export async function analyzeScratch(scratch: SqlClient, schemas: ScratchSchemas): Promise<void> {
  const tables = [schemas.replay, schemas.live].flatMap((schema) =>
    READ_MODEL_TABLES.map((table) => `${quoted(schema)}.${table}`),
  );
  await scratch.query(`ANALYZE ${tables.join(', ')}`);
}

/** Replay schemas already there: left by a run stopped hard (killed, connection lost), or another replay's. */
export async function replaySchemasPresent(db: SqlQueryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'audit\\_replay\\_%' ORDER BY nspname`,
  );
  return rows.map((row) => row.name);
}

export async function dropScratchSchemas(scratch: SqlClient, schemas: ScratchSchemas): Promise<void> {
  await scratch.query(`DROP SCHEMA IF EXISTS ${quoted(schemas.replay)}, ${quoted(schemas.live)} CASCADE`);
}

/**
 * The statistics target while the replay writes (the server's default is 100): ANALYZE samples
 * 300 rows per unit, 3,000 a table. The plans need the tables' sizes and the share of rows not yet
 * covered or still pending, which that sample gives in a fraction of the time.
 */
const REPLAY_STATISTICS_TARGET = 10;

/**
 * Statistics for the replay schema while it is written. A scratch table starts empty and has none,
 * so the planner takes each for a few hundred rows and joins a batch's ledgers against a scan of
 * the whole table: without them, the cover of earlier rows when settlements start took about 1.6
 * times as long at 1M events (29.0 s against 18.5 s of server time, docs/performance.md).
 * Refreshed as the tables grow (statisticsDue).
 */
export async function refreshStatistics(scratch: SqlClient, schema: string): Promise<void> {
  await scratch.transaction(async (tx) => {
    await tx.query(`SET LOCAL default_statistics_target = ${REPLAY_STATISTICS_TARGET}`);
    await tx.query(`ANALYZE ${READ_MODEL_TABLES.map((table) => `${quoted(schema)}.${table}`).join(', ')}`);
  });
}

/** After the 2nd batch and each time the count doubles: the tables grow with the batches, so each refresh finds them about twice the size. */
export function statisticsDue(batches: number): boolean {
  return batches >= 2 && (batches & (batches - 1)) === 0;
}
