import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_RETENTION_DAYS, requestHash } from './idempotency-key';

describe('the Idempotency-Key pattern', () => {
  it.each([
    ['a single character', 'a'],
    ['255 characters', 'k'.repeat(255)],
    ['a UUID', '6f1c2a4e-9b7d-4c1e-8a3f-2d5b6c7e8f90'],
    ['every visible ASCII character', printableAsciiWithoutSpace()],
    ['spaces inside', 'retry of order 42'],
  ])('accepts %s', (_name, key) => {
    expect(IDEMPOTENCY_KEY_PATTERN.test(key)).toBe(true);
  });

  it.each([
    ['the empty string', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a line feed', 'abc\ndef'],
    ['a carriage return at the end', 'abc\r'],
    ['a tab', 'abc\tdef'],
    ['a NUL character', 'abc\u0000'],
    ['DEL (0x7F)', 'abc\u007f'],
    ['a leading space', ' abc'],
    ['a trailing space', 'abc '],
    ['a lone space', ' '],
    ['a character outside ASCII', 'clé'],
  ])('refuses %s', (_name, key) => {
    expect(IDEMPOTENCY_KEY_PATTERN.test(key)).toBe(false);
  });

  it('keeps keys for 30 days', () => {
    expect(IDEMPOTENCY_RETENTION_DAYS).toBe(30);
  });
});

describe('the request hash', () => {
  const body = { amount: '10.00', merchant_reference: 'inv-1', delivery: 'link', meta: { b: 1, a: [1, 2] } };

  it('is a SHA-256 in lower-case hex', () => {
    expect(requestHash('POST', '/api/payout/create', body)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not depend on the order of object keys, at any depth', () => {
    const reordered = {
      meta: { a: [1, 2], b: 1 },
      delivery: 'link',
      merchant_reference: 'inv-1',
      amount: '10.00',
    };
    expect(requestHash('POST', '/api/payout/create', reordered)).toBe(
      requestHash('POST', '/api/payout/create', body),
    );
  });

  it('does not depend on the case of the method', () => {
    expect(requestHash('post', '/api/payout/create', body)).toBe(
      requestHash('POST', '/api/payout/create', body),
    );
  });

  it('differs when a value, the path or the method differs', () => {
    const hash = requestHash('POST', '/api/payout/create', body);
    expect(requestHash('POST', '/api/payout/create', { ...body, amount: '10.01' })).not.toBe(hash);
    expect(requestHash('POST', '/api/payout/create', { ...body, description: 'x' })).not.toBe(hash);
    expect(requestHash('POST', '/sandbox/api/payout/create', body)).not.toBe(hash);
    expect(requestHash('PUT', '/api/payout/create', body)).not.toBe(hash);
  });

  it('tells the order of array items apart, and a string from a number', () => {
    expect(requestHash('POST', '/p', [1, 2])).not.toBe(requestHash('POST', '/p', [2, 1]));
    expect(requestHash('POST', '/p', { a: '1' })).not.toBe(requestHash('POST', '/p', { a: 1 }));
  });

  it('treats a missing body as null, and an undefined member as absent, as JSON does', () => {
    expect(requestHash('POST', '/p', undefined)).toBe(requestHash('POST', '/p', null));
    expect(requestHash('POST', '/p', { a: 1, b: undefined })).toBe(requestHash('POST', '/p', { a: 1 }));
  });

  it('is the hash stored keys were made with: canonical JSON (libs/domain) of body, method and path', () => {
    // Computed by the request hash's own canonical JSON before libs/domain's replaced it: stored
    // hashes stay valid only while these stay the same.
    expect(requestHash('POST', '/api/payout/create', body)).toBe(
      'bc3d6d98f86cc80c1d375fcf689343ba2a61d712fbe2d54362001e49ac5d19fe',
    );
    expect(requestHash('post', '/api/payout/abc/cancel', undefined)).toBe(
      'c06e11f52b3d989bcc61943546acf052ac061bc4f69866868be0fa58a5ef2d19',
    );
    const order = JSON.parse(
      '{"amount":"12.50","currency":"EUR","customer":{"email":"a@b.example","name":"Zoë"},"items":[{"sku":"x","qty":2}],"__proto__":{"x":1}}',
    ) as unknown;
    expect(requestHash('POST', '/sandbox/api/checkout/orders', order)).toBe(
      '9273abbe34fdc2194c724072bc3450514c8d7f9544256cb58b85cfd157aa0189',
    );
  });

  it('refuses a cyclic body, and one JSON could not have carried', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => requestHash('POST', '/p', cyclic)).toThrow(TypeError);
    expect(() => requestHash('POST', '/p', { when: new Date('2026-01-02T03:04:05.000Z') })).toThrow(
      TypeError,
    );
  });
});

function printableAsciiWithoutSpace(): string {
  let text = '';
  for (let code = 0x21; code <= 0x7e; code += 1) text += String.fromCharCode(code);
  return text;
}
