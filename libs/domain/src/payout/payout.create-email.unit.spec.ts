import { deciderSpec } from '../testing/given-when-then';
import { payoutDecider } from './payout.decide';
import { createLinkPayout, createRedirectPayout, T0 } from '../testing/payout.fixtures';

const { given } = deciderSpec(payoutDecider);

describe('Create Payout: the customer_email must be one the mailer can deliver to', () => {
  it.each([
    ['a header injected through a quoted local part', '"a\r\nBcc: x@evil.com"@example.com'],
    ['a quoted local part with a space', '"a b"@example.com'],
    ['two addresses', 'a@example.com, b@example.com'],
    ['a display name', 'Ana <ana@example.com>'],
    ['a domain without a dot', 'ana@localhost'],
    [
      'a 255-character address',
      `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`,
    ],
  ])(
    'A link payout for %s is refused, so no money is reserved for a code that can never be sent.',
    (_what, customerEmail) => {
      given([])
        .when(createLinkPayout({ customerEmail }), T0)
        .thenRefuses('invalid_request', 'customer_email');
    },
  );

  it('A redirect payout carrying an undeliverable customer_email is refused too.', () => {
    given([])
      .when(createRedirectPayout({ customerEmail: '"a b"@example.com' }), T0)
      .thenRefuses('invalid_request', 'customer_email');
  });

  it.each([['ana+refunds@mail.example.com'], ['ana@bücher.example']])(
    'A link payout for %s is created with the address as given.',
    (customerEmail) => {
      const [created] = payoutDecider.decide(
        createLinkPayout({ customerEmail }),
        payoutDecider.initialState(),
        T0,
      );
      expect(created?.data).toMatchObject({ customerEmail });
    },
  );
});
