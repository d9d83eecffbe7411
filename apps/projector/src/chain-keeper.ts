import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CHAIN_BATCH_SIZE, CHAIN_POLL_MIN_MS, CHAIN_SUBSCRIPTION_ID, chainBatch } from '@payouts/audit';
import type { AppConfig } from '@payouts/config';
import type { EventStore, FeedSubscription } from '@payouts/event-store';
import { APP_CONFIG, EVENT_STORE } from '@payouts/platform';

/**
 * Keeps the tamper-evidence chain (ARCHITECTURE 8, docs/audit.md): follows the feed from its own
 * checkpoint and adds one link per committed event. A feed subscriber rather than part of the
 * append, so the create path pays nothing for it; `npm run audit -- verify` reports what it has
 * not reached yet as "not yet chained".
 */
@Injectable()
export class ChainKeeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ChainKeeper');
  private subscription: FeedSubscription | undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.store.subscribe({
      subscriptionId: CHAIN_SUBSCRIPTION_ID,
      pollIntervalMs: Math.max(this.config.projectorPollMs, CHAIN_POLL_MIN_MS),
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
