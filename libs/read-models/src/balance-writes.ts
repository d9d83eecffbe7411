import Big from 'big.js';
import { LedgerEvent, LedgerOwner } from '@payouts/domain';
import { BalanceDeltas } from './balance-row';
import { FAIL_SETTLEMENT_SQL, PAY_SETTLEMENT_SQL, START_SETTLEMENT_SQL } from './balance-statements';
import { RunningDeltas, TransactionDraft } from './balance-transactions';
import type { LedgerBatch } from './ledger-batch';

/** A transaction row with its ledger and the running figures its statement expects. */
export interface WrittenTransaction {
  owner: LedgerOwner;
  draft: TransactionDraft;
  running: RunningDeltas;
}

/** The parameter arrays of the transaction INSERT (balance-statements.ts TRANSACTION_FIELDS order). */
export function transactionArrays(rows: readonly WrittenTransaction[]): (string | null)[][] {
  const column = (pick: (row: WrittenTransaction) => string | null) => rows.map(pick);
  return [
    column((r) => r.draft.id),
    column((r) => r.owner.accountId),
    column((r) => r.owner.environment),
    column((r) => r.owner.currency),
    column((r) => String(r.draft.ledgerVersion)),
    column((r) => String(r.draft.eventRow)),
    column((r) => r.draft.type),
    column((r) => r.draft.amount),
    column((r) => r.draft.fee),
    column((r) => r.draft.net),
    column((r) => r.draft.status),
    column((r) => r.draft.availableOn),
    column((r) => (r.draft.orderId === null ? null : String(r.draft.orderId))),
    column((r) => r.draft.payoutId),
    column((r) => r.draft.settlementId),
    column((r) => r.draft.description),
    column((r) => r.running.pending.toFixed(2)),
    column((r) => r.running.available.toFixed(2)),
    column((r) => r.running.holds.toFixed(2)),
    column((r) => r.running.settlementHolds.toFixed(2)),
    column((r) => r.draft.includedInSettlement),
    column((r) => r.draft.createdAt),
  ];
}

/** What a settlement event writes to its settlements row: [sql, params after the ledger's three]. */
export function settlementStatement(event: LedgerEvent, version: number): [string, unknown[]] | null {
  switch (event.type) {
    case 'SettlementStarted': {
      const { settlementId, amount, trigger, retainedTarget, at } = event.data;
      return [START_SETTLEMENT_SQL, [settlementId, version, amount, trigger, retainedTarget, at]];
    }
    case 'SettlementPaid':
      return [PAY_SETTLEMENT_SQL, [event.data.settlementId, event.data.at]];
    case 'SettlementFailed':
      return [FAIL_SETTLEMENT_SQL, [event.data.settlementId, event.data.reason, event.data.at]];
    default:
      return null;
  }
}

const text = (value: string | number | null): string | null => (value === null ? null : String(value));

/** The parameter arrays of the fast path's statements (ledger-batch-statements.ts, fields in order). */
export function ledgerBatchArrays(batches: readonly LedgerBatch[], full: boolean): (string | null)[][] {
  const column = (pick: (batch: LedgerBatch) => string | number | null) => batches.map((b) => text(pick(b)));
  const money = (pick: (total: BalanceDeltas) => Big) => column((b) => pick(b.total).toFixed(2));
  const deltas = [
    column((b) => b.owner.accountId),
    column((b) => b.owner.environment),
    column((b) => b.owner.currency),
    column((b) => b.fromVersion - 1),
    column((b) => b.upToVersion),
    money((t) => t.fundsIn),
    money((t) => t.available),
    money((t) => t.holds),
    money((t) => t.settled),
    money((t) => t.pending),
    money((t) => t.gross),
    money((t) => t.fees),
    money((t) => t.credits),
    column((b) => b.at),
  ];
  const transactions = transactionArrays(batches.flatMap((b) => b.transactions));
  if (!full) return [...deltas, ...transactions];
  const more = [
    money((t) => t.settlementHolds),
    money((t) => t.matured),
    money((t) => t.settlementsPaid),
    column((b) => b.retainedTarget),
    column((b) => (b.limits ? 'true' : 'false')),
    column((b) => b.limits?.feePerPayout ?? null),
    column((b) => b.limits?.minPayout ?? null),
    column((b) => b.limits?.maxPayout ?? null),
    column((b) => b.limits?.maxOpenExposure ?? null),
    column((b) => b.limits?.maxPendingPerCustomer ?? null),
  ];
  return [...deltas, ...more, ...transactions, ...changeArrays(batches), ...settlementArrays(batches)];
}

/** CHANGE_FIELDS' arrays: every batch's changes to earlier rows, with their versions. */
function changeArrays(batches: readonly LedgerBatch[]): (string | null)[][] {
  const changes = batches.flatMap((b) => b.changes.map((c) => ({ owner: b.owner, ...c })));
  const column = (pick: (c: (typeof changes)[number]) => string | number | null) =>
    changes.map((c) => text(pick(c)));
  return [
    column((c) => c.owner.accountId),
    column((c) => c.owner.environment),
    column((c) => c.owner.currency),
    column((c) => c.change.kind),
    column((c) => (c.change.kind === 'mature' ? c.change.orderId : c.change.settlementId)),
    column((c) => c.version),
    column((c) => (c.change.kind === 'settle' ? c.change.status : null)),
  ];
}

/** STARTED_FIELDS' then OUTCOME_FIELDS' arrays. */
function settlementArrays(batches: readonly LedgerBatch[]): (string | null)[][] {
  const started = batches.flatMap((b) => b.started.map((s) => ({ owner: b.owner, ...s })));
  const outcomes = batches.flatMap((b) => b.outcomes.map((o) => ({ owner: b.owner, ...o })));
  const of = <T>(rows: T[], pick: (row: T) => string | number | null) => rows.map((row) => text(pick(row)));
  return [
    of(started, (s) => s.id),
    of(started, (s) => s.owner.accountId),
    of(started, (s) => s.owner.environment),
    of(started, (s) => s.owner.currency),
    of(started, (s) => s.version),
    of(started, (s) => s.amount),
    of(started, (s) => s.status),
    of(started, (s) => s.failureReason),
    of(started, (s) => s.trigger),
    of(started, (s) => s.retainedTarget),
    of(started, (s) => s.createdAt),
    of(started, (s) => s.paidAt),
    of(started, (s) => s.failedAt),
    of(outcomes, (o) => o.id),
    of(outcomes, (o) => o.owner.accountId),
    of(outcomes, (o) => o.owner.environment),
    of(outcomes, (o) => o.owner.currency),
    of(outcomes, (o) => o.status),
    of(outcomes, (o) => o.paidAt),
    of(outcomes, (o) => o.failureReason),
    of(outcomes, (o) => o.failedAt),
  ];
}
