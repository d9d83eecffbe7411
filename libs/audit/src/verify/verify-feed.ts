import type { SqlQueryable } from '@payouts/database';
import { keysetPages } from '../feed/keyset-pages';
import type { AuditEvent, AuditEventRow } from '../feed/audit-feed';
import { FlatPage } from './chain-checker';

/**
 * verify's read of the log: audit-feed's columns and order, but data and metadata as the JSON
 * text jsonb gives, not parsed by the driver. The text crosses to the chain's thread as it is (a
 * string copies cheaply; a parsed object does not), and this thread parses only `data`, for the
 * folds. JSON.parse of that text is exactly what both drivers' jsonb parsing does.
 */
const VERIFY_PAGE_SQL = `SELECT e.global_position::text AS global_position,
    e.transaction_id::text AS transaction_id, e.event_id::text AS event_id, e.stream_id,
    e.stream_type, e.stream_version, e.event_type, e.schema_version, e.data::text AS data,
    e.metadata::text AS metadata,
    to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at
  FROM events e
  WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
    AND e.transaction_id < (SELECT pg_snapshot_xmin(pg_current_snapshot()))
  ORDER BY e.transaction_id, e.global_position
  LIMIT $3`;

/** An audit row with data and metadata as the JSON text the database gave. */
export type VerifyRow = Omit<AuditEventRow, 'data' | 'metadata'> & { data: string; metadata: string | null };

/** The columns the folds read (no metadata, event id or time: those are the chain's). */
export type FoldedEvent = Omit<AuditEvent, 'eventId' | 'metadata' | 'recordedAt'>;

export function verifyPages(db: SqlQueryable, batchSize: number): AsyncGenerator<VerifyRow[]> {
  return keysetPages(
    async (key) =>
      (await db.query<VerifyRow>(VERIFY_PAGE_SQL, [key.transactionId, key.position, batchSize])).rows,
    (row) => ({ transactionId: row.transaction_id, position: row.global_position }),
    { transactionId: '0', position: '0' },
    batchSize,
  );
}

export function foldedEvent(row: VerifyRow): FoldedEvent {
  return {
    position: row.global_position,
    transactionId: row.transaction_id,
    streamId: row.stream_id,
    streamType: row.stream_type,
    streamVersion: Number(row.stream_version),
    eventType: row.event_type,
    schemaVersion: Number(row.schema_version),
    data: JSON.parse(row.data) as unknown,
  };
}

/** A page as the chain's side takes it (chain-checker.ts: CHAINED_FIELDS per event). */
export function chainedPage(rows: readonly VerifyRow[]): FlatPage {
  const flat: FlatPage = [];
  for (const row of rows) {
    flat.push(
      row.global_position,
      row.transaction_id,
      row.event_id,
      row.stream_id,
      row.stream_type,
      Number(row.stream_version),
      row.event_type,
      Number(row.schema_version),
      row.data,
      // toAuditEvent's reading of a missing metadata (the column is NOT NULL with default '{}').
      row.metadata ?? '{}',
      row.recorded_at,
    );
  }
  return flat;
}
