import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AccountsRepository, SecretBox } from '@payouts/accounts';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import type { EventStore, FeedSubscription } from '@payouts/event-store';
import type { Clock } from '@payouts/clock';
import { WEBHOOK_QUEUE_CAP } from '@payouts/observability';
import type { Metrics } from '@payouts/observability';
import { APP_CONFIG, CLOCK, EVENT_STORE, measureFeedLag, METRICS, SQL_CLIENT } from '@payouts/platform';
import {
  ConsumeOptions,
  DeliveryQueue,
  DeliveryScheduler,
  DISPATCHER_EVENT_TYPES,
  DISPATCHER_GROUP_ID,
  DISPATCHER_STREAM_TYPES,
  EventTransport,
  IN_PROCESS_RELAY_SUBSCRIPTION_ID,
  InProcessTransport,
  ingestRelayedEvents,
  KafkaTransport,
  startRelay,
} from '@payouts/webhooks';
import { resolveEncryptionKeys } from '@payouts/accounts';

/** After a failed start of the Kafka consumer (broker not up yet), the next try. */
const CONSUMER_RETRY_MS = 5_000;

/**
 * The webhook dispatcher (docs/design.md#webhook-dispatcher): consumes payout and order events as the
 * `webhook-dispatcher` group, turns each paid payout into its one `payout.updated` event and each
 * paid order with a hook_url into its one checkout webhook, and delivers signed webhooks on the
 * durable schedule. With KAFKA_BROKERS it reads Kafka (the projector relays to it);
 * without, it runs the relay itself into the in-process transport, so the embedded start (and a
 * dispatcher alone on a database) works with no broker. The intake and delivery code is the same.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookDispatcher');
  private transport: EventTransport | undefined;
  private relay: FeedSubscription | undefined;
  private scheduler: DeliveryScheduler | undefined;
  private stopping = false;
  private consumerRetry: NodeJS.Timeout | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(METRICS) private readonly metrics: Metrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const encryptionKey = resolveEncryptionKeys(this.config);
    const box = new SecretBox(encryptionKey);
    // Checkout webhooks are signed with the API secret of the credential that created the order.
    const accounts = new AccountsRepository(this.db, encryptionKey);
    const { webhooks, kafka } = this.config;
    if (webhooks.allowInsecureTargets) {
      this.logger.warn(
        'WEBHOOK_ALLOW_INSECURE_TARGETS=true: http and loopback targets are allowed (never in production)',
      );
    }
    if (webhooks.proxyUrl) {
      // Never the URL itself: it may carry the proxy's password.
      this.logger.log(
        `webhook attempts leave through the forward proxy ${webhooks.proxyUrl.host} (WEBHOOK_PROXY_URL)`,
      );
    }
    const queue = new DeliveryQueue(this.db);
    // On every scrape (docs/design.md#metrics); each attempt is counted as it is made.
    this.metrics.webhookQueueDepth(() => queue.depth(WEBHOOK_QUEUE_CAP));
    this.scheduler = new DeliveryScheduler(
      queue,
      this.clock,
      (endpointId, ciphertext) => box.decrypt(ciphertext, endpointId),
      {
        pollMs: webhooks.pollMs,
        maxInFlight: webhooks.maxInFlight,
        policy: { allowInsecure: webhooks.allowInsecureTargets },
        proxyUrl: webhooks.proxyUrl,
        log: (level, message) => this.logger[level](message),
        checkoutSecret: (credentialId) => accounts.checkoutSecret(credentialId),
        observer: this.metrics,
      },
    );
    this.scheduler.start();

    if (kafka) {
      this.transport = new KafkaTransport({
        brokers: kafka.brokers,
        clientId: 'webhook-dispatcher',
        topicPrefix: kafka.topicPrefix,
        topicPartitions: kafka.topicPartitions,
        db: this.db,
        log: (level, message) => (level === 'info' ? this.logger.log(message) : this.logger[level](message)),
      });
      // In the background: a broker that is not up yet is waited for, not a failed start.
      void this.startConsumer();
    } else {
      this.transport = new InProcessTransport();
      await this.transport.consume(this.consumeOptions());
      this.relay = startRelay(this.store, this.transport, {
        subscriptionId: IN_PROCESS_RELAY_SUBSCRIPTION_ID,
        pollIntervalMs: this.config.projectorPollMs,
      });
      this.metrics.relayLag(IN_PROCESS_RELAY_SUBSCRIPTION_ID, () =>
        measureFeedLag(this.store, IN_PROCESS_RELAY_SUBSCRIPTION_ID),
      );
      this.logger.log('following the event feed through the in-process transport (KAFKA_BROKERS is not set)');
    }
  }

  /** Looks for due deliveries now (tests, after moving the sandbox clock). */
  wake(): void {
    this.scheduler?.wake();
  }

  /** Resolves once the in-process relay has handed over every event committed before the call. */
  async caughtUp(): Promise<void> {
    await this.relay?.caughtUp();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.consumerRetry);
    await this.relay?.stop();
    await this.transport?.close();
    await this.scheduler?.stop();
    this.logger.log('stopped');
  }

  private consumeOptions(): ConsumeOptions {
    return {
      groupId: DISPATCHER_GROUP_ID,
      streamTypes: DISPATCHER_STREAM_TYPES,
      eventTypes: DISPATCHER_EVENT_TYPES,
      handler: async (events, tx) => {
        await ingestRelayedEvents(tx, this.store, events, (environment) => this.clock.now(environment));
      },
      // The first attempts are due at once: look for them as soon as they are committed.
      onHandled: () => this.scheduler?.wake(),
    };
  }

  private async startConsumer(): Promise<void> {
    try {
      await this.transport?.consume(this.consumeOptions());
      this.logger.log('consuming payout and order events from Kafka');
    } catch (error) {
      if (this.stopping) return;
      this.logger.warn(
        `cannot start the Kafka consumer yet (${error instanceof Error ? error.message : String(error)}); retrying`,
      );
      this.consumerRetry = setTimeout(() => void this.startConsumer(), CONSUMER_RETRY_MS);
    }
  }
}

@Module({ providers: [WebhookDispatcher], exports: [WebhookDispatcher] })
export class WebhookDispatcherModule {}
