import { ledgerBalanceView, LedgerState } from '@payouts/domain';
import { BalanceRow, balanceRowFigures } from '@payouts/read-models';
import { FIGURE_NAMES, StatementFigures } from './statement-line';

/** The figures of the read side's balance row (toBalanceFigures: Get Payout Balance's own). */
export function figuresOfRow(row: BalanceRow): StatementFigures {
  const { currency: _currency, funds_in: _fundsIn, ...figures } = balanceRowFigures(row);
  return figures;
}

/** The same figures by the domain's ledger fold: the independent second computation. */
export function figuresOfLedger(state: LedgerState): StatementFigures {
  const view = ledgerBalanceView(state);
  return {
    pending: view.pending,
    available_for_new_commitments: view.available,
    customer_payout_holds: view.customerPayoutHolds,
    merchant_settlement_holds: view.merchantSettlementHolds,
    matured: view.matured,
    customer_payouts_settled: view.customerPayoutsSettled,
    retained_target: view.retainedTarget,
    estimated_next_settlement: view.estimatedNextSettlement,
  };
}

/** The names of the figures that differ, in column order. */
export const differingFigures = (a: StatementFigures, b: StatementFigures): (keyof StatementFigures)[] =>
  FIGURE_NAMES.filter((name) => a[name] !== b[name]);
