import {
  canonicalJson,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_RETENTION_DAYS,
  requestHash,
} from './idempotency-key';

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

  it('is the same for a value and its JSON text parsed back', () => {
    const value = { when: new Date('2026-01-02T03:04:05.000Z'), list: [undefined, 1.5, -0] };
    expect(canonicalJson(value)).toBe(canonicalJson(JSON.parse(JSON.stringify(value))));
  });

  it('serialises canonically: sorted keys, no whitespace', () => {
    expect(canonicalJson({ b: [1, { d: 1, c: 'x' }], a: null, é: true, Z: false })).toBe(
      '{"Z":false,"a":null,"b":[1,{"c":"x","d":1}],"é":true}',
    );
  });

  it('serialises a value nested 100,000 deep without running out of stack', () => {
    let deep: unknown = { z: 1, a: 'x' };
    let opening = '';
    let closing = '';
    for (let i = 0; i < 100_000; i += 1) {
      const even = i % 2 === 0;
      deep = even ? [deep, undefined] : { b: deep, a: i };
      opening = (even ? '[' : `{"a":${i},"b":`) + opening;
      closing += even ? ',null]' : '}';
    }
    expect(canonicalJson(deep)).toBe(`${opening}{"a":"x","z":1}${closing}`);
  });

  it('serialises an object reached twice (not a cycle) both times', () => {
    const shared = { b: 2, a: 1 };
    expect(canonicalJson({ y: shared, x: [shared] })).toBe('{"x":[{"a":1,"b":2}],"y":{"a":1,"b":2}}');
  });

  it('refuses a cyclic body', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => requestHash('POST', '/p', cyclic)).toThrow(TypeError);
  });
});

function printableAsciiWithoutSpace(): string {
  let text = '';
  for (let code = 0x21; code <= 0x7e; code += 1) text += String.fromCharCode(code);
  return text;
}
