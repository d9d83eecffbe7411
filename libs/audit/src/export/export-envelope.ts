import type { SqlQueryable } from '@payouts/database';
import {
  AUDIT_BATCH_SIZE,
  AUDIT_EVENT_COLUMNS,
  AuditEventRow,
  FeedKey,
  feedKeyOf,
  toAuditEvent,
} from '../feed/audit-feed';
import { keysetPages } from '../feed/keyset-pages';

/** The public envelope's name and version: a change to its shape gets a new version (docs/audit.md). */
export const EXPORT_ENVELOPE = 'payouts.event/v1';

/** One line of `audit export`: the stored event as it is, plus its chain link. */
export interface ExportedEvent {
  envelope: typeof EXPORT_ENVELOPE;
  position: number;
  transaction_id: string;
  stream_id: string;
  stream_type: string;
  stream_version: number;
  event_id: string;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: unknown;
  recorded_at: string;
  /** The event's link and the one before it (so a line checks on its own); null while not yet chained. */
  chain: { seq: number; link: string; previous: string } | null;
}

type ExportRow = AuditEventRow & { seq: string | null; link: string | null; previous: string | null };

const EXPORT_PAGE_SQL = `SELECT ${AUDIT_EVENT_COLUMNS}, c.seq::text AS seq, c.link,
    CASE WHEN c.seq = 1 THEN repeat('0', 64) ELSE p.link END AS previous
  FROM events e
  LEFT JOIN event_chain c ON c.transaction_id = e.transaction_id AND c.global_position = e.global_position
  LEFT JOIN event_chain p ON p.seq = c.seq - 1
  WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
    AND e.transaction_id < (SELECT pg_snapshot_xmin(pg_current_snapshot()))
  ORDER BY e.transaction_id, e.global_position
  LIMIT $3`;

/** The feed key just before the event at `position`, or null when there is no such event. */
export async function keyBefore(db: SqlQueryable, position: string): Promise<FeedKey | null> {
  const { rows } = await db.query<{ transaction_id: string }>(
    'SELECT transaction_id::text AS transaction_id FROM events WHERE global_position = $1::bigint',
    [position],
  );
  const row = rows[0];
  return row ? { transactionId: row.transaction_id, position: String(BigInt(position) - 1n) } : null;
}

/** The key of the event at `position` itself (export after it), or null. */
export async function keyAt(db: SqlQueryable, position: string): Promise<FeedKey | null> {
  const before = await keyBefore(db, position);
  return before ? { transactionId: before.transactionId, position } : null;
}

/** Every committed event after `after` in feed order, as envelopes, a batch at a time (read ahead). */
export async function* exportEvents(
  db: SqlQueryable,
  after: FeedKey,
  batchSize: number = AUDIT_BATCH_SIZE,
): AsyncGenerator<ExportedEvent> {
  const pages = keysetPages(
    async (key) =>
      (await db.query<ExportRow>(EXPORT_PAGE_SQL, [key.transactionId, key.position, batchSize])).rows,
    feedKeyOf,
    after,
    batchSize,
  );
  for await (const rows of pages) for (const row of rows) yield toEnvelope(row);
}

function toEnvelope(row: ExportRow): ExportedEvent {
  const event = toAuditEvent(row);
  return {
    envelope: EXPORT_ENVELOPE,
    position: Number(event.position),
    transaction_id: event.transactionId,
    stream_id: event.streamId,
    stream_type: event.streamType,
    stream_version: event.streamVersion,
    event_id: event.eventId,
    type: event.eventType,
    schema_version: event.schemaVersion,
    data: event.data,
    metadata: event.metadata,
    recorded_at: event.recordedAt,
    chain:
      row.seq !== null && row.link !== null && row.previous !== null
        ? { seq: Number(row.seq), link: row.link, previous: row.previous }
        : null,
  };
}
