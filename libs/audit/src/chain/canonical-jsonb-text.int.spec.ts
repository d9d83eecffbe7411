import { testBackends, TestDatabase } from '@payouts/testing';
import { seededRandom } from '../../../domain/src/testing/seeded-random';
import { canonicalJson } from './canonical-json';
import { canonicalJsonbText } from './canonical-jsonb-text';

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

type Rng = ReturnType<typeof seededRandom>;

/** A value as JSON text, with the odd characters, numbers and keys that jsonb escapes or rewrites. */
function generated(rng: Rng, depth: number): string {
  const text = () => JSON.stringify(Array.from({ length: rng.int(0, 3) }, () => rng.pick(PIECES)).join(''));
  const roll = rng.next();
  if (depth > 0 && roll < 0.35) {
    const keys = new Set(Array.from({ length: rng.int(0, 5) }, () => text()));
    return `{${[...keys].map((key) => `${key}: ${generated(rng, depth - 1)}`).join(', ')}}`;
  }
  if (depth > 0 && roll < 0.45) {
    return `[${Array.from({ length: rng.int(0, 3) }, () => generated(rng, depth - 1)).join(', ')}]`;
  }
  if (roll < 0.7) return text();
  if (roll < 0.9) return rng.pick(NUMBERS);
  return rng.pick(['true', 'false', 'null']);
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
    // The same values on every run and backend, so a failure comes again.
    const rng = seededRandom(20261127);
    const written = Array.from({ length: 2_000 }, () => generated(rng, 3));
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
