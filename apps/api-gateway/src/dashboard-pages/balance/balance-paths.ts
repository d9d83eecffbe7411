import { DASHBOARD_PATHS } from '@payouts/web';

/** The Balance area's addresses (docs/dashboard.md#balance). */
export const BALANCE_PATHS = {
  list: DASHBOARD_PATHS.balance,
  transactionsCsv: `${DASHBOARD_PATHS.balance}/transactions.csv`,
  settlementsCsv: `${DASHBOARD_PATHS.balance}/settlements.csv`,
  settlement: `${DASHBOARD_PATHS.balance}/settlements/:settlement_id`,
} as const;

/** The page of one settlement. */
export const settlementPath = (settlementId: string): string =>
  `${DASHBOARD_PATHS.balance}/settlements/${encodeURIComponent(settlementId)}`;
