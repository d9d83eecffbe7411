import { ORDER_STREAM_TYPE, PAYOUT_STREAM_TYPE } from '@payouts/domain';
import {
  EVENT_STORE_LIMITS,
  EventStore,
  FeedSnapshot,
  RecordedEvent,
  StreamRange,
} from '@payouts/event-store';
import type { FeedKey } from '../feed/audit-feed';

/**
 * The log as one snapshot saw it: the event store's feedSnapshot, taken inside the transaction
 * that copied the live read models. An event is in the pinned log exactly when it was committed
 * for that snapshot, so the live rows copied there and the events replayed are the same moment,
 * however long the replay then takes and whatever commits meanwhile.
 */
export type PinnedSnapshot = FeedSnapshot;

/** An event of the pinned log, as the event store hands it out. */
export type PinnedEvent = RecordedEvent;

/** What the replay reads the log through: the event store port. */
export type PinnedFeedSource = Pick<EventStore, 'readFeed' | 'readStreams'>;

/**
 * Up to `limit` events of the pinned log after `after`, in feed order: one read of the store's
 * feed, or several when a replay batch is larger than its page (EVENT_STORE_LIMITS.maxFeedPage).
 */
export async function pinnedPage(
  store: PinnedFeedSource,
  snapshot: PinnedSnapshot,
  after: FeedKey,
  limit: number,
): Promise<PinnedEvent[]> {
  const events: PinnedEvent[] = [];
  let key = after;
  while (events.length < limit) {
    const want = Math.min(limit - events.length, EVENT_STORE_LIMITS.maxFeedPage);
    const page = await store.readFeed(key, want, { asOf: snapshot });
    // The usual batch is one read: handed on as it came.
    if (events.length === 0 && (want === limit || page.length < want)) return page;
    for (const event of page) events.push(event);
    if (page.length < want) break;
    key = page[page.length - 1]!.checkpoint;
  }
  return events;
}

/**
 * Payouts and orders are read models of one row folded from the whole stream: given a stream from
 * its first event, the projection folds it without reading anything back, and writes every new
 * payout of a batch in one statement. A payout paid in a later batch than it was created in
 * otherwise costs three statements (its row's version, its events, its row).
 */
const WHOLE_STREAM_TYPES = [PAYOUT_STREAM_TYPE, ORDER_STREAM_TYPE];

/**
 * The earlier events of the page's payout and order streams that start after version 1, in as few
 * reads as the store allows. No snapshot needed: each range ends before a version the pinned log
 * holds, and a stream's versions commit in order, so every one of them is in the pinned log too.
 */
export async function earlierEvents(
  store: PinnedFeedSource,
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
  const ranges: StreamRange[] = [];
  for (const [streamId, version] of first) {
    if (version > 1) ranges.push({ streamId, fromVersion: 1, toVersion: version - 1 });
  }
  const earlier: PinnedEvent[] = [];
  for (let i = 0; i < ranges.length; i += EVENT_STORE_LIMITS.maxStreamsPerRead) {
    const read = await store.readStreams(ranges.slice(i, i + EVENT_STORE_LIMITS.maxStreamsPerRead));
    for (const event of read) earlier.push(event);
  }
  return earlier;
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
  store: PinnedFeedSource,
  snapshot: PinnedSnapshot,
  from: FeedKey,
  options: { pageSize: number; readAhead: boolean; withEarlier: boolean },
  apply: (page: PinnedPage) => Promise<void>,
): Promise<void> {
  const read = async (after: FeedKey): Promise<PinnedPage> => {
    const events = await pinnedPage(store, snapshot, after, options.pageSize);
    return { events, earlier: options.withEarlier ? await earlierEvents(store, events) : [] };
  };
  let next: Promise<PinnedPage> | null = read(from);
  while (next !== null) {
    const page: PinnedPage = await next;
    const last = page.events[page.events.length - 1];
    if (last === undefined) return;
    const full = page.events.length === options.pageSize;
    next = full && options.readAhead ? read(last.checkpoint) : null;
    // A read started ahead must not be left unobserved if apply fails.
    next?.catch(() => undefined);
    await apply(page);
    if (next === null && full) next = read(last.checkpoint);
  }
}
