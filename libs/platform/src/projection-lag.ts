import { SqlQueryable } from '@payouts/database';

/** Counts events a subscriber has not processed yet, up to `cap` (a bound keeps the probe cheap). */
export async function projectionLag(db: SqlQueryable, subscriptionId: string, cap = 1_000): Promise<number> {
  const result = await db.query<{ lag: number }>(
    `SELECT count(*)::int AS lag FROM (
       SELECT 1 FROM events e
        WHERE (e.transaction_id, e.global_position) > (
                SELECT COALESCE((SELECT last_transaction_id FROM subscription_checkpoints WHERE subscription_id = $1), '0'::xid8),
                       COALESCE((SELECT last_position FROM subscription_checkpoints WHERE subscription_id = $1), 0))
          AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        LIMIT $2) pending`,
    [subscriptionId, cap],
  );
  return result.rows[0]?.lag ?? cap;
}
