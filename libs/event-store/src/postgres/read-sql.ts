import { SqlQueryable } from '@payouts/database';
import { FEED_START, FeedCheckpoint, FeedSnapshot, RecordedEvent, StreamRange } from '../event-store.port';
import { eventColumns, EventRow, toRecordedEvent } from './event-row';

/*
 * Statements that may run inside a caller's transaction (`within`) name the store's tables with
 * their schema, public, where migration 0001 creates them: that transaction's search_path is the
 * caller's, and the audit's replay sets it to a scratch schema alone (docs/audit.md).
 */

/**
 * Both the version and the events come from one statement, so from one snapshot: the version
 * always matches the last event returned when reading from the start.
 */
const READ_STREAM_SQL = `SELECT s.version AS current_version, ${eventColumns('e')}
  FROM public.event_streams s
  LEFT JOIN public.events e ON e.stream_id = s.stream_id AND e.stream_version >= $2 AND e.stream_version <= $3
  WHERE s.stream_id = $1
  ORDER BY e.stream_version`;

export async function readStreamRows(
  db: SqlQueryable,
  streamId: string,
  fromVersion: number,
  toVersion: number,
): Promise<{ version: number; events: RecordedEvent[] }> {
  const { rows } = await db.query<EventRow & { current_version: number; event_id: string | null }>(
    READ_STREAM_SQL,
    [streamId, fromVersion, toVersion],
  );
  const first = rows[0];
  if (!first) return { version: 0, events: [] };
  return {
    version: Number(first.current_version),
    events: rows.filter((row) => row.event_id !== null).map(toRecordedEvent),
  };
}

/** Each range by the (stream_id, stream_version) index; ranges in the order given, versions in order. */
const READ_STREAMS_SQL = `SELECT ${eventColumns('e')}
  FROM unnest($1::text[], $2::integer[], $3::integer[]) WITH ORDINALITY AS r(stream_id, from_version, to_version, n)
  JOIN public.events e ON e.stream_id = r.stream_id AND e.stream_version >= r.from_version
                       AND e.stream_version <= r.to_version
  ORDER BY r.n, e.stream_version`;

export async function readStreamsRows(
  db: SqlQueryable,
  ranges: readonly StreamRange[],
): Promise<RecordedEvent[]> {
  const { rows } = await db.queryPrepared<EventRow>(READ_STREAMS_SQL, [
    ranges.map((range) => range.streamId),
    ranges.map((range) => range.fromVersion),
    ranges.map((range) => range.toVersion),
  ]);
  return rows.map(toRecordedEvent);
}

/**
 * Columns are qualified in WHERE and ORDER BY on purpose: an unqualified ORDER BY name means the
 * output column, which is the text cast, and would sort positions as strings ('10' < '9').
 *
 * Feed order is (transaction id, global position). Only transactions below the oldest one still
 * in flight are read: every transaction there has finished, so nothing can later commit an event
 * before the last one returned. The xmin is computed once per statement (an InitPlan), which
 * lets the range run as an index scan on events_feed_order.
 */
const READ_FEED_SQL = `SELECT ${eventColumns('e', { micros: true })}
  FROM events e
  WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
    AND e.transaction_id < (SELECT pg_snapshot_xmin(pg_current_snapshot()))
  ORDER BY e.transaction_id, e.global_position
  LIMIT $3`;

export async function readFeedRows(
  db: SqlQueryable,
  after: FeedCheckpoint,
  limit: number,
): Promise<RecordedEvent[]> {
  const { rows } = await db.query<EventRow>(READ_FEED_SQL, [after.transactionId, after.position, limit]);
  return rows.map(toRecordedEvent);
}

/**
 * The snapshot of the statement (in a REPEATABLE READ transaction, the transaction's) as text
 * ('xmin:xmax:xip,…'), with the last event it sees in feed order: one statement, so one moment.
 */
const FEED_SNAPSHOT_SQL = `SELECT pg_current_snapshot()::text AS snapshot,
    h.transaction_id::text AS transaction_id, h.global_position::text AS global_position
  FROM (SELECT 1) AS one
  LEFT JOIN LATERAL (SELECT e.transaction_id, e.global_position FROM public.events e
                      ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1) h ON true`;

export async function feedSnapshotRow(db: SqlQueryable): Promise<FeedSnapshot> {
  const { rows } = await db.query<{
    snapshot: string;
    transaction_id: string | null;
    global_position: string | null;
  }>(FEED_SNAPSHOT_SQL);
  const row = rows[0]!;
  return {
    token: row.snapshot,
    head:
      row.transaction_id !== null && row.global_position !== null
        ? { transactionId: row.transaction_id, position: row.global_position }
        : null,
  };
}

const SNAPSHOT_TEXT = /^[0-9]{1,20}:[0-9]{1,20}:([0-9]{1,20}(,[0-9]{1,20})*)?$/;

/** True for what feedSnapshotRow hands out as a token: a pg_snapshot's text. */
export function isSnapshotToken(token: string): boolean {
  return SNAPSHOT_TEXT.test(token);
}

/**
 * The feed as one snapshot saw it: an event is in it exactly when its writer had committed for
 * that snapshot (pg_visible_in_snapshot), which is not the live feed's horizon (a transaction
 * younger than one still in flight may have committed). Events beyond the snapshot's xmax cannot
 * be in it: that bound lets the range stop there on events_feed_order.
 */
