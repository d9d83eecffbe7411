import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Clock } from '@payouts/clock';
import type { AppConfig } from '@payouts/config';
import { DomainError, ENVIRONMENTS } from '@payouts/domain';
import { APP_CONFIG, CLOCK } from '@payouts/platform';
import { OrderQueries } from '../orders/order-queries';
import { ExpireOrderCommand } from './expire-order.handler';

/** Orders expired per environment per pass; a backlog goes over the next passes. */
const BATCH = 200;

/**
 * Unpaid checkout orders become EXPIRED once their `expires_at` (24 hours after creation, a
 * setting) has passed on the environment's clock, so the sandbox clock moves them too. Every
 * WORKER_POLL_MS the pending orders past their deadline are read from the orders read model and
 * each is expired through its own command; an order paid meanwhile refuses it (invalid_transition)
 * and one expired twice changes nothing. The hosted page answers 410 from the deadline on, whether
 * or not this pass has run yet.
 */
@Injectable()
export class OrderExpiry implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('OrderExpiry');
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly orders: OrderQueries,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
  }

  /** One pass over both environments; returns how many orders it expired. */
  async pass(): Promise<number> {
    let expired = 0;
    for (const environment of ENVIRONMENTS) {
      const due = await this.orders.dueForExpiry(environment, this.clock.now(environment), BATCH);
      for (const orderId of due) {
        try {
          if ((await this.commands.execute(new ExpireOrderCommand(orderId))).expired) expired += 1;
        } catch (error) {
          // Paid in the meantime: nothing to do. Anything else is retried on the next pass.
          if (!(error instanceof DomainError && error.code === 'invalid_transition')) {
            this.logger.warn(
              `order ${orderId} not expired yet: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
        }
      }
    }
    return expired;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.pass();
      } catch (error) {
        this.logger.error(
          `an order expiry pass failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (this.stopping) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.config.workerPollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}
