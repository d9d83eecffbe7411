import { DAY_MS, HOUR_MS } from '../kernel/time';
import { deciderSpec } from '../testing/given-when-then';
import { CreatePayout } from './payout.commands';
import { PayoutDelivery } from './payout.events';
import { payoutDecider } from './payout.decide';
import {
  createLinkPayout,
  createRedirectPayout,
  firstLinkIssued,
  firstSessionStarted,
  linkPayoutCreated,
  openLinkPayout,
  redirectPayoutCreated,
  T0,
} from '../testing/payout.fixtures';

const { given } = deciderSpec(payoutDecider);

describe('Create Payout', () => {
  it('A new link payout is created awaiting the choice, with its first claim link valid until the payout expires.', () => {
    const state = given([]).when(createLinkPayout(), T0).then([linkPayoutCreated, firstLinkIssued]);
    expect(state).toMatchObject({
      status: 'awaiting_choice',
      statusVersion: 1,
      fundsReleased: false,
      amount: '25.50',
      fee: '1.25',
      totalReserved: '26.75',
      currency: 'USD',
      source: 'api',
      customerId: null,
      selectedMethod: null,
      safeReason: null,
      receiptReference: null,
      acceptedAt: null,
      updatedAt: T0.toISOString(),
      currentLink: { linkId: 'lnk_1', tokenHash: 'hash-lnk-1', expiresAt: '2026-03-08T12:00:00.000Z' },
    });
  });

  it('A new redirect payout is bound to its customer and starts a handoff session that lasts 10 minutes.', () => {
    const state = given([])
      .when(createRedirectPayout(), T0)
      .then([redirectPayoutCreated, firstSessionStarted]);
    expect(state).toMatchObject({
      status: 'awaiting_choice',
      statusVersion: 1,
      customerId: 'cust_9',
      returnUrl: 'https://shop.example',
      currentSession: {
        sessionId: 'ses_1',
        tokenHash: 'hash-ses-1',
        expiresAt: '2026-03-01T12:10:00.000Z',
        consumed: false,
      },
    });
  });

  it.each<[PayoutDelivery, CreatePayout, number]>([
    ['link', createLinkPayout(), 7 * DAY_MS],
    ['redirect', createRedirectPayout(), 24 * HOUR_MS],
  ])('An unclaimed %s payout expires the stated time after creation.', (_delivery, command, lifetimeMs) => {
    const now = new Date('2026-07-15T08:30:12.345Z');
    const [created] = payoutDecider.decide(command, payoutDecider.initialState(), now);
    expect(created?.type).toBe('PayoutCreated');
    const data = created?.data as { createdAt: string; payoutExpiresAt: string };
    expect(data.createdAt).toBe(now.toISOString());
    expect(Date.parse(data.payoutExpiresAt) - now.getTime()).toBe(lifetimeMs);
  });

  it('The reserved total is the exact decimal sum of amount and fee.', () => {
    const [created] = payoutDecider.decide(
      createLinkPayout({ amount: '0.1', fee: '0.2' }),
      payoutDecider.initialState(),
      T0,
    );
    expect(created?.data).toMatchObject({ amount: '0.10', fee: '0.20', totalReserved: '0.30' });
  });

  it('A payout created from the dashboard says so in its source; an unknown source is refused.', () => {
    const [created] = payoutDecider.decide(
      createLinkPayout({ source: 'dashboard' }),
      payoutDecider.initialState(),
      T0,
    );
    expect(created?.data).toMatchObject({ source: 'dashboard' });
    given([])
      .when(createLinkPayout({ source: 'email' as 'api' }), T0)
      .thenRefuses('invalid_request');
  });

  it('A payout id that already exists is refused with payout_already_exists.', () => {
    given(openLinkPayout).when(createLinkPayout(), T0).thenRefuses('payout_already_exists');
  });

  describe('amounts', () => {
    it.each<[string, unknown]>([
      ['a JSON number', 25.5],
      ['three decimals', '25.505'],
      ['a negative amount', '-25'],
      ['an exponent', '2e1'],
      ['zero', '0'],
      ['zero with decimals', '0.00'],
    ])('An amount given as %s is refused with invalid_amount.', (_label, amount) => {
      given([])
        .when(createLinkPayout({ amount: amount as string }), T0)
        .thenRefuses('invalid_amount', 'amount');
    });

    it('A malformed fee is refused with invalid_amount on the fee.', () => {
      given([])
        .when(createLinkPayout({ fee: '1.255' }), T0)
        .thenRefuses('invalid_amount', 'fee');
    });

    it('A zero fee is accepted.', () => {
      given([])
        .when(createRedirectPayout({ fee: '0' }), T0)
        .then([redirectPayoutCreated, firstSessionStarted]);
    });
  });

  describe('delivery rules', () => {
    it('A link payout without customer_email is refused.', () => {
      given([])
        .when(createLinkPayout({ customerEmail: null }), T0)
        .thenRefuses('invalid_request', 'customer_email');
    });

    it('A link payout with a customer_id is refused, because only redirect payouts bind a customer.', () => {
      given([])
        .when(createLinkPayout({ customerId: 'cust_1' }), T0)
        .thenRefuses('invalid_request', 'customer_id');
    });

    it('A link payout with a return_url is refused, because only redirect payouts return to the merchant.', () => {
      given([])
        .when(createLinkPayout({ returnUrl: 'https://shop.example' }), T0)
        .thenRefuses('invalid_request', 'return_url');
    });

    it('A redirect payout without customer_id is refused.', () => {
      given([])
        .when(createRedirectPayout({ customerId: undefined }), T0)
        .thenRefuses('invalid_request', 'customer_id');
    });

    it('A redirect payout without return_url is refused.', () => {
      given([])
        .when(createRedirectPayout({ returnUrl: null }), T0)
        .thenRefuses('invalid_request', 'return_url');
    });

    it('A redirect payout may carry a customer_email, which is kept.', () => {
      const [created] = payoutDecider.decide(
        createRedirectPayout({ customerEmail: 'bo@example.com' }),
        payoutDecider.initialState(),
        T0,
      );
      expect(created?.data).toMatchObject({ customerEmail: 'bo@example.com', customerId: 'cust_9' });
    });

    it('A delivery other than link or redirect is refused.', () => {
      given([])
        .when(createLinkPayout({ delivery: 'email' as PayoutDelivery }), T0)
        .thenRefuses('invalid_request', 'delivery');
    });
  });

  describe('text limits (docs/design.md#limits)', () => {
    it('A payout without merchant_reference is refused.', () => {
      given([])
        .when(createLinkPayout({ merchantReference: '' }), T0)
        .thenRefuses('invalid_request', 'merchant_reference');
    });

    it.each<[string, keyof CreatePayout['data'], number, 'link' | 'redirect']>([
      ['merchant_reference', 'merchantReference', 191, 'link'],
      // customer_email: its limit is the deliverable address's (payout.create-email.unit.spec.ts).
      ['description', 'description', 255, 'link'],
      ['case_reference', 'caseReference', 191, 'link'],
      ['original_payment_id', 'originalPaymentId', 64, 'link'],
      ['customer_id', 'customerId', 191, 'redirect'],
    ])(
      '%s is accepted at %i characters and refused one character longer.',
      (param, field, limit, delivery) => {
        const create = delivery === 'link' ? createLinkPayout : createRedirectPayout;
        // Emoji are two UTF-16 units each: the limit counts characters, not units.
        const atLimit = '😀'.repeat(limit);
        const accepted = payoutDecider.decide(create({ [field]: atLimit }), payoutDecider.initialState(), T0);
        expect(accepted).toHaveLength(2);
        given([])
          .when(create({ [field]: atLimit + 'x' }), T0)
          .thenRefuses('invalid_request', param);
      },
    );

    it.each<[string, keyof CreatePayout['data'], 'link' | 'redirect', string]>([
      ['merchant_reference', 'merchantReference', 'link', 'ref\u0000x'],
      ['description', 'description', 'link', 'lone \ud800 high surrogate'],
      ['case_reference', 'caseReference', 'link', 'lone \udc00 low surrogate'],
      ['customer_id', 'customerId', 'redirect', '\u0000'],
      ['return_url', 'returnUrl', 'redirect', 'https://shop.example/\u0000'],
    ])(
      '%s holding a character the database cannot store is refused, not left to fail the write.',
      (param, field, delivery, text) => {
        const create = delivery === 'link' ? createLinkPayout : createRedirectPayout;
        given([])
          .when(create({ [field]: text }), T0)
          .thenRefuses('invalid_request', param);
      },
    );

    it('Text with a complete surrogate pair (an emoji) is stored.', () => {
      const accepted = payoutDecider.decide(
        createLinkPayout({ description: 'thanks 😀' }),
        payoutDecider.initialState(),
        T0,
      );
      expect(accepted[0]?.data).toMatchObject({ description: 'thanks 😀' });
    });

    it('Absent optional texts are stored as null.', () => {
      const [created] = payoutDecider.decide(createRedirectPayout(), payoutDecider.initialState(), T0);
      expect(created?.data).toMatchObject({ description: null, caseReference: null, customerEmail: null });
    });
  });
});
