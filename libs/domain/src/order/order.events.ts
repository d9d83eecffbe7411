import { Environment } from '../kernel/decider';

/**
 * Events of one checkout order's stream (`order-<order_id>`). Money is a decimal string with
 * exactly two decimals in the order's currency; times are ISO 8601 UTC strings. Each type carries a
 * schema version (ORDER_EVENT_SCHEMA_VERSIONS) so an upcaster can read old events after a change.
 */

/** The way the payer pays, fixed by the create path (docs/design.md#paths-and-methods). */
export const ORDER_METHODS = ['card', 'mobile_wallet', 'cash_app', 'online_wallet', 'p2p_app'] as const;
export type OrderMethod = (typeof ORDER_METHODS)[number];

/** Every order status (docs/design.md#orders-and-their-states), spelled as the API shows them. */
export const ORDER_STATUSES = ['PENDING', 'SUCCESS', 'EXPIRED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_DECLINE_REASONS = ['card_declined', 'insufficient_funds', 'wallet_declined'] as const;
export type OrderDeclineReason = (typeof ORDER_DECLINE_REASONS)[number];

/**
 * What the payer paid with, as far as the service may keep it: a card's brand and last four digits
 * (never its number), or a wallet account already masked by the caller.
 */
export type OrderInstrument =
  { kind: 'card'; brand: string; last4: string } | { kind: 'wallet'; account: string };

export type OrderCreated = {
  type: 'OrderCreated';
  data: {
    orderId: number;
    accountId: string;
    environment: Environment;
    method: OrderMethod;
    amount: string;
    currency: string;
    customer: string;
    product: string;
    redirectUrl: string | null;
    hookUrl: string | null;
    /** The checkout credential that created the order: its secret signs the order's webhook. */
    credentialId: string;
    /** Hash of the hosted page's token; the token itself is only ever in the order_url. */
    pageTokenHash: string;
    createdAt: string;
    expiresAt: string;
  };
};

/** A declined attempt is recorded and leaves the order PENDING, so the payer can try again. */
export type OrderPaymentDeclined = {
  type: 'OrderPaymentDeclined';
  data: {
    orderId: number;
    attempt: number;
    reason: OrderDeclineReason;
    instrument: OrderInstrument;
    at: string;
  };
};

export type OrderPaid = {
  type: 'OrderPaid';
  data: { orderId: number; attempt: number; instrument: OrderInstrument; at: string };
};

export type OrderExpired = {
  type: 'OrderExpired';
  data: { orderId: number; at: string };
};

export type OrderEvent = OrderCreated | OrderPaymentDeclined | OrderPaid | OrderExpired;

export const ORDER_EVENT_SCHEMA_VERSIONS: Record<OrderEvent['type'], number> = {
  OrderCreated: 1,
  OrderPaymentDeclined: 1,
  OrderPaid: 1,
  OrderExpired: 1,
};

export const ORDER_STREAM_TYPE = 'order';
export const orderStreamId = (orderId: number): string => `order-${orderId}`;
