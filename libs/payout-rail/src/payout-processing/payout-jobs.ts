import type { SqlQueryable } from '@payouts/database';
import type { Environment } from '@payouts/domain';

/** Tiger style: every pass over the jobs is bounded. */
export const JOBS_PER_PASS = 100;

/** One payout's durable job (migration 0006, table payout_jobs). */
export interface PayoutJob {
  payoutId: string;
  environment: Environment;
  awaitingFloatMarked: boolean;
  attempts: number;
  wakeCount: string;
}

interface JobRow {
  payout_id: string;
  environment: Environment;
  awaiting_float_marked: boolean;
  attempts: number;
  wake_count: string;
}

const toJob = (row: JobRow): PayoutJob => ({
  payoutId: row.payout_id,
  environment: row.environment,
  awaitingFloatMarked: row.awaiting_float_marked,
  attempts: row.attempts,
  wakeCount: row.wake_count,
});

const JOB_COLUMNS = 'payout_id, environment, awaiting_float_marked, attempts, wake_count::text AS wake_count';

/**
 * The worker's reads of payout_jobs, and its own bookkeeping there (float reserved, awaiting float
 * marked, attempts, finished). What each payout event changes in a row is written by the plan
 * that appends the event, in its transaction: libs/payouts/src/shared/payout-job-rows.ts.
 */
export class PayoutJobs {
  constructor(private readonly db: SqlQueryable) {}

  /** Confirmed payouts waiting for the float, first come first served. */
  async floatQueue(environment: Environment): Promise<PayoutJob[]> {
    const { rows } = await this.db.query<JobRow>(
      `SELECT ${JOB_COLUMNS} FROM payout_jobs
        WHERE environment = $1 AND accepted_at IS NOT NULL AND finished_at IS NULL AND NOT float_reserved
        ORDER BY accepted_at, confirmed_seq LIMIT $2`,
      [environment, JOBS_PER_PASS],
    );
    return rows.map(toJob);
  }

  /** Payouts with their float set aside whose next look is due. */
  async dueForSending(now: Date): Promise<PayoutJob[]> {
    const { rows } = await this.db.query<JobRow>(
      `SELECT ${JOB_COLUMNS} FROM payout_jobs
        WHERE float_reserved AND finished_at IS NULL AND (next_attempt_at IS NULL OR next_attempt_at <= $1)
        ORDER BY next_attempt_at NULLS FIRST, accepted_at LIMIT $2`,
      [now.toISOString(), JOBS_PER_PASS],
    );
    return rows.map(toJob);
  }

  /** Unclaimed payouts of the environment whose deadline its clock has reached. */
  async dueToExpire(environment: Environment, now: Date): Promise<string[]> {
    const { rows } = await this.db.query<{ payout_id: string }>(
      `SELECT payout_id FROM payout_jobs WHERE environment = $1 AND expires_at <= $2
        ORDER BY expires_at LIMIT $3`,
      [environment, now.toISOString(), JOBS_PER_PASS],
    );
    return rows.map((r) => r.payout_id);
  }

  async markFloatReserved(payoutId: string): Promise<void> {
    await this.db.query(
      'UPDATE payout_jobs SET float_reserved = true, next_attempt_at = NULL, attempts = 0 WHERE payout_id = $1',
      [payoutId],
    );
  }

  async markAwaitingFloat(payoutId: string): Promise<void> {
    await this.db.query('UPDATE payout_jobs SET awaiting_float_marked = true WHERE payout_id = $1', [
      payoutId,
    ]);
  }

  async disarmTimer(payoutId: string): Promise<void> {
    await this.db.query('UPDATE payout_jobs SET expires_at = NULL WHERE payout_id = $1', [payoutId]);
  }

  async finish(payoutId: string, at: Date): Promise<void> {
    await this.db.query(
      'UPDATE payout_jobs SET finished_at = COALESCE(finished_at, $2), last_error = NULL WHERE payout_id = $1',
      [payoutId, at.toISOString()],
    );
  }

  /**
   * The next look at a payout. A wake-up that arrived while the step ran (the wake count moved)
   * wins: the payout is looked at again at once.
   */
  async reschedule(job: PayoutJob, next: Date, error: string | null): Promise<void> {
    await this.db.query(
      `UPDATE payout_jobs SET
         next_attempt_at = CASE WHEN wake_count = $2::bigint THEN $3::timestamptz ELSE NULL END,
         attempts = CASE WHEN $4::text IS NULL THEN 0 ELSE attempts + 1 END,
         last_error = $4::text
       WHERE payout_id = $1`,
      [job.payoutId, job.wakeCount, next.toISOString(), error],
    );
  }
}
