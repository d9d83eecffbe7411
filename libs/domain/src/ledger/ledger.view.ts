import { formatMoney } from '../money/money';
import { LedgerLimits } from './ledger.events';
import { settlementAmount } from './ledger.funds-flow.decide';
import { LedgerState } from './ledger.state';

/**
 * The ledger's side of Get Payout Balance (`GET /api/payout/balance`), every amount as a
 * two-decimal string.
 */
export type LedgerBalanceView = {
  currency: 'USD';
  /** Cleared funds owed to the merchant before holds: available + customer payout holds + settlement holds. */
  matured: string;
  /** available_for_new_commitments: what a new payout (amount plus fee) can be created against. */
  available: string;
  customerPayoutHolds: string;
  customerPayoutsSettled: string;
  merchantSettlementHolds: string;
  /** Net proceeds that have not cleared. */
  pending: string;
  retainedTarget: string;
  /** What a settlement run would take now: max(0, available − retained target). */
  estimatedNextSettlement: string;
  limits: LedgerLimits | null;
};

export function ledgerBalanceView(state: LedgerState): LedgerBalanceView {
  return {
    currency: 'USD',
    matured: formatMoney(state.fundsIn.minus(state.customerPayoutsSettled).minus(state.settlementsPaid)),
    available: formatMoney(state.available),
    customerPayoutHolds: formatMoney(state.customerPayoutHolds),
    customerPayoutsSettled: formatMoney(state.customerPayoutsSettled),
    merchantSettlementHolds: formatMoney(state.merchantSettlementHolds),
    pending: formatMoney(state.pending),
    retainedTarget: formatMoney(state.retainedTarget),
    estimatedNextSettlement: formatMoney(settlementAmount(state)),
    limits: state.limits === null ? null : { ...state.limits },
  };
}
