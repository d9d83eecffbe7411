import { apiValidationPipe } from '@payouts/http';
import { acceptedCommonCreateBody } from './common-create-body';
import { CreatePayoutDto, PRIORITY_CODES } from './create-payout.dto';

const pipe = apiValidationPipe(PRIORITY_CODES);
const dtoAccepts = async (body: unknown): Promise<boolean> =>
  pipe.transform(body, { type: 'body', metatype: CreatePayoutDto }).then(
    () => true,
    () => false,
  );

const at = (length: number, last = 'a') => 'a'.repeat(length - 1) + last;
const email254 = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;

// Each field's candidates: valid, at and past every bound, the wrong type, null, left out, and
// text whose length validator.js counts differently from JavaScript (pairs, variation selectors).
const LEFT_OUT = Symbol('left out');
const TEXT = (max: number) => [
  'x',
  at(max),
  at(max + 1),
  '',
  'ré',
  '😀',
  '\uFE0F',
  `${at(max - 1)}😀`,
  'tab\there',
  ' ',
  7,
  null,
  LEFT_OUT,
];
const CANDIDATES: Record<string, unknown[]> = {
  amount: [
    '10.00',
    '0.01',
    '1',
    '0',
    '00.1',
    '1.234',
    '-1',
    '1e3',
    ' 1',
    '',
    '999999999999999.99',
    10,
    null,
    LEFT_OUT,
  ],
  merchant_reference: TEXT(191),
  delivery: ['link', 'link', 'redirect', 'LINK', 1, LEFT_OUT],
  currency: [LEFT_OUT, 'USD', 'usd', 'EUR', null, 5],
  customer_email: [
    'ana@example.com',
    'ana+refunds@example.com',
    email254,
    `${email254}m`,
    'ana@localhost',
    'Ana <ana@example.com>',
    'ana@bücher.example',
    '',
    3,
    null,
    LEFT_OUT,
  ],
  description: TEXT(255),
  case_reference: TEXT(191),
  original_payment_id: TEXT(64),
  customer_id: [LEFT_OUT, LEFT_OUT, LEFT_OUT, 'c1', null],
  return_url: [LEFT_OUT, LEFT_OUT, LEFT_OUT, 'https://shop.example.com/back', null],
  destination: [LEFT_OUT, LEFT_OUT, LEFT_OUT, 'iban', null],
  destination_address: [LEFT_OUT, LEFT_OUT, LEFT_OUT, 'x'],
  unknown_field: [LEFT_OUT, LEFT_OUT, LEFT_OUT, 1],
};

/** A small seeded generator, so a failure names a body that comes again on the next run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A valid common body with each field replaced, now and then, by one of its candidates. */
function generatedBody(random: () => number): Record<string, unknown> {
  const body: Record<string, unknown> = {
    amount: '12.50',
    merchant_reference: 'order-1',
    delivery: 'link',
    customer_email: 'ana@example.com',
  };
  for (const [field, candidates] of Object.entries(CANDIDATES)) {
    if (random() < 0.85) continue;
    const value = candidates[Math.floor(random() * candidates.length)];
    if (value === LEFT_OUT) delete body[field];
    else body[field] = value;
  }
  return body;
}

describe('acceptedCommonCreateBody', () => {
  it('accepts the common link body as it is, as the DTO pipe does', async () => {
    const body = {
      amount: '12.50',
      merchant_reference: 'order-1',
      delivery: 'link',
      currency: 'USD',
      customer_email: 'ana@example.com',
      description: 'Refund',
      case_reference: null,
    };
    expect(acceptedCommonCreateBody(body)).toBe(body);
    expect(await dtoAccepts(body)).toBe(true);
  });

  it.each([
    ['a redirect', { delivery: 'redirect', customer_id: 'c1', return_url: 'https://shop.example.com' }],
    ['non-ASCII text', { description: 'café' }],
    ['a JSON number amount', { amount: 12.5 }],
    ['an unknown field', { note: 'x' }],
    ['a destination', { destination: 'iban' }],
  ])('leaves %s to the DTO pipe', (_name, change) => {
    const body = {
      amount: '12.50',
      merchant_reference: 'order-1',
      delivery: 'link',
      customer_email: 'ana@example.com',
      ...change,
    };
    expect(acceptedCommonCreateBody(body)).toBeUndefined();
  });

  it('leaves anything but a plain object to the DTO pipe', () => {
    for (const body of [null, 'x', 5, [], Object.create(null) as object]) {
      expect(acceptedCommonCreateBody(body)).toBeUndefined();
    }
  });

  it('accepts only bodies the DTO pipe accepts (4,000 generated bodies)', async () => {
    const random = seeded(20261124);
    let acceptedByBoth = 0;
    let acceptedByPipeOnly = 0;
    for (let i = 0; i < 4000; i += 1) {
      const body = generatedBody(random);
      const fast = acceptedCommonCreateBody(body);
      const dto = await dtoAccepts(body);
      if (fast !== undefined) {
        expect(fast).toBe(body);
        if (!dto) throw new Error(`accepted what the DTO refuses: ${JSON.stringify(body)}`);
        acceptedByBoth += 1;
      } else if (dto) {
        acceptedByPipeOnly += 1;
      }
    }
    // Neither side may be empty, or the comparison proves nothing.
    expect(acceptedByBoth).toBeGreaterThan(500);
    expect(acceptedByPipeOnly).toBeGreaterThan(200);
  });
});
