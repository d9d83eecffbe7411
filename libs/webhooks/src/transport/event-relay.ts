import type { EventStore, FeedSubscription } from '@payouts/event-store';
import { EventTransport, toRelayedEvent } from './event-transport';

export const KAFKA_RELAY_SUBSCRIPTION_ID = 'kafka-relay';
export const IN_PROCESS_RELAY_SUBSCRIPTION_ID = 'in-process-relay';
/** Events per relayed batch: one Kafka request, one checkpoint write. */
export const RELAY_BATCH_SIZE = 2_000;

/**
 * Every committed event, in feed order, to the transport. The relay is a durable subscription of
 * the event store: a batch is published first and its checkpoint commits after, in the same
 * transaction, so a relay killed mid-batch publishes that batch again when it comes back (at least
 * once, never lost), under the same event ids. The feed never skips an event committed late by a
 * concurrent transaction (the store reads below the oldest transaction in flight).
 */
export function startRelay(
  store: EventStore,
  transport: EventTransport,
  options: { subscriptionId: string; pollIntervalMs: number; batchSize?: number },
): FeedSubscription {
  return store.subscribe({
    subscriptionId: options.subscriptionId,
    pollIntervalMs: options.pollIntervalMs,
    batchSize: options.batchSize ?? RELAY_BATCH_SIZE,
    handle: (events, tx) => transport.publish(events.map(toRelayedEvent), tx),
  });
}
