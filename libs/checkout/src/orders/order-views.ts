import type { Order, OrderMethod, OrderStatus } from '@payouts/domain';

/**
 * A payment order as every checkout endpoint returns it (docs/design.md#orders-and-their-states):
 * `Amount` with its capital A as a JSON number with at most 2 decimals, `product` "" when none,
 * `hook_url` the account's webhook URL when the order was created.
 */
export interface OrderView {
  id: number;
  Amount: number;
  currency: string;
  customer: string;
  product: string;
  hook_url: string | null;
  status: OrderStatus;
  method: OrderMethod;
  created_at: string;
  paid_at: string | null;
  expires_at: string;
}

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', ${ISO_UTC})`;

/** The view's columns, in its field order; `amount` as text (exact), made a number in toOrderView. */
export const ORDER_VIEW_COLUMNS = `order_id, amount::text AS amount, currency, customer, product, hook_url, status,
  method, ${iso('created_at')} AS created_at, ${iso('paid_at')} AS paid_at, ${iso('expires_at')} AS expires_at`;

export interface OrderViewRow {
  order_id: string;
  amount: string;
  currency: string;
  customer: string;
  product: string;
  hook_url: string | null;
  status: OrderStatus;
  method: OrderMethod;
  created_at: string;
  paid_at: string | null;
  expires_at: string;
}

export function toOrderView(row: OrderViewRow): OrderView {
  return {
    id: Number(row.order_id),
    // numeric(20,2) text: at most 2 decimals; the nearest double prints as the same decimal.
    Amount: Number(row.amount),
    currency: row.currency,
    customer: row.customer,
    product: row.product,
    hook_url: row.hook_url,
    status: row.status,
    method: row.method,
    created_at: row.created_at,
    paid_at: row.paid_at,
    expires_at: row.expires_at,
  };
}

/**
 * The order as its stream folds it at some version (the events feed's `data` at that moment),
 * through the same mapping as a checkout_orders row: the row is this fold, stored, and the times
 * are printed as ORDER_VIEW_COLUMNS prints them (milliseconds, UTC).
 */
export function orderViewOf(order: Order): OrderView {
  const iso = (time: string) => new Date(time).toISOString();
  return toOrderView({
    order_id: String(order.orderId),
    amount: order.amount,
    currency: order.currency,
    customer: order.customer,
    product: order.product,
    hook_url: order.hookUrl,
    status: order.status,
    method: order.method,
    created_at: iso(order.createdAt),
    paid_at: order.paidAt === null ? null : iso(order.paidAt),
    expires_at: iso(order.expiresAt),
  });
}
