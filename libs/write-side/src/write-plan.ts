import type { StreamAppend } from '@payouts/event-store';
import type { PlannedRow } from './planned-row';

/**
 * What one command must write, as data: the streams to append with their expected versions, and
 * the rows written beside the events in the same transaction (the request's idempotency record
 * with its answer, details sealed with a confirm, the rows of the worker's work lists that the
 * events change: payout and funds jobs). The read models a commit keeps current inline (balance,
 * list) are not listed: the committer projects every plan's events itself.
 */
export interface WritePlan {
  readonly appends: readonly StreamAppend[];
  readonly rows: readonly PlannedRow[];
  /**
   * The most events the balance read model may trail the ledger by for this command to go ahead
   * (Create's bound): past it the commit is refused with balance_unavailable and writes nothing.
   */
  readonly maxBalanceLagEvents?: number;
}

export function isEmptyPlan(plan: WritePlan): boolean {
  return plan.appends.length === 0 && plan.rows.length === 0;
}

/** The plan with more rows written beside it (an idempotency answer, say). */
export function withRows(plan: WritePlan, rows: readonly PlannedRow[]): WritePlan {
  return rows.length === 0 ? plan : { ...plan, rows: [...plan.rows, ...rows] };
}
