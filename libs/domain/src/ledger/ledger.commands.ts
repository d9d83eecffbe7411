import { Environment } from '../shared/decider';
import { LedgerLimits } from './ledger.events';

export type SetLedgerLimits = {
  type: 'SetLedgerLimits';
  data: { accountId: string; environment: Environment; limits: LedgerLimits };
};

export type CreditFunds = {
  type: 'CreditFunds';
  data: { accountId: string; environment: Environment; amount: string; reference: string };
};

/** Reserve amount + fee for a new payout; the fee comes from the ledger's limits. */
export type ReservePayoutFunds = {
  type: 'ReservePayoutFunds';
  data: { payoutId: string; customerKey: string; amount: string };
};

export type ReleasePayoutFunds = {
  type: 'ReleasePayoutFunds';
  data: { payoutId: string; reason: 'cancelled' | 'expired' | 'failed' };
};

export type SettlePayoutFunds = { type: 'SettlePayoutFunds'; data: { payoutId: string } };

export type LedgerCommand =
  SetLedgerLimits | CreditFunds | ReservePayoutFunds | ReleasePayoutFunds | SettlePayoutFunds;
