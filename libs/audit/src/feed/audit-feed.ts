import type { SqlQueryable } from '@payouts/database';
import type { ChainedEvent } from '../chain/chain-link';

/** A place in the feed: (transaction id, global position), both decimal strings. */
export interface FeedKey {
  transactionId: string;
  position: string;
}

export const FEED_ORIGIN: FeedKey = Object.freeze({ transactionId: '0', position: '0' });

/** One event row as the audit reads it: recorded_at to the microsecond, positions as text. */
export interface AuditEvent extends ChainedEvent, FeedKey {}

/** Rows per read: what a batch costs in memory, whatever the log's length. */
export const AUDIT_BATCH_SIZE = 1_000;

/**
 * The columns of an audit read. recorded_at is formatted by the database rather than parsed into
 * a JavaScript Date, which would drop the microseconds (an edit there must still show).
 */
export const AUDIT_EVENT_COLUMNS = `e.global_position::text AS global_position,
  e.transaction_id::text AS transaction_id, e.event_id::text AS event_id, e.stream_id,
  e.stream_type, e.stream_version, e.event_type, e.schema_version, e.data, e.metadata,
  to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at`;

export interface AuditEventRow {
  global_position: string;
  transaction_id: string;
  event_id: string;
  stream_id: string;
  stream_type: string;
  stream_version: number;
  event_type: string;
  schema_version: number;
  data: unknown;
  metadata: unknown;
  recorded_at: string;
}

export function toAuditEvent(row: AuditEventRow): AuditEvent {
  return {
    position: row.global_position,
    transactionId: row.transaction_id,
    eventId: row.event_id,
    streamId: row.stream_id,
    streamType: row.stream_type,
    streamVersion: Number(row.stream_version),
    eventType: row.event_type,
    schemaVersion: Number(row.schema_version),
    data: row.data,
    metadata: row.metadata ?? {},
    recordedAt: row.recorded_at,
  };
}

/**
 * Feed order, and only below the oldest transaction still in flight, as every feed reader reads
 * (migration 0001): nothing can later commit an event before the last one returned.
 */
const FEED_PAGE_SQL = `SELECT ${AUDIT_EVENT_COLUMNS}
  FROM events e
  WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
    AND e.transaction_id < (SELECT pg_snapshot_xmin(pg_current_snapshot()))
  ORDER BY e.transaction_id, e.global_position
  LIMIT $3`;

/** Every committed event after `after`, in feed order, read a batch at a time. */
export async function* auditFeed(
  db: SqlQueryable,
  after: FeedKey = FEED_ORIGIN,
  batchSize: number = AUDIT_BATCH_SIZE,
): AsyncGenerator<AuditEvent> {
  let cursor = after;
  for (;;) {
    const { rows } = await db.query<AuditEventRow>(FEED_PAGE_SQL, [
      cursor.transactionId,
      cursor.position,
      batchSize,
    ]);
    for (const row of rows) yield toAuditEvent(row);
    const last = rows[rows.length - 1];
    if (!last || rows.length < batchSize) return;
    cursor = { transactionId: last.transaction_id, position: last.global_position };
  }
}

/** Feed order of two keys: negative, zero or positive. */
export function compareFeedKeys(a: FeedKey, b: FeedKey): number {
  const [ta, tb] = [BigInt(a.transactionId), BigInt(b.transactionId)];
  if (ta !== tb) return ta < tb ? -1 : 1;
  const [pa, pb] = [BigInt(a.position), BigInt(b.position)];
  return pa === pb ? 0 : pa < pb ? -1 : 1;
}
