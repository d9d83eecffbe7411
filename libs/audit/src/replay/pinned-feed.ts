import type { SqlQueryable } from '@payouts/database';
import { ORDER_STREAM_TYPE, PAYOUT_STREAM_TYPE } from '@payouts/domain';
import type { ProjectableEvent } from '@payouts/read-models';
import type { FeedKey } from '../feed/audit-feed';

/**
 * The log as one snapshot saw it: `pg_current_snapshot()` of the transaction that copied the live
 * read models, as text ('xmin:xmax:xip,…'). An event is in the pinned log exactly when its writer
 * had committed for that snapshot, so the live rows copied there and the events replayed are the
 * same moment, however long the replay then takes and whatever commits meanwhile.
 */
export type PinnedSnapshot = string;

const SNAPSHOT_TEXT = /^[0-9]{1,20}:[0-9]{1,20}:([0-9]{1,20}(,[0-9]{1,20})*)?$/;

/** The snapshot as a SQL literal; checked first, since it is written into a view's definition. */
export function snapshotLiteral(snapshot: PinnedSnapshot): string {
  if (!SNAPSHOT_TEXT.test(snapshot)) throw new Error(`not a pg_snapshot: ${snapshot}`);
  return `'${snapshot}'::pg_snapshot`;
}

/** Events beyond the snapshot's xmax cannot be in it: the bound lets the feed index stop there. */
export const PINNED_EVENTS_FILTER = (snapshot: string, alias = '') =>
  `${alias}transaction_id < pg_snapshot_xmax(${snapshot}) AND pg_visible_in_snapshot(${alias}transaction_id, ${snapshot})`;

export interface PinnedEvent extends ProjectableEvent, FeedKey {}

interface PinnedEventRow {
  transaction_id: string;
  global_position: string;
  stream_id: string;
  stream_type: string;
  stream_version: number;
  event_type: string;
  schema_version: number;
  data: unknown;
}

// Only what the projections read: the replay's cost is mostly reading and parsing these rows.
const PINNED_PAGE_SQL = `SELECT e.transaction_id::text AS transaction_id, e.global_position::text AS global_position,
    e.stream_id, e.stream_type, e.stream_version, e.event_type, e.schema_version, e.data
  FROM public.events e
  WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
    AND ${PINNED_EVENTS_FILTER('$3::pg_snapshot', 'e.')}
  ORDER BY e.transaction_id, e.global_position
  LIMIT $4`;

/** Up to `limit` events of the pinned log after `after`, in feed order. */
export async function pinnedPage(
  db: SqlQueryable,
  snapshot: PinnedSnapshot,
  after: FeedKey,
  limit: number,
): Promise<PinnedEvent[]> {
  const { rows } = await db.queryPrepared<PinnedEventRow>(PINNED_PAGE_SQL, [
    after.transactionId,
    after.position,
    snapshot,
    limit,
  ]);
  return rows.map(toPinnedEvent);
}

const toPinnedEvent = (row: PinnedEventRow): PinnedEvent => ({
  transactionId: row.transaction_id,
  position: row.global_position,
  streamId: row.stream_id,
  streamType: row.stream_type,
  streamVersion: Number(row.stream_version),
  type: row.event_type,
  schemaVersion: Number(row.schema_version),
  data: row.data,
});

/**
 * Payouts and orders are read models of one row folded from the whole stream: given a stream from
 * its first event, the projection folds it without reading anything back, and writes every new
 * payout of a batch in one statement. A payout paid in a later batch than it was created in
 * otherwise costs three statements (its row's version, its events, its row).
 */
const WHOLE_STREAM_TYPES = [PAYOUT_STREAM_TYPE, ORDER_STREAM_TYPE];

const EARLIER_EVENTS_SQL = `SELECT e.transaction_id::text AS transaction_id, e.global_position::text AS global_position,
    e.stream_id, e.stream_type, e.stream_version, e.event_type, e.schema_version, e.data
  FROM unnest($1::text[], $2::integer[]) AS b(stream_id, below)
  JOIN public.events e ON e.stream_id = b.stream_id AND e.stream_version < b.below
  WHERE ${PINNED_EVENTS_FILTER('$3::pg_snapshot', 'e.')}`;

/** The pinned log's earlier events of the page's payout and order streams that start after version 1. */
export async function earlierEvents(
  db: SqlQueryable,
  snapshot: PinnedSnapshot,
  page: readonly PinnedEvent[],
): Promise<PinnedEvent[]> {
  const first = new Map<string, number>();
  for (const event of page) {
    if (!WHOLE_STREAM_TYPES.includes(event.streamType)) continue;
    first.set(
      event.streamId,
      Math.min(first.get(event.streamId) ?? event.streamVersion, event.streamVersion),
    );
  }
  const later = [...first].filter(([, version]) => version > 1);
  if (later.length === 0) return [];
  const { rows } = await db.queryPrepared<PinnedEventRow>(EARLIER_EVENTS_SQL, [
    later.map(([streamId]) => streamId),
    later.map(([, version]) => version),
    snapshot,
  ]);
  return rows.map(toPinnedEvent);
}

export interface PinnedPage {
  /** The page of the log, in feed order. */
  events: PinnedEvent[];
  /** Only when asked: earlier events of the page's payout and order streams, for the projection. */
  earlier: PinnedEvent[];
}

/**
 * Every event of the pinned log after `after`, a page at a time, each page handed to `apply`
 * before the next is used. On a server the next page is read (on the live connection) while
 * `apply` writes the current one (on the scratch connection); the embedded database has one
 * connection, so there it reads only between pages.
 */
export async function forEachPinnedPage(
  db: SqlQueryable,
  snapshot: PinnedSnapshot,
  from: FeedKey,
  options: { pageSize: number; readAhead: boolean; withEarlier: boolean },
  apply: (page: PinnedPage) => Promise<void>,
): Promise<void> {
  const read = async (after: FeedKey): Promise<PinnedPage> => {
    const events = await pinnedPage(db, snapshot, after, options.pageSize);
    return { events, earlier: options.withEarlier ? await earlierEvents(db, snapshot, events) : [] };
  };
  let next: Promise<PinnedPage> | null = read(from);
  while (next !== null) {
    const page: PinnedPage = await next;
    const last = page.events[page.events.length - 1];
    if (last === undefined) return;
    const full = page.events.length === options.pageSize;
    next = full && options.readAhead ? read(last) : null;
    // A read started ahead must not be left unobserved if apply fails.
    next?.catch(() => undefined);
    await apply(page);
    if (next === null && full) next = read(last);
  }
}
