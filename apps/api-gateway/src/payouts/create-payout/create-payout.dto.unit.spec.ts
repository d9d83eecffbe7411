import { checkMailMessage } from '@payouts/mail';
import { getMetadataStorage, validate } from 'class-validator';
import { CreatePayoutDto } from './create-payout.dto';
import { RETURN_URL_OPTIONS } from './return-url-rule';

/** The refusal of `body`'s customer_email (the first failed rule's message), or undefined. */
async function customerEmailRefusal(customerEmail: unknown): Promise<string | undefined> {
  const body = Object.assign(new CreatePayoutDto(), {
    amount: '10.00',
    merchant_reference: 'r1',
    delivery: 'link',
    customer_email: customerEmail,
  });
  const errors = await validate(body, { stopAtFirstError: true, forbidUnknownValues: true });
  const error = errors.find((e) => e.property === 'customer_email');
  return error ? Object.values(error.constraints ?? {})[0] : undefined;
}

function mailerAccepts(to: string): boolean {
  try {
    checkMailMessage({ to, subject: 'Your code', text: 'Your code is 123456.' });
    return true;
  } catch {
    return false;
  }
}

const ADDRESSES = [
  'ana@example.com',
  'ana+refunds@example.com',
  'ana.maria@mail.eu.example.com',
  '42@123-shop.example.com',
  'ana@bücher.example',
  "o'neil@example.com",
  '"a\r\nBcc: x@evil.com"@example.com',
  '"a b"@example.com',
  '"ana"@example.com',
  'ana@example.com\r\nBcc: x@evil.com',
  'a@example.com, b@example.com',
  'Ana <ana@example.com>',
  'ana maria@example.com',
  ' ana@example.com',
  'josé@example.com',
  'ana@localhost',
  'ana@[192.0.2.1]',
  'ana@shop_name.example.com',
  'ana@example.com.',
  'ana..maria@example.com',
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`, // 254
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`, // 255
];

describe('Create Payout return_url', () => {
  // First: validator.js writes its defaults into the options object once a return_url is checked.
  it('is checked with RETURN_URL_OPTIONS, the rule the dashboard applies to registered origins', () => {
    const rules = getMetadataStorage()
      .getTargetValidationMetadatas(CreatePayoutDto, '', true, false)
      .filter((rule) => rule.propertyName === 'return_url' && rule.name === 'isUrl');
    expect(rules).toHaveLength(1);
    expect(rules[0]?.constraints).toEqual([RETURN_URL_OPTIONS]);
  });
});

describe('Create Payout customer_email', () => {
  it.each(ADDRESSES.map((address) => [address]))(
    'is accepted exactly when the mailer would send to it: %j',
    async (address) => {
      const refusal = await customerEmailRefusal(address);
      expect(refusal === undefined).toBe(mailerAccepts(address));
    },
  );

  it.each([
    ['"a\r\nBcc: x@evil.com"@example.com'],
    ['"a b"@example.com'],
    ['a@example.com, b@example.com'],
    ['Ana <ana@example.com>'],
  ])('refuses %j with the documented message', async (address) => {
    expect(await customerEmailRefusal(address)).toBe('customer_email is not a valid e-mail address');
  });

  it('answers a missing or overlong address with its own message before the address rule', async () => {
    expect(await customerEmailRefusal(undefined)).toBe('customer_email is required for link delivery');
    expect(await customerEmailRefusal(42)).toBe('customer_email is required for link delivery');
    expect(await customerEmailRefusal(`${'a'.repeat(244)}@example.com`)).toBe(
      'customer_email must be at most 255 characters',
    );
  });
});

describe('Create Payout amount', () => {
  /** The code and message of `amount`'s first failed rule, or undefined when it passes. */
  async function amountRefusal(amount: unknown): Promise<{ code?: string; message: string } | undefined> {
    const body = Object.assign(new CreatePayoutDto(), {
      amount,
      merchant_reference: 'r1',
      delivery: 'link',
      customer_email: 'ana@example.com',
    });
    const errors = await validate(body, { stopAtFirstError: true, forbidUnknownValues: true });
    const error = errors.find((e) => e.property === 'amount');
    const [constraint, message] = Object.entries(error?.constraints ?? {})[0] ?? [];
    if (!constraint || !message) return undefined;
    return { code: (error?.contexts?.[constraint] as { code?: string } | undefined)?.code, message };
  }

  it.each(['-5.00', '-0.01', '+5.00', '10.001', '1e3', ' 5.00', '05.00', ''])(
    'refuses %j with invalid_amount, saying it must be a positive decimal string',
    async (amount) => {
      expect(await amountRefusal(amount)).toEqual({
        code: 'invalid_amount',
        message:
          'amount must be a decimal string greater than 0, with at most 2 decimal places, such as "12.50"',
      });
    },
  );

  it.each(['5', '5.5', '5.00', '0.01', '999999999999999.99'])('passes %j to the domain', async (amount) => {
    expect(await amountRefusal(amount)).toBeUndefined();
  });
});
