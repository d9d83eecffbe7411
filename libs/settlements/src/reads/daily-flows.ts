import Big from 'big.js';
import type { SqlQueryable } from '@payouts/database';
import type { Environment } from '@payouts/domain';
import type { DailyFlow } from '@payouts/read-models';
import { zoneDays } from './zone-days';

export interface DailyFlowsQuery {
  accountId: string;
  environment: Environment;
  /** One ledger: sums of different currencies mean nothing. */
  currency: string;
  /** The account's IANA time zone; its days are the chart's days. */
  timeZone?: string;
  /** The environment's clock now (the sandbox clock may run ahead of the wall clock). */
  now: Date;
  days?: number;
}

export interface DailyFlows {
  currency: string;
  timeZone: string;
  /** The window: from the first instant of the first day, up to (not including) `until`. */
  from: string;
  until: string;
  /** One entry per day, oldest first, zeros included, so a chart needs no gap filling. */
  days: DailyFlow[];
}

export const DAILY_FLOWS_DEFAULT_DAYS = 30;

interface BucketRow {
  day: number;
  payments_in: string;
  payouts_out: string;
  settlements_out: string;
}

// width_bucket puts each row in the day whose first instant (computed in JavaScript, where the zone
// rules are) is the last one at or before it, so the database needs no time zone names: PGlite's
// and a server's tz data could disagree with the runtime's, and one place decides what a day is.
// Which rows count for which series is documented on DailyFlow; a settlement is counted on the
// day it started (when the money left the available balance) unless it failed and came back.
const DAILY_FLOWS_SQL = `
  SELECT width_bucket(created_at, $4::timestamptz[]) AS day,
         COALESCE(sum(net) FILTER (WHERE type IN ('payment', 'payment_fee')), 0)::text AS payments_in,
         COALESCE(-sum(amount) FILTER (WHERE type = 'payout_paid'), 0)::text AS payouts_out,
         COALESCE(-sum(net) FILTER (WHERE type = 'settlement' AND status <> 'failed'), 0)::text AS settlements_out
    FROM balance_transactions
   WHERE account_id = $1 AND environment = $2 AND currency = $3
     AND created_at >= $5 AND created_at < $6
     AND type IN ('payment', 'payment_fee', 'payout_paid', 'settlement')
   GROUP BY 1`;

const money = (text: string | undefined): string => {
  const value = new Big(text ?? '0');
  // PostgreSQL never answers -0, but Big would print a negated zero as -0.00.
  return value.eq(0) ? '0.00' : value.toFixed(2);
};

/**
 * The Home chart's figures: per local day of the last `days` (30) in the account's time zone,
 * ending with today, the payments in, payouts out and settlements out of one ledger. Read from
 * balance_transactions, the read model GET /api/balance/transactions lists, with one grouped
 * statement (a month of a busy ledger is too many rows to page through for three sums a day).
 */
export async function dailyFlows(db: SqlQueryable, query: DailyFlowsQuery): Promise<DailyFlows> {
  const timeZone = query.timeZone ?? 'UTC';
  const { dates, bounds } = zoneDays(timeZone, query.now, query.days ?? DAILY_FLOWS_DEFAULT_DAYS);
  const from = bounds[0]!.toISOString();
  const until = bounds[bounds.length - 1]!.toISOString();
  const { rows } = await db.query<BucketRow>(DAILY_FLOWS_SQL, [
    query.accountId,
    query.environment,
    query.currency,
    bounds.map((bound) => bound.toISOString()),
    from,
    until,
  ]);
  const byDay = new Map(rows.map((row) => [Number(row.day), row]));
  return {
    currency: query.currency,
    timeZone,
    from,
    until,
    days: dates.map((date, i) => {
      const row = byDay.get(i + 1); // width_bucket counts from 1 at the first bound
      return {
        date,
        paymentsIn: money(row?.payments_in),
        payoutsOut: money(row?.payouts_out),
        settlementsOut: money(row?.settlements_out),
      };
    }),
  };
}
