import Big from 'big.js';
import type { SqlClient } from '@payouts/database';
import { Environment, formatMoney, parseStoredMoney } from '@payouts/domain';
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
    const { rows } = await this.db.reads.queryPrepared<OrderViewRow>(
      `SELECT ${ORDER_VIEW_COLUMNS} FROM checkout_orders
       WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at <= $4
       ORDER BY created_at DESC, order_id DESC LIMIT $5`,
      [accountId, environment, start.toISOString(), end.toISOString(), HISTORY_MAX_ORDERS + 1],
    );
    if (rows.length > HISTORY_MAX_ORDERS) throw new HistoryTooLargeError();
    const sum = rows.reduce((total, row) => total.plus(row.amount), new Big(0));
    return { amount: Number(sum.toFixed(2)), data: rows.map(toOrderView) };
  }

  /** Get Payments Status: null for another account's or environment's order as for none. */
  async find(accountId: string, environment: Environment, orderId: number): Promise<OrderView | null> {
    const { rows } = await this.db.reads.queryPrepared<OrderViewRow>(
      `SELECT ${ORDER_VIEW_COLUMNS} FROM checkout_orders WHERE order_id = $1 AND account_id = $2 AND environment = $3`,
      [orderId, accountId, environment],
    );
    return rows[0] ? toOrderView(rows[0]) : null;
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
      amount: formatMoney(parseStoredMoney(row.amount)),
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
