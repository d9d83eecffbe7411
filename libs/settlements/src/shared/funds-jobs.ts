import type { SqlClient } from '@payouts/database';
import { Environment } from '@payouts/domain';

/** Tiger style: every look at a work list is bounded; the next pass takes the rest. */
export const FUNDS_JOBS_PER_PASS = 100;

export interface OpenSettlement {
  settlementId: string;
  ledgerStreamId: string;
  amount: string;
}

/** The worker's reads of the funds work lists (migration 0022). */
export class FundsJobs {
  constructor(private readonly db: SqlClient) {}

  /** Ledgers of the environment with a pending payment due by `now`, soonest first. */
  async dueForMaturing(environment: Environment, now: Date): Promise<string[]> {
    const { rows } = await this.db.query<{ ledger_stream_id: string }>(
      `SELECT ledger_stream_id FROM funds_maturing WHERE environment = $1 AND next_due_at <= $2
        ORDER BY next_due_at LIMIT $3`,
      [environment, now.toISOString(), FUNDS_JOBS_PER_PASS],
    );
    return rows.map((row) => row.ledger_stream_id);
  }

  /** Settlements started and not completed (of any age: a crash may have left them), oldest first. */
  async openSettlements(environment?: Environment): Promise<OpenSettlement[]> {
    const { rows } = await this.db.query<{ settlement_id: string; ledger_stream_id: string; amount: string }>(
      `SELECT settlement_id, ledger_stream_id, amount::text AS amount FROM settlement_jobs
        WHERE completed_at IS NULL AND ($1::text IS NULL OR environment = $1) ORDER BY started_at LIMIT $2`,
      [environment ?? null, FUNDS_JOBS_PER_PASS],
    );
    return rows.map((row) => ({
      settlementId: row.settlement_id,
      ledgerStreamId: row.ledger_stream_id,
      amount: row.amount,
    }));
  }

  /**
   * Whether the environment's daily run of `day` is still owed. An environment's first look
   * records the current run as done without settling (migration 0022: automatic settlement starts
   * at the next SETTLEMENT_HOUR_UTC after a deployment, not at its start).
   */
  async dailyRunOwed(environment: Environment, day: string): Promise<boolean> {
    const { rows } = await this.db.query<{ day: string }>(
      'SELECT day FROM settlement_runs WHERE environment = $1 ORDER BY day DESC LIMIT 1',
      [environment],
    );
    const latest = rows[0]?.day;
    if (latest === undefined) {
      await this.dailyRunDone(environment, day);
      return false;
    }
    return latest < day;
  }

  async dailyRunDone(environment: Environment, day: string): Promise<void> {
    await this.db.query(
      `INSERT INTO settlement_runs (environment, day) VALUES ($1, $2) ON CONFLICT (environment, day) DO NOTHING`,
      [environment, day],
    );
  }
}
