import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Clock } from '@payouts/clock';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import { Environment, ENVIRONMENTS } from '@payouts/domain';
import { APP_CONFIG, CLOCK, SQL_CLIENT } from '@payouts/platform';
import { matureDue } from './maturing/mature-due';
import { SettlementRuns } from './settlement-run/settlement-runs';
import { FundsJobs } from './shared/funds-jobs';

/**
 * The funds flow's timed work (docs/balance.md), every WORKER_POLL_MS, on each environment's clock
 * (so advancing the sandbox clock hurries the sandbox):
 * 1. maturing: ledgers whose soonest pending payment is due (funds_maturing, written with the
 *    ledger's own appends) get MatureProceeds until nothing due is left;
 * 2. the daily settlement run at SETTLEMENT_HOUR_UTC, once per environment and day (deterministic
 *    settlement ids: two workers still settle a ledger once for one day). Both steps of a pass read
 *    the environment's clock once: a sandbox advance (or midnight) falling between them must not
 *    let the day's run see a time the maturing step did not;
 * 3. settlements started and not completed (a run cut short, a crash) are paid through the rail,
 *    which answers a second ask with its first answer, and the answer is recorded.
 */
@Injectable()
export class FundsWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('FundsWorker');
  private readonly jobs: FundsJobs;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    @Inject(SQL_CLIENT) db: SqlClient,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly commands: CommandBus,
    private readonly runs: SettlementRuns,
  ) {
    this.jobs = new FundsJobs(db);
  }

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
  }

  /** One pass over both environments; each step stands alone, so one's trouble never stops another. */
  async pass(): Promise<{ matured: number; settlementsStarted: number; settlementsCompleted: number }> {
    let matured = 0;
    let settlementsStarted = 0;
    for (const environment of ENVIRONMENTS) {
      const now = this.clock.now(environment);
      matured += await this.step('maturing', () => this.maturingPass(environment, now));
      settlementsStarted += await this.step('daily settlement', async () => {
        return (await this.runs.dailyRunIfDue(environment, now)).length;
      });
    }
    const settlementsCompleted = await this.step('open settlements', () => this.runs.completeOpen());
    return { matured, settlementsStarted, settlementsCompleted };
  }

  private async maturingPass(environment: Environment, now: Date): Promise<number> {
    let matured = 0;
    for (const ledgerStreamId of await this.jobs.dueForMaturing(environment, now)) {
      if (this.stopping) break;
      matured += await matureDue(this.commands, ledgerStreamId);
    }
    return matured;
  }

  private async step(name: string, work: () => Promise<number>): Promise<number> {
    try {
      return await work();
    } catch (error) {
      this.logger.warn(`${name} pass failed: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    }
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      await this.pass();
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
