import { randomBytes } from 'node:crypto';
import { CheckoutCsrf } from './checkout-csrf';

describe('the checkout page CSRF token across an ENCRYPTION_KEY rotation', () => {
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);
  const pageToken = randomBytes(32).toString('base64url');

  it('accepts a form signed under A on a gateway switched to B with A as previous', () => {
    const form = new CheckoutCsrf(keyA).issue(pageToken);
    expect(new CheckoutCsrf({ current: keyB, previous: keyA }).check(pageToken, form.nonce, form.token)).toBe(
      true,
    );
  });

  it('refuses it once the previous key is dropped, or on another page', () => {
    const form = new CheckoutCsrf(keyA).issue(pageToken);
    expect(new CheckoutCsrf(keyB).check(pageToken, form.nonce, form.token)).toBe(false);
    const other = randomBytes(32).toString('base64url');
    expect(new CheckoutCsrf({ current: keyB, previous: keyA }).check(other, form.nonce, form.token)).toBe(
      false,
    );
  });

  it('signs new forms under the current key only', () => {
    const form = new CheckoutCsrf({ current: keyB, previous: keyA }).issue(pageToken);
    expect(new CheckoutCsrf(keyB).check(pageToken, form.nonce, form.token)).toBe(true);
    expect(new CheckoutCsrf(keyA).check(pageToken, form.nonce, form.token)).toBe(false);
  });
});
