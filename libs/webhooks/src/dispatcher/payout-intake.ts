import type { SqlQueryable } from '@payouts/database';
import type { EventStore } from '@payouts/event-store';
import { Environment, ORDER_STREAM_TYPE, PAYOUT_AGGREGATE, PAYOUT_STREAM_TYPE } from '@payouts/domain';
import { ingestPaidOrders, ORDER_PAID_EVENT_TYPE } from '../checkout/order-intake';
import { payoutUpdatedBody, payoutUpdatedEventId, payoutWebhookData } from '../payout-webhook-event';
import { PaidPayoutEvent, storePaidPayoutEvents } from '../store/paid-payout-events';
import type { RelayedEvent } from '../transport/event-transport';
import { foldRelayedStreams } from './fold-relayed-streams';

/** The dispatcher's consumer group, on Kafka and in-process alike. */
export const DISPATCHER_GROUP_ID = 'webhook-dispatcher';
/**
 * The stream types whose events can become webhooks: payouts and checkout orders
 * (docs/design.md#webhook-dispatcher). On Kafka each is a topic the dispatcher subscribes to;
 * in-process, a filter.
 */
export const DISPATCHER_STREAM_TYPES: readonly string[] = [PAYOUT_STREAM_TYPE, ORDER_STREAM_TYPE];
/**
 * The only events that can: a payout paid (payout.updated only then: docs/design.md#events-and-ids)
 * and an order paid (once the payment is verified: docs/design.md#checkout-webhook). Everything
 * else is skipped by its header on Kafka.
 */
export const DISPATCHER_EVENT_TYPES: readonly string[] = ['PayoutPaid', ORDER_PAID_EVENT_TYPE];

/**
 * Turns relayed events into stored webhook events, in the consumer's transaction: paid payouts
 * here, paid orders in checkout/order-intake.ts. Returns the ids of deliveries scheduled now.
 */
export async function ingestRelayedEvents(
  tx: SqlQueryable,
  store: EventStore,
  events: readonly RelayedEvent[],
  now: (environment: Environment) => Date,
): Promise<string[]> {
  const payouts = await ingestPaidPayouts(tx, store, events, now);
  const orders = await ingestPaidOrders(tx, store, events, now);
  return [...payouts, ...orders];
}

/**
 * Only a payout reaching `paid` makes an event (docs/design.md#events-and-ids: nothing for expired,
 * cancelled, failed, review_required or the move to processing). The payout is folded from its own
 * stream up to the PayoutPaid event with the domain's evolve, so `data` is the payout exactly as it
 * was when it was paid, whatever happened to the read models.
 */
async function ingestPaidPayouts(
  tx: SqlQueryable,
  store: EventStore,
  events: readonly RelayedEvent[],
  now: (environment: Environment) => Date,
): Promise<string[]> {
  const paid = events.filter(
    (event) => event.streamType === PAYOUT_STREAM_TYPE && event.type === 'PayoutPaid',
  );
  if (paid.length === 0) return [];
  const toStore: PaidPayoutEvent[] = [];
  for (const { event, state } of await foldRelayedStreams(store, tx, paid, PAYOUT_AGGREGATE)) {
    // The relay only publishes committed events, so the stream holds the PayoutPaid it reports.
    if (state.status !== 'paid') {
      throw new Error(`${event.streamId} is ${state.status} at version ${event.streamVersion}, not paid`);
    }
    const eventId = payoutUpdatedEventId(state.payoutId);
    toStore.push({
      eventId,
      accountId: state.accountId,
      environment: state.environment,
      payoutId: state.payoutId,
      sourceEventId: event.eventId,
      body: payoutUpdatedBody(eventId, payoutWebhookData(state)),
    });
  }
  return storePaidPayoutEvents(tx, toStore, now);
}
