import type { PlannedRow } from '@payouts/write-side';
import { Environment, LedgerState } from '@payouts/domain';

/**
 * The rows a funds-flow plan writes beside its ledger events (migration 0022), as data: the
 * committer writes them in the ledger append's transaction, so the worker's work lists are never
 * behind the ledger. Each is written only by a plan that appends the ledger at its expected
 * version, so the last writer always saw the ledger's latest state.
 */

/** Proceeds recorded: the ledger has something to mature, at the latest at `availableOn`. */
export function proceedsPendingRow(
  ledgerStreamId: string,
  environment: Environment,
  availableOn: string,
): PlannedRow {
  return {
    statement: `INSERT INTO funds_maturing (ledger_stream_id, environment, next_due_at) VALUES ($1, $2, $3)
      ON CONFLICT (ledger_stream_id) DO UPDATE
        SET next_due_at = LEAST(funds_maturing.next_due_at, EXCLUDED.next_due_at)`,
    params: [ledgerStreamId, environment, availableOn],
  };
}

/** After maturing: when the ledger's next pending payment clears, or no row when none is left. */
export function nextMaturingRow(
  ledgerStreamId: string,
  environment: Environment,
  after: LedgerState,
): PlannedRow {
  const next = [...after.pendingPayments.values()]
    .map((payment) => payment.availableOn)
    .sort()
    .at(0);
  if (next === undefined) {
    return { statement: 'DELETE FROM funds_maturing WHERE ledger_stream_id = $1', params: [ledgerStreamId] };
  }
  return {
    statement: `INSERT INTO funds_maturing (ledger_stream_id, environment, next_due_at) VALUES ($1, $2, $3)
      ON CONFLICT (ledger_stream_id) DO UPDATE SET next_due_at = EXCLUDED.next_due_at`,
    params: [ledgerStreamId, environment, next],
  };
}

/** A settlement started: the worker pays it through the rail (again, after a crash). */
export function settlementStartedRow(
  settlementId: string,
  ledgerStreamId: string,
  environment: Environment,
  amount: string,
  startedAt: string,
): PlannedRow {
  return {
    statement: `INSERT INTO settlement_jobs (settlement_id, ledger_stream_id, environment, amount, started_at)
      VALUES ($1, $2, $3, $4, $5) ON CONFLICT (settlement_id) DO NOTHING`,
    params: [settlementId, ledgerStreamId, environment, amount, startedAt],
  };
}

/** The rail's answer is recorded: the settlement leaves the worker's list. */
export function settlementCompletedRow(settlementId: string, completedAt: string): PlannedRow {
  return {
    statement: `UPDATE settlement_jobs SET completed_at = COALESCE(completed_at, $2) WHERE settlement_id = $1`,
    params: [settlementId, completedAt],
  };
}
