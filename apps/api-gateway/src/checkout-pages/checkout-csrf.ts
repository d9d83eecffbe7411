import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { deriveSubkeys, KeyMaterial } from '@payouts/accounts';

const KEY_INFO = 'payouts/checkout-csrf/v1';

/**
 * CSRF for the hosted checkout page, kept nowhere (a signed double submit): the GET sets a random
 * nonce in an HttpOnly, SameSite=Strict cookie and puts HMAC(key, page token + nonce) in the form;
 * a POST must bring both, matching. Another site can neither read the cookie nor make the token.
 * During an ENCRYPTION_KEY rotation a form the previous key signed (a page opened before the
 * switch) is still accepted; new forms are signed under the current key.
 */
export class CheckoutCsrf {
  /** The current key first. */
  readonly #keys: readonly Buffer[];

  constructor(encryptionKey: KeyMaterial) {
    this.#keys = deriveSubkeys(encryptionKey, KEY_INFO);
  }

  issue(pageToken: string): { nonce: string; token: string } {
    const nonce = randomBytes(16).toString('base64url');
    return { nonce, token: this.tokenOf(this.#keys[0]!, pageToken, nonce) };
  }

  check(pageToken: string, nonce: string | undefined, submitted: string | undefined): boolean {
    if (!nonce || !submitted || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) return false;
    const given = Buffer.from(submitted);
    return this.#keys.some((key) => {
      const expected = Buffer.from(this.tokenOf(key, pageToken, nonce));
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  }

  private tokenOf(key: Buffer, pageToken: string, nonce: string): string {
    return createHmac('sha256', key).update(`${pageToken}.${nonce}`).digest('base64url');
  }
}

export const CHECKOUT_CSRF_COOKIE = 'checkout_csrf';
