import { Admin, Consumer, Kafka, logLevel, LogEntry, Partitioners, Producer } from 'kafkajs';
import type { SqlClient, SqlQueryable } from '@payouts/database';
import { ConsumeOptions, EventTransport, parseRelayedEvent, RelayedEvent } from './event-transport';

export type TransportLog = (level: 'info' | 'warn' | 'error', message: string) => void;

export interface KafkaTransportOptions {
  brokers: readonly string[];
  clientId: string;
  /** Topic of a stream type: `<prefix><stream type>`, e.g. `payouts.events.payout`. */
  topicPrefix: string;
  /** Partitions of the topics this transport creates (a topic that exists is left as it is). */
  topicPartitions: number;
  /** The consumer's handler runs in a transaction on this database. */
  db: SqlClient;
  log?: TransportLog;
}

/** Kafka topic names allow [a-zA-Z0-9._-]; stream types are plain words, anything else becomes `_`. */
export function topicFor(prefix: string, streamType: string): string {
  return `${prefix}${streamType.replace(/[^a-zA-Z0-9._-]/g, '_')}`;
}

/**
 * Kafka (kafkajs) behind the transport port. Producing: a topic per stream (aggregate) type, the
 * stream id as the key (one stream, one partition: a payout's events stay in order), acks from
 * every in-sync replica and the idempotent producer (a retried send is not written twice by the
 * broker). Consuming: a consumer group from the earliest offset; each batch is handled in one
 * database transaction and its offset committed only after that transaction, so a consumer that
 * dies in between gets the batch again (at-least-once, handlers idempotent).
 */
export class KafkaTransport implements EventTransport {
  readonly kind = 'kafka' as const;
  private readonly kafka: Kafka;
  private producer: Producer | undefined;
  private producerReady: Promise<Producer> | undefined;
  private admin: Admin | undefined;
  private readonly consumers: Consumer[] = [];
  private readonly knownTopics = new Set<string>();
  private closed = false;

  constructor(private readonly options: KafkaTransportOptions) {
    const log = options.log;
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: [...options.brokers],
      // kafkajs reports a broker restart's retriable errors as ERROR; real failures reach us as
      // rejections, so its own lines go to our log at warn at most.
      logLevel: log ? logLevel.WARN : logLevel.NOTHING,
      logCreator: () => (entry: LogEntry) => {
        log?.('warn', `kafka ${entry.namespace}: ${entry.log.message}`);
      },
    });
  }

  async publish(events: readonly RelayedEvent[], _tx: SqlQueryable): Promise<void> {
    if (this.closed) throw new Error('the Kafka transport is closed');
    if (events.length === 0) return;
    const producer = await this.connectedProducer();
    const byTopic = new Map<string, RelayedEvent[]>();
    for (const event of events) {
      const topic = topicFor(this.options.topicPrefix, event.streamType);
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), event]);
    }
    await this.ensureTopics([...byTopic.keys()]);
    await producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, batch]) => ({
        topic,
        messages: batch.map((event) => ({
          key: event.streamId,
          value: JSON.stringify(event),
          headers: { 'event-id': event.eventId, 'event-type': event.type },
        })),
      })),
    });
  }

  async consume(options: ConsumeOptions): Promise<void> {
    if (this.closed) throw new Error('the Kafka transport is closed');
    const topics = options.streamTypes.map((type) => topicFor(this.options.topicPrefix, type));
    await this.ensureTopics(topics);
    const consumer = this.kafka.consumer({
      groupId: options.groupId,
      // A fetch returns as soon as one message is there; this only bounds an idle fetch.
      maxWaitTimeInMs: 250,
      sessionTimeout: 30_000,
      heartbeatInterval: 3_000,
    });
    this.consumers.push(consumer);
    await consumer.connect();
    // From the earliest offset: events relayed before this group first started are not skipped.
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      // Offsets are committed only for batches whose transaction committed, every 100 messages or
      // second: a consumer that dies gets at most that much again, which the handler ignores.
      autoCommit: true,
      autoCommitThreshold: 100,
      autoCommitInterval: 1_000,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: Math.max(1, Math.min(this.options.topicPartitions, 8)),
      eachBatch: async ({
        batch,
        resolveOffset,
        heartbeat,
        commitOffsetsIfNecessary,
        isRunning,
        isStale,
      }) => {
        if (!isRunning() || isStale() || batch.messages.length === 0) return;
        const events: RelayedEvent[] = [];
        for (const message of batch.messages) {
          // The header names the type: events the consumer does not want are not even parsed.
          const header = message.headers?.['event-type']?.toString();
          if (options.eventTypes && header !== undefined && !options.eventTypes.includes(header)) continue;
          const event = message.value ? parseRelayedEvent(message.value.toString('utf8')) : null;
          if (!event) {
            this.options.log?.(
              'warn',
              `skipped a message that is not an event (${batch.topic} @ ${message.offset})`,
            );
          } else if (!options.eventTypes || options.eventTypes.includes(event.type)) {
            events.push(event);
          }
        }
        if (events.length > 0) {
          await this.options.db.transaction((tx) => options.handler(events, tx));
          options.onHandled?.();
        }
        resolveOffset(batch.lastOffset());
        await commitOffsetsIfNecessary();
        await heartbeat();
      },
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.consumers.map((consumer) => consumer.disconnect()));
    await this.producer?.disconnect().catch(() => undefined);
    await this.admin?.disconnect().catch(() => undefined);
  }

  private connectedProducer(): Promise<Producer> {
    this.producerReady ??= (async () => {
      const producer = this.kafka.producer({
        createPartitioner: Partitioners.DefaultPartitioner,
        idempotent: true,
        // The idempotent producer keeps order per partition with one request in flight.
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
      });
      this.producer = producer;
      await producer.connect();
      return producer;
    })().catch((error: unknown) => {
      this.producerReady = undefined; // the next batch tries again
      throw error;
    });
    return this.producerReady;
  }

  /**
   * Creates missing topics with the configured partitions, once per topic per process; a broker
   * that creates topics on first use is not relied on.
   */
  private async ensureTopics(topics: readonly string[]): Promise<void> {
    const missing = topics.filter((topic) => !this.knownTopics.has(topic));
    if (missing.length === 0) return;
    if (!this.admin) {
      this.admin = this.kafka.admin();
      await this.admin.connect();
    }
    await this.admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({ topic, numPartitions: this.options.topicPartitions })),
    });
    for (const topic of missing) this.knownTopics.add(topic);
  }
}
