import { seededRandom } from '../testing/seeded-random';
import { canonicalJson } from './canonical-json';

type Rng = ReturnType<typeof seededRandom>;

describe('canonical JSON', () => {
  it('sorts the keys of every object, nested ones and those in arrays included, and adds no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ b: [1, { d: 1, c: 'x' }], a: null, é: true, Z: false })).toBe(
      '{"Z":false,"a":null,"b":[1,{"c":"x","d":1}],"é":true}',
    );
  });

  it('gives the same text whatever order the keys were written in', () => {
    expect(canonicalJson({ amount: '1.00', at: 'x' })).toBe(canonicalJson({ at: 'x', amount: '1.00' }));
  });

  it('writes strings and numbers as JSON.stringify does, so no value can pass for another', () => {
    expect(canonicalJson({ 'a"b': 'c\nd', é: '☃', s: '\ud800' })).toBe(
      '{"a\\"b":"c\\nd","s":"\\ud800","é":"☃"}',
    );
    // As JSON.parse reads them: 2^53 + 1 has no double of its own, so it reads as 2^53.
    expect(canonicalJson(JSON.parse('[-0, 1e21, 5e-324, 0.1, -2.5, 9007199254740993]'))).toBe(
      '[0,1e+21,5e-324,0.1,-2.5,9007199254740992]',
    );
    expect(canonicalJson(['1', 1, true, 'true', null, 'null'])).toBe('["1",1,true,"true",null,"null"]');
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

  it('leaves out object members that are undefined', () => {
    expect(canonicalJson({ b: undefined, a: 1 })).toBe('{"a":1}');
    expect(canonicalJson({ a: undefined })).toBe('{}');
    expect(canonicalJson([{ a: undefined, b: 2, c: undefined }])).toBe('[{"b":2}]');
  });

  it('refuses what JSON.parse could not have given: undefined elsewhere, functions, BigInt, non-finite numbers, a Date', () => {
    const refused: unknown[] = [
      undefined,
      [1, undefined],
      // eslint-disable-next-line no-sparse-arrays
      [1, , 3],
      { f: () => 1 },
      [Symbol('s')],
      { n: 1n },
      { n: Number.NaN },
      [Infinity],
      { when: new Date('2026-01-02T03:04:05.000Z') },
    ];
    for (const value of refused) expect(() => canonicalJson(value)).toThrow(TypeError);
  });

  it('refuses a cyclic value, and writes an object reached twice (not a cycle) both times', () => {
    const cyclic: Record<string, unknown> = { a: [1] };
    (cyclic.a as unknown[]).push(cyclic);
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
    const shared = { b: 2, a: 1 };
    expect(canonicalJson({ y: shared, x: [shared] })).toBe('{"x":[{"a":1,"b":2}],"y":{"a":1,"b":2}}');
  });

  it('writes a value nested 100,000 deep without running out of stack', () => {
    let deep: unknown = { z: 1, a: 'x' };
    let opening = '';
    let closing = '';
    for (let i = 0; i < 100_000; i += 1) {
      const even = i % 2 === 0;
      deep = even ? [deep, null] : { b: deep, a: i };
      opening = (even ? '[' : `{"a":${i},"b":`) + opening;
      closing += even ? ',null]' : '}';
    }
    expect(canonicalJson(deep)).toBe(`${opening}{"a":"x","z":1}${closing}`);
  });

  it('is the one text of a JSON value, whatever its keys order and whitespace, and reads back as the value', () => {
    for (let seed = 1; seed <= 5_000; seed += 1) {
      const rng = seededRandom(seed);
      const value: unknown = JSON.parse(jsonText(rng, rng.int(0, 5)));
      const text = canonicalJson(value);
      const rewritten = JSON.parse(rewrittenText(rng, value)) as unknown;
      expect({ seed, text: canonicalJson(rewritten) }).toEqual({ seed, text });
      // As JSON.stringify writes it (-0 as 0, as every JSON writer does).
      const asJson = JSON.parse(JSON.stringify(value)) as unknown;
      expect({ seed, readBack: JSON.parse(text) as unknown }).toEqual({ seed, readBack: asJson });
      expect({ seed, again: canonicalJson(JSON.parse(text)) }).toEqual({ seed, again: text });
    }
  });
});

const KEYS = [
  '',
  'a',
  'b',
  'A',
  'é',
  'e\u0301',
  '😀',
  '__proto__',
  'constructor',
  '0',
  '9',
  '10',
  'a"b',
  'tab\t',
];
const STRINGS = [...KEYS, '10.00', '2026-03-01T12:00:00.000Z', '\\', '\u2028', '\ud800'];
const NUMBERS = ['0', '-0', '1', '-1.5', '0.1', '1e21', '1E-7', '123456789012345678901234567890', '2.50'];

/** A JSON text as a client or jsonb may write one. */
function jsonText(rng: Rng, depth: number): string {
  switch (depth <= 0 ? rng.int(0, 2) : rng.int(0, 4)) {
    case 0:
      return JSON.stringify(rng.pick(STRINGS));
    case 1:
      return rng.pick(NUMBERS);
    case 2:
      return rng.pick(['true', 'false', 'null']);
    case 3:
      return `[${Array.from({ length: rng.int(0, 4) }, () => jsonText(rng, depth - 1)).join(',')}]`;
    default: {
      const members = Array.from(
        { length: rng.int(0, 6) },
        () => `${JSON.stringify(rng.pick(KEYS))}:${jsonText(rng, depth - 1)}`,
      );
      return `{${members.join(',')}}`;
    }
  }
}

/** The value's JSON text with every object's keys shuffled and whitespace between the tokens. */
function rewrittenText(rng: Rng, value: unknown): string {
  const space = () => rng.pick(['', ' ', '\n', '\t ']);
  if (Array.isArray(value)) return `[${value.map((item) => space() + rewrittenText(rng, item)).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const keys = Object.keys(value);
  for (let i = keys.length - 1; i > 0; i -= 1) {
    const j = rng.int(0, i);
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  const record = value as Record<string, unknown>;
  return `{${keys.map((key) => `${space()}${JSON.stringify(key)}${space()}:${rewrittenText(rng, record[key])}`).join(',')}}`;
}
