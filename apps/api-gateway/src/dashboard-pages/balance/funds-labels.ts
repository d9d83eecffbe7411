import type { TransactionStatus, TransactionType } from '@payouts/read-models';

/**
 * Words for the funds reads' codes, as the pages show them. The codes themselves (the API's and
 * the CSV's) are unchanged; a code without words here is shown as it is.
 */
export const TRANSACTION_TYPE_LABELS: Readonly<Record<TransactionType, string>> = {
  payment: 'Payment',
  payment_fee: 'Processing fee',
  payout_reserved: 'Payout reserved',
  payout_released: 'Payout released',
  payout_paid: 'Payout paid',
  settlement: 'Settlement',
  settlement_failed: 'Settlement returned',
  adjustment: 'Adjustment',
};

export const TRANSACTION_STATUS_LABELS: Readonly<Record<TransactionStatus, string>> = {
  pending: 'Pending',
  available: 'Available',
  in_transit: 'In transit',
  paid: 'Paid',
  failed: 'Failed',
};

export const SETTLEMENT_STATUS_LABELS: Readonly<Record<string, string>> = {
  in_transit: 'In transit',
  paid: 'Paid',
  failed: 'Failed',
};

export const SETTLEMENT_TRIGGER_LABELS: Readonly<Record<string, string>> = {
  daily: 'Daily run',
  manual: 'Run by the operator',
};

/** The words for `code`, or the code itself when there are none. */
export function labelOf(labels: Readonly<Record<string, string>>, code: string): string {
  return Object.prototype.hasOwnProperty.call(labels, code) ? labels[code]! : code;
}

/** A figure as the API gives it (a two-decimal string), with its currency: never recomputed. */
export const money = (amount: string, currency: string): string => `${amount} ${currency}`;
