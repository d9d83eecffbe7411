import { EventStore, FEED_START, FeedCheckpoint, RecordedEvent } from '@payouts/event-store';
import type { ChainedEvent } from '../chain/chain-link';
import { keysetPages } from './keyset-pages';

/** A place in the feed: the event store's checkpoint, (transaction id, global position) as decimal strings. */
export type FeedKey = FeedCheckpoint;

export const FEED_ORIGIN: FeedKey = FEED_START;

/** One event as the audit reads it: recorded_at to the microsecond, positions as text. */
export interface AuditEvent extends ChainedEvent, FeedKey {}

/** Events per read: what a batch costs in memory, whatever the log's length. */
export const AUDIT_BATCH_SIZE = 1_000;

/** Where the audit reads the log: the event store port, never the store's tables. */
export type AuditFeedSource = Pick<EventStore, 'readFeed'>;

/**
 * The store's event as the audit names it. recorded_at is the store's text with microseconds,
 * which the feed's reads always give (a Date would drop them, and an edit there must still show);
 * only a stream read lacks it, where the statement, the one reader of those, never looks at it.
 */
export function toAuditEvent(event: RecordedEvent): AuditEvent {
  return {
    position: event.globalPosition,
    transactionId: event.transactionId,
    eventId: event.eventId,
    streamId: event.streamId,
    streamType: event.streamType,
    streamVersion: event.streamVersion,
    eventType: event.type,
    schemaVersion: event.schemaVersion,
    data: event.data,
    metadata: event.metadata,
    recordedAt: event.recordedAtMicros ?? event.recordedAt.toISOString(),
  };
}

/**
 * Every committed event after `after`, in feed order, a page of `batchSize` (at most the store's
 * page, EVENT_STORE_LIMITS.maxFeedPage) at a time, the next page read ahead.
 */
export function auditFeedPages(
  store: AuditFeedSource,
  after: FeedKey = FEED_ORIGIN,
  batchSize: number = AUDIT_BATCH_SIZE,
): AsyncGenerator<RecordedEvent[]> {
  return keysetPages(
    (key) => store.readFeed(key, batchSize),
    (event) => event.checkpoint,
    after,
    batchSize,
  );
}

/** Every committed event after `after`, in feed order, read a batch at a time. */
export async function* auditFeed(
  store: AuditFeedSource,
  after: FeedKey = FEED_ORIGIN,
  batchSize: number = AUDIT_BATCH_SIZE,
): AsyncGenerator<AuditEvent> {
  for await (const events of auditFeedPages(store, after, batchSize)) {
    for (const event of events) yield toAuditEvent(event);
  }
}

/**
 * Feed order of two keys: negative, zero or positive. Both parts are decimal strings as the store
 * hands them out (isFeedCheckpoint), never negative and without leading zeros, so the longer is the larger and
 * equal lengths compare as text: no BigInt per event (verify compares twice for each).
 */
export function compareFeedKeys(a: FeedKey, b: FeedKey): number {
  return compareDecimals(a.transactionId, b.transactionId) || compareDecimals(a.position, b.position);
}

function compareDecimals(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
