import { SqlQueryable, SqlState, sqlStateOf } from '@payouts/database';

/**
 * The EventStoreDB adapter's state in PostgreSQL (migration 0026, docs/eventstoredb.md#appends):
 * the streams' locks, the appends decided but not yet written, and the list of each type's streams.
 */

/** One stream's events as decided: what is written to EventStoreDB after the decision commits. */
export interface DecidedEvent {
  eventId: string;
  type: string;
  schemaVersion: number;
  /** JSON text, as encodeAppends made it. */
  data: string;
  metadata: string;
}

export interface PendingAppend {
  id: string;
  streamId: string;
  streamType: string;
  /** The stream's version before these events. */
  expectedVersion: number;
  events: DecidedEvent[];
}

/** Any fixed int4 other than the subscriptions' (read-sql.ts): the advisory lock class of streams. */
const STREAM_LOCK_CLASS = 0x5ec0_0002;

/**
 * Every writer of a stream holds its lock from deciding until the decision commits, in every
 * process: so what a decision read of the stream is still its end when the decision commits, and
 * an append decided earlier and not yet written is seen (and written first) by the next writer.
 * Taken in key order in one statement, so two writers of overlapping streams cannot deadlock.
 */
export async function lockStreams(tx: SqlQueryable, streamIds: readonly string[]): Promise<void> {
  await tx.query(
    `SELECT pg_advisory_xact_lock($1, k) FROM (
       SELECT DISTINCT hashtext(id) AS k FROM unnest($2::text[]) AS id ORDER BY k
     ) AS keys`,
    [STREAM_LOCK_CLASS, streamIds],
  );
}

interface PendingRow {
  id: string;
  stream_id: string;
  stream_type: string;
  expected_version: number;
  events: DecidedEvent[] | string;
}

function toPending(row: PendingRow): PendingAppend {
  return {
    id: String(row.id),
    streamId: row.stream_id,
    streamType: row.stream_type,
    expectedVersion: Number(row.expected_version),
    events: typeof row.events === 'string' ? (JSON.parse(row.events) as DecidedEvent[]) : row.events,
  };
}

/** The decided appends of these streams still to be written, oldest first per stream. */
export async function pendingAppendsOf(
  db: SqlQueryable,
  streamIds: readonly string[],
): Promise<PendingAppend[]> {
  const { rows } = await db.query<PendingRow>(
    `SELECT id::text AS id, stream_id, stream_type, expected_version, events
       FROM eventstoredb_pending_appends WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, id`,
    [streamIds],
  );
  return rows.map(toPending);
}

/**
 * Streams with an append decided more than `olderThanMs` ago and not written yet: the writer died
 * or EventStoreDB was unreachable. The recovery writes them.
 */
export async function streamsLeftPending(
  db: SqlQueryable,
  olderThanMs: number,
  limit: number,
): Promise<string[]> {
  const { rows } = await db.query<{ stream_id: string }>(
    `SELECT stream_id FROM eventstoredb_pending_appends
      WHERE decided_at < now() - make_interval(secs => $1::float8 / 1000)
      GROUP BY stream_id ORDER BY min(id) LIMIT $2`,
    [olderThanMs, limit],
  );
  return rows.map((row) => row.stream_id);
}

/** How many appends wait to be written (readiness and metrics). */
export async function pendingAppendCount(db: SqlQueryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM eventstoredb_pending_appends',
  );
  return rows[0]?.n ?? 0;
}

/** Records the decided appends (one row per stream) in the deciding transaction; their ids. */
export async function recordPendingAppends(
  tx: SqlQueryable,
  appends: readonly Omit<PendingAppend, 'id'>[],
): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO eventstoredb_pending_appends (stream_id, stream_type, expected_version, events)
     SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::jsonb[])
     RETURNING id::text AS id`,
    [
      appends.map((append) => append.streamId),
      appends.map((append) => append.streamType),
      appends.map((append) => append.expectedVersion),
      appends.map((append) => JSON.stringify(append.events)),
    ],
  );
  return rows.map((row) => row.id);
}

export async function forgetPendingAppends(db: SqlQueryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query('DELETE FROM eventstoredb_pending_appends WHERE id = ANY($1::bigint[])', [ids]);
}

/** Lists new streams under their type, in the deciding transaction. */
export async function indexStreams(
  tx: SqlQueryable,
  streams: readonly { streamId: string; streamType: string }[],
): Promise<void> {
  await tx.query(
    `INSERT INTO eventstoredb_streams (stream_id, stream_type)
     SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (stream_id) DO NOTHING`,
    [streams.map((stream) => stream.streamId), streams.map((stream) => stream.streamType)],
  );
}

/** A page of one type's stream ids, in code point order, after `after`. */
export async function indexedStreamIds(
  db: SqlQueryable,
  streamType: string,
  after: string,
  limit: number,
): Promise<string[]> {
  const { rows } = await db.query<{ stream_id: string }>(
    `SELECT stream_id FROM eventstoredb_streams
      WHERE stream_type = $1 AND stream_id > $2 COLLATE "C" ORDER BY stream_id COLLATE "C" LIMIT $3`,
    [streamType, after, limit],
  );
  return rows.map((row) => row.stream_id);
}

/**
 * Claims the events' ids in the deciding transaction: an id already stored (or twice in one
 * append) fails the statement with a unique violation naming it, and the decision rolls back.
 */
export async function claimEventIds(tx: SqlQueryable, eventIds: readonly string[]): Promise<void> {
  await tx.query('INSERT INTO eventstoredb_event_ids (event_id) SELECT unnest($1::uuid[])', [eventIds]);
}

/** The duplicate id named by claimEventIds' unique violation, or undefined for any other failure. */
export function duplicateEventIdOf(error: unknown): string | undefined {
  const { detail } = (error ?? {}) as { detail?: unknown };
  if (
    sqlStateOf(error) !== SqlState.uniqueViolation ||
    typeof detail !== 'string' ||
    !detail.startsWith('Key (event_id)=(')
  )
    return undefined;
  return /\(event_id\)=\(([0-9a-f-]+)\)/i.exec(detail)?.[1] ?? '';
}
