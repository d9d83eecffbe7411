import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Clock } from '@payouts/clock';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import {
  currentSettlementRun,
  Environment,
  ledgerOwnerFromStreamId,
  ledgerStreamId as ledgerStreamIdOf,
  SettlementTrigger,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { APP_CONFIG, CLOCK, EVENT_STORE, SQL_CLIENT } from '@payouts/platform';
import { matureDue } from '../maturing/mature-due';
import { environmentLedgers } from '../shared/environment-ledgers';
import { FundsJobs, OpenSettlement } from '../shared/funds-jobs';
import type { SettlementRail } from '../settlement-rail/settlement-rail.port';
import { SETTLEMENT_RAIL } from '../settlement-rail/settlement-rail.port';
import { dailySettlementId, manualSettlementId } from './settlement-ids';
import { CompleteSettlementCommand, StartedSettlement, StartSettlementCommand } from './settlement-commands';

/** A settlement a run started, with what the rail answered (`in_transit`: not answered yet). */
export type RunSettlement = StartedSettlement &
  ({ status: 'paid' | 'in_transit'; failureReason: null } | { status: 'failed'; failureReason: string });

/**
 * Settlement runs (docs/design.md#settlements): StartSettlement on every ledger of an environment, then each
 * started settlement paid through the settlement rail and its answer recorded. Used by the
 * operator's run-now and by the worker's daily run; the worker also completes any settlement a
 * crash left started (settlement_jobs), the rail answering a second ask with its first answer.
 */
@Injectable()
export class SettlementRuns {
  private readonly logger = new Logger('SettlementRuns');
  private readonly jobs: FundsJobs;

  constructor(
    @Inject(SQL_CLIENT) db: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SETTLEMENT_RAIL) private readonly rail: SettlementRail,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly commands: CommandBus,
  ) {
    this.jobs = new FundsJobs(db);
  }

  /** The operator's run-now: a new settlement on every ledger that has at least the minimum to settle. */
  async runNow(environment: Environment): Promise<RunSettlement[]> {
    return this.run(environment, 'manual', () => manualSettlementId());
  }

  /** The daily run owed on the environment's clock, if not done yet; the settlements it started. */
  async dailyRunIfDue(environment: Environment, now = this.clock.now(environment)): Promise<RunSettlement[]> {
    const { day } = currentSettlementRun(now, this.config.settlementHourUtc);
    if (!(await this.jobs.dailyRunOwed(environment, day))) return [];
    const settled = await this.run(environment, 'daily', (ledger) => dailySettlementId(ledger, day));
    await this.jobs.dailyRunDone(environment, day);
    return settled;
  }

  /** Pays every settlement still open (of one environment, or all): a crash's leftovers included. */
  async completeOpen(environment?: Environment): Promise<number> {
    let completed = 0;
    for (const open of await this.jobs.openSettlements(environment)) {
      try {
        await this.payAndComplete(open);
        completed += 1;
      } catch (error) {
        this.logger.warn(`settlement ${open.settlementId} not completed yet: ${describe(error)}`);
      }
    }
    return completed;
  }

  private async run(
    environment: Environment,
    trigger: SettlementTrigger,
    idOf: (ledgerStreamId: string) => string,
  ): Promise<RunSettlement[]> {
    const started: StartedSettlement[] = [];
    for await (const ledgerStreamId of environmentLedgers(this.store, environment)) {
      // A run takes what has cleared by the time it runs, whether or not the maturing pass has
      // reached this ledger yet (its backlog is bounded per pass).
      await matureDue(this.commands, ledgerStreamId);
      const result = await this.commands.execute(
        new StartSettlementCommand(ledgerStreamId, idOf(ledgerStreamId), trigger),
      );
      if (result.started) started.push(result.started);
    }
    const settled: RunSettlement[] = [];
    for (const settlement of started) {
      const ledgerStreamId = ledgerStreamIdOf(
        settlement.accountId,
        settlement.environment,
        settlement.currency,
      );
      try {
        const answer = await this.payAndComplete({ ...settlement, ledgerStreamId });
        settled.push(
          answer.status === 'paid'
            ? { ...settlement, status: 'paid', failureReason: null }
            : { ...settlement, status: 'failed', failureReason: answer.reason },
        );
      } catch (error) {
        // Left in settlement_jobs: the worker's next pass asks the rail again.
        this.logger.warn(`settlement ${settlement.settlementId} not completed yet: ${describe(error)}`);
        settled.push({ ...settlement, status: 'in_transit', failureReason: null });
      }
    }
    return settled;
  }

  private async payAndComplete(open: OpenSettlement) {
    const owner = ledgerOwnerFromStreamId(open.ledgerStreamId);
    if (!owner) throw new Error(`${open.ledgerStreamId} is not a ledger stream id`);
    const answer = await this.rail.pay({
      settlementId: open.settlementId,
      accountId: owner.accountId,
      environment: owner.environment,
      currency: owner.currency,
      amount: open.amount,
    });
    await this.commands.execute(
      new CompleteSettlementCommand(
        open.ledgerStreamId,
        open.settlementId,
        answer.status === 'paid' ? { outcome: 'paid' } : { outcome: 'failed', reason: answer.reason },
      ),
    );
    return answer;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
