import type { ReceivingDetails } from '@payouts/domain';

/**
 * Where a recipient's receiving details live: encrypted at rest (AES-256-GCM, key from
 * ENCRYPTION_KEY), keyed by payout, outside the event store so no merchant-visible event, read
 * model, webhook or log ever holds them. The hosted pages save them before confirming; the worker
 * loads them to send the payout through the rail.
 */
export interface ReceivingDetailsVault {
  /** Replaces what was saved for the payout (the recipient may go back and change them before confirming). */
  save(payoutId: string, details: ReceivingDetails): Promise<void>;
  load(payoutId: string): Promise<ReceivingDetails | null>;
  /**
   * Erases them for good: the worker calls it once the payout can no longer be sent (paid, failed,
   * expired), so card and account numbers are kept no longer than the payout needs them.
   */
  forget(payoutId: string): Promise<unknown>;
}

/** Nest token for the ReceivingDetailsVault. */
export const RECEIVING_DETAILS_VAULT = Symbol('RECEIVING_DETAILS_VAULT');
