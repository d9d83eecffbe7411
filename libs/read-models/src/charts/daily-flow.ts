/**
 * One day of the Home chart: what entered and what left one ledger (one account, environment and
 * currency) on one local day. Money is the API's two-decimal strings; every figure is a sum of
 * balance transactions (docs/balance.md), so the chart agrees with the Balance page's list.
 */
export interface DailyFlow {
  /** The local day in the account's time zone, `YYYY-MM-DD`. */
  date: string;
  /** Checkout proceeds net of processing fees: the `payment` and `payment_fee` rows' nets. */
  paymentsIn: string;
  /** Paid to customers, fees included: the `payout_paid` rows, as a positive figure. */
  payoutsOut: string;
  /** Sent to the merchant's bank: `settlement` rows that did not fail, as a positive figure. */
  settlementsOut: string;
}

/** The three series in the order the chart, its legend and its table show them. */
export const DAILY_FLOW_SERIES = [
  { key: 'paymentsIn', label: 'Payments in' },
  { key: 'payoutsOut', label: 'Payouts out' },
  { key: 'settlementsOut', label: 'Settlements out' },
] as const satisfies readonly { key: keyof DailyFlow; label: string }[];

export type DailyFlowSeriesKey = (typeof DAILY_FLOW_SERIES)[number]['key'];
