import { DAY_MS, HOUR_MS, MINUTE_MS, addMs } from '../kernel/time';
import { CreatePayout } from '../payout/payout.commands';
import {
  ClaimLinkIssued,
  PayoutCreated,
  PayoutDelivery,
  PayoutEvent,
  PayoutStatus,
  PAYOUT_STATUSES,
  RedirectSessionStarted,
} from '../payout/payout.events';

/** Commands and histories shared by the payout specs. Test code only. */

export const PAYOUT_ID = 'po_123';
export const T0 = new Date('2026-03-01T12:00:00.000Z');
export const after = (ms: number): Date => addMs(T0, ms);
export const iso = (ms: number): string => after(ms).toISOString();

export const LINK_EXPIRES_AT = '2026-03-08T12:00:00.000Z';
export const REDIRECT_EXPIRES_AT = '2026-03-02T12:00:00.000Z';

export const createLinkPayout = (overrides: Partial<CreatePayout['data']> = {}): CreatePayout => ({
  type: 'CreatePayout',
  data: {
    payoutId: PAYOUT_ID,
    accountId: 'acc_1',
    environment: 'sandbox',
    amount: '25.5',
    fee: '1.25',
    merchantReference: 'order-42',
    delivery: 'link',
    customerEmail: 'ana@example.com',
    description: 'Refund for order 42',
    caseReference: 'case-7',
    access: { id: 'lnk_1', tokenHash: 'hash-lnk-1' },
    ...overrides,
  },
});

export const createRedirectPayout = (overrides: Partial<CreatePayout['data']> = {}): CreatePayout => ({
  type: 'CreatePayout',
  data: {
    payoutId: PAYOUT_ID,
    accountId: 'acc_1',
    environment: 'production',
    amount: '100',
    fee: '0',
    merchantReference: 'order-43',
    delivery: 'redirect',
    customerId: 'cust_9',
    returnUrl: 'https://shop.example',
    originalPaymentId: 'pay_77',
    access: { id: 'ses_1', tokenHash: 'hash-ses-1' },
    ...overrides,
  },
});

export const linkPayoutCreated: PayoutCreated = {
  type: 'PayoutCreated',
  data: {
    payoutId: PAYOUT_ID,
    accountId: 'acc_1',
    environment: 'sandbox',
    amount: '25.50',
    fee: '1.25',
    totalReserved: '26.75',
    currency: 'USD',
    merchantReference: 'order-42',
    delivery: 'link',
    customerEmail: 'ana@example.com',
    customerId: null,
    returnUrl: null,
    description: 'Refund for order 42',
    caseReference: 'case-7',
    originalPaymentId: null,
    source: 'api',
    createdAt: T0.toISOString(),
    payoutExpiresAt: LINK_EXPIRES_AT,
  },
};

export const firstLinkIssued: ClaimLinkIssued = {
  type: 'ClaimLinkIssued',
  data: {
    payoutId: PAYOUT_ID,
    linkId: 'lnk_1',
    tokenHash: 'hash-lnk-1',
    rotated: false,
    issuedAt: T0.toISOString(),
    expiresAt: LINK_EXPIRES_AT,
  },
};

export const redirectPayoutCreated: PayoutCreated = {
  type: 'PayoutCreated',
  data: {
    payoutId: PAYOUT_ID,
    accountId: 'acc_1',
    environment: 'production',
    amount: '100.00',
    fee: '0.00',
    totalReserved: '100.00',
    currency: 'USD',
    merchantReference: 'order-43',
    delivery: 'redirect',
    customerEmail: null,
    customerId: 'cust_9',
    returnUrl: 'https://shop.example',
    description: null,
    caseReference: null,
    originalPaymentId: 'pay_77',
    source: 'api',
    createdAt: T0.toISOString(),
    payoutExpiresAt: REDIRECT_EXPIRES_AT,
  },
};

export const firstSessionStarted: RedirectSessionStarted = {
  type: 'RedirectSessionStarted',
  data: {
    payoutId: PAYOUT_ID,
    sessionId: 'ses_1',
    tokenHash: 'hash-ses-1',
    startedAt: T0.toISOString(),
    expiresAt: iso(10 * MINUTE_MS),
  },
};

export const openLinkPayout: PayoutEvent[] = [linkPayoutCreated, firstLinkIssued];
export const openRedirectPayout: PayoutEvent[] = [redirectPayoutCreated, firstSessionStarted];

// Events of the lifecycle, each at a time given as an offset from T0.
const id = { payoutId: PAYOUT_ID };
export const confirmed = (ms = HOUR_MS): PayoutEvent => ({
  type: 'PayoutConfirmed',
  data: { ...id, selectedMethod: 'bank_transfer', acceptedAt: iso(ms) },
});
export const awaitingFloat = (ms = 2 * HOUR_MS): PayoutEvent => ({
  type: 'PayoutAwaitingFloat',
  data: { ...id, at: iso(ms) },
});
export const leftFloatQueue = (ms = 3 * HOUR_MS): PayoutEvent => ({
  type: 'PayoutLeftFloatQueue',
  data: { ...id, at: iso(ms) },
});
export const reviewRequired = (ms = 2 * HOUR_MS): PayoutEvent => ({
  type: 'PayoutReviewRequired',
  data: { ...id, reason: 'manual_check', at: iso(ms) },
});
export const reviewApproved = (ms = 3 * HOUR_MS): PayoutEvent => ({
  type: 'PayoutReviewApproved',
  data: { ...id, at: iso(ms) },
});
export const paid = (ms = 2 * HOUR_MS, receiptReference = 'rcpt_1'): PayoutEvent => ({
  type: 'PayoutPaid',
  data: { ...id, receiptReference, paidAt: iso(ms) },
});
export const cancelled = (ms = HOUR_MS): PayoutEvent => ({
  type: 'PayoutCancelled',
  data: { ...id, cancelledAt: iso(ms) },
});
export const expired = (ms = 7 * DAY_MS): PayoutEvent => ({
  type: 'PayoutExpired',
  data: { ...id, expiredAt: iso(ms) },
});
export const failed = (ms = 2 * HOUR_MS, reason = 'rail_rejected'): PayoutEvent => ({
  type: 'PayoutFailed',
  data: { ...id, reason, failedAt: iso(ms) },
});

/** A history that leaves a payout of the given delivery in the given status. */
export function historyIn(status: PayoutStatus, delivery: PayoutDelivery = 'link'): PayoutEvent[] {
  const open = delivery === 'link' ? openLinkPayout : openRedirectPayout;
  switch (status) {
    case 'awaiting_choice':
      return open;
    case 'processing':
      return [...open, confirmed()];
    case 'review_required':
      return [...open, confirmed(), reviewRequired()];
    case 'paid':
      return [...open, confirmed(), paid()];
    case 'cancelled':
      return [...open, cancelled()];
    case 'expired':
      return [...open, expired(delivery === 'link' ? 7 * DAY_MS : DAY_MS)];
    case 'failed':
      return [...open, confirmed(), failed()];
  }
}

export const ALL_STATUSES: PayoutStatus[] = [...PAYOUT_STATUSES];
