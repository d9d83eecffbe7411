import type { SqlQueryable } from '@payouts/database';
import type { EventStore } from '@payouts/event-store';
import { Environment, ORDER_AGGREGATE, ORDER_STREAM_TYPE } from '@payouts/domain';
import { foldRelayedStreams } from '../dispatcher/fold-relayed-streams';
import type { RelayedEvent } from '../transport/event-transport';
import { checkoutWebhookBody, orderPaidEventId } from './checkout-webhook-body';
import { PaidOrderEvent, storePaidOrderEvents } from './paid-order-events';

/**
 * The one order event that can become a checkout webhook (once the payment is verified:
 * docs/design.md#checkout-webhook).
 */
export const ORDER_PAID_EVENT_TYPE = 'OrderPaid';

/**
 * Turns relayed OrderPaid events into stored order.paid webhook events, in the consumer's
 * transaction. The order is folded from its own stream up to the OrderPaid event with the domain's
 * evolve, so the body, the hook_url and the signing credential are the order's own, whatever
 * happened to the read models. An order created without a hook_url gets nothing: there is nowhere
 * to send it, then or ever. Returns the ids of deliveries scheduled now.
 */
export async function ingestPaidOrders(
  tx: SqlQueryable,
  store: EventStore,
  events: readonly RelayedEvent[],
  now: (environment: Environment) => Date,
): Promise<string[]> {
  const paid = events.filter(
    (event) => event.streamType === ORDER_STREAM_TYPE && event.type === ORDER_PAID_EVENT_TYPE,
  );
  if (paid.length === 0) return [];
  const toStore: PaidOrderEvent[] = [];
  for (const { event, state } of await foldRelayedStreams(store, tx, paid, ORDER_AGGREGATE)) {
    // The relay only publishes committed events, so the stream holds the OrderPaid it reports.
    if (state.status !== 'SUCCESS') {
      throw new Error(`${event.streamId} is ${state.status} at version ${event.streamVersion}, not SUCCESS`);
    }
    if (state.hookUrl === null) continue;
    toStore.push({
      eventId: orderPaidEventId(state.orderId),
      accountId: state.accountId,
      environment: state.environment,
      orderId: state.orderId,
      sourceEventId: event.eventId,
      body: checkoutWebhookBody(state),
      targetUrl: state.hookUrl,
      credentialId: state.credentialId,
    });
  }
  return storePaidOrderEvents(tx, toStore, now);
}
