import { Environment } from '../kernel/decider';
import { LedgerLimits, SettlementTrigger } from './ledger.events';

export type SetLedgerLimits = {
  type: 'SetLedgerLimits';
  data: { accountId: string; environment: Environment; limits: LedgerLimits };
};

/** The operator's manual adjustment, with the reason an auditor reads. */
export type CreditFunds = {
  type: 'CreditFunds';
  data: { accountId: string; environment: Environment; amount: string; reference: string; reason: string };
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

/** A paid order's proceeds, with the charges worked out from the account's pricing (paymentCharges). */
export type RecordPaymentProceeds = {
  type: 'RecordPaymentProceeds';
  data: {
    orderId: number;
    method: string;
    gross: string;
    fee: string;
    net: string;
    paidAt: string;
    availableOn: string;
  };
};

/** Clears every pending payment whose `availableOn` has come, at most `max` of them. */
export type MatureProceeds = { type: 'MatureProceeds'; data: { max: number } };

/**
 * Starts a settlement of available − retained target when that is at least the minimum; a
 * settlement id already used changes nothing (a second worker's run of the same day).
 */
export type StartSettlement = {
  type: 'StartSettlement';
  data: { settlementId: string; trigger: SettlementTrigger };
};

/** The settlement rail's answer; repeating the same answer changes nothing. */
export type CompleteSettlement = {
  type: 'CompleteSettlement';
  data:
    { settlementId: string; outcome: 'paid' } | { settlementId: string; outcome: 'failed'; reason: string };
};

export type SetRetainedTarget = { type: 'SetRetainedTarget'; data: { amount: string } };

export type LedgerCommand =
  | SetLedgerLimits
  | CreditFunds
  | ReservePayoutFunds
  | ReleasePayoutFunds
  | SettlePayoutFunds
  | RecordPaymentProceeds
  | MatureProceeds
  | StartSettlement
  | CompleteSettlement
  | SetRetainedTarget;
