import { testBackends, TestDatabase } from '@payouts/testing';
import { canonicalJson } from './canonical-json';
import { canonicalJsonbText } from './canonical-jsonb-text';

/** A small deterministic generator (mulberry32): the same values on every run and backend. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  'a',
  'b',
  'Z',
  ' ',
  '!',
  '"',
  '\\',
  '\n',
  '\t',
  '\u0001',
  'é',
  '😀',
  '☃',
  '9',
  '10',
  '__proto__',
  '',
  '/',
  '\u007f',
];
const NUMBERS = ['0', '-0', '7', '-12', '1.50', '0.1', '1e5', '999999999999999', '1234567890123456', '-3.25'];

function generated(next: () => number, depth: number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const text = () =>
    JSON.stringify(Array.from({ length: Math.floor(next() * 4) }, () => pick(PIECES)).join(''));
  const roll = next();
  if (depth > 0 && roll < 0.35) {
    const keys = new Set(Array.from({ length: Math.floor(next() * 6) }, () => text()));
    return `{${[...keys].map((key) => `${key}: ${generated(next, depth - 1)}`).join(', ')}}`;
  }
  if (depth > 0 && roll < 0.45) {
    return `[${Array.from({ length: Math.floor(next() * 4) }, () => generated(next, depth - 1)).join(', ')}]`;
  }
  if (roll < 0.7) return text();
  if (roll < 0.9) return pick(NUMBERS);
  return pick(['true', 'false', 'null']);
}

describe.each(testBackends())("canonical JSON read off jsonb's own text on $name", (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('is what parsing gives for every value it takes, and it takes the common ones', async () => {
    const next = random(20261127);
    const written = Array.from({ length: 2_000 }, () => generated(next, 3));
    // The database writes each value back as jsonb's text, the form verify reads.
    const { rows } = await database.db.query<{ text: string }>(
      'SELECT v::jsonb::text AS text FROM unnest($1::text[]) WITH ORDINALITY AS t(v, n) ORDER BY n',
      [written],
    );
    let taken = 0;
    for (const { text } of rows) {
      const read = canonicalJsonbText(text);
      if (read === null) continue;
      taken += 1;
      expect({ text, read }).toEqual({ text, read: canonicalJson(JSON.parse(text)) });
    }
    expect(rows).toHaveLength(written.length);
    // Backslashes, decimals and long integers are common in these values, and the rest is taken.
    expect(taken).toBeGreaterThan(400);
    const plain = {
      accountId: 'acc_1',
      amount: '19.80',
      limits: { maxPayout: '5000.00', maxPendingPerCustomer: 5 },
      note: 'ünïcödé 😀 "quoted"'.replace(/"/g, "'"),
      methods: ['card', 'wallet'],
      orderId: 1000001,
    };
    const { rows: common } = await database.db.query<{ text: string }>('SELECT $1::jsonb::text AS text', [
      JSON.stringify(plain),
    ]);
    expect(canonicalJsonbText(common[0]!.text)).toBe(canonicalJson(plain));
  });
});
