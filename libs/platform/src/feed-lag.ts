import type { EventStore } from '@payouts/event-store';
import { FEED_LAG_CAP, FeedLag } from '@payouts/observability';

/**
 * How far a feed subscription is behind, through the event store port, for the metrics
 * (docs/design.md#metrics): the events it has not processed yet, counted up to FEED_LAG_CAP (the
 * port's subscriptionLag, which readiness uses too), and the age of the oldest of them (0 when
 * caught up). Three bounded statements; the age needs the first event after the checkpoint only.
 */
export async function measureFeedLag(
  store: EventStore,
  subscriptionId: string,
  now: () => number = Date.now,
): Promise<FeedLag> {
  const [events, checkpoint] = await Promise.all([
    store.subscriptionLag(subscriptionId, FEED_LAG_CAP),
    store.loadCheckpoint(subscriptionId),
  ]);
  if (events === 0) return { events, seconds: 0 };
  const [oldest] = await store.readFeed(checkpoint, 1);
  // Recorded on the database's clock: a process clock behind it reads as no age rather than a negative one.
  const seconds = oldest ? Math.max(0, (now() - oldest.recordedAt.getTime()) / 1000) : 0;
  return { events, seconds };
}
