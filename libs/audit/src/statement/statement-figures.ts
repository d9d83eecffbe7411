import Big from 'big.js';
import type { LedgerFigures } from '@payouts/domain';
import { toBalanceFigures } from '@payouts/read-models';
import { FIGURE_NAMES, StatementFigures } from './statement-line';

/**
 * A ledger's figures as a statement prints them: toBalanceFigures, Get Payout Balance's own, of the
 * ledger's money as evolveLedger (by ledgerMovement) leaves it. `available` goes in as a plain Big:
 * the estimate compares available − target with the number 0, which the ledger's strict amounts
 * refuse.
 */
export function figuresOf(ledger: LedgerFigures): StatementFigures {
  const {
    currency: _currency,
    funds_in: _fundsIn,
    ...figures
  } = toBalanceFigures({
    currency: '',
    fundsIn: ledger.fundsIn,
    pending: ledger.pending,
    available: new Big(ledger.available),
    customerPayoutHolds: ledger.customerPayoutHolds,
    merchantSettlementHolds: ledger.merchantSettlementHolds,
    customerPayoutsSettled: ledger.customerPayoutsSettled,
    retainedTarget: ledger.retainedTarget,
  });
  return figures;
}

/** The names of the figures that differ, in column order. */
export const differingFigures = (a: StatementFigures, b: StatementFigures): (keyof StatementFigures)[] =>
  FIGURE_NAMES.filter((name) => a[name] !== b[name]);
