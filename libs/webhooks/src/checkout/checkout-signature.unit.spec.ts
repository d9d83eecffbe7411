import { createHmac } from 'node:crypto';
import { CHECKOUT_MAX_ATTEMPTS, CHECKOUT_RETRY_DELAYS_MS, nextAttemptAfter } from '../schedule';
import { CHECKOUT_SIGNATURE_HEADER, checkoutSignature } from './checkout-signature';
import { verifyCheckoutWebhook } from './checkout-verify';

/**
 * Published test vectors (docs/webhooks.md), computed independently with
 * `printf '%s' '<body>' | openssl dgst -sha256 -hmac '<secret>'`.
 */
const SECRET = 'cks_Y2hlY2tvdXQgd2ViaG9vayB0ZXN0IHZlY3RvciBrZXk';
const VECTORS = [
  {
    body: '{"order_id":0,"status":"SUCCESS","amount":1,"product":"Test webhook"}',
    signature: '8f59adfad86a0c88f6c7a9ce47f3d4518787971df28bec5590b4c7604d8f2ef0',
  },
  {
    body: '{"order_id":1042,"status":"SUCCESS","amount":10.5,"product":"Blue mug"}',
    signature: '893bb52de09fad04f448836c154244d91e28794a6377e0412f65b77668dd36d0',
  },
];

describe('signing a checkout webhook', () => {
  it('goes in X-Service-Signature', () => {
    expect(CHECKOUT_SIGNATURE_HEADER).toBe('X-Service-Signature');
  });

  it.each(VECTORS)('gives the published signature of $body', ({ body, signature }) => {
    expect(checkoutSignature(SECRET, body)).toBe(signature);
    expect(checkoutSignature(SECRET, Buffer.from(body))).toBe(signature);
  });

  it('is lowercase hex HMAC-SHA256 of the raw body, the same for every attempt of one body', () => {
    const body = VECTORS[1]!.body;
    const independent = createHmac('sha256', SECRET).update(body).digest('hex');
    expect(checkoutSignature(SECRET, body)).toBe(independent);
    expect(checkoutSignature(SECRET, body)).toMatch(/^[0-9a-f]{64}$/);
    expect(checkoutSignature(`${SECRET}x`, body)).not.toBe(independent);
  });

  it('refuses an empty secret rather than signing with it', () => {
    expect(() => checkoutSignature('', '{}')).toThrow(TypeError);
  });
});

describe('verifying a checkout webhook (the merchant side)', () => {
  const { body, signature } = VECTORS[1]!;

  it('accepts the signature of the exact body, in either hex case and with surrounding spaces', () => {
    expect(verifyCheckoutWebhook(body, signature, SECRET)).toBe(true);
    expect(verifyCheckoutWebhook(Buffer.from(body), signature, SECRET)).toBe(true);
    expect(verifyCheckoutWebhook(body, signature.toUpperCase(), SECRET)).toBe(true);
    expect(verifyCheckoutWebhook(body, ` ${signature} `, SECRET)).toBe(true);
  });

  it('refuses another body, even the same JSON re-serialised', () => {
    expect(verifyCheckoutWebhook(body.replace('10.5', '105'), signature, SECRET)).toBe(false);
    expect(verifyCheckoutWebhook(JSON.stringify(JSON.parse(body), null, 1), signature, SECRET)).toBe(false);
    expect(verifyCheckoutWebhook(`${body}\n`, signature, SECRET)).toBe(false);
  });

  it('refuses another secret', () => {
    expect(verifyCheckoutWebhook(body, signature, `${SECRET}x`)).toBe(false);
    expect(verifyCheckoutWebhook(body, signature, '')).toBe(false);
  });

  it.each([
    ['missing', ''],
    ['short', signature.slice(0, 63)],
    ['long', `${signature}0`],
    ['not hex', `${signature.slice(0, 63)}g`],
    ['a payout-style header', `t=1700000000,v1=${signature}`],
    ['sha256= prefixed', `sha256=${signature}`],
  ])('refuses a %s header without throwing', (_what, header) => {
    expect(verifyCheckoutWebhook(body, header, SECRET)).toBe(false);
  });

  it('refuses values that are not strings (an absent header read loosely)', () => {
    expect(verifyCheckoutWebhook(body, undefined as unknown as string, SECRET)).toBe(false);
    expect(verifyCheckoutWebhook(body, [signature] as unknown as string, SECRET)).toBe(false);
  });
});

describe('the checkout retry schedule', () => {
  it('is 4 attempts: now, then 1, 4 and 16 minutes after the attempt before', () => {
    expect(CHECKOUT_MAX_ATTEMPTS).toBe(4);
    expect(CHECKOUT_RETRY_DELAYS_MS).toEqual([60_000, 240_000, 960_000]);
    const finished = new Date('2026-03-01T12:00:00.000Z');
    const next = (made: number) =>
      nextAttemptAfter(made, CHECKOUT_MAX_ATTEMPTS, finished, CHECKOUT_RETRY_DELAYS_MS)?.toISOString();
    expect(next(1)).toBe('2026-03-01T12:01:00.000Z');
    expect(next(2)).toBe('2026-03-01T12:04:00.000Z');
    expect(next(3)).toBe('2026-03-01T12:16:00.000Z');
    expect(next(4)).toBeUndefined();
  });

  it('never goes past its own last delay, whatever max_attempts a row says', () => {
    const at = new Date(0);
    expect(nextAttemptAfter(4, 5, at, CHECKOUT_RETRY_DELAYS_MS)).toBeNull();
    expect(nextAttemptAfter(1, 1, at, CHECKOUT_RETRY_DELAYS_MS)).toBeNull();
  });

  it('leaves the payout schedule as it was when none is given', () => {
    expect(nextAttemptAfter(1, 5, new Date(0))?.getTime()).toBe(30_000);
    expect(nextAttemptAfter(4, 5, new Date(0))?.getTime()).toBe(23 * 3_600_000);
  });
});
