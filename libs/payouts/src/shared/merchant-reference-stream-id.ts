import { createHash } from 'node:crypto';
import type { Environment } from '@payouts/domain';
import { EVENT_STORE_LIMITS } from '@payouts/event-store';

/**
 * The stream that claims a `merchant_reference` (one per reference, see the domain's
 * merchant-reference.ts). The reference itself is in the id while it fits, so the streams stay
 * readable to an auditor. A reference of 191 characters outside the Basic Multilingual Plane
 * (emoji) is 382 UTF-16 units and cannot fit the event store's bound: such a reference is named by
 * its SHA-256 instead. The two forms cannot meet, since an account id never starts with `sha256-`;
 * the same reference always gives the same id, so uniqueness holds in both.
 */
export function merchantReferenceStreamId(
  accountId: string,
  environment: Environment,
  reference: string,
): string {
  const readable = `merchant-reference-${accountId}-${environment}-${reference}`;
  if (readable.length <= EVENT_STORE_LIMITS.maxIdLength) return readable;
  const digest = createHash('sha256').update(reference, 'utf8').digest('hex');
  return `merchant-reference-sha256-${accountId}-${environment}-${digest}`;
}
