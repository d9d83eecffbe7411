import { settledInOrder, SqlQueryable } from '@payouts/database';
import {
  compareCheckpoints,
  FeedCheckpoint,
  saveSubscriptionCheckpoint,
  takeSubscriptionLock,
} from '@payouts/event-store';
import { FeedEvent, linksOf } from './chain-keeper';
import { CHAIN_SUBSCRIPTION_ID, chainState, insertLinks } from './chain-store';

/** A feed event with its place in the feed, as a subscription hands it over. */
export interface PlacedFeedEvent extends FeedEvent {
  checkpoint: FeedCheckpoint;
}

/**
 * Links the batch another feed subscriber holds (the read-model projector), inside that
 * subscriber's transaction, so the feed is read once for both: reading every event a second time
 * as it is committed was what the keeper cost the create path (docs/performance.md). Takes the
 * chain's lock the way its own subscription does, so the two never link the same event.
 *
 * Links only when the chain has reached where `followerId` stood before this batch (its checkpoint
 * is saved after its handler returns), so nothing between them is skipped; otherwise leaves the
 * batch to the chain's own subscription, which catches up (first start after an upgrade, or after
 * the chain stopped on a failure) and then hands over. Events the chain already has are skipped.
 */
export async function chainAlongside(
  tx: SqlQueryable,
  events: readonly PlacedFeedEvent[],
  followerId: string,
): Promise<number> {
  if (events.length === 0) return 0;
  // Three round trips a batch, since this runs in every projector batch: the lock; the chain's
  // checkpoint, the follower's and the chain's head, issued together once it is held; the links
  // and the chain's checkpoint, sent together. recorded_at's microseconds come with the feed's read.
  await takeSubscriptionLock(tx, CHAIN_SUBSCRIPTION_ID);
  const { chained, follower, head } = await chainState(tx, followerId);
  if (compareCheckpoints(chained, follower) < 0) return 0;
  const rest = events.filter((event) => compareCheckpoints(event.checkpoint, chained) > 0);
  const last = rest[rest.length - 1];
  if (!last) return 0;
  const links = linksOf(rest, head);
  await settledInOrder([
    insertLinks(tx, links),
    saveSubscriptionCheckpoint(tx, CHAIN_SUBSCRIPTION_ID, last.checkpoint),
  ]);
  return links.length;
}
