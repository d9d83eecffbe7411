import type { Environment, ReceivingDetails } from '@payouts/domain';

/**
 * The payout rail: whatever actually moves money to the recipient. A port, so the built-in
 * simulator (the only adapter today) can be replaced by a real rail without touching the worker.
 *
 * Sending is idempotent towards the rail: the transfer id is the payout id, and sending the same
 * transfer again answers the transfer that exists, so a retry never pays twice.
 */
export type RailTransferStatus =
  /** Accepted by the rail, not settled yet: ask again later. */
  | 'pending'
  /** Held by the rail for review: it goes on only when released, or is cancelled (money returned). */
  | 'held'
  | 'paid'
  /** Not paid, and never will be: the money is back with us. */
  | 'failed';

export interface RailTransfer {
  transferId: string;
  status: RailTransferStatus;
  /** The rail's receipt (`rcpt_…`), once paid; null before. */
  receiptReference: string | null;
  /** A short code safe to show a merchant, once failed; null otherwise. */
  failureReason: string | null;
}

export interface RailTransferRequest {
  /** The payout id. */
  transferId: string;
  environment: Environment;
  /** Decimal string, at most two decimals: the payout's amount (the fee stays with us). */
  amount: string;
  currency: 'USD';
  details: ReceivingDetails;
}

export interface PayoutRail {
  /** Sends, or answers the transfer already sent under this id (refused if its amount or environment differ). */
  send(request: RailTransferRequest): Promise<RailTransfer>;
  /** The transfer as the rail sees it now; null if it was never sent. */
  get(transferId: string): Promise<RailTransfer | null>;
  /** The operator approved a held transfer: it goes on to be paid. Idempotent. */
  releaseHold(transferId: string): Promise<RailTransfer>;
  /** The operator rejected a held transfer: it fails and the money returns. Idempotent. */
  cancelHold(transferId: string): Promise<RailTransfer>;
}

/** A request the rail cannot honour without risking money: a bug in the caller, never retried into success. */
export class RailRequestError extends Error {
  override readonly name = 'RailRequestError';
}

/** Nest token of the PayoutRail. */
export const PAYOUT_RAIL = Symbol('PAYOUT_RAIL');
