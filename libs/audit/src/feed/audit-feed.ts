import type { SqlQueryable } from '@payouts/database';
import type { ChainedEvent } from '../chain/chain-link';
import { keysetPages } from './keyset-pages';

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

/** Every committed event after `after`, in feed order, a page of `batchSize` at a time (read ahead). */
export function auditFeedPages(
  db: SqlQueryable,
  after: FeedKey = FEED_ORIGIN,
  batchSize: number = AUDIT_BATCH_SIZE,
): AsyncGenerator<AuditEventRow[]> {
  return keysetPages(
    async (key) =>
      (await db.queryPrepared<AuditEventRow>(FEED_PAGE_SQL, [key.transactionId, key.position, batchSize]))
        .rows,
    feedKeyOf,
    after,
    batchSize,
  );
}

/** Every committed event after `after`, in feed order, read a batch at a time. */
export async function* auditFeed(
  db: SqlQueryable,
  after: FeedKey = FEED_ORIGIN,
  batchSize: number = AUDIT_BATCH_SIZE,
): AsyncGenerator<AuditEvent> {
  for await (const rows of auditFeedPages(db, after, batchSize)) {
    for (const row of rows) yield toAuditEvent(row);
  }
}

/** Where a row stands in the feed. */
export function feedKeyOf(row: { transaction_id: string; global_position: string }): FeedKey {
  return { transactionId: row.transaction_id, position: row.global_position };
}

/**
 * Feed order of two keys: negative, zero or positive. Both parts are the database's text of an
 * xid8 and a bigint, never negative and without leading zeros, so the longer is the larger and
 * equal lengths compare as text: no BigInt per event (verify compares twice for each).
 */
export function compareFeedKeys(a: FeedKey, b: FeedKey): number {
  return compareDecimals(a.transactionId, b.transactionId) || compareDecimals(a.position, b.position);
}

function compareDecimals(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
