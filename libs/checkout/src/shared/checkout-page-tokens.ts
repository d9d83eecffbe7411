import { createHash, createHmac } from 'node:crypto';
import { copyOf32ByteKey, deriveSubkeys, KeyMaterial } from '@payouts/accounts';

/** HKDF info of the hosted-page key: its own key, never the encryption key itself. */
const KEY_INFO = 'payouts/checkout-pages/v1';

/**
 * Hosted checkout page tokens, derived from the installation's key rather than kept anywhere: the
 * base64url HMAC-SHA256 of the order id (256 bits, 43 characters), unguessable without the key, so
 * the order id alone never opens a page. The order keeps only the token's hash, which the page
 * looks the order up by; Create's idempotent replay derives the same `order_url` again, so no
 * stored answer holds the token either (as claim links, ClaimLinkTokens).
 */
export class CheckoutPageTokens {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = copyOf32ByteKey(key, 'checkout page key');
  }

  /**
   * Under the current key only. A page opens by its token's hash, never by the key, so pages
   * issued before an ENCRYPTION_KEY rotation keep opening without the previous key.
   */
  static fromEncryptionKey(encryptionKey: KeyMaterial): CheckoutPageTokens {
    return new CheckoutPageTokens(deriveSubkeys(encryptionKey, KEY_INFO)[0]!);
  }

  /** The order's page token and the hash its order keeps. */
  tokenOf(orderId: number): { token: string; tokenHash: string } {
    const token = createHmac('sha256', this.#key).update(`order.${orderId}`).digest('base64url');
    return { token, tokenHash: hashPageToken(token) };
  }
}

export function hashPageToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Only what CheckoutPageTokens makes can name a page: anything else is never looked up. */
export function isWellFormedPageToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** `PUBLIC_BASE_URL/checkout/<token>` (docs/design.md#hosted-page), the same in both environments. */
export function orderUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/checkout/${token}`;
}
