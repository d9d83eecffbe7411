import { LedgerEvent, LedgerOwner } from '@payouts/domain';
import { FAIL_SETTLEMENT_SQL, PAY_SETTLEMENT_SQL, START_SETTLEMENT_SQL } from './balance-statements';
import { RunningDeltas, TransactionDraft } from './balance-transactions';

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
