import { Environment } from '../kernel/decider';
import { PayoutSource, PayoutStatus } from './payout.events';

/** The current claim link of a link payout; rotation replaces it, so older links stop working. */
export type ClaimLink = { linkId: string; tokenHash: string; expiresAt: string };

/** The latest handoff of a redirect payout; a new session replaces it, so older ones stop working. */
export type RedirectSession = { sessionId: string; tokenHash: string; expiresAt: string; consumed: boolean };

/** Fields fixed at creation, plus the counters every change moves (the merchant view, Get Payout). */
export type PayoutFacts = {
  payoutId: string;
  accountId: string;
  environment: Environment;
  amount: string;
  fee: string;
  totalReserved: string;
  currency: 'USD';
  merchantReference: string;
  customerEmail: string | null;
  description: string | null;
  caseReference: string | null;
  originalPaymentId: string | null;
  source: PayoutSource;
  createdAt: string;
  payoutExpiresAt: string;
  updatedAt: string;
  statusVersion: number;
};

export type LinkDelivery = {
  delivery: 'link';
  customerId: null;
  returnUrl: null;
  currentLink: ClaimLink | null;
};
export type RedirectDelivery = {
  delivery: 'redirect';
  customerId: string;
  returnUrl: string;
  currentSession: RedirectSession | null;
};

// One shape per status, so that e.g. a paid payout without a receipt cannot be written. The
// parts are exported for evolvePayout (payout.evolve.ts), which builds them.
export type AwaitingChoice = {
  status: 'awaiting_choice';
  fundsReleased: false;
  selectedMethod: null;
  acceptedAt: null;
  safeReason: null;
  receiptReference: null;
};
export type Processing = {
  status: 'processing';
  fundsReleased: false;
  selectedMethod: string;
  acceptedAt: string;
  safeReason: 'awaiting_float' | null;
  receiptReference: null;
};
export type ReviewRequired = {
  status: 'review_required';
  fundsReleased: false;
  selectedMethod: string;
  acceptedAt: string;
  safeReason: string;
  receiptReference: null;
};
export type Paid = {
  status: 'paid';
  fundsReleased: false;
  selectedMethod: string;
  acceptedAt: string;
  safeReason: null;
  receiptReference: string;
};
export type ClosedUnclaimed = {
  status: 'cancelled' | 'expired';
  fundsReleased: true;
  selectedMethod: null;
  acceptedAt: null;
  safeReason: null;
  receiptReference: null;
};
export type Failed = {
  status: 'failed';
  fundsReleased: true;
  selectedMethod: string | null;
  acceptedAt: string | null;
  safeReason: string;
  receiptReference: null;
};

export type PayoutStatusShape =
  AwaitingChoice | Processing | ReviewRequired | Paid | ClosedUnclaimed | Failed;
export type Payout = PayoutFacts & (LinkDelivery | RedirectDelivery) & PayoutStatusShape;
export type NoPayout = { status: 'none' };
export type PayoutState = NoPayout | Payout;
export type PayoutIn<S extends PayoutStatus> = Payout & { status: S };

/** Statuses from which nothing moves any more. */
export const FINAL_PAYOUT_STATUSES = ['paid', 'cancelled', 'expired', 'failed'] as const;
/** Statuses in which money is still reserved and the payout can still fail. */
export const OPEN_PAYOUT_STATUSES = ['awaiting_choice', 'processing', 'review_required'] as const;

export function isFinalPayout(payout: Payout): boolean {
  return (FINAL_PAYOUT_STATUSES as readonly PayoutStatus[]).includes(payout.status);
}

export function isPayoutIn<S extends PayoutStatus>(
  payout: Payout,
  statuses: readonly S[],
): payout is PayoutIn<S> {
  return (statuses as readonly PayoutStatus[]).includes(payout.status);
}

export function initialPayoutState(): PayoutState {
  return { status: 'none' };
}
