import { canonicalJson } from './canonical-json';
import { chainLink, ChainedEvent, GENESIS_LINK } from './chain-link';

const EVENT: ChainedEvent = {
  streamId: 'ledger-acc_1-sandbox',
  streamType: 'ledger',
  streamVersion: 1,
  eventId: '00000000-0000-4000-8000-000000000001',
  eventType: 'FundsCredited',
  schemaVersion: 2,
  data: { reference: 'wire-1', amount: '100.00' },
  metadata: {},
  recordedAt: '2026-03-01T12:00:00.123456Z',
};

describe('canonical JSON', () => {
  it('sorts the keys of every object, nested ones and those in arrays included, and adds no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives the same text whatever order the keys were written in', () => {
    expect(canonicalJson({ amount: '1.00', at: 'x' })).toBe(canonicalJson({ at: 'x', amount: '1.00' }));
  });

  it('escapes strings as JSON does, so no value can pass for another', () => {
    expect(canonicalJson({ 'a"b': 'c\nd', é: '☃' })).toBe('{"a\\"b":"c\\nd","é":"☃"}');
  });

  it('sorts keys that look like array indices as text too, wherever they are', () => {
    expect(canonicalJson({ 9: 'a', 10: 'b', x: 1 })).toBe('{"10":"b","9":"a","x":1}');
    expect(canonicalJson([{ b: { 2: true, 1: null } }, 'a'])).toBe('[{"b":{"1":null,"2":true}},"a"]');
  });

  it('keeps a __proto__ key as the plain key it is in JSON', () => {
    expect(canonicalJson(JSON.parse('{"z":1,"__proto__":{"b":2,"a":1}}'))).toBe(
      '{"__proto__":{"a":1,"b":2},"z":1}',
    );
  });

  it('leaves out object fields that are undefined, and refuses what has no JSON form', () => {
    expect(canonicalJson({ b: undefined, a: 1 })).toBe('{"a":1}');
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson([1, undefined])).toThrow(TypeError);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
  });
});

describe('a chain link', () => {
  // The same value from `sha256sum` over the documented input (docs/audit.md): a test vector for
  // auditors who recompute the chain with their own tools.
  it('is sha256 of the JSON array of the previous link and the event columns', () => {
    expect(chainLink(GENESIS_LINK, EVENT)).toBe(
      'a938699a06c26dbce33ba2568565caace871405568655c0b084cb4d7b2ed4456',
    );
  });

  it('changes with any covered column and with the previous link', () => {
    const base = chainLink(GENESIS_LINK, EVENT);
    const variants: ChainedEvent[] = [
      { ...EVENT, data: { ...(EVENT.data as object), amount: '100.01' } },
      { ...EVENT, metadata: { by: 'x' } },
      { ...EVENT, streamVersion: 2 },
      { ...EVENT, eventId: '00000000-0000-4000-8000-000000000002' },
      { ...EVENT, recordedAt: '2026-03-01T12:00:00.123457Z' },
      { ...EVENT, schemaVersion: 1 },
    ];
    for (const variant of variants) expect(chainLink(GENESIS_LINK, variant)).not.toBe(base);
    expect(chainLink(base, EVENT)).not.toBe(base);
  });
});
