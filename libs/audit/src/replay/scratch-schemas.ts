import { randomBytes } from 'node:crypto';
import type { SqlClient, SqlQueryable } from '@payouts/database';
import { READ_MODEL_SUBSCRIPTION_ID, READ_MODEL_TABLES } from '@payouts/read-models';
import { FEED_ORIGIN, FeedKey } from '../feed/audit-feed';
import type { TableShape } from './compare-tables';
import { copyLiveTable } from './live-copy';
import { PINNED_EVENTS_FILTER, PinnedSnapshot, snapshotLiteral } from './pinned-feed';

/**
 * The two scratch schemas of one replay: `replay` is rebuilt from position zero; `live` starts as
 * a copy of the live read models and is brought to the same end by the projector's own catch-up.
 * Each holds the read-model tables (shaped like the live ones: `LIKE … INCLUDING ALL`, so they
 * cannot drift) and a view `events` over the log pinned at the copy's snapshot.
 */
export interface ScratchSchemas {
  replay: string;
  live: string;
}

/** Where the live read models and the log are: the service's migrations create them in public. */
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
  snapshot: PinnedSnapshot;
  /** The live projector's checkpoint then: live rows reflect at least every event up to it. */
  liveCheckpoint: FeedKey;
  /** The last event of the pinned log in feed order; null for an empty log. */
  last: FeedKey | null;
}

/**
 * Pins the end of the log and copies the live rows as of that moment into `schemas.live`.
 *
 * On a server, without holding back the event feed: a read-only REPEATABLE READ transaction on the
 * live session (which takes no transaction id, so the feed never waits for it) pins the snapshot
 * and exports it; the schemas are created in one short transaction; each live table is copied in
 * chunks of short transactions that import that snapshot (live-copy.ts). Embedded, the one
 * connection does it all in one REPEATABLE READ transaction (nothing else reads its feed then).
 *
 * Live tables are only read, named with their schema; the scratch search path holds the scratch
 * schema alone, so no unqualified name can reach a live table.
 */
export async function createAndPin(
  live: SqlClient,
  scratch: SqlClient,
  schemas: ScratchSchemas,
  shapes: readonly TableShape[],
  copy: { chunkRows?: number; onCopied?: (table: string, rows: number) => void } = {},
): Promise<PinnedEnd> {
  // Embedded: one connection. A server session pool has several: the pin holds one meanwhile.
  if (scratch.kind !== 'postgres') return createAndPinInOne(scratch, schemas);
  return live.transaction(async (pin) => {
    await pin.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const { rows } = await pin.query<{ snapshot: string; exported: string }>(
      'SELECT pg_current_snapshot()::text AS snapshot, pg_export_snapshot() AS exported',
    );
    const { snapshot, exported } = rows[0]!;
    const end = { snapshot, liveCheckpoint: await liveCheckpoint(pin), last: await lastEvent(pin) };
    await scratch.transaction((tx) => createScratchSchemas(tx, schemas, snapshot));
    for (const shape of shapes) {
      const table = shape.table;
      await copyLiveTable(scratch, shape, schemas.live, exported, {
        chunkRows: copy.chunkRows,
        onChunk: (copied) => copy.onCopied?.(table, copied),
      });
      // One index a transaction: each build is one sort of the copied rows, a second or so.
      for (const statement of await indexStatements(pin, table, schemas.live)) {
        await scratch.transaction((tx) => tx.query(statement));
      }
    }
    return end;
  });
}

/** Embedded: one transaction creates, copies and pins; it commits together or not at all. */
function createAndPinInOne(scratch: SqlClient, schemas: ScratchSchemas): Promise<PinnedEnd> {
  return scratch.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const pinned = await tx.query<{ snapshot: string }>('SELECT pg_current_snapshot()::text AS snapshot');
    const snapshot = pinned.rows[0]!.snapshot;
    await createScratchSchemas(tx, schemas, snapshot);
    for (const table of READ_MODEL_TABLES) {
      await tx.query(`INSERT INTO ${quoted(schemas.live)}.${table} SELECT * FROM ${LIVE_SCHEMA}.${table}`);
      for (const statement of await indexStatements(tx, table, schemas.live)) await tx.query(statement);
    }
    return { snapshot, liveCheckpoint: await liveCheckpoint(tx), last: await lastEvent(tx) };
  });
}

