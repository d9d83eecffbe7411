import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { ReceivingDetailsVault } from '@payouts/claims';
import { RECEIVING_DETAILS_VAULT } from '@payouts/claims';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import {
  DomainError,
  DomainErrorCode,
  Environment,
  ENVIRONMENTS,
  isFinalPayout,
  parseMoney,
  ZERO_MONEY,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { IdempotencyStore } from '@payouts/idempotency';
import {
  ExpirePayoutCommand,
  MarkAwaitingFloatCommand,
  ReserveFloatCommand,
  TopUpFloatCommand,
} from '@payouts/payouts';
import type { Clock } from '@payouts/clock';
import { APP_CONFIG, CLOCK, EVENT_STORE, SQL_CLIENT } from '@payouts/platform';
import { PAYOUT_RAIL } from '../payout-rail.port';
import type { PayoutRail } from '../payout-rail.port';
import { IdempotencyPurge } from './idempotency-purge';
import { loadPayout } from './load-payout';
import { PayoutJob, PayoutJobs } from './payout-jobs';
import { PayoutSending, StepOutcome } from './payout-sending';

/** Failed steps back off from the poll interval, doubling, to at most a minute. */
const MAX_BACKOFF_MS = 60_000;

/**
 * The process manager behind everything that moves a payout after the recipient confirms, and
 * expiry. Its work list is one job row per payout (payout_jobs), written by the payout commands'
 * plans in the transaction that appends the payout's events, so it is never behind the payouts
 * (libs/payouts/src/shared/payout-job-rows.ts); a loop, every WORKER_POLL_MS:
 *
 * 1. float queue, per environment, strictly first come first served by acceptance: the head's
 *    amount is set aside in the float, or (when the float cannot cover it) the head and everything
 *    behind it stay processing with safe_reason awaiting_float until the operator tops up (the
 *    reservation then clears awaiting_float in its own append: PayoutLeftFloatQueue);
 * 2. sending: payouts whose float is set aside go through the payout rail under their payout id
 *    and the rail's answer is recorded: paid (receipt, money settled), failed (money returned) or
 *    held for review (review_required until the operator decides);
 * 3. expiry: unclaimed payouts whose payout_expires_at the environment's clock has reached;
 * 4. at start and then hourly, the purge of idempotency keys first used more than
 *    IDEMPOTENCY_RETENTION_DAYS ago.
 *
 * Nothing here is remembered only in memory: a restart, or a kill in the middle of a send, picks
 * up from the job rows, and because the rail answers a second send of the same payout with the
 * transfer it already has, a payout is never paid twice.
 */
@Injectable()
export class PayoutWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('PayoutWorker');
  private readonly jobs: PayoutJobs;
  private readonly sending: PayoutSending;
  private readonly idempotencyPurge: IdempotencyPurge;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private floatOpened = false;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SQL_CLIENT) db: SqlClient,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PAYOUT_RAIL) rail: PayoutRail,
    @Inject(RECEIVING_DETAILS_VAULT) private readonly vault: ReceivingDetailsVault,
    private readonly commands: CommandBus,
  ) {
    this.jobs = new PayoutJobs(db);
    this.sending = new PayoutSending(store, rail, vault, commands, config.workerPollMs);
    // The database's clock, as the gateway's store uses: one clock decides a key's age.
    this.idempotencyPurge = new IdempotencyPurge(new IdempotencyStore(db), clock, this.logger);
  }

  async onApplicationBootstrap(): Promise<void> {
    // Before the app serves anything, so the sandbox float exists when the first payout comes.
    await this.openSandboxFloat();
    this.loop = this.run();
    this.logger.log(`looking for work every ${this.config.workerPollMs} ms`);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.logger.log('stopped');
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.tick();
      } catch (error) {
        this.logger.error(`a worker pass failed: ${describe(error)}`);
      }
      // Outside the pass, so a failing pass never holds it up; it catches its own errors.
      await this.idempotencyPurge.passIfDue(this.stopping);
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

  /** One look at everything due. Each step stands alone: one payout's trouble never stops the others. */
  private async tick(): Promise<void> {
    if (!this.floatOpened) await this.openSandboxFloat();
    for (const environment of ENVIRONMENTS) await this.floatQueuePass(environment);
    await this.sendingPass();
    for (const environment of ENVIRONMENTS) await this.expiryPass(environment);
  }

  /** The sandbox float's opening balance (SANDBOX_FLOAT_OPENING_BALANCE), written once ever. */
  private async openSandboxFloat(): Promise<void> {
    const amount = this.config.sandboxFloatOpeningBalance;
    if (!parseMoney(amount).gt(ZERO_MONEY)) {
      this.floatOpened = true;
      return;
    }
    try {
      await this.commands.execute(new TopUpFloatCommand('sandbox', amount, 'opening_balance', true));
      this.floatOpened = true;
    } catch (error) {
      this.logger.warn(`cannot write the sandbox float's opening balance yet: ${describe(error)}`);
    }
  }

  /**
   * Strict FIFO per environment: a payout is never sent ahead of one accepted before it, so once
   * the head cannot be covered, everything behind it waits too (and says so: awaiting_float).
   */
  private async floatQueuePass(environment: Environment): Promise<void> {
    let blocked = false;
    for (const job of await this.jobs.floatQueue(environment)) {
      if (this.stopping) return;
      if (!blocked) {
        try {
          await this.commands.execute(new ReserveFloatCommand(job.payoutId));
          await this.jobs.markFloatReserved(job.payoutId);
          continue;
        } catch (error) {
          if (isRefusal(error, 'invalid_transition', 'payout_not_found')) {
            // Not processing any more: nothing to send. A final payout's job is done.
            const payout = await loadPayout(this.store, job.payoutId);
            if (payout.state.status === 'none' || isFinalPayout(payout.state)) {
              await this.jobs.finish(job.payoutId, this.clock.now());
              continue;
            }
          }
          if (!isRefusal(error, 'float_insufficient')) {
            // Unexpected: keep the order (nothing overtakes the head) and try again next pass.
            this.logger.warn(`cannot reserve float for ${job.payoutId}: ${describe(error)}`);
            return;
          }
          blocked = true;
        }
      }
      if (!job.awaitingFloatMarked) {
        try {
          await this.commands.execute(new MarkAwaitingFloatCommand(job.payoutId));
          await this.jobs.markAwaitingFloat(job.payoutId);
        } catch (error) {
          this.logger.warn(`cannot mark ${job.payoutId} as awaiting float: ${describe(error)}`);
        }
      }
    }
  }

  private async sendingPass(): Promise<void> {
    for (const job of await this.jobs.dueForSending(this.clock.now())) {
      if (this.stopping) return;
      await this.step(job);
    }
  }

  private async step(job: PayoutJob): Promise<void> {
    let outcome: StepOutcome;
    try {
      outcome = await this.sending.advance(job);
    } catch (error) {
      const backoff = Math.min(MAX_BACKOFF_MS, this.config.workerPollMs * 2 ** Math.min(job.attempts, 16));
      this.logger.warn(`payout ${job.payoutId}: ${describe(error)}; next look in ${backoff} ms`);
      await this.jobs.reschedule(job, new Date(this.clock.now().getTime() + backoff), describe(error));
      return;
    }
    if (outcome.done) {
      // The payout is final: its receiving details have no further use. Should erasing fail, the
      // job is not finished and the next pass (which finds the payout final again) erases them.
      await this.vault.forget(job.payoutId);
      await this.jobs.finish(job.payoutId, this.clock.now());
    } else await this.jobs.reschedule(job, new Date(this.clock.now().getTime() + outcome.nextInMs), null);
  }

  /** Expiry timers fire on the environment's clock, so advancing the sandbox clock fires sandbox timers. */
  private async expiryPass(environment: Environment): Promise<void> {
    for (const payoutId of await this.jobs.dueToExpire(environment, this.clock.now(environment))) {
      if (this.stopping) return;
      try {
        await this.commands.execute(new ExpirePayoutCommand(payoutId));
        // Details saved but never confirmed end with the payout.
        await this.vault.forget(payoutId);
        await this.jobs.disarmTimer(payoutId);
      } catch (error) {
        // Confirmed (or gone) since the timer was armed: the timer has nothing left to do.
        if (isRefusal(error, 'invalid_transition', 'payout_not_found')) await this.jobs.disarmTimer(payoutId);
        else this.logger.warn(`cannot expire ${payoutId}: ${describe(error)}`);
      }
    }
  }
}

function isRefusal(error: unknown, ...codes: DomainErrorCode[]): boolean {
  return error instanceof DomainError && codes.includes(error.code);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
