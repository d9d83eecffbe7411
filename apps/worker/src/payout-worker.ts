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
  evolvePayout,
  initialPayoutState,
  isFinalPayout,
  parseMoney,
  PayoutEvent,
  PayoutState,
  payoutStreamId,
  ZERO_MONEY,
} from '@payouts/domain';
import type { EventStore, FeedSubscription } from '@payouts/event-store';
import { IDEMPOTENCY_RETENTION_DAYS, IdempotencyStore } from '@payouts/idempotency';
import type { PayoutRail } from '@payouts/payout-rail';
import { PAYOUT_RAIL } from '@payouts/payout-rail';
import {
  ExpirePayoutCommand,
  FailPayoutCommand,
  FlagForReviewCommand,
  MarkAwaitingFloatCommand,
  RecordPayoutPaidCommand,
  ReserveFloatCommand,
  TopUpFloatCommand,
} from '@payouts/payouts';
import type { Clock } from '@payouts/clock';
import { APP_CONFIG, CLOCK, EVENT_STORE, SQL_CLIENT } from '@payouts/platform';
import { applyToJobs, PAYOUT_JOBS_SUBSCRIPTION_ID, PayoutJob, PayoutJobs } from './payout-jobs';

const ENVIRONMENTS: readonly Environment[] = ['production', 'sandbox'];

/** A payout under review waits for the operator; the approval wakes it, this is only a safety net. */
const REVIEW_RECHECK_MS = 60_000;
/** Failed steps back off from the poll interval, doubling, to at most a minute. */
const MAX_BACKOFF_MS = 60_000;
/**
 * Idempotency keys past their retention are deleted this often. begin already treats them as
 * gone, so the purge only reclaims space: hourly is plenty, and each purge is bounded (batches).
 */
const IDEMPOTENCY_PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** After a failed purge, sooner than the full interval. */
const IDEMPOTENCY_PURGE_RETRY_MS = 60_000;

/** Reasons shown to the merchant as safe_reason: short codes, never the recipient's details. */
export const SAFE_REASONS = {
  underReview: 'under_review',
  detailsMissing: 'receiving_details_missing',
  declined: 'declined_by_rail',
} as const;

type StepOutcome = { done: true } | { done: false; nextInMs: number };

/**
 * The process manager behind everything that moves a payout after the recipient confirms, and
 * expiry. A durable subscription to the event feed keeps one job row per payout (payout_jobs);
 * a loop then, every WORKER_POLL_MS:
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
 *    IDEMPOTENCY_RETENTION_DAYS ago (ARCHITECTURE 3: kept 30 days).
 *
 * Nothing here is remembered only in memory: a restart, or a kill in the middle of a send, picks
 * up from the job rows, and because the rail answers a second send of the same payout with the
 * transfer it already has, a payout is never paid twice.
 */
