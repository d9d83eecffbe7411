import type { SqlQueryable } from '@payouts/database';
import { keysetPages } from '../feed/keyset-pages';
import type { AuditEvent, FeedKey } from '../feed/audit-feed';
import type { FlatPage } from './chain-checker';
import { splitLine } from './verify-line';

/**
 * verify's read of the log: audit-feed's rows and order, with every column whose text cannot hold
 * a tab joined into one `line` by the database (position, transaction id, event id, the two
 * versions, recorded_at, then metadata and data as the JSON text jsonb gives, which escapes any
 * tab inside a string). The three free-text columns stay columns of their own, so a tab in a
 * stream id cannot shift a field. One string per row instead of eleven: the driver decodes four
 * fields a row, and a page crosses to the chain's thread as four strings an event (about a
 * third of the main thread's reading cost and of the copy to the chain's thread,
 * docs/performance.md). Every column is NOT NULL, so concat_ws drops none.
 */
const VERIFY_PAGE_SQL = `SELECT e.stream_id, e.stream_type, e.event_type,
    concat_ws(E'\\t', e.global_position, e.transaction_id, e.event_id, e.stream_version,
      e.schema_version,
      to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
      e.metadata, e.data) AS line
  FROM events e
  WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
    AND e.transaction_id < (SELECT pg_snapshot_xmin(pg_current_snapshot()))
  ORDER BY e.transaction_id, e.global_position
  LIMIT $3`;

/** One row of verify's read: the free-text columns, and the rest joined by tabs (verify-line.ts). */
export interface VerifyRow {
  stream_id: string;
  stream_type: string;
  event_type: string;
  line: string;
}

/** The columns the folds read (no metadata, event id or time: those are the chain's). */
export type FoldedEvent = Omit<AuditEvent, 'eventId' | 'metadata' | 'recordedAt'>;

export function verifyPages(db: SqlQueryable, batchSize: number): AsyncGenerator<VerifyRow[]> {
  return keysetPages(
    async (key) =>
      (await db.queryPrepared<VerifyRow>(VERIFY_PAGE_SQL, [key.transactionId, key.position, batchSize])).rows,
    verifyRowKey,
    { transactionId: '0', position: '0' },
    batchSize,
  );
}

/** The row's place in the feed (the keyset's next page starts after the last row's). */
export function verifyRowKey(row: VerifyRow): FeedKey {
  const { transactionId, position } = splitLine(row.line);
  return { transactionId, position };
}

export function foldedEvent(row: VerifyRow): FoldedEvent {
  const line = splitLine(row.line);
  return {
    position: line.position,
    transactionId: line.transactionId,
    streamId: row.stream_id,
    streamType: row.stream_type,
    streamVersion: line.streamVersion,
    eventType: row.event_type,
    schemaVersion: line.schemaVersion,
    data: JSON.parse(line.data) as unknown,
  };
}

/** A page as the chain's side takes it (chain-checker.ts: CHAINED_FIELDS per event). */
export function chainedPage(rows: readonly VerifyRow[]): FlatPage {
  const flat: FlatPage = [];
  for (const row of rows) flat.push(row.stream_id, row.stream_type, row.event_type, row.line);
  return flat;
}
