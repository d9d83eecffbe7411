import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CHAIN_BATCH_SIZE, CHAIN_CATCH_UP_POLL_MS, CHAIN_SUBSCRIPTION_ID, chainBatch } from '@payouts/audit';
import type { AppConfig } from '@payouts/config';
import type { EventStore, FeedSubscription } from '@payouts/event-store';
import type { Metrics } from '@payouts/observability';
import { APP_CONFIG, EVENT_STORE, measureFeedLag, METRICS } from '@payouts/platform';

/**
 * Keeps the tamper-evidence chain (docs/design.md#chain, docs/audit.md) when the read-model projector
 * cannot: the projector links each batch it reads (`chainAlongside`) once the chain has reached
 * it, and this subscription, with its own checkpoint, links what comes before (a database
 * upgraded to the chain, a chain that stopped on a failure). It looks rarely, since the projector
 * does the steady work: every look reads the feed after the chain's checkpoint. Links are written
 * after the events commit, so the create path pays nothing for them; `npm run audit -- verify`
 * reports what is not linked yet as "not yet chained".
 */
@Injectable()
export class ChainKeeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ChainKeeper');
  private subscription: FeedSubscription | undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(METRICS) private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    this.metrics.projectionLag(CHAIN_SUBSCRIPTION_ID, () =>
      measureFeedLag(this.store, CHAIN_SUBSCRIPTION_ID),
    );
    this.subscription = this.store.subscribe({
      subscriptionId: CHAIN_SUBSCRIPTION_ID,
      pollIntervalMs: Math.max(this.config.projectorPollMs, CHAIN_CATCH_UP_POLL_MS),
      // Larger batches than the projector's: a link is a hash and one row, and catching up on a
      // long log (first start after the upgrade) should not take one transaction per 100 events.
      batchSize: CHAIN_BATCH_SIZE,
      // In the embedded start the store shares the process: without this, every create would
      // wake the keeper for a batch of one on the single embedded connection.
      wakeOnAppend: false,
      handle: async (events, tx) => {
        await chainBatch(tx, events);
      },
    });
    this.logger.log('chaining the event feed');
  }

  /** Resolves once everything committed before the call is chained. */
  async caughtUp(): Promise<void> {
    await this.subscription?.caughtUp();
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.stop();
    this.logger.log('stopped');
  }
}
