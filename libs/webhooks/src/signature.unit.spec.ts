import { computeSignature, newWebhookSecret, signatureHeaderValue } from './signature';
import { parseSignatureHeader, verifyPayoutWebhook, WebhookSignatureError } from './verify';

/**
 * Published test vectors (docs/webhooks.md), computed independently with
 * `printf '%s' "<t>.<body>" | openssl dgst -sha256 -hmac "<secret>"`.
 */
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const VECTORS = [
  {
    t: 1_700_000_000,
    body: '{"type":"payout.test","id":"evt_test_00000000000000000000000000000001","data":{"environment":"sandbox"}}',
    v1: '25b70aaf865fe563e57f55f744d0cc5f507d6826421a03c32803c1527e0235b1',
  },
  {
    t: 1_767_225_600,
    body: '{"type":"payout.updated","id":"evt_5f1c0c8e2b7e4f0a9d3c6b1a2e4d6f80","data":{"payout_id":"po_123","amount":"10.00"}}',
    v1: 'e8feb3584c19898020f68ab95089c0c4bbeb57eb2195f0046d15f71ef0044339',
  },
];

const at = (t: number) => new Date(t * 1000);

describe('signing a payout webhook', () => {
  it.each(VECTORS)('gives the published signature for t=$t', ({ t, body, v1 }) => {
    expect(computeSignature(SECRET, t, body)).toBe(v1);
    expect(computeSignature(SECRET, t, Buffer.from(body))).toBe(v1);
    expect(signatureHeaderValue(SECRET, t, body)).toBe(`t=${t},v1=${v1}`);
  });

  it('signs with the new secret first and the replaced one second during the overlap after a rotation', () => {
    // The published overlap vector (docs/webhooks.md#rotating-the-secret), checked with openssl.
    const { t, body, v1: oldV1 } = VECTORS[0]!;
    const rotated = 'whsec_kX8tW2pQ5vN9rL3mZ7cH1yB6dF4gJ0sA2eU8iO5nR3q';
    const newV1 = '6a1d2cf0387f24b006e8ba0c351488201c352f50a31a4ffa783ef99f5c8a4a6a';
    const header = signatureHeaderValue([rotated, SECRET], t, body);
    expect(header).toBe(`t=${t},v1=${newV1},v1=${oldV1}`);
    // A receiver holding either secret accepts; one holding neither does not.
    expect(verifyPayoutWebhook(body, header, rotated, { now: at(t) })).toEqual({ timestamp: t });
    expect(verifyPayoutWebhook(body, header, SECRET, { now: at(t) })).toEqual({ timestamp: t });
    expect(() => verifyPayoutWebhook(body, header, newWebhookSecret(), { now: at(t) })).toThrow(
      WebhookSignatureError,
    );
    expect(signatureHeaderValue([SECRET], t, body)).toBe(`t=${t},v1=${oldV1}`);
    expect(() => signatureHeaderValue([], t, body)).toThrow(RangeError);
  });

  it('gives another signature for another time, so every attempt is signed afresh', () => {
    const { t, body } = VECTORS[0]!;
    expect(computeSignature(SECRET, t + 1, body)).not.toBe(computeSignature(SECRET, t, body));
  });

  it('makes secrets of 32 random bytes after whsec_, never the same twice', () => {
    const secrets = new Set(Array.from({ length: 100 }, () => newWebhookSecret()));
    expect(secrets.size).toBe(100);
    for (const secret of secrets) expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });

  it.each([[-1], [1.5], [Number.NaN]])('refuses the timestamp %p', (t) => {
    expect(() => computeSignature(SECRET, t, '{}')).toThrow(RangeError);
  });
});

describe('verifying a payout webhook (the merchant side)', () => {
  const { t, body, v1 } = VECTORS[0]!;
  const header = `t=${t},v1=${v1}`;

  it('accepts the published vectors within 5 minutes either way, and returns t', () => {
    for (const vector of VECTORS) {
      const signed = `t=${vector.t},v1=${vector.v1}`;
      expect(verifyPayoutWebhook(vector.body, signed, SECRET, { now: at(vector.t) })).toEqual({
        timestamp: vector.t,
      });
      expect(() =>
        verifyPayoutWebhook(vector.body, signed, SECRET, { now: at(vector.t + 300) }),
      ).not.toThrow();
      expect(() =>
        verifyPayoutWebhook(vector.body, signed, SECRET, { now: at(vector.t - 300) }),
      ).not.toThrow();
    }
  });

  it('accepts the raw body as bytes, spaces around the parts, upper-case hex and extra keys', () => {
    expect(() =>
      verifyPayoutWebhook(Buffer.from(body), ` t=${t} , v1=${v1.toUpperCase()} ,v2=abc`, SECRET, {
        now: at(t),
      }),
    ).not.toThrow();
  });

  it('accepts a header with two v1 signatures when either matches (a secret being replaced)', () => {
    const other = computeSignature('whsec_other', t, body);
    expect(() =>
      verifyPayoutWebhook(body, `t=${t},v1=${other},v1=${v1}`, SECRET, { now: at(t) }),
    ).not.toThrow();
  });

  const refusals: [string, string | undefined, string, string, number, string][] = [
    ['no header', undefined, body, SECRET, t, 'missing_header'],
    ['an empty header', '  ', body, SECRET, t, 'missing_header'],
    ['a header without t', `v1=${v1}`, body, SECRET, t, 'malformed_header'],
    ['a header without v1', `t=${t}`, body, SECRET, t, 'malformed_header'],
    ['t twice', `t=${t},t=${t + 1},v1=${v1}`, body, SECRET, t, 'malformed_header'],
    ['a t that is not a number', `t=soon,v1=${v1}`, body, SECRET, t, 'malformed_header'],
    ['a v1 that is not 64 hex characters', `t=${t},v1=${v1.slice(1)}`, body, SECRET, t, 'malformed_header'],
    ['a part that is not key=value', `t=${t},${v1}`, body, SECRET, t, 'malformed_header'],
    ['an overlong header', `t=${t},v1=${v1}${',x=1'.repeat(300)}`, body, SECRET, t, 'malformed_header'],
    ['a timestamp 301 s old', header, body, SECRET, t + 301, 'timestamp_out_of_tolerance'],
    ['a timestamp 301 s ahead', header, body, SECRET, t - 301, 'timestamp_out_of_tolerance'],
    ['another secret', header, body, `${SECRET}x`, t, 'signature_mismatch'],
    [
      'a body changed by one byte',
      header,
      body.replace('sandbox', 'sandboy'),
      SECRET,
      t,
      'signature_mismatch',
    ],
    [
      'the same JSON re-serialised',
      header,
      JSON.stringify(JSON.parse(body), null, 1),
      SECRET,
      t,
      'signature_mismatch',
    ],
    ['a signature for another t', `t=${t + 1},v1=${v1}`, body, SECRET, t, 'signature_mismatch'],
  ];
  it.each(refusals)('refuses %s', (_case, signed, raw, secret, now, reason) => {
    let caught: unknown;
    try {
      verifyPayoutWebhook(raw, signed, secret, { now: at(now) });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WebhookSignatureError);
    expect((caught as WebhookSignatureError).reason).toBe(reason);
  });

  it('honours a tolerance of its own', () => {
    expect(() =>
      verifyPayoutWebhook(body, header, SECRET, { now: at(t + 61), toleranceSeconds: 60 }),
    ).toThrow(WebhookSignatureError);
  });

  it('parses the header into its timestamp and signatures', () => {
    expect(parseSignatureHeader(`t=${t},v1=${v1}`)).toEqual({ timestamp: t, signatures: [v1] });
  });
});
