import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import type { EventStore, FeedSubscription } from '@payouts/event-store';
import type { Metrics } from '@payouts/observability';
import { APP_CONFIG, EVENT_STORE, measureFeedLag, METRICS, SQL_CLIENT } from '@payouts/platform';
import { KAFKA_RELAY_SUBSCRIPTION_ID, KafkaTransport, startRelay } from '@payouts/webhooks';

/**
 * Relays every committed event to Kafka (issue 5 section 1) when KAFKA_BROKERS is set: a topic per
 * stream type, the stream id as key, its own durable checkpoint beside the read models'. Without
 * Kafka there is nothing to relay to; the webhook dispatcher then follows the feed itself through
 * the in-process transport.
 */
@Injectable()
export class KafkaRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('KafkaRelay');
  private transport: KafkaTransport | undefined;
  private subscription: FeedSubscription | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(METRICS) private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    const kafka = this.config.kafka;
    if (!kafka) return;
    this.metrics.relayLag(KAFKA_RELAY_SUBSCRIPTION_ID, () =>
      measureFeedLag(this.store, KAFKA_RELAY_SUBSCRIPTION_ID),
    );
    this.transport = new KafkaTransport({
      brokers: kafka.brokers,
      clientId: 'kafka-relay',
      topicPrefix: kafka.topicPrefix,
      topicPartitions: kafka.topicPartitions,
      db: this.db,
      log: (level, message) => (level === 'info' ? this.logger.log(message) : this.logger[level](message)),
    });
    // A broker that is down fails the batch; the subscription retries it with a backoff.
    this.subscription = startRelay(this.store, this.transport, {
      subscriptionId: KAFKA_RELAY_SUBSCRIPTION_ID,
      pollIntervalMs: kafka.relayPollMs,
    });
    this.logger.log(
      `relaying the event feed to Kafka (${kafka.brokers.join(',')}, topics ${kafka.topicPrefix}*)`,
    );
  }

  /** Resolves once everything committed before the call is in Kafka. */
  async caughtUp(): Promise<void> {
    await this.subscription?.caughtUp();
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.stop();
    await this.transport?.close();
  }
}
