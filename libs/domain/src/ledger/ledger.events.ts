import { Environment } from '../kernel/decider';

/**
 * Events of one account's ledger in one environment and currency (`ledger-<account_id>-<environment>`
 * for USD, the payout ledger; `ledger-<account_id>-<environment>-<CURRENCY>` for the others, which
 * are only settled), the money consistency boundary (docs/design.md#funds-flow). Money is a decimal string
 * with exactly two decimals in the ledger's currency.
 */
export type LedgerLimits = {
  feePerPayout: string;
  minPayout: string;
  maxPayout: string;
  maxOpenExposure: string;
  maxPendingPerCustomer: number;
};

export type LedgerLimitsSet = {
  type: 'LedgerLimitsSet';
  data: { accountId: string; environment: Environment; limits: LedgerLimits; at: string };
};

/**
 * The operator's manual adjustment: money credited straight to available, with the reason an
 * auditor reads. Schema 2 added `reason`; schema-1 events are read through upcastLedgerEvent.
 */
export type FundsCredited = {
  type: 'FundsCredited';
  data: {
    accountId: string;
    environment: Environment;
    amount: string;
    reference: string;
    reason: string;
    at: string;
  };
};

/**
 * A paid checkout order's proceeds, committed with the order's OrderPaid: the gross, the
 * processing fee and the net (gross − fee), pending until `availableOn`.
 */
export type PaymentProceedsRecorded = {
  type: 'PaymentProceedsRecorded';
  data: {
    orderId: number;
    method: string;
    gross: string;
    fee: string;
    net: string;
    paidAt: string;
    availableOn: string;
    at: string;
  };
};

/** A payment's net cleared: it leaves pending and joins matured and available. */
export type PaymentProceedsMatured = {
  type: 'PaymentProceedsMatured';
  data: { orderId: number; net: string; at: string };
};

/** Money to the merchant's bank: the amount moves from available into merchant_settlement_holds. */
export type SettlementStarted = {
  type: 'SettlementStarted';
  data: {
    settlementId: string;
    amount: string;
    retainedTarget: string;
    trigger: SettlementTrigger;
    at: string;
  };
};

/** The settlement rail paid it: the holds and matured fall by the amount. */
export type SettlementPaid = {
  type: 'SettlementPaid';
  data: { settlementId: string; amount: string; at: string };
};

/** The settlement rail refused it: the amount returns to available. */
export type SettlementFailed = {
  type: 'SettlementFailed';
  data: { settlementId: string; amount: string; reason: string; at: string };
};

/** What the account administrator asked to keep back from automatic settlement; not a cap on payouts. */
export type RetainedTargetSet = {
  type: 'RetainedTargetSet';
  data: { amount: string; at: string };
};

/** `daily`: the automatic run at SETTLEMENT_HOUR_UTC; `manual`: the operator's run-now. */
export type SettlementTrigger = 'daily' | 'manual';

export type PayoutFundsReserved = {
  type: 'PayoutFundsReserved';
  data: { payoutId: string; customerKey: string; amount: string; fee: string; total: string; at: string };
};

export type PayoutFundsReleased = {
  type: 'PayoutFundsReleased';
  data: { payoutId: string; total: string; reason: 'cancelled' | 'expired' | 'failed'; at: string };
};

export type PayoutFundsSettled = {
  type: 'PayoutFundsSettled';
  data: { payoutId: string; total: string; at: string };
};

export type LedgerEvent =
  | LedgerLimitsSet
  | FundsCredited
  | PayoutFundsReserved
  | PayoutFundsReleased
  | PayoutFundsSettled
  | PaymentProceedsRecorded
  | PaymentProceedsMatured
  | SettlementStarted
  | SettlementPaid
  | SettlementFailed
  | RetainedTargetSet;

export const LEDGER_EVENT_SCHEMA_VERSIONS: Record<LedgerEvent['type'], number> = {
  LedgerLimitsSet: 1,
  FundsCredited: 2,
  PayoutFundsReserved: 1,
  PayoutFundsReleased: 1,
  PayoutFundsSettled: 1,
  PaymentProceedsRecorded: 1,
  PaymentProceedsMatured: 1,
  SettlementStarted: 1,
  SettlementPaid: 1,
  SettlementFailed: 1,
  RetainedTargetSet: 1,
};

export const LEDGER_STREAM_TYPE = 'ledger';

/** The currency payouts draw on: its ledger keeps the stream id it had before other currencies. */
export const PAYOUT_CURRENCY = 'USD';

export const ledgerStreamId = (
  accountId: string,
  environment: Environment,
  currency: string = PAYOUT_CURRENCY,
): string =>
  currency === PAYOUT_CURRENCY
    ? `ledger-${accountId}-${environment}`
    : `ledger-${accountId}-${environment}-${currency}`;

export type LedgerOwner = { accountId: string; environment: Environment; currency: string };

/** The inverse of ledgerStreamId; null for a stream id it did not make. */
export function ledgerOwnerFromStreamId(streamId: string): LedgerOwner | null {
  const match = /^ledger-(.+)-(production|sandbox)(?:-([A-Z]{3}))?$/.exec(streamId);
  if (!match || match[3] === PAYOUT_CURRENCY) return null;
  return {
    accountId: match[1]!,
    environment: match[2] as Environment,
    currency: match[3] ?? PAYOUT_CURRENCY,
  };
}
