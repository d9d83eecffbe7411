import type { SqlQueryable } from '@payouts/database';
import type { PlannedRow } from '@payouts/write-side';
import type { ReceivingDetails } from '@payouts/domain';

/**
 * Where a recipient's receiving details live: encrypted at rest (AES-256-GCM, key from
 * ENCRYPTION_KEY), keyed by payout, outside the event store so no merchant-visible event, read
 * model, webhook or log ever holds them. The hosted pages save them before confirming; the worker
 * loads them to send the payout through the rail.
 */
export interface ReceivingDetailsVault {
  /**
   * Replaces what was saved for the payout (the recipient may go back and change them before
   * confirming). False, and nothing written, once a confirm has sealed them.
   */
  save(payoutId: string, details: ReceivingDetails): Promise<boolean>;
  load(payoutId: string): Promise<ReceivingDetails | null>;
  /** The details and an opaque mark of that very save, for sealWithin. */
  loadForConfirm(payoutId: string): Promise<{ details: ReceivingDetails; saved: string } | null>;
  /**
   * Inside the confirm's own transaction: seals the save loadForConfirm returned, so no later save
   * replaces it. Throws ReceivingDetailsChangedError (rolling the confirm back) when the details
   * were saved again since they were loaded, or were sealed already.
   */
  sealWithin(tx: SqlQueryable, payoutId: string, saved: string): Promise<void>;
  /** sealWithin as a row of the confirm's plan, written in its commit. */
  sealRow(payoutId: string, saved: string): PlannedRow;
  /**
   * Erases them for good: the worker calls it once the payout can no longer be sent (paid, failed,
   * expired), so card and account numbers are kept no longer than the payout needs them.
   */
  forget(payoutId: string): Promise<unknown>;
}

/** Nest token for the ReceivingDetailsVault. */
export const RECEIVING_DETAILS_VAULT = Symbol('RECEIVING_DETAILS_VAULT');

/** The details changed between the confirm page's load and its commit: the recipient must see them again. */
export class ReceivingDetailsChangedError extends Error {
  constructor(payoutId: string) {
    super(`the receiving details of payout ${payoutId} changed before the confirm committed`);
    this.name = 'ReceivingDetailsChangedError';
  }
}
