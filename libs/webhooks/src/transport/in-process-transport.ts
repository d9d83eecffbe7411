import type { SqlQueryable } from '@payouts/database';
import type { ConsumeOptions, EventTransport, RelayedEvent } from './event-transport';

/**
 * The embedded start's transport: no broker, the consumers run in the relay's own transaction.
 * The relay's checkpoint and everything the consumers write commit together, so the embedded
 * start loses nothing and applies nothing twice, like Kafka with idempotent consumers, without a
 * broker to install. Consumers must live in the relay's process.
 */
export class InProcessTransport implements EventTransport {
  readonly kind = 'in-process' as const;
  private readonly consumers: ConsumeOptions[] = [];
  private closed = false;

  async publish(events: readonly RelayedEvent[], tx: SqlQueryable): Promise<void> {
    if (this.closed) throw new Error('the in-process transport is closed');
    // Without a consumer the relay would advance its checkpoint past events nobody handled.
    if (this.consumers.length === 0) throw new Error('the in-process transport has no consumer yet');
    for (const consumer of this.consumers) {
      const wanted = events.filter(
        (event) =>
          consumer.streamTypes.includes(event.streamType) &&
          (consumer.eventTypes === undefined || consumer.eventTypes.includes(event.type)),
      );
      if (wanted.length === 0) continue;
      await consumer.handler(wanted, tx);
      consumer.onHandled?.();
    }
  }

  async consume(options: ConsumeOptions): Promise<void> {
    if (this.consumers.some((consumer) => consumer.groupId === options.groupId)) {
      throw new Error(`consumer group ${options.groupId} is already registered`);
    }
    this.consumers.push(options);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.consumers.length = 0;
  }
}
