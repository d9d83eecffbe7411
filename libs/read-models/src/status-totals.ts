import type { SqlQueryable } from '@payouts/database';
import { ENVIRONMENTS, ORDER_STATUSES, PAYOUT_STATUSES } from '@payouts/domain';

/** Rows of a read model with one environment and status. */
export interface RowsWithStatus {
  environment: string;
  status: string;
  count: number;
}

export interface StatusCounts {
  payouts: RowsWithStatus[];
  orders: RowsWithStatus[];
  settlements: RowsWithStatus[];
}

/** A settlement's statuses (migration 0021's CHECK on settlements.status). */
const SETTLEMENT_STATUSES = ['in_transit', 'paid', 'failed'] as const;

// One GROUP BY per read model, in one statement. COLLATE "C" on every branch: settlements'
// columns are "C" and the others the database default, which a UNION cannot otherwise combine.
const STATUS_COUNTS_SQL = `
  SELECT 'payouts' AS model, environment COLLATE "C" AS environment, status COLLATE "C" AS status,
         count(*)::int AS count FROM payout_list GROUP BY 2, 3
  UNION ALL
  SELECT 'orders', environment COLLATE "C", status COLLATE "C", count(*)::int FROM checkout_orders GROUP BY 2, 3
  UNION ALL
  SELECT 'settlements', environment COLLATE "C", status COLLATE "C", count(*)::int FROM settlements GROUP BY 2, 3`;

/**
 * Payouts, checkout orders and settlements by environment and status, for the metrics
 * (docs/design.md#metrics). Every status a row can have is listed, with 0 when no row has it, so
 * a series exists before its first row does.
 */
export async function countByStatus(db: SqlQueryable): Promise<StatusCounts> {
  const { rows } = await db.query<{ model: keyof StatusCounts } & RowsWithStatus>(STATUS_COUNTS_SQL);
  const counted = (model: keyof StatusCounts, statuses: readonly string[]): RowsWithStatus[] => {
    const found = rows.filter((row) => row.model === model);
    const listed = ENVIRONMENTS.flatMap((environment) =>
      statuses.map((status) => ({
        environment,
        status,
        count: found.find((row) => row.environment === environment && row.status === status)?.count ?? 0,
      })),
    );
    // A status no list knows (none should exist) is reported as found rather than dropped.
    const unlisted = found
      .filter((row) => !listed.some((l) => l.environment === row.environment && l.status === row.status))
      .map(({ environment, status, count }) => ({ environment, status, count }));
    return [...listed, ...unlisted];
  };
  return {
    payouts: counted('payouts', PAYOUT_STATUSES),
    orders: counted('orders', ORDER_STATUSES),
    settlements: counted('settlements', SETTLEMENT_STATUSES),
  };
}
