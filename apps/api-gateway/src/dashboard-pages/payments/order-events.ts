import { ORDER_AGGREGATE, OrderEvent, orderStreamId } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';

/** One event of an order's stream, as the order's own upcaster reads it. */
export interface OrderStreamEvent {
  /** The event's id in the store: a stable key. */
  eventId: string;
  event: OrderEvent;
}

/**
 * The order's events, oldest first, from its stream (`order-<id>`) through the event store port,
 * each read through ORDER_AGGREGATE's upcaster as the write side and the read models read them.
 * Call it only for an order the caller may see (OrderQueries.details found it): the stream itself
 * is not scoped to an account.
 */
export async function readOrderEvents(store: EventStore, orderId: number): Promise<OrderStreamEvent[]> {
  const { events } = await store.readStream(orderStreamId(orderId));
  return events.map((recorded) => ({ eventId: recorded.eventId, event: ORDER_AGGREGATE.upcast(recorded) }));
}
