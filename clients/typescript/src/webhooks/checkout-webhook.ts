import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The receiver's side of the checkout webhook (docs/webhooks.md#checkout-webhook in the service's
 * repository): recompute the HMAC-SHA256 of the raw body with the checkout credential's API secret
 * (the whole `cks_…` text) and compare it with `X-Service-Signature` in constant time. Depends on
 * node:crypto only, so it can be copied into a merchant's code as is. The service's own
 * `libs/webhooks` re-exports it: there is one implementation.
 *
 * Returns false for anything that is not a valid signature of this exact body (a missing or
 * malformed header included) rather than throwing: a receiver answers all of them the same way.
 * The body must be the bytes as received, never re-serialised JSON.
 */

/** The header that carries the checkout webhook's signature. */
export const CHECKOUT_WEBHOOK_SIGNATURE_HEADER = 'X-Service-Signature';

export function verifyCheckoutWebhook(
  rawBody: string | Buffer,
  signatureHeader: string | null | undefined,
  apiSecret: string,
): boolean {
  if (typeof signatureHeader !== 'string' || typeof apiSecret !== 'string' || apiSecret === '') return false;
  const candidate = signatureHeader.trim();
  // 32 bytes as hex: checked first, so the comparison below is over equal-length buffers.
  if (!/^[0-9a-fA-F]{64}$/.test(candidate)) return false;
  if (typeof rawBody !== 'string' && !Buffer.isBuffer(rawBody)) return false;
  const expected = createHmac('sha256', Buffer.from(apiSecret, 'utf8')).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(candidate, 'hex'));
}
