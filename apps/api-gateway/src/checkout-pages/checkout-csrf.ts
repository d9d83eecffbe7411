import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { copyOf32ByteKey, deriveSubkey } from '@payouts/accounts';

const KEY_INFO = 'payouts/checkout-csrf/v1';

/**
 * CSRF for the hosted checkout page, kept nowhere (a signed double submit): the GET sets a random
 * nonce in an HttpOnly, SameSite=Strict cookie and puts HMAC(key, page token + nonce) in the form;
 * a POST must bring both, matching. Another site can neither read the cookie nor make the token.
 */
export class CheckoutCsrf {
  readonly #key: Buffer;

  constructor(encryptionKey: Buffer) {
    this.#key = copyOf32ByteKey(deriveSubkey(encryptionKey, KEY_INFO), 'checkout CSRF key');
  }

  issue(pageToken: string): { nonce: string; token: string } {
    const nonce = randomBytes(16).toString('base64url');
    return { nonce, token: this.tokenOf(pageToken, nonce) };
  }

  check(pageToken: string, nonce: string | undefined, submitted: string | undefined): boolean {
    if (!nonce || !submitted || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) return false;
    const expected = Buffer.from(this.tokenOf(pageToken, nonce));
    const given = Buffer.from(submitted);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private tokenOf(pageToken: string, nonce: string): string {
    return createHmac('sha256', this.#key).update(`${pageToken}.${nonce}`).digest('base64url');
  }
}

export const CHECKOUT_CSRF_COOKIE = 'checkout_csrf';
