import { Environment } from '../shared/decider';

/**
 * Events of one account's ledger in one environment (`ledger-<account_id>-<environment>`), the
 * money consistency boundary. Money is a decimal string with exactly two decimals.
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

/** Matured (cleared) funds credited to the merchant. */
export type FundsCredited = {
  type: 'FundsCredited';
  data: { accountId: string; environment: Environment; amount: string; reference: string; at: string };
};

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
  LedgerLimitsSet | FundsCredited | PayoutFundsReserved | PayoutFundsReleased | PayoutFundsSettled;

export const LEDGER_EVENT_SCHEMA_VERSIONS: Record<LedgerEvent['type'], number> = {
  LedgerLimitsSet: 1,
  FundsCredited: 1,
  PayoutFundsReserved: 1,
  PayoutFundsReleased: 1,
  PayoutFundsSettled: 1,
};

export const LEDGER_STREAM_TYPE = 'ledger';
export const ledgerStreamId = (accountId: string, environment: Environment): string =>
  `ledger-${accountId}-${environment}`;

/** The inverse of ledgerStreamId; null for a stream id it did not make. */
export function ledgerOwnerFromStreamId(
  streamId: string,
): { accountId: string; environment: Environment } | null {
  const match = /^ledger-(.+)-(production|sandbox)$/.exec(streamId);
  return match ? { accountId: match[1]!, environment: match[2] as Environment } : null;
}
