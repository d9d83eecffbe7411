import { EVENT_STORE_LIMITS, EventStore, FEED_START, RecordedEvent } from '../event-store.port';

/**
 * Every event committed at this moment, in feed order (transaction id, then global position): what
 * a `SELECT … FROM events` would see, through the port. Read as of one feed snapshot, so an event
 * committed behind a transaction still in flight (another test's, on a server) is there too, and
 * none committed while the pages are read. Test code only: it reads the whole log.
 */
export async function committedEvents(store: EventStore): Promise<RecordedEvent[]> {
  const asOf = await store.feedSnapshot();
  const limit = EVENT_STORE_LIMITS.maxFeedPage;
  const events: RecordedEvent[] = [];
  for (let after = FEED_START; ;) {
    const page = await store.readFeed(after, limit, { asOf });
    events.push(...page);
    const last = page[page.length - 1];
    if (!last || page.length < limit) return events;
    after = last.checkpoint;
  }
}

/** How many events are committed, or how many of them match. */
export async function countEvents(
  store: EventStore,
  matches: (event: RecordedEvent) => boolean = () => true,
): Promise<number> {
  return (await committedEvents(store)).filter(matches).length;
}

/** The events one append wrote: those of `event`'s transaction, itself included, in global position order. */
export async function writtenWith(store: EventStore, event: RecordedEvent): Promise<RecordedEvent[]> {
  return (await committedEvents(store)).filter((other) => other.transactionId === event.transactionId);
}

/**
 * For SQL that runs inside a transaction of the store's database and must see what the store
 * wrote there (a committer's planned row, which is a statement, not code): one row, `seen`, when
 * stream $1 holds exactly $2 events as that transaction sees them; none otherwise.
 */
export const STREAM_HOLDS_EVENTS_SQL =
  'SELECT 1 AS seen FROM public.events WHERE stream_id = $1 HAVING count(*) = $2::bigint';
