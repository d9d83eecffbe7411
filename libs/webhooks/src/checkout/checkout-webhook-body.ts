import { createHash } from 'node:crypto';

/**
 * The checkout webhook's body (docs/design.md#checkout-webhook). It is written as text here, not with
 * JSON.stringify of an object: the key order is part of the contract, and `amount` must be the
 * order's decimal string as a JSON number without ever becoming a JS number (10.50 is not exact
 * in binary floating point; neither are most amounts).
 */

/** The internal type of a checkout webhook event in webhook_events (the body carries no type). */
export const ORDER_PAID = 'order.paid';

/** Money as the order domain writes it: digits, at most two decimals, no sign, no exponent. */
const DECIMAL_AMOUNT = /^(0|[1-9]\d{0,15})(?:\.(\d{1,2}))?$/;

/**
 * A decimal string as the shortest JSON number with the same value: trailing zeros of the
 * fraction dropped, and the point with them ("10.50" → 10.5, "100000.00" → 100000, "0.50" → 0.5).
 * Pure string work, so no value is ever rounded.
 */
export function jsonNumberFromDecimal(amount: string): string {
  const match = typeof amount === 'string' ? DECIMAL_AMOUNT.exec(amount) : null;
  if (!match) throw new RangeError(`not a decimal amount with at most 2 decimals: ${String(amount)}`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  return fraction === '' ? match[1]! : `${match[1]}.${fraction}`;
}

export interface CheckoutWebhookFacts {
  /** A positive integer for a real order; 0 only for the test webhook. */
  orderId: number;
  /** The order's decimal string, e.g. "10.50". */
  amount: string;
  /** "" when the order has none. */
  product: string;
}

/** `{"order_id":<int>,"status":"SUCCESS","amount":<number>,"product":"<text>"}`, exactly. */
export function checkoutWebhookBody(facts: CheckoutWebhookFacts): string {
  if (!Number.isSafeInteger(facts.orderId) || facts.orderId < 0) {
    throw new RangeError(`order_id must be a non-negative integer, not ${facts.orderId}`);
  }
  if (typeof facts.product !== 'string') throw new TypeError('product must be a string');
  // JSON.stringify of a string only escapes it (quotes, backslashes, control characters).
  const product = JSON.stringify(facts.product);
  const amount = jsonNumberFromDecimal(facts.amount);
  return `{"order_id":${facts.orderId},"status":"SUCCESS","amount":${amount},"product":${product}}`;
}

/** The body `GET /payment/test_webhook` sends (docs/design.md#test-webhook): no order behind it. */
export const CHECKOUT_TEST_WEBHOOK_BODY = checkoutWebhookBody({
  orderId: 0,
  amount: '1',
  product: 'Test webhook',
});

/**
 * The one event id of a paid order. Derived from the order id (unique across the service) rather
 * than drawn at random, so an OrderPaid relayed again can only ever name the same event.
 */
export function orderPaidEventId(orderId: number): string {
  const digest = createHash('sha256').update(`${ORDER_PAID}\n${orderId}`, 'utf8').digest('hex');
  return `evt_${digest.slice(0, 32)}`;
}