const READ_FEED_AS_OF_SQL = `SELECT ${eventColumns('e', { micros: true })}
  FROM events e
  WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
    AND e.transaction_id < pg_snapshot_xmax($3::pg_snapshot)
    AND pg_visible_in_snapshot(e.transaction_id, $3::pg_snapshot)
  ORDER BY e.transaction_id, e.global_position
  LIMIT $4`;

export async function readFeedAsOfRows(
  db: SqlQueryable,
  snapshot: string,
  after: FeedCheckpoint,
  limit: number,
): Promise<RecordedEvent[]> {
  const { rows } = await db.queryPrepared<EventRow>(READ_FEED_AS_OF_SQL, [
    after.transactionId,
    after.position,
    snapshot,
    limit,
  ]);
  return rows.map(toRecordedEvent);
}

/** global_position is unique (the events' primary key). */
const CHECKPOINT_AT_SQL = `SELECT transaction_id::text AS transaction_id FROM events WHERE global_position = $1::bigint`;

export async function checkpointAtRow(db: SqlQueryable, position: string): Promise<FeedCheckpoint | null> {
  const { rows } = await db.query<{ transaction_id: string }>(CHECKPOINT_AT_SQL, [position]);
  const row = rows[0];
  return row ? { transactionId: row.transaction_id, position } : null;
}

/** stream_id is COLLATE "C" (migration 0017): its order is the ids' code point order. */
const STREAM_IDS_SQL = `SELECT stream_id FROM event_streams WHERE stream_type = $1 AND stream_id > $2
  ORDER BY stream_id LIMIT $3`;

export async function streamIdRows(
  db: SqlQueryable,
  streamType: string,
  after: string,
  limit: number,
): Promise<string[]> {
  const { rows } = await db.query<{ stream_id: string }>(STREAM_IDS_SQL, [streamType, after, limit]);
  return rows.map((row) => row.stream_id);
}

/**
 * Committed events after the subscription's checkpoint, as the feed would hand them to it (below
 * the oldest transaction in flight), counted up to a cap.
 */
const SUBSCRIPTION_LAG_SQL = `SELECT count(*)::int AS lag FROM (
  SELECT 1 FROM events e
   WHERE (e.transaction_id, e.global_position) > (
           SELECT COALESCE((SELECT last_transaction_id FROM subscription_checkpoints WHERE subscription_id = $1), '0'::xid8),
                  COALESCE((SELECT last_position FROM subscription_checkpoints WHERE subscription_id = $1), 0))
     AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
   LIMIT $2) pending`;

export async function subscriptionLagRows(
  db: SqlQueryable,
  subscriptionId: string,
  cap: number,
): Promise<number> {
  const { rows } = await db.query<{ lag: number }>(SUBSCRIPTION_LAG_SQL, [subscriptionId, cap]);
  return rows[0]?.lag ?? cap;
}

/** The last committed event in feed order: what a subscription must reach to be caught up. */
export async function lastCommittedCheckpoint(db: SqlQueryable): Promise<FeedCheckpoint | null> {
  const { rows } = await db.query<{ transaction_id: string; global_position: string }>(
    `SELECT e.transaction_id::text AS transaction_id, e.global_position::text AS global_position
     FROM events e ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`,
  );
  const row = rows[0];
  return row ? { transactionId: row.transaction_id, position: row.global_position } : null;
}

const CHECKPOINT_SQL = `SELECT last_transaction_id::text AS transaction_id, last_position::text AS position
  FROM public.subscription_checkpoints WHERE subscription_id = $1`;

export async function loadCheckpointRow(db: SqlQueryable, subscriptionId: string): Promise<FeedCheckpoint> {
  const { rows } = await db.query<{ transaction_id: string; position: string }>(CHECKPOINT_SQL, [
    subscriptionId,
  ]);
  const row = rows[0];
  return row ? { transactionId: row.transaction_id, position: row.position } : FEED_START;
}

/** Any fixed int4: the advisory lock class of subscription checkpoints (the key is a hash of the id). */
const SUBSCRIPTION_LOCK_CLASS = 0x5ec0_0001;

/**
 * Takes the subscription's lock for the rest of the transaction, then reads its checkpoint. Two
 * statements on purpose: the second one's snapshot is taken after the lock is held, so it sees
 * the checkpoint that the previous holder committed. An advisory lock rather than FOR UPDATE
 * because it does not give this transaction an id, so other feed readers are not held back
 * while the batch has written nothing.
 */
export async function lockCheckpoint(tx: SqlQueryable, subscriptionId: string): Promise<FeedCheckpoint> {
  await takeCheckpointLock(tx, subscriptionId);
  return loadCheckpointRow(tx, subscriptionId);
}

/** The subscription's lock alone, for a caller that reads the checkpoint with other things after it. */
export async function takeCheckpointLock(tx: SqlQueryable, subscriptionId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SUBSCRIPTION_LOCK_CLASS, subscriptionId]);
}

export async function saveCheckpoint(
  tx: SqlQueryable,
  subscriptionId: string,
  checkpoint: FeedCheckpoint,
): Promise<void> {
  await tx.query(
    `INSERT INTO public.subscription_checkpoints (subscription_id, last_transaction_id, last_position, updated_at)
     VALUES ($1, $2::xid8, $3::bigint, now())
     ON CONFLICT (subscription_id) DO UPDATE SET last_transaction_id = excluded.last_transaction_id,
       last_position = excluded.last_position, updated_at = excluded.updated_at`,
    [subscriptionId, checkpoint.transactionId, checkpoint.position],
  );
}
