import { Environment } from '../kernel/decider';

/**
 * Events of one payout's stream (`payout-<payout_id>`). Money is a decimal string with exactly
 * two decimals; times are ISO 8601 UTC strings. Each type carries a schema version
 * (PAYOUT_EVENT_SCHEMA_VERSIONS) so an upcaster can read old events after a change.
 */
export type PayoutDelivery = 'link' | 'redirect';
/** Every payout status (docs/design.md#payout-state-machine), in lifecycle order. */
export const PAYOUT_STATUSES = [
  'awaiting_choice',
  'processing',
  'review_required',
  'paid',
  'cancelled',
  'expired',
  'failed',
] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
/** Where a payout was created from: the API, or the merchant dashboard's Send payouts form. */
export const PAYOUT_SOURCES = ['api', 'dashboard'] as const;
export type PayoutSource = (typeof PAYOUT_SOURCES)[number];

export type PayoutCreated = {
  type: 'PayoutCreated';
  data: {
    payoutId: string;
    accountId: string;
    environment: Environment;
    amount: string;
    fee: string;
    totalReserved: string;
    currency: 'USD';
    merchantReference: string;
    delivery: PayoutDelivery;
    customerEmail: string | null;
    customerId: string | null;
    returnUrl: string | null;
    description: string | null;
    caseReference: string | null;
    originalPaymentId: string | null;
    source: PayoutSource;
    createdAt: string;
    payoutExpiresAt: string;
  };
};

/** A claim link (link delivery). `rotated` is true when it replaces an earlier link. */
export type ClaimLinkIssued = {
  type: 'ClaimLinkIssued';
  data: {
    payoutId: string;
    linkId: string;
    tokenHash: string;
    rotated: boolean;
    issuedAt: string;
    expiresAt: string;
  };
};

/** A one-time handoff (redirect delivery); invalidates every earlier session. */
export type RedirectSessionStarted = {
  type: 'RedirectSessionStarted';
  data: { payoutId: string; sessionId: string; tokenHash: string; startedAt: string; expiresAt: string };
};

/** The handoff URL was used; it can never be used again. */
export type RedirectHandoffConsumed = {
  type: 'RedirectHandoffConsumed';
  data: { payoutId: string; sessionId: string; consumedAt: string };
};

export type PayoutConfirmed = {
  type: 'PayoutConfirmed';
  data: { payoutId: string; selectedMethod: string; acceptedAt: string };
};

export type PayoutAwaitingFloat = {
  type: 'PayoutAwaitingFloat';
  data: { payoutId: string; at: string };
};

/**
 * The float was set aside for a payout that was waiting for it (PayoutAwaitingFloat): it is on
 * its way to the rail and no longer queued. Written in the same append as the float's
 * FloatReserved, so the merchant never sees awaiting_float for a payout being sent.
 */
export type PayoutLeftFloatQueue = {
  type: 'PayoutLeftFloatQueue';
  data: { payoutId: string; at: string };
};

export type PayoutReviewRequired = {
  type: 'PayoutReviewRequired';
  data: { payoutId: string; reason: string; at: string };
};

export type PayoutReviewApproved = {
  type: 'PayoutReviewApproved';
  data: { payoutId: string; at: string };
};

export type PayoutPaid = {
  type: 'PayoutPaid';
  data: { payoutId: string; receiptReference: string; paidAt: string };
};

export type PayoutCancelled = {
  type: 'PayoutCancelled';
  data: { payoutId: string; cancelledAt: string };
};

export type PayoutExpired = {
  type: 'PayoutExpired';
  data: { payoutId: string; expiredAt: string };
};

export type PayoutFailed = {
  type: 'PayoutFailed';
  data: { payoutId: string; reason: string; failedAt: string };
};

export type PayoutEvent =
  | PayoutCreated
  | ClaimLinkIssued
  | RedirectSessionStarted
  | RedirectHandoffConsumed
  | PayoutConfirmed
  | PayoutAwaitingFloat
  | PayoutLeftFloatQueue
  | PayoutReviewRequired
  | PayoutReviewApproved
  | PayoutPaid
  | PayoutCancelled
  | PayoutExpired
  | PayoutFailed;

export const PAYOUT_EVENT_SCHEMA_VERSIONS: Record<PayoutEvent['type'], number> = {
  PayoutCreated: 1,
  ClaimLinkIssued: 1,
  RedirectSessionStarted: 1,
  RedirectHandoffConsumed: 1,
  PayoutConfirmed: 1,
  PayoutAwaitingFloat: 1,
  PayoutLeftFloatQueue: 1,
  PayoutReviewRequired: 1,
  PayoutReviewApproved: 1,
  PayoutPaid: 1,
  PayoutCancelled: 1,
  PayoutExpired: 1,
  PayoutFailed: 1,
};

export const PAYOUT_STREAM_TYPE = 'payout';
export const payoutStreamId = (payoutId: string): string => `payout-${payoutId}`;
export const payoutIdFromStreamId = (streamId: string): string => streamId.slice('payout-'.length);
