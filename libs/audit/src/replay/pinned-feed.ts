import type { SqlQueryable } from '@payouts/database';
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
export const PINNED_EVENTS_FILTER = (snapshot: string) =>
  `transaction_id < pg_snapshot_xmax(${snapshot}) AND pg_visible_in_snapshot(transaction_id, ${snapshot})`;

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
    AND ${PINNED_EVENTS_FILTER('$3::pg_snapshot')}
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
  return rows.map((row) => ({
    transactionId: row.transaction_id,
    position: row.global_position,
    streamId: row.stream_id,
    streamType: row.stream_type,
    streamVersion: Number(row.stream_version),
    type: row.event_type,
    schemaVersion: Number(row.schema_version),
    data: row.data,
  }));
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
  after: FeedKey,
  pageSize: number,
  readAhead: boolean,
  apply: (events: PinnedEvent[]) => Promise<void>,
): Promise<void> {
  let next: Promise<PinnedEvent[]> | null = pinnedPage(db, snapshot, after, pageSize);
  while (next !== null) {
    const page: PinnedEvent[] = await next;
    const last = page[page.length - 1];
    if (last === undefined) return;
    const following = () => pinnedPage(db, snapshot, last, pageSize);
    next = page.length < pageSize ? null : readAhead ? following() : null;
    // A read started ahead must not be left unobserved if apply fails.
    next?.catch(() => undefined);
    await apply(page);
    if (next === null && page.length === pageSize) next = following();
  }
}
