import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  Environment,
  ORDER_EVENT_SCHEMA_VERSIONS,
  ORDER_STREAM_TYPE,
  OrderEvent,
  orderStreamId,
} from '@payouts/domain';
import type { EventStore, NewEvent } from '@payouts/event-store';

/**
 * Test support: checkout orders created and paid by appending their domain events to the store,
 * as the order commands do (the webhook reads nothing else of an order).
 */
const asNew = (event: OrderEvent): NewEvent => ({
  type: event.type,
  schemaVersion: ORDER_EVENT_SCHEMA_VERSIONS[event.type],
  data: event.data,
});

export interface TestOrder {
  orderId: number;
  accountId: string;
  environment: Environment;
  amount: string;
  product: string;
  hookUrl: string | null;
  credentialId: string;
}

/** A fresh order id: a positive integer, unique enough for one test database. */
export function newTestOrderId(): number {
  return randomInt(1, 2 ** 47);
}

export function orderCreatedEvent(order: TestOrder, at: Date): OrderEvent {
  return {
    type: 'OrderCreated',
    data: {
      orderId: order.orderId,
      accountId: order.accountId,
      environment: order.environment,
      method: 'card',
      amount: order.amount,
      currency: 'USD',
      customer: 'payer@example.com',
      product: order.product,
      redirectUrl: null,
      hookUrl: order.hookUrl,
      credentialId: order.credentialId,
      pageTokenHash: createHash('sha256').update(randomBytes(16)).digest('hex'),
      createdAt: at.toISOString(),
      expiresAt: new Date(at.getTime() + 86_400_000).toISOString(),
    },
  };
}

/** Appends OrderCreated, as Create Order does. */
export async function appendCreatedOrder(
  store: EventStore,
  order: TestOrder,
  at = new Date(),
): Promise<void> {
  await store.append([
    {
      streamId: orderStreamId(order.orderId),
      streamType: ORDER_STREAM_TYPE,
      expectedVersion: 'no_stream',
      events: [asNew(orderCreatedEvent(order, at))],
    },
  ]);
}

/** Appends a declined attempt and then the paying one, as the hosted page's attempts do. */
export async function payCreatedOrder(store: EventStore, orderId: number, at = new Date()): Promise<void> {
  const instrument = { kind: 'card' as const, brand: 'visa', last4: '4242' };
  await store.append([
    {
      streamId: orderStreamId(orderId),
      streamType: ORDER_STREAM_TYPE,
      expectedVersion: 1,
      events: [
        asNew({
          type: 'OrderPaymentDeclined',
          data: { orderId, attempt: 1, reason: 'card_declined', instrument, at: at.toISOString() },
        }),
        asNew({ type: 'OrderPaid', data: { orderId, attempt: 2, instrument, at: at.toISOString() } }),
      ],
    },
  ]);
}

/** Appends an order that ends EXPIRED without being paid, which must give no webhook. */
export async function expireCreatedOrder(store: EventStore, orderId: number, at = new Date()): Promise<void> {
  await store.append([
    {
      streamId: orderStreamId(orderId),
      streamType: ORDER_STREAM_TYPE,
      expectedVersion: 1,
      events: [asNew({ type: 'OrderExpired', data: { orderId, at: at.toISOString() } })],
    },
  ]);
}
