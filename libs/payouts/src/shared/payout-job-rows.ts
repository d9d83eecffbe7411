import type { RowStatement } from '@payouts/database';
import type { PayoutEvent } from '@payouts/domain';
import type { PlannedRow } from '@payouts/write-side';

/**
 * The worker's payout work list (migration 0006, table payout_jobs), one row per payout, written
 * by the plan that appends the payout's events, in the same transaction (as the funds work lists
 * of migration 0022 are), so the list is never behind the payout. These are the rows each event
 * writes; the worker's own bookkeeping (float reserved, awaiting float marked, attempts, finished)
 * is PayoutJobs' in libs/payout-rail. A payout is in one plan of a group commit at a time, and a
 * decision appends at most one of these events per payout, so each statement sees a payout once.
 * Every statement is written for many rows (a group commit's plans: one statement for them all).
 */

/** Arms the expiry timer. */
const CREATED: RowStatement = {
  sql: `INSERT INTO payout_jobs (payout_id, account_id, environment, expires_at)
    SELECT r.payout_id, r.account_id, r.environment, r.expires_at::timestamptz
      FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS r(payout_id, account_id, environment, expires_at)
    ON CONFLICT (payout_id) DO NOTHING`,
};

/** Disarms the timer and joins the float queue, in the order the confirmations commit. */
const CONFIRMED: RowStatement = {
  sql: `UPDATE payout_jobs AS j SET expires_at = NULL, accepted_at = r.accepted_at::timestamptz,
      confirmed_seq = nextval('payout_jobs_confirmed_seq'), next_attempt_at = NULL, wake_count = j.wake_count + 1
    FROM unnest($1::text[], $2::text[]) AS r(payout_id, accepted_at)
    WHERE j.payout_id = r.payout_id AND j.accepted_at IS NULL`,
};

/** Cancelled, expired or paid: nothing is left to do. */
const ENDED: RowStatement = {
  sql: `UPDATE payout_jobs AS j SET expires_at = NULL, finished_at = COALESCE(j.finished_at, r.at::timestamptz)
    FROM unnest($1::text[], $2::text[]) AS r(payout_id, at)
    WHERE j.payout_id = r.payout_id`,
};

/** A confirmed payout may still have a transfer held at the rail: the worker tidies it up. */
const FAILED: RowStatement = {
  sql: `UPDATE payout_jobs AS j SET expires_at = NULL, next_attempt_at = NULL, wake_count = j.wake_count + 1,
      finished_at = CASE WHEN j.accepted_at IS NULL THEN COALESCE(j.finished_at, r.at::timestamptz)
                         ELSE j.finished_at END
    FROM unnest($1::text[], $2::text[]) AS r(payout_id, at)
    WHERE j.payout_id = r.payout_id`,
};

/** The operator approved: send it on now rather than at the next slow look. */
const WOKEN: RowStatement = {
  sql: `UPDATE payout_jobs AS j SET next_attempt_at = NULL, wake_count = j.wake_count + 1
    FROM unnest($1::text[]) AS r(payout_id)
    WHERE j.payout_id = r.payout_id`,
};

/** The payout_jobs rows that follow from a payout's new events, for the plan that appends them. */
export function payoutJobRows(events: readonly PayoutEvent[]): PlannedRow[] {
  return events.flatMap((event): PlannedRow[] => {
    switch (event.type) {
      case 'PayoutCreated': {
        const { payoutId, accountId, environment, payoutExpiresAt } = event.data;
        return [{ statement: CREATED, params: [payoutId, accountId, environment, payoutExpiresAt] }];
      }
      case 'PayoutConfirmed':
        return [{ statement: CONFIRMED, params: [event.data.payoutId, event.data.acceptedAt] }];
      case 'PayoutCancelled':
        return [{ statement: ENDED, params: [event.data.payoutId, event.data.cancelledAt] }];
      case 'PayoutExpired':
        return [{ statement: ENDED, params: [event.data.payoutId, event.data.expiredAt] }];
      case 'PayoutPaid':
        return [{ statement: ENDED, params: [event.data.payoutId, event.data.paidAt] }];
      case 'PayoutFailed':
        return [{ statement: FAILED, params: [event.data.payoutId, event.data.failedAt] }];
      case 'PayoutReviewApproved':
        return [{ statement: WOKEN, params: [event.data.payoutId] }];
      case 'ClaimLinkIssued':
      case 'RedirectSessionStarted':
      case 'RedirectHandoffConsumed':
      case 'PayoutAwaitingFloat':
      case 'PayoutLeftFloatQueue':
      case 'PayoutReviewRequired':
        return [];
      default: {
        const _never: never = event;
        throw new Error(`Unknown payout event ${JSON.stringify(_never)}`);
      }
    }
  });
}
