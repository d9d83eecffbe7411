import { DomainError } from '../kernel/domain-error';
import { HOUR_MS } from '../kernel/time';
import { deciderSpec } from '../testing/given-when-then';
import { createOrder, EXPIRES_AT, orderCreated, pendingOrder, T0 } from '../testing/order.fixtures';
import { CreateOrder } from './order.commands';
import { orderDecider } from './order.decide';
import { ORDER_METHODS } from './order.events';

const { given } = deciderSpec(orderDecider);

describe('Create Order', () => {
  it('A new order is PENDING, its amount written with two decimals, and expires its lifetime after creation.', () => {
    const state = given([]).when(createOrder(), T0).then([orderCreated()]);
    expect(state).toMatchObject({ status: 'PENDING', amount: '10.50', attempts: 0, expiresAt: EXPIRES_AT });
  });

  it('The lifetime is the deployment setting: expires_at is created_at plus ttlMs.', () => {
    const now = new Date('2026-07-15T08:30:12.345Z');
    given([])
      .when(createOrder({ ttlMs: 2 * HOUR_MS }), now)
      .then([orderCreated({ createdAt: now.toISOString(), expiresAt: '2026-07-15T10:30:12.345Z' })]);
  });

  it('An order without product, redirect_url or hook_url has product "" and null URLs.', () => {
    const command = createOrder({ product: undefined, redirectUrl: undefined, hookUrl: null });
    given([])
      .when(command, T0)
      .then([orderCreated({ product: '', redirectUrl: null, hookUrl: null })]);
  });

  it.each(ORDER_METHODS)('An order can be created for the %s method.', (method) => {
    given([])
      .when(createOrder({ method }), T0)
      .then([orderCreated({ method })]);
  });

  it('An order id that already exists is refused with invalid_transition.', () => {
    given(pendingOrder).when(createOrder(), T0).thenRefuses('invalid_transition');
  });

  describe('amount', () => {
    it.each([
      ['0.50', '0.50'],
      ['0.5', '0.50'],
      ['100000.00', '100000.00'],
      ['100000', '100000.00'],
      ['42.07', '42.07'],
    ])('%j is within the default bounds and is kept as %j.', (amount, written) => {
      given([])
        .when(createOrder({ amount }), T0)
        .then([orderCreated({ amount: written })]);
    });

    it.each([
      ['below the minimum', '0.49'],
      ['above the maximum', '100000.01'],
      ['three decimals', '1.234'],
      ['zero', '0'],
      ['zero with decimals', '0.00'],
      ['negative', '-1'],
      ['an exponent', '1e3'],
      ['empty', ''],
      ['spaces', ' 10.00'],
    ])('An amount %s (%j) is refused with invalid_amount.', (_case, amount) => {
      given([]).when(createOrder({ amount }), T0).thenRefuses('invalid_amount', 'amount');
    });

    it('An amount that is not a string is refused with invalid_amount (the caller writes the number out).', () => {
      given([])
        .when(createOrder({ amount: 10.5 as unknown as string }), T0)
        .thenRefuses('invalid_amount', 'amount');
    });

    it('The bounds are the deployment settings.', () => {
      const bounds = { minAmount: '5.00', maxAmount: '20.00' };
      given([])
        .when(createOrder({ ...bounds, amount: '4.99' }), T0)
        .thenRefuses('invalid_amount', 'amount');
      given([])
        .when(createOrder({ ...bounds, amount: '20.01' }), T0)
        .thenRefuses('invalid_amount', 'amount');
      given([])
        .when(createOrder({ ...bounds, amount: '20' }), T0)
        .then([orderCreated({ amount: '20.00' })]);
    });
  });

  describe('currency and region', () => {
    it.each<[string, string]>([
      ['CA', 'CAD'],
      ['GB', 'GBP'],
      ['GB', 'EUR'],
      ['EU', 'EUR'],
      ['AU', 'AUD'],
      ['AU', 'USD'],
      ['JP', 'USD'],
    ])('An account in %s can take an order in %s.', (region, currency) => {
      given([])
        .when(createOrder({ region, currency }), T0)
        .then([orderCreated({ currency })]);
    });

    it.each<[string, string]>([
      ['US', 'EUR'],
      ['US', 'usd'],
      ['CA', 'GBP'],
      ['EU', 'GBP'],
      ['JP', 'JPY'],
      ['US', ''],
    ])('An account in %s cannot take an order in %j: unsupported_currency.', (region, currency) => {
      given([]).when(createOrder({ region, currency }), T0).thenRefuses('unsupported_currency', 'currency');
    });
  });

  describe('the card method', () => {
    it.each(['BR', 'IN', 'ZA'])('A card order in %s is refused with method_not_available.', (region) => {
      given([]).when(createOrder({ region }), T0).thenRefuses('method_not_available');
    });

    it('An unavailable card method is refused before the body is looked at.', () => {
      given([])
        .when(createOrder({ region: 'BR', amount: '0', currency: 'XXX' }), T0)
        .thenRefuses('method_not_available');
    });

    it('Outside the card regions, the other methods are still available.', () => {
      given([])
        .when(createOrder({ region: 'BR', method: 'cash_app' }), T0)
        .then([orderCreated({ method: 'cash_app' })]);
    });

    it('The card regions are the deployment setting.', () => {
      given([])
        .when(createOrder({ region: 'BR', cardRegions: ['BR'] }), T0)
        .then([orderCreated()]);
      given([])
        .when(createOrder({ region: 'US', cardRegions: ['BR'] }), T0)
        .thenRefuses('method_not_available');
    });

    it('A method the service does not know is refused with invalid_request.', () => {
      given([])
        .when(createOrder({ method: 'cheque' as CreateOrder['data']['method'] }), T0)
        .thenRefuses('invalid_request', 'method');
    });
  });

  describe('customer and product', () => {
    it.each([
      ['missing', ''],
      ['not an e-mail address', 'ana'],
      ['a display name', 'Ana <ana@example.com>'],
      ['two addresses', 'a@example.com,b@example.com'],
      ['over 255 characters', `${'a'.repeat(64)}@${'b'.repeat(200)}.com`],
    ])('A customer that is %s is refused with invalid_request.', (_case, customer) => {
      given([]).when(createOrder({ customer }), T0).thenRefuses('invalid_request', 'customer');
    });

    it('A product of 255 characters is kept, counted in characters, not UTF-16 units.', () => {
      const product = '☕'.repeat(200) + '🍩'.repeat(55);
      given([])
        .when(createOrder({ product }), T0)
        .then([orderCreated({ product })]);
    });

    it.each([
      ['over 255 characters', 'x'.repeat(256)],
      ['over 255 characters of emoji', '🍩'.repeat(256)],
      ['holding a NUL', 'mug\u0000'],
      ['not a string', 42 as unknown as string],
    ])('A product %s is refused with invalid_request.', (_case, product) => {
      given([]).when(createOrder({ product }), T0).thenRefuses('invalid_request', 'product');
    });

    it('A redirect_url that cannot be stored is refused with invalid_request.', () => {
      given([])
        .when(createOrder({ redirectUrl: '' }), T0)
        .thenRefuses('invalid_request', 'redirect_url');
      given([])
        .when(createOrder({ redirectUrl: 'https://shop.example/\u0000' }), T0)
        .thenRefuses('invalid_request', 'redirect_url');
    });
  });

  describe('what the service itself supplies', () => {
    it.each<[string, Partial<CreateOrder['data']>]>([
      ['a zero order id', { orderId: 0 }],
      ['a fractional order id', { orderId: 1.5 }],
      ['a zero lifetime', { ttlMs: 0 }],
      ['no page token hash', { pageTokenHash: '' }],
      ['no credential', { credentialId: '' }],
      ['reversed amount bounds', { minAmount: '10.00', maxAmount: '1.00' }],
      ['a malformed amount bound', { maxAmount: 'lots' }],
    ])('%s is a bug, not a refusal, and throws a plain Error.', (_case, overrides) => {
      const thrown = thrownBy(() =>
        orderDecider.decide(createOrder(overrides), orderDecider.initialState(), T0),
      );
      expect(thrown).toBeInstanceOf(Error);
      expect(thrown).not.toBeInstanceOf(DomainError);
    });
  });
});

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('Expected the command to throw');
}
