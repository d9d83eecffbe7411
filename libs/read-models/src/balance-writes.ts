import type Big from 'big.js';
import { LedgerMovement, LedgerOwner } from '@payouts/domain';
import { RunningDeltas, TransactionDraft } from './balance-transactions';
import type { LedgerBatch } from './ledger-batch';
import { moneyText } from './money-figures';

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
    column((r) => moneyText(r.running.pending)),
    column((r) => moneyText(r.running.available)),
    column((r) => moneyText(r.running.holds)),
    column((r) => moneyText(r.running.settlementHolds)),
    column((r) => r.draft.includedInSettlement),
    column((r) => r.draft.createdAt),
  ];
}

const text = (value: string | number | null): string | null => (value === null ? null : String(value));

/** The parameter arrays of the batch's first statement (DELTA_FIELDS, MORE_DELTA_FIELDS if full, rows). */
export function ledgerBatchArrays(batches: readonly LedgerBatch[], full: boolean): (string | null)[][] {
  const column = (pick: (batch: LedgerBatch) => string | number | null) => batches.map((b) => text(pick(b)));
  const money = (pick: (total: LedgerMovement) => Big) => column((b) => moneyText(pick(b.total)));
  const deltas = [
    column((b) => b.owner.accountId),
    column((b) => b.owner.environment),
    column((b) => b.owner.currency),
    column((b) => b.fromVersion - 1),
    column((b) => b.upToVersion),
    money((t) => t.fundsIn),
    money((t) => t.available),
    money((t) => t.customerPayoutHolds),
    money((t) => t.customerPayoutsSettled),
    money((t) => t.pending),
    money((t) => t.grossProceeds),
    money((t) => t.processingFees),
    money((t) => t.operatorCredits),
    column((b) => b.at),
  ];
  const transactions = transactionArrays(batches.flatMap((b) => b.transactions));
  if (!full) return [...deltas, ...transactions];
  const more = [
    money((t) => t.merchantSettlementHolds),
    money((t) => t.maturedProceeds),
    money((t) => t.settlementsPaid),
    column((b) => (b.total.retainedTarget === null ? null : moneyText(b.total.retainedTarget))),
    column((b) => (b.limits ? 'true' : 'false')),
    column((b) => b.limits?.feePerPayout ?? null),
    column((b) => b.limits?.minPayout ?? null),
    column((b) => b.limits?.maxPayout ?? null),
    column((b) => b.limits?.maxOpenExposure ?? null),
    column((b) => b.limits?.maxPendingPerCustomer ?? null),
  ];
  return [...deltas, ...more, ...transactions];
}

/** Whether the batch changes earlier rows or writes settlements: the second statement's work. */
export const changesEarlier = (b: LedgerBatch): boolean =>
  b.earlier.matured.length > 0 ||
  b.earlier.firstCover !== null ||
  b.earlier.settled.length > 0 ||
  b.started.length > 0 ||
  b.outcomes.length > 0;

/** The second statement's arrays, in its order: MATURED, COVERED, SETTLED, STARTED, OUTCOME fields. */
export function earlierChangeArrays(batches: readonly LedgerBatch[]): (string | null)[][] {
  /** One item per row of a set, with its batch: the ledger's three columns, then the set's own. */
  const set = <T>(
    items: (b: LedgerBatch) => readonly T[],
    ...picks: ((item: T, b: LedgerBatch) => string | number | null)[]
  ): (string | null)[][] => {
    const rows = batches.flatMap((b) => items(b).map((item) => ({ item, b })));
    return [
      rows.map(({ b }) => b.owner.accountId),
      rows.map(({ b }) => b.owner.environment),
      rows.map(({ b }) => b.owner.currency),
      ...picks.map((pick) => rows.map(({ item, b }) => text(pick(item, b)))),
    ];
  };
  const from = (_: unknown, b: LedgerBatch) => b.fromVersion;
  const firstCover = (b: LedgerBatch) => (b.earlier.firstCover === null ? [] : [b.earlier.firstCover]);
  // STARTED_FIELDS and OUTCOME_FIELDS begin with the id, then the ledger.
  const withIdFirst = (columns: (string | null)[][]) => [
    columns[3]!,
    ...columns.slice(0, 3),
    ...columns.slice(4),
  ];
  return [
    ...set(
      (b) => b.earlier.matured,
      from,
      (m) => m.orderId,
      (m) => m.coveredBy,
    ),
    ...set(firstCover, from, (cover) => cover),
    ...set(
      (b) => b.earlier.settled,
      from,
      (s) => s.settlementId,
      (s) => s.status,
    ),
    ...withIdFirst(
      set(
        (b) => b.started,
        (s) => s.id,
        (s) => s.version,
        (s) => s.amount,
        (s) => s.status,
        (s) => s.failureReason,
        (s) => s.trigger,
        (s) => s.retainedTarget,
        (s) => s.createdAt,
        (s) => s.paidAt,
        (s) => s.failedAt,
      ),
    ),
    ...withIdFirst(
      set(
        (b) => b.outcomes,
        (o) => o.id,
        (o) => o.status,
        (o) => o.paidAt,
        (o) => o.failureReason,
        (o) => o.failedAt,
      ),
    ),
  ];
}
