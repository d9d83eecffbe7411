import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { chainAlongside } from '@payouts/audit';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import type { EventStore, FeedSubscription } from '@payouts/event-store';
import type { Metrics } from '@payouts/observability';
import { APP_CONFIG, EVENT_STORE, measureFeedLag, METRICS, SQL_CLIENT } from '@payouts/platform';
import { countByStatus, projectReadModels, READ_MODEL_SUBSCRIPTION_ID } from '@payouts/read-models';

/**
 * Follows the global feed from its durable checkpoint and brings the read models up to date; each
 * batch and its checkpoint commit in one transaction. The same batch extends the audit's hash
 * chain (`chainAlongside`), so the feed is read once for both; the ChainKeeper only catches up
 * when the chain is behind.
 */
@Injectable()
export class ReadModelProjector implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ReadModelProjector');
  private subscription: FeedSubscription | undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(METRICS) private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    // On every scrape (docs/design.md#metrics): how far behind it is, and what the read models hold.
    this.metrics.projectionLag(READ_MODEL_SUBSCRIPTION_ID, () =>
      measureFeedLag(this.store, READ_MODEL_SUBSCRIPTION_ID),
    );
    this.metrics.statusTotals(() => countByStatus(this.db));
    this.subscription = this.store.subscribe({
      subscriptionId: READ_MODEL_SUBSCRIPTION_ID,
      pollIntervalMs: this.config.projectorPollMs,
      handle: async (events, tx) => {
        await projectReadModels(tx, this.store, events);
        await chainAlongside(tx, events, READ_MODEL_SUBSCRIPTION_ID);
      },
    });
    this.logger.log('following the event feed');
  }

  /** Resolves once everything committed before the call is projected. */
  async caughtUp(): Promise<void> {
    await this.subscription?.caughtUp();
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.stop();
    this.logger.log('stopped');
  }
}
