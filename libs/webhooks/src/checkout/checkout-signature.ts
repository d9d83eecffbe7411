import { createHmac } from 'node:crypto';

/**
 * The checkout webhook's signature header (docs/design.md#checkout-webhook); the payout webhook has
 * its own.
 */
export const CHECKOUT_SIGNATURE_HEADER = 'X-Service-Signature';

/**
 * HMAC-SHA256 of the raw body, keyed with the checkout credential's API secret exactly as shown to
 * the merchant (UTF-8, `cks_` prefix included), as lowercase hex
 * (docs/webhooks.md#checkout-webhook). Unlike the payout signature there is no timestamp, so every
 * attempt of one body carries the same value.
 */
export function checkoutSignature(apiSecret: string, rawBody: string | Buffer): string {
  if (typeof apiSecret !== 'string' || apiSecret.length === 0) {
    throw new TypeError('the API secret must be a non-empty string');
  }
  return createHmac('sha256', Buffer.from(apiSecret, 'utf8')).update(rawBody).digest('hex');
}
