import type { SqlQueryable } from '@payouts/database';
import type { EventStore, RecordedEvent } from '@payouts/event-store';
import { ExportedLink, linksBetween } from '../chain/chain-store';
import { AUDIT_BATCH_SIZE, compareFeedKeys, FeedKey, toAuditEvent } from '../feed/audit-feed';
import { pagesAhead } from '../feed/keyset-pages';

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

/** The feed key just before the event at `position`, or null when there is no such event. */
export async function keyBefore(
  store: Pick<EventStore, 'checkpointAt'>,
  position: string,
): Promise<FeedKey | null> {
  const at = await store.checkpointAt(position);
  return at ? { transactionId: at.transactionId, position: String(BigInt(position) - 1n) } : null;
}

/** The key of the event at `position` itself (export after it), or null. */
export function keyAt(store: Pick<EventStore, 'checkpointAt'>, position: string): Promise<FeedKey | null> {
  return store.checkpointAt(position);
}

interface ExportPage {
  events: RecordedEvent[];
  /** The stored links from the page's first event to its last, in feed order. */
  links: ExportedLink[];
}

/**
 * Every committed event after `after` in feed order, as envelopes, a batch at a time: a page of
 * the feed from the event store, then the chain's links over the same range (the next page and its
 * links are read while this one is written).
 */
export async function* exportEvents(
  store: Pick<EventStore, 'readFeed'>,
  db: SqlQueryable,
  after: FeedKey,
  batchSize: number = AUDIT_BATCH_SIZE,
): AsyncGenerator<ExportedEvent> {
  const read = async (key: FeedKey): Promise<ExportPage> => {
    const events = await store.readFeed(key, batchSize);
    const [first, last] = [events[0], events[events.length - 1]];
    const links = first && last ? await linksBetween(db, first.checkpoint, last.checkpoint) : [];
    return { events, links };
  };
  const nextKey = ({ events }: ExportPage) =>
    events.length >= batchSize ? events[events.length - 1]!.checkpoint : null;
  for await (const { events, links } of pagesAhead(read, nextKey, after)) {
    // Both in feed order: a merge. A link at another key than any event's (its event deleted) is skipped.
    let next = 0;
    for (const event of events) {
      while (next < links.length && compareFeedKeys(links[next]!, event.checkpoint) < 0) next += 1;
      const link = links[next];
      yield toEnvelope(
        event,
        link !== undefined && compareFeedKeys(link, event.checkpoint) === 0 ? link : null,
      );
    }
  }
}

function toEnvelope(stored: RecordedEvent, link: ExportedLink | null): ExportedEvent {
  const event = toAuditEvent(stored);
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
    chain: link !== null ? { seq: Number(link.seq), link: link.link, previous: link.previous } : null,
  };
}
