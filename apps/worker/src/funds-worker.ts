import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Clock } from '@payouts/clock';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import { Environment, MAX_MATURED_PER_COMMAND } from '@payouts/domain';
import { APP_CONFIG, CLOCK, SQL_CLIENT } from '@payouts/platform';
import { FundsJobs, MatureProceedsCommand, SettlementRuns } from '@payouts/settlements';

const ENVIRONMENTS: readonly Environment[] = ['production', 'sandbox'];
/** Tiger style: MatureProceeds commands per ledger per pass; a longer backlog waits for the next pass. */
const MAX_MATURING_COMMANDS_PER_LEDGER = 50;

/**
 * The funds flow's timed work (ARCHITECTURE 7), every WORKER_POLL_MS, on each environment's clock
 * (so advancing the sandbox clock hurries the sandbox):
 * 1. maturing: ledgers whose soonest pending payment is due (funds_maturing, written with the
 *    ledger's own appends) get MatureProceeds until nothing due is left;
 * 2. the daily settlement run at SETTLEMENT_HOUR_UTC, once per environment and day (deterministic
 *    settlement ids: two workers still settle a ledger once for one day);
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
      matured += await this.step('maturing', () => this.maturingPass(environment));
      settlementsStarted += await this.step('daily settlement', async () => {
        return (await this.runs.dailyRunIfDue(environment)).length;
      });
    }
    const settlementsCompleted = await this.step('open settlements', () => this.runs.completeOpen());
    return { matured, settlementsStarted, settlementsCompleted };
  }

  private async maturingPass(environment: Environment): Promise<number> {
    let matured = 0;
    for (const ledgerStreamId of await this.jobs.dueForMaturing(environment, this.clock.now(environment))) {
      if (this.stopping) break;
      for (let command = 0; command < MAX_MATURING_COMMANDS_PER_LEDGER; command += 1) {
        const result = await this.commands.execute(new MatureProceedsCommand(ledgerStreamId));
        matured += result.matured;
        if (result.matured < MAX_MATURED_PER_COMMAND) break;
      }
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
