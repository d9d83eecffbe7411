import type { SqlQueryable } from '@payouts/database';
import type { Environment, PayoutEvent } from '@payouts/domain';
import { PAYOUT_EVENT_SCHEMA_VERSIONS, PAYOUT_STREAM_TYPE } from '@payouts/domain';
import type { RecordedEvent } from '@payouts/event-store';

/** The checkpoint of the worker's subscription to the event feed. */
export const PAYOUT_JOBS_SUBSCRIPTION_ID = 'worker-payout-jobs';

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
 * Turns payout events into job rows, inside the subscription's transaction (so only through `tx`).
 * Every statement is idempotent: a replayed event changes nothing it already changed.
 */
export async function applyToJobs(tx: SqlQueryable, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    if (recorded.streamType !== PAYOUT_STREAM_TYPE) continue;
    const known = PAYOUT_EVENT_SCHEMA_VERSIONS[recorded.type as PayoutEvent['type']];
    if (known === undefined) throw new Error(`unknown payout event type ${recorded.type}`);
    if (recorded.schemaVersion !== known) {
      throw new Error(
        `payout event ${recorded.type} has schema version ${recorded.schemaVersion}; this build reads ${known}`,
      );
    }
    const event = { type: recorded.type, data: recorded.data } as PayoutEvent;
    switch (event.type) {
      case 'PayoutCreated':
        // Arms the expiry timer.
        await tx.query(
          `INSERT INTO payout_jobs (payout_id, account_id, environment, expires_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (payout_id) DO NOTHING`,
          [event.data.payoutId, event.data.accountId, event.data.environment, event.data.payoutExpiresAt],
        );
        break;
      case 'PayoutConfirmed':
        // Disarms the timer and joins the float queue, in the order confirmations reach the feed.
        await tx.query(
          `UPDATE payout_jobs SET expires_at = NULL, accepted_at = $2,
             confirmed_seq = nextval('payout_jobs_confirmed_seq'), next_attempt_at = NULL, wake_count = wake_count + 1
           WHERE payout_id = $1 AND accepted_at IS NULL`,
          [event.data.payoutId, event.data.acceptedAt],
        );
        break;
      case 'PayoutCancelled':
      case 'PayoutExpired':
      case 'PayoutPaid':
        await tx.query(
          `UPDATE payout_jobs SET expires_at = NULL, finished_at = COALESCE(finished_at, $2) WHERE payout_id = $1`,
          [event.data.payoutId, finishedAt(event)],
        );
        break;
      case 'PayoutFailed':
        // A confirmed payout may still have a transfer held at the rail: the worker tidies it up.
        await tx.query(
          `UPDATE payout_jobs SET expires_at = NULL, next_attempt_at = NULL, wake_count = wake_count + 1,
             finished_at = CASE WHEN accepted_at IS NULL THEN COALESCE(finished_at, $2) ELSE finished_at END
           WHERE payout_id = $1`,
          [event.data.payoutId, event.data.failedAt],
        );
        break;
      case 'PayoutReviewApproved':
        // The operator approved: send it on now rather than at the next slow look.
        await tx.query(
          'UPDATE payout_jobs SET next_attempt_at = NULL, wake_count = wake_count + 1 WHERE payout_id = $1',
          [event.data.payoutId],
        );
        break;
      case 'ClaimLinkIssued':
      case 'RedirectSessionStarted':
      case 'RedirectHandoffConsumed':
      case 'PayoutAwaitingFloat':
      case 'PayoutLeftFloatQueue':
      case 'PayoutReviewRequired':
        break;
      default: {
        const _never: never = event;
        throw new Error(`Unknown payout event ${JSON.stringify(_never)}`);
      }
    }
  }
}

function finishedAt(
  event: Extract<PayoutEvent, { type: 'PayoutCancelled' | 'PayoutExpired' | 'PayoutPaid' }>,
) {
  switch (event.type) {
    case 'PayoutCancelled':
      return event.data.cancelledAt;
    case 'PayoutExpired':
      return event.data.expiredAt;
    case 'PayoutPaid':
      return event.data.paidAt;
  }
}

/** The worker's reads and writes of payout_jobs outside the subscription. */
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
