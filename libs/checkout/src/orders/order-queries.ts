import Big from 'big.js';
import type { SqlClient } from '@payouts/database';
import {
  Environment,
  formatMoney,
  OrderDeclineReason,
  OrderInstrument,
  OrderMethod,
  OrderStatus,
  parseStoredMoney,
} from '@payouts/domain';
import { ORDER_VIEW_COLUMNS, OrderView, OrderViewRow, toOrderView } from './order-views';

export const PAYMENTS_DEFAULT_LIMIT = 10;
export const PAYMENTS_MAX_LIMIT = 100;
/** More matching orders than this in one history is refused (422 history_too_large). */
export const HISTORY_MAX_ORDERS = 10_000;

export class HistoryTooLargeError extends Error {
  constructor() {
    super(`more than ${HISTORY_MAX_ORDERS} orders match; narrow the dates`);
  }
}

/** An order as its hosted page needs it: the view, the merchant's redirect and the account. */
export interface PageOrder {
  view: OrderView;
  /** The amount as the decimal the order holds, 2 places ("10.50"): what the page shows, never a float. */
  amount: string;
  accountId: string;
  environment: Environment;
  redirectUrl: string | null;
  attempts: number;
  lastDecline: string | null;
}

/**
 * Which orders of one account and environment a read takes: created within [start, end] (both
 * inclusive, as Get Payments History's dates), and of one status or method. Absent means any.
 */
export interface OrderFilter {
  start?: Date;
  end?: Date;
  status?: OrderStatus;
  method?: OrderMethod;
}

/** An order with its amount as the decimal the order holds, 2 places ("10.50"): what a page shows. */
export interface ListedOrder {
  view: OrderView;
  amount: string;
}

/** The exact sum of the matching orders' amounts in one currency, and how many they are. */
export interface CurrencySum {
  currency: string;
  orders: number;
  /** Decimal, 2 places. */
  amount: string;
}

/** One page of the orders matching a filter, how many match, and what they add up to. */
export interface OrderSearch {
  total: number;
  /** Per currency, by currency code; none when nothing matches. */
  sums: CurrencySum[];
  data: ListedOrder[];
}

/** An order and what the read model keeps of its attempts (the dashboard's order page). */
export interface OrderDetails extends ListedOrder {
  /** Declined and paid attempts recorded on the order. */
  attempts: number;
  lastDecline: OrderDeclineReason | null;
  /** What a paid order was paid with (brand and last four, or the masked wallet account). */
  instrument: OrderInstrument | null;
}

/**
 * The WHERE clause of the orders a filter takes, and its parameters ($1 …). Its text depends only
 * on which filters are present (a handful of constant variants, never on their values), so it
 * stays a prepared statement's text.
 */
function matching(
  accountId: string,
  environment: Environment,
  filter: OrderFilter,
): { where: string; params: unknown[] } {
  const params: unknown[] = [accountId, environment];
  const conditions = ['account_id = $1', 'environment = $2'];
  const add = (column: string, operator: string, value: unknown) => {
    params.push(value);
    conditions.push(`${column} ${operator} $${params.length}`);
  };
  if (filter.start) add('created_at', '>=', filter.start.toISOString());
  if (filter.end) add('created_at', '<=', filter.end.toISOString());
  if (filter.status) add('status', '=', filter.status);
  if (filter.method) add('method', '=', filter.method);
  return { where: conditions.join(' AND '), params };
}

const NEWEST_FIRST = 'ORDER BY created_at DESC, order_id DESC';

const amountOf = (row: { amount: string }): string => formatMoney(parseStoredMoney(row.amount));

/** Reads of the checkout orders read model, always scoped to the caller's account and environment. */
export class OrderQueries {
  constructor(private readonly db: SqlClient) {}

  /** Get Payments List: newest first (created_at, then id). */
  async list(
    accountId: string,
    environment: Environment,
    limit: number,
    offset: number,
  ): Promise<{ total: number; data: OrderView[] }> {
    const [page, total] = await Promise.all([
      this.db.reads.queryPrepared<OrderViewRow>(
        `SELECT ${ORDER_VIEW_COLUMNS} FROM checkout_orders WHERE account_id = $1 AND environment = $2
         ORDER BY created_at DESC, order_id DESC LIMIT $3 OFFSET $4`,
        [accountId, environment, limit, offset],
      ),
      this.db.reads.queryPrepared<{ total: number }>(
        'SELECT count(*)::int AS total FROM checkout_orders WHERE account_id = $1 AND environment = $2',
        [accountId, environment],
      ),
    ]);
    return { total: total.rows[0]!.total, data: page.rows.map(toOrderView) };
  }

