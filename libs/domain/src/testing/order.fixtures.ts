import { CreateOrder, OrderCommand } from '../order/order.commands';
import {
  OrderCreated,
  OrderDeclineReason,
  OrderEvent,
  OrderInstrument,
  OrderPaid,
  OrderPaymentDeclined,
} from '../order/order.events';
import { addMs, HOUR_MS } from '../kernel/time';

/** Commands and histories shared by the checkout order specs. Test code only. */

export const ORDER_ID = 1042;
export const T0 = new Date('2026-03-01T12:00:00.000Z');
export const TTL_MS = 24 * HOUR_MS;
export const EXPIRES_AT = '2026-03-02T12:00:00.000Z';
export const after = (ms: number): Date => addMs(T0, ms);
export const iso = (ms: number): string => after(ms).toISOString();
/** The last moment an order can still be paid. */
export const LAST_PAYABLE_MOMENT = after(TTL_MS - 1);

export const VISA: OrderInstrument = { kind: 'card', brand: 'visa', last4: '4242' };
export const WALLET: OrderInstrument = { kind: 'wallet', account: '****fail' };

export const createOrder = (overrides: Partial<CreateOrder['data']> = {}): CreateOrder => ({
  type: 'CreateOrder',
  data: {
    orderId: ORDER_ID,
    accountId: 'acc_1',
    environment: 'sandbox',
    method: 'card',
    amount: '10.5',
    currency: 'USD',
    customer: 'ana@example.com',
    product: 'Blue mug',
    redirectUrl: 'https://shop.example/thanks',
    hookUrl: 'https://shop.example/hooks/checkout',
    credentialId: 'cred_ck_1',
    pageTokenHash: 'hash-page-1',
    region: 'US',
    ttlMs: TTL_MS,
    minAmount: '0.50',
    maxAmount: '100000.00',
    cardRegions: ['US', 'CA', 'GB', 'EU', 'AU', 'NZ', 'JP', 'SG'],
    ...overrides,
  },
});

export const orderCreated = (overrides: Partial<OrderCreated['data']> = {}): OrderCreated => ({
  type: 'OrderCreated',
  data: {
    orderId: ORDER_ID,
    accountId: 'acc_1',
    environment: 'sandbox',
    method: 'card',
    amount: '10.50',
    currency: 'USD',
    customer: 'ana@example.com',
    product: 'Blue mug',
    redirectUrl: 'https://shop.example/thanks',
    hookUrl: 'https://shop.example/hooks/checkout',
    credentialId: 'cred_ck_1',
    pageTokenHash: 'hash-page-1',
    createdAt: T0.toISOString(),
    expiresAt: EXPIRES_AT,
    ...overrides,
  },
});

export const declined = (
  attempt: number,
  reason: OrderDeclineReason = 'card_declined',
  atMs = HOUR_MS,
  instrument: OrderInstrument = VISA,
): OrderPaymentDeclined => ({
  type: 'OrderPaymentDeclined',
  data: { orderId: ORDER_ID, attempt, reason, instrument, at: iso(atMs) },
});

export const paid = (attempt: number, atMs = 2 * HOUR_MS, instrument: OrderInstrument = VISA): OrderPaid => ({
  type: 'OrderPaid',
  data: { orderId: ORDER_ID, attempt, instrument, at: iso(atMs) },
});

export const expired: OrderEvent = { type: 'OrderExpired', data: { orderId: ORDER_ID, at: EXPIRES_AT } };

export const pendingOrder: OrderEvent[] = [orderCreated()];
export const paidOrder: OrderEvent[] = [orderCreated(), paid(1)];
export const expiredOrder: OrderEvent[] = [orderCreated(), expired];

export const declineAttempt = (
  reason: OrderDeclineReason = 'card_declined',
  instrument: OrderInstrument = VISA,
): OrderCommand => ({ type: 'RecordDeclinedAttempt', data: { orderId: ORDER_ID, reason, instrument } });
export const markPaid = (instrument: OrderInstrument = VISA): OrderCommand => ({
  type: 'MarkOrderPaid',
  data: { orderId: ORDER_ID, instrument },
});
export const expireOrder: OrderCommand = { type: 'ExpireOrder', data: { orderId: ORDER_ID } };
