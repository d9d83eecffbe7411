import type { PlannedRow } from '@payouts/write-side';
import { COMPLETE_ROWS, FIRST_ANSWER_ROWS } from './idempotency-statements';
import {
  checkedKeyParams,
  checkedStatus,
  IdempotencyKeyTakenError,
  IdempotencyScope,
  storableBody,
} from './idempotency-values';

/**
 * A request's hold on its Idempotency-Key while its command runs, as data the command carries, so
 * its handler can put the key's answer in the command's own plan: the work and its answer commit
 * together, or neither does.
 */
export interface IdempotencyHold {
  readonly scope: IdempotencyScope;
  readonly key: string;
  readonly hash: string;
  /** The resource the request creates or names (an unresolved attempt's, on its retry). */
  readonly resourceId: string;
  /**
   * Claimed: the key is in flight for this request (begin). Unclaimed: the key had no row when
   * tried, and the commit inserts it with the answer; if another request took the key meanwhile
   * the commit rolls back with IdempotencyKeyTakenError.
   */
  readonly claimed: boolean;
  /** The key was released after an attempt whose outcome is unknown: its resource may exist. */
  readonly retryOfUnresolved: boolean;
  /** The store's clock for the row (null: the database's). */
  readonly at: string | null;
}

/** The row that stores `status` and `body` as the key's answer, in the plan's commit. */
export function answerRow(hold: IdempotencyHold, status: number, body: unknown): PlannedRow {
  const keyParams = checkedKeyParams(hold.scope, hold.key);
  if (hold.claimed) {
    // The first answer stored is the answer for good: a later one changes nothing.
    return {
      statement: COMPLETE_ROWS,
      params: [...keyParams, checkedStatus(status), storableBody(body), hold.at],
    };
  }
  return {
    statement: FIRST_ANSWER_ROWS,
    params: [...keyParams, hold.hash, hold.resourceId, checkedStatus(status), storableBody(body), hold.at],
    whenNoRow: () => new IdempotencyKeyTakenError(),
  };
}