  /** Get Payments History: created within [start, end], newest first, with the exact sum. */
  async history(
    accountId: string,
    environment: Environment,
    start: Date,
    end: Date,
  ): Promise<{ amount: number; data: OrderView[] }> {
    const { where, params } = matching(accountId, environment, { start, end });
    const { rows } = await this.db.reads.queryPrepared<OrderViewRow>(
      `SELECT ${ORDER_VIEW_COLUMNS} FROM checkout_orders WHERE ${where} ${NEWEST_FIRST} LIMIT $${params.length + 1}`,
      [...params, HISTORY_MAX_ORDERS + 1],
    );
    if (rows.length > HISTORY_MAX_ORDERS) throw new HistoryTooLargeError();
    const sum = rows.reduce((total, row) => total.plus(row.amount), new Big(0));
    return { amount: Number(sum.toFixed(2)), data: rows.map(toOrderView) };
  }

  /**
   * The dashboard's list: the orders matching `filter` (History's dates, a status, a method), one
   * page of them newest first as Get Payments List orders them, how many match, and the exact sum
   * of their amounts per currency, added by the database over the same rows History selects.
   */
  async search(
    accountId: string,
    environment: Environment,
    filter: OrderFilter,
    limit: number,
    offset: number,
  ): Promise<OrderSearch> {
    const { where, params } = matching(accountId, environment, filter);
    const [page, sums] = await Promise.all([
      this.db.reads.queryPrepared<OrderViewRow>(
        `SELECT ${ORDER_VIEW_COLUMNS} FROM checkout_orders WHERE ${where} ${NEWEST_FIRST}
         LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, offset],
      ),
      this.db.reads.queryPrepared<{ currency: string; orders: number; amount: string }>(
        `SELECT currency, count(*)::int AS orders, sum(amount)::text AS amount FROM checkout_orders
         WHERE ${where} GROUP BY currency ORDER BY currency`,
        params,
      ),
    ]);
    return {
      total: sums.rows.reduce((total, row) => total + row.orders, 0),
      sums: sums.rows.map((row) => ({ currency: row.currency, orders: row.orders, amount: amountOf(row) })),
      data: page.rows.map((row) => ({ view: toOrderView(row), amount: amountOf(row) })),
    };
  }

  /** Get Payments Status: null for another account's or environment's order as for none. */
  async find(accountId: string, environment: Environment, orderId: number): Promise<OrderView | null> {
    const { rows } = await this.db.reads.queryPrepared<OrderViewRow>(
      `SELECT ${ORDER_VIEW_COLUMNS} FROM checkout_orders WHERE order_id = $1 AND account_id = $2 AND environment = $3`,
      [orderId, accountId, environment],
    );
    return rows[0] ? toOrderView(rows[0]) : null;
  }

  /**
   * The order as Get Payments Status reads it, with its amount as a decimal and its attempts as the
   * read model keeps them; null for another account's or environment's order as for none.
   */
  async details(accountId: string, environment: Environment, orderId: number): Promise<OrderDetails | null> {
    const { rows } = await this.db.reads.queryPrepared<
      OrderViewRow & {
        attempts: number;
        last_decline: OrderDeclineReason | null;
        instrument: OrderInstrument | null;
      }
    >(
      `SELECT ${ORDER_VIEW_COLUMNS}, attempts, last_decline, instrument
       FROM checkout_orders WHERE order_id = $1 AND account_id = $2 AND environment = $3`,
      [orderId, accountId, environment],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      view: toOrderView(row),
      amount: amountOf(row),
      attempts: row.attempts,
      lastDecline: row.last_decline,
      instrument: row.instrument,
    };
  }

  /** The order a hosted page's token names (by the token's hash), or null. */
  async byPageTokenHash(tokenHash: string): Promise<PageOrder | null> {
    const { rows } = await this.db.reads.queryPrepared<
      OrderViewRow & {
        account_id: string;
        environment: Environment;
        redirect_url: string | null;
        attempts: number;
        last_decline: string | null;
      }
    >(
      `SELECT ${ORDER_VIEW_COLUMNS}, account_id, environment, redirect_url, attempts, last_decline
       FROM checkout_orders WHERE page_token_hash = $1`,
      [tokenHash],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      view: toOrderView(row),
      amount: amountOf(row),
      accountId: row.account_id,
      environment: row.environment,
      redirectUrl: row.redirect_url,
      attempts: row.attempts,
      lastDecline: row.last_decline,
    };
  }

  /** Pending orders past their deadline on the environment's clock, oldest first (the worker's sweep). */
  async dueForExpiry(environment: Environment, now: Date, limit: number): Promise<number[]> {
    const { rows } = await this.db.query<{ order_id: string }>(
      `SELECT order_id FROM checkout_orders WHERE status = 'PENDING' AND environment = $1 AND expires_at <= $2
       ORDER BY expires_at LIMIT $3`,
      [environment, now.toISOString(), limit],
    );
    return rows.map((row) => Number(row.order_id));
  }
}
