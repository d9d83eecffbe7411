import { redactUrl } from './logger';

describe('redactUrl', () => {
  it.each([
    ['/claim/po_1.secret', '/claim/[redacted]'],
    ['/sandbox/handoff/abc?x=1', '/sandbox/handoff/[redacted]?x=1'],
    ['/checkout/Sqeeg1bcvER6JJ6KcxQNAqIWE-j3lwOpX9DrmtwTn_8', '/checkout/[redacted]'],
  ])('drops the bearer token of %s and keeps the path around it', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it.each(['/dashboard/checkout-webhook', '/sandbox/payment/status?payment_id=7', '/sandbox/card'])(
    'leaves %s, which holds no token, as it is',
    (url) => {
      expect(redactUrl(url)).toBe(url);
    },
  );
});
