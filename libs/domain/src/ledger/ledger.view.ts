import { formatMoney } from '../money/money';
import { LedgerLimits } from './ledger.events';
import { LedgerState } from './ledger.state';

/** The ledger's side of Get Payout Balance (spec 4.2), every amount as a two-decimal string. */
export type LedgerBalanceView = {
  currency: 'USD';
  /** Cleared funds owed to the merchant before holds: everything credited minus what was paid out. */
  matured: string;
  /** available_for_new_commitments: what a new payout (amount plus fee) can be created against. */
  available: string;
  customerPayoutHolds: string;
  customerPayoutsSettled: string;
  merchantSettlementHolds: string;
  limits: LedgerLimits | null;
};

export function ledgerBalanceView(state: LedgerState): LedgerBalanceView {
  return {
    currency: 'USD',
    matured: formatMoney(state.fundsIn.minus(state.customerPayoutsSettled)),
    available: formatMoney(state.available),
    customerPayoutHolds: formatMoney(state.customerPayoutHolds),
    customerPayoutsSettled: formatMoney(state.customerPayoutsSettled),
    merchantSettlementHolds: formatMoney(state.merchantSettlementHolds),
    limits: state.limits === null ? null : { ...state.limits },
  };
}