@Injectable()
export class PayoutWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('PayoutWorker');
  private readonly jobs: PayoutJobs;
  private readonly idempotency: IdempotencyStore;
  /** Production time in ms of the next purge; 0: on the first pass. */
  private nextPurgeAtMs = 0;
  private subscription: FeedSubscription | undefined;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private floatOpened = false;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SQL_CLIENT) db: SqlClient,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PAYOUT_RAIL) private readonly rail: PayoutRail,
    @Inject(RECEIVING_DETAILS_VAULT) private readonly vault: ReceivingDetailsVault,
    private readonly commands: CommandBus,
  ) {
    this.jobs = new PayoutJobs(db);
    // The database's clock, as the gateway's store uses: one clock decides a key's age.
    this.idempotency = new IdempotencyStore(db);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = this.store.subscribe({
      subscriptionId: PAYOUT_JOBS_SUBSCRIPTION_ID,
      pollIntervalMs: this.config.workerPollMs,
      handle: (events, tx) => applyToJobs(tx, events),
    });
    // Before the app serves anything, so the sandbox float exists when the first payout comes.
    await this.openSandboxFloat();
    this.loop = this.run();
    this.logger.log(`following the event feed; looking for work every ${this.config.workerPollMs} ms`);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    await this.subscription?.stop();
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
      await this.idempotencyPurgePass();
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
            const payout = await this.loadPayout(job.payoutId);
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
      outcome = await this.advance(job);
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

  /** One look at a payout whose float is set aside: decided from the event store and the rail, never from memory. */
  private async advance(job: PayoutJob): Promise<StepOutcome> {
    const { state: payout, events } = await this.loadPayout(job.payoutId);
    if (payout.status === 'none') throw new Error('the payout does not exist');
    switch (payout.status) {
      case 'paid':
      case 'cancelled':
      case 'expired':
        return { done: true };
      case 'failed': {
        // A rejected review: make sure the rail never lets the held transfer go.
        const held = await this.rail.get(payout.payoutId);
        if (held?.status === 'held') await this.rail.cancelHold(payout.payoutId);
        return { done: true };
      }
      case 'review_required':
        return { done: false, nextInMs: REVIEW_RECHECK_MS };
      case 'awaiting_choice':
        throw new Error('a payout with float set aside must have been confirmed');
      case 'processing':
        break;
      default: {
        const _never: never = payout;
        throw new Error(`unknown payout status ${JSON.stringify(_never)}`);
      }
    }

    let transfer = await this.rail.get(payout.payoutId);
    if (transfer === null) {
      const details = await this.vault.load(payout.payoutId);
      if (details === null) {
        await this.commands.execute(new FailPayoutCommand(payout.payoutId, SAFE_REASONS.detailsMissing));
        return { done: true };
      }
      transfer = await this.rail.send({
        transferId: payout.payoutId,
        environment: payout.environment,
        amount: payout.amount,
        currency: payout.currency,
        details,
      });
    }
    switch (transfer.status) {
      case 'pending':
        return { done: false, nextInMs: this.config.workerPollMs };
      case 'paid':
        if (transfer.receiptReference === null)
          throw new Error('the rail reported a payment without a receipt');
        await this.commands.execute(new RecordPayoutPaidCommand(payout.payoutId, transfer.receiptReference));
        return { done: true };
      case 'failed':
        await this.commands.execute(
          new FailPayoutCommand(payout.payoutId, transfer.failureReason ?? SAFE_REASONS.declined),
        );
        return { done: true };
      case 'held':
        // After the operator approved, the payout is processing again and the rail is told to go on.
        if (events.some((e) => e.type === 'PayoutReviewApproved')) {
          await this.rail.releaseHold(payout.payoutId);
          return { done: false, nextInMs: this.config.workerPollMs };
        }
        await this.commands.execute(new FlagForReviewCommand(payout.payoutId, SAFE_REASONS.underReview));
        return { done: false, nextInMs: REVIEW_RECHECK_MS };
      default: {
        const _never: never = transfer.status;
        throw new Error(`unknown rail status ${String(_never)}`);
      }
    }
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

  /** Deletes idempotency keys (and their stored answers) past retention, when due. */
  private async idempotencyPurgePass(): Promise<void> {
    const nowMs = this.clock.now().getTime();
    if (this.stopping || nowMs < this.nextPurgeAtMs) return;
    try {
      const purged = await this.idempotency.purgeExpired();
      this.nextPurgeAtMs = nowMs + IDEMPOTENCY_PURGE_INTERVAL_MS;
      this.logger.log(`purged ${purged} idempotency keys older than ${IDEMPOTENCY_RETENTION_DAYS} days`);
    } catch (error) {
      this.nextPurgeAtMs = nowMs + IDEMPOTENCY_PURGE_RETRY_MS;
      this.logger.error(`the idempotency key purge failed: ${describe(error)}`);
    }
  }

  private async loadPayout(payoutId: string): Promise<{ state: PayoutState; events: PayoutEvent[] }> {
    const { events: recorded } = await this.store.readStream(payoutStreamId(payoutId));
    const events = recorded.map((r) => ({ type: r.type, data: r.data }) as PayoutEvent);
    return { state: events.reduce(evolvePayout, initialPayoutState()), events };
  }
}

function isRefusal(error: unknown, ...codes: DomainErrorCode[]): boolean {
  return error instanceof DomainError && codes.includes(error.code);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
