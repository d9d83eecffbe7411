import type { OrderDeclineReason, OrderInstrument, OrderMethod, OrderStatus } from '@payouts/domain';

/** The order's statuses in words; the API's spelling is shown beside them on the order's page. */
export const STATUS_WORDS: Readonly<Record<OrderStatus, string>> = {
  PENDING: 'Pending',
  SUCCESS: 'Paid',
  EXPIRED: 'Expired',
};

/** The five methods, as the API reference names their create paths. */
export const METHOD_WORDS: Readonly<Record<OrderMethod, string>> = {
  card: 'Card',
  mobile_wallet: 'Mobile wallet',
  cash_app: 'Cash-transfer app',
  online_wallet: 'Online wallet',
  p2p_app: 'Peer-to-peer app',
};

export const DECLINE_WORDS: Readonly<Record<OrderDeclineReason, string>> = {
  card_declined: 'Card declined',
  insufficient_funds: 'Insufficient funds',
  wallet_declined: 'Wallet declined',
};

const BRAND_WORDS: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

/** What the payer paid (or tried to pay) with, as the service keeps it: never more than the last four. */
export function instrumentWords(instrument: OrderInstrument): string {
  if (instrument.kind === 'card') {
    return `${BRAND_WORDS[instrument.brand] ?? 'Card'} ending ${instrument.last4}`;
  }
  return `Wallet account ${instrument.account}`;
}

/** A decline reason this build does not know (a newer event) is shown as the API spells it. */
export function declineWords(reason: string): string {
  return (DECLINE_WORDS as Readonly<Record<string, string>>)[reason] ?? reason;
}