/** Both schemas, each with the read-model tables and the pinned `events` view. */
async function createScratchSchemas(
  tx: SqlQueryable,
  schemas: ScratchSchemas,
  snapshot: string,
): Promise<void> {
  await tx.query(`SET LOCAL search_path TO ${quoted(schemas.replay)}`);
  for (const schema of [schemas.replay, schemas.live]) {
    await tx.query(`CREATE SCHEMA ${quoted(schema)}`);
    // Unlogged: scratch rows need no crash safety, and writing no WAL for them is most of the
    // server's work saved (a crash loses the run, which is then simply run again). The live
    // copy gets its keys and indexes after its rows (indexStatements).
    const indexes = schema === schemas.live ? ' EXCLUDING INDEXES' : '';
    for (const table of READ_MODEL_TABLES) {
      await tx.query(
        `CREATE UNLOGGED TABLE ${quoted(schema)}.${table} (LIKE ${LIVE_SCHEMA}.${table} INCLUDING ALL${indexes})`,
      );
    }
    // What the projections read when a batch is not enough: the log, never past the pinned end.
    await tx.query(
      `CREATE VIEW ${quoted(schema)}.events AS SELECT * FROM ${LIVE_SCHEMA}.events
        WHERE ${PINNED_EVENTS_FILTER(snapshotLiteral(snapshot))}`,
    );
  }
}

/**
 * The live table's keys and indexes, as statements for its copy in `schema`, built once over the
 * copied rows: sorting each index in one pass costs a fraction of maintaining eight indexes row by
 * row while copying (balance_transactions: about 13 s of a loaded server's time at 1M events,
 * docs/audit.md).
 */
async function indexStatements(db: SqlQueryable, table: string, schema: string): Promise<string[]> {
  const { rows } = await db.query<{ statement: string }>(
    `SELECT CASE WHEN c.oid IS NOT NULL
                 THEN format('ALTER TABLE %I.%I ADD CONSTRAINT %I %s', $2::text, $1::text, c.conname,
                             pg_get_constraintdef(c.oid))
                 ELSE replace(pg_get_indexdef(i.indexrelid), format(' ON %I.%I ', '${LIVE_SCHEMA}', $1::text),
                              format(' ON %I.%I ', $2::text, $1::text)) END AS statement
       FROM pg_index i
       LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid
      WHERE i.indrelid = format('%I.%I', '${LIVE_SCHEMA}', $1::text)::regclass
      ORDER BY i.indexrelid`,
    [table, schema],
  );
  return rows.map((row) => row.statement);
}

async function liveCheckpoint(tx: SqlQueryable): Promise<FeedKey> {
  const { rows } = await tx.query<FeedKey>(
    `SELECT last_transaction_id::text AS "transactionId", last_position::text AS position
       FROM ${LIVE_SCHEMA}.subscription_checkpoints WHERE subscription_id = $1`,
    [READ_MODEL_SUBSCRIPTION_ID],
  );
  return rows[0] ?? FEED_ORIGIN;
}

async function lastEvent(tx: SqlQueryable): Promise<FeedKey | null> {
  const { rows } = await tx.query<FeedKey>(
    `SELECT e.transaction_id::text AS "transactionId", e.global_position::text AS position
       FROM ${LIVE_SCHEMA}.events e ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`,
  );
  return rows[0] ?? null;
}

/**
 * A transaction whose search path is the scratch schema alone: the product's projection code,
 * unchanged, then writes that schema's tables and reads its pinned `events` view, and a statement
 * naming any other table fails instead of reaching a live one.
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

/** The planner has no statistics for tables just filled; the comparison's ordered reads need them. */
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
