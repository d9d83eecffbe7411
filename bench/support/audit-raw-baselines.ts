import type { SqlClient } from '@payouts/database';
// One row of `events` as node-pg parses it (data and metadata as objects), as the store reads it.
import type { EventRow } from '../../libs/event-store/src/postgres/event-row';

/** Every column of the log in feed order, one keyset page at a time, as the audit pages it. */
const PAGE_SQL = `SELECT * FROM events
  WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
  ORDER BY transaction_id, global_position
  LIMIT $3`;

/** Pages through the whole log; returns the rows read. `onPage` sees each page before the next read. */
async function readLog(
  db: SqlClient,
  pageSize: number,
  onPage?: (rows: EventRow[]) => Promise<void>,
): Promise<number> {
  let after = { transactionId: '0', position: '0' };
  let read = 0;
  for (;;) {
    const { rows } = await db.query<EventRow>(PAGE_SQL, [after.transactionId, after.position, pageSize]);
    read += rows.length;
    if (onPage && rows.length > 0) await onPage(rows);
    const last = rows[rows.length - 1];
    if (!last || rows.length < pageSize) return read;
    after = { transactionId: last.transaction_id, position: last.global_position };
  }
}

/** Baseline A: a plain read of the whole log, rows parsed in Node (what any audit pass pays at least). */
export async function selectWholeLog(db: SqlClient, pageSize: number): Promise<number> {
  return readLog(db, pageSize);
}

const SCRATCH = 'bench_audit_upsert';

const UPSERT_SQL = `INSERT INTO ${SCRATCH} AS s
    (global_position, transaction_id, event_id, stream_id, stream_type, stream_version, event_type,
     schema_version, data, metadata, recorded_at)
  SELECT * FROM unnest($1::bigint[], $2::xid8[], $3::uuid[], $4::text[], $5::text[], $6::integer[], $7::text[],
                       $8::integer[], $9::jsonb[], $10::jsonb[], $11::timestamptz[])
  ON CONFLICT (global_position) DO UPDATE SET
    transaction_id = excluded.transaction_id, event_id = excluded.event_id, stream_id = excluded.stream_id,
    stream_type = excluded.stream_type, stream_version = excluded.stream_version,
    event_type = excluded.event_type, schema_version = excluded.schema_version, data = excluded.data,
    metadata = excluded.metadata, recorded_at = excluded.recorded_at`;

/**
 * Baseline B: the same read, each page written back with one INSERT … ON CONFLICT DO UPDATE into
 * a scratch table keyed like the log (what a pass that reads the log and writes a row per event
 * pays at least: replay's floor). The table starts empty each round and is dropped afterwards.
 */
export async function upsertWholeLog(db: SqlClient, pageSize: number): Promise<number> {
  await db.exec(`DROP TABLE IF EXISTS ${SCRATCH};
    CREATE TABLE ${SCRATCH} (LIKE events INCLUDING DEFAULTS, PRIMARY KEY (global_position))`);
  try {
    return await readLog(db, pageSize, async (rows) => {
      await db.query(UPSERT_SQL, [
        rows.map((row) => row.global_position),
        rows.map((row) => row.transaction_id),
        rows.map((row) => row.event_id),
        rows.map((row) => row.stream_id),
        rows.map((row) => row.stream_type),
        rows.map((row) => row.stream_version),
        rows.map((row) => row.event_type),
        rows.map((row) => row.schema_version),
        rows.map((row) => JSON.stringify(row.data)),
        rows.map((row) => JSON.stringify(row.metadata)),
        rows.map((row) => row.recorded_at),
      ]);
    });
  } finally {
    await db.exec(`DROP TABLE IF EXISTS ${SCRATCH}`);
  }
}
