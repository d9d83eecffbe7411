import { Environment } from '../kernel/decider';
import { PayoutDelivery, PayoutSource } from './payout.events';

/**
 * Commands to one payout. Identifiers and token hashes are made outside the domain (it has no
 * randomness) and come in as data. `fee` comes from the ledger's reservation.
 */
export type CreatePayout = {
  type: 'CreatePayout';
  data: {
    payoutId: string;
    accountId: string;
    environment: Environment;
    amount: string;
    fee: string;
    merchantReference: string;
    delivery: PayoutDelivery;
    customerEmail?: string | null;
    customerId?: string | null;
    returnUrl?: string | null;
    description?: string | null;
    caseReference?: string | null;
    originalPaymentId?: string | null;
    /** Where the payout is created from; `api` when left out. */
    source?: PayoutSource;
    /** Link delivery: the first claim link. Redirect delivery: the first handoff session. */
    access: { id: string; tokenHash: string };
  };
};

export type IssueClaimLink = {
  type: 'IssueClaimLink';
  data: { linkId: string; tokenHash: string; rotate: boolean };
};

export type StartRedirectSession = {
  type: 'StartRedirectSession';
  data: { sessionId: string; tokenHash: string; customerId: string };
};

export type ConsumeRedirectHandoff = {
  type: 'ConsumeRedirectHandoff';
  data: { sessionId: string };
};

export type ConfirmPayout = { type: 'ConfirmPayout'; data: { selectedMethod: string } };
export type MarkAwaitingFloat = { type: 'MarkAwaitingFloat'; data: Record<string, never> };
/** Goes with every float reservation; writes an event only for a payout that was queued. */
export type LeaveFloatQueue = { type: 'LeaveFloatQueue'; data: Record<string, never> };
export type FlagForReview = { type: 'FlagForReview'; data: { reason: string } };
export type DecideReview = { type: 'DecideReview'; data: { decision: 'approve' | 'reject' } };
export type RecordPayoutPaid = { type: 'RecordPayoutPaid'; data: { receiptReference: string } };
export type FailPayout = { type: 'FailPayout'; data: { reason: string } };
export type CancelPayout = { type: 'CancelPayout'; data: Record<string, never> };
export type ExpirePayout = { type: 'ExpirePayout'; data: Record<string, never> };

export type PayoutCommand =
  | CreatePayout
  | IssueClaimLink
  | StartRedirectSession
  | ConsumeRedirectHandoff
  | ConfirmPayout
  | MarkAwaitingFloat
  | LeaveFloatQueue
  | FlagForReview
  | DecideReview
  | RecordPayoutPaid
  | FailPayout
  | CancelPayout
  | ExpirePayout;
