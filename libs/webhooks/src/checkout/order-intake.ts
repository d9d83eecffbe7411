import type { SqlQueryable } from '@payouts/database';
import {
  Environment,
  evolveOrder,
  initialOrderState,
  ORDER_EVENT_SCHEMA_VERSIONS,
  ORDER_STREAM_TYPE,
  OrderEvent,
  OrderState,
} from '@payouts/domain';
import type { RelayedEvent } from '../transport/event-transport';
import { checkoutWebhookBody, orderPaidEventId } from './checkout-webhook-body';
import { PaidOrderEvent, storePaidOrderEvents } from './paid-order-events';

/** The one order event that can become a checkout webhook (spec 6.1: once the payment is verified). */
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
  events: readonly RelayedEvent[],
  now: (environment: Environment) => Date,
): Promise<string[]> {
  const paid = events.filter(
    (event) => event.streamType === ORDER_STREAM_TYPE && event.type === ORDER_PAID_EVENT_TYPE,
  );
  if (paid.length === 0) return [];
  const streamIds = [...new Set(paid.map((event) => event.streamId))];
  const { rows } = await tx.query<{
    stream_id: string;
    stream_version: number;
    event_type: string;
    schema_version: number;
    data: unknown;
  }>(
    `SELECT stream_id, stream_version, event_type, schema_version, data FROM events
      WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, stream_version`,
    [streamIds],
  );
  const toStore: PaidOrderEvent[] = [];
  for (const event of paid) {
    let state: OrderState = initialOrderState();
    for (const row of rows) {
      if (row.stream_id !== event.streamId || row.stream_version > event.streamVersion) continue;
      state = evolveOrder(state, toOrderEvent(row.event_type, row.schema_version, row.data));
    }
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

/** A build never guesses at an event version it does not know: it stops, visibly, until upgraded. */
function toOrderEvent(type: string, schemaVersion: number, data: unknown): OrderEvent {
  const known = ORDER_EVENT_SCHEMA_VERSIONS[type as OrderEvent['type']];
  if (known === undefined) throw new Error(`unknown order event type ${type}`);
  if (Number(schemaVersion) !== known) {
    throw new Error(`order event ${type} has schema version ${schemaVersion}; this build reads ${known}`);
  }
  return { type, data } as OrderEvent;
}
