import type { BalanceFigures, TransactionType } from '@payouts/read-models';

/**
 * One line of a statement (docs/audit.md, "What `statement` gives you"). Money is a signed
 * two-decimal string; the figures are the balance right after the line (or at the line's time,
 * for opening and closing), named as Get Payout Balance names them.
 */
export type StatementFigures = Omit<BalanceFigures, 'currency' | 'funds_in'>;

export const FIGURE_NAMES = [
  'pending',
  'available_for_new_commitments',
  'customer_payout_holds',
  'merchant_settlement_holds',
  'matured',
  'customer_payouts_settled',
  'retained_target',
  'estimated_next_settlement',
] as const satisfies readonly (keyof StatementFigures)[];

/**
 * Ledger events that change a figure without writing a balance transaction: each is a line of
 * its own, so no running figure ever moves without a line that says why.
 */
export const STATEMENT_ONLY_TYPES = ['payment_matured', 'settlement_paid', 'retained_target_set'] as const;
export type StatementOnlyType = (typeof STATEMENT_ONLY_TYPES)[number];

export type StatementLineKind = 'opening' | 'movement' | 'closing';

export interface StatementLine {
  kind: StatementLineKind;
  /** The movement's business time (its event's `at`), or the cut time of opening and closing. */
  time: string;
  /** The ledger event of a movement; for opening and closing the last event folded into them (0: none). */
  ledgerVersion: number;
  /** Null on opening and closing. */
  type: TransactionType | StatementOnlyType | null;
  /** The balance transaction's id (`txn_…`); null on a line that has no balance transaction. */
  transactionId: string | null;
  currency: string;
  orderId: number | null;
  payoutId: string | null;
  settlementId: string | null;
  description: string;
  amount: string | null;
  fee: string | null;
  net: string | null;
  figures: StatementFigures;
}
