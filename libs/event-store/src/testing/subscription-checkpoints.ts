import type { SqlQueryable } from '@payouts/database';
import type { FeedCheckpoint } from '../event-store.port';
import { saveCheckpoint } from '../postgres/read-sql';

/*
 * Subscriptions' durable checkpoints written and removed past the store, as a database of an
 * older build left them (upgrade tests) or as a rebuild from scratch starts: test code only. The
 * store itself writes a checkpoint only with a batch its subscription handled.
 */

/** Stores `checkpoint` as the subscription's, as if its last batch had ended there. */
export function setCheckpoint(
  db: SqlQueryable,
  subscriptionId: string,
  checkpoint: FeedCheckpoint,
): Promise<void> {
  return saveCheckpoint(db, subscriptionId, checkpoint);
}

/** Forgets the subscription's checkpoint: it starts again from the beginning of the feed. */
export async function deleteCheckpoint(db: SqlQueryable, subscriptionId: string): Promise<void> {
  await db.query('DELETE FROM public.subscription_checkpoints WHERE subscription_id = $1', [subscriptionId]);
}

/**
 * The ids of the subscriptions that have a stored checkpoint, in id order. Unlike loadCheckpoint
 * (FEED_START for none), it tells a checkpoint that is gone from one stored at the start.
 */
export async function checkpointedSubscriptions(db: SqlQueryable): Promise<string[]> {
  const { rows } = await db.query<{ subscription_id: string }>(
    'SELECT subscription_id FROM public.subscription_checkpoints ORDER BY subscription_id',
  );
  return rows.map((row) => row.subscription_id);
}
