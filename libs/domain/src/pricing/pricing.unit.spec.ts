import { DomainError } from '../kernel/domain-error';
import { DEFAULT_PRICING, parsePricing, paymentCharges } from './pricing';

const PAID_AT = new Date('2026-03-01T12:00:00.000Z');

describe('Payment charges', () => {
  it.each([
    ['card', '100.00', '3.20', '96.80', '2026-03-03T12:00:00.000Z'],
    ['card', '0.50', '0.31', '0.19', '2026-03-03T12:00:00.000Z'],
    ['card', '19.99', '0.88', '19.11', '2026-03-03T12:00:00.000Z'],
    ['mobile_wallet', '10.00', '0.15', '9.85', '2026-03-02T12:00:00.000Z'],
    ['p2p_app', '0.50', '0.01', '0.49', '2026-03-02T12:00:00.000Z'],
    ['online_wallet', '100000.00', '1500.00', '98500.00', '2026-03-02T12:00:00.000Z'],
  ] as const)(
    'By default, %s of %s costs %s and nets %s, available on %s.',
    (method, gross, fee, net, on) => {
      expect(paymentCharges(DEFAULT_PRICING, method, gross, PAID_AT)).toEqual({
        gross,
        fee,
        net,
        availableOn: on,
      });
    },
  );

  it('The fee is rounded half up to the cent: 1.5% of 0.30 is 0.0045, so 0.00; 1.5% of 0.70 is 0.0105, so 0.01.', () => {
    expect(paymentCharges(DEFAULT_PRICING, 'cash_app', '0.30', PAID_AT).fee).toBe('0.00');
    expect(paymentCharges(DEFAULT_PRICING, 'cash_app', '0.70', PAID_AT).fee).toBe('0.01');
    // 2.9% of 15.00 + 0.30 = 0.735: exactly half a cent, up.
    expect(paymentCharges(DEFAULT_PRICING, 'card', '15.00', PAID_AT).fee).toBe('0.74');
  });

  it('The fee never exceeds the gross.', () => {
    const pricing = parsePricing({ methods: { card: { percent: '10', fixed: '5.00' } } });
    expect(paymentCharges(pricing, 'card', '1.00', PAID_AT)).toMatchObject({ fee: '1.00', net: '0.00' });
  });

  it('Zero clearing days make the net available at once.', () => {
    const pricing = parsePricing({ clearingDays: { card: 0 } });
    expect(paymentCharges(pricing, 'card', '10.00', PAID_AT).availableOn).toBe(PAID_AT.toISOString());
  });
});

describe('Pricing set by the operator', () => {
  it('A method left out keeps its default; a method given is normalised.', () => {
    const pricing = parsePricing({
      methods: { card: { percent: '2.5', fixed: '0.2' } },
      clearingDays: { p2p_app: 3 },
    });
    expect(pricing.methods.card).toEqual({ percent: '2.50', fixed: '0.20' });
    expect(pricing.methods.mobile_wallet).toEqual({ percent: '1.50', fixed: '0.00' });
    expect(pricing.clearingDays).toMatchObject({ card: 2, p2p_app: 3, cash_app: 1 });
  });

  it('Up to four decimals of percent are kept exactly.', () => {
    expect(parsePricing({ methods: { card: { percent: '0.0125', fixed: '0' } } }).methods.card.percent).toBe(
      '0.0125',
    );
  });

  it.each<[string, Parameters<typeof parsePricing>[0], string]>([
    ['an unknown method', { methods: { cheque: { percent: '1', fixed: '0' } } }, 'methods.cheque'],
    ['a percent over 100', { methods: { card: { percent: '100.5', fixed: '0' } } }, 'methods.card.percent'],
    ['a negative percent', { methods: { card: { percent: '-1', fixed: '0' } } }, 'methods.card.percent'],
    [
      'five decimals of percent',
      { methods: { card: { percent: '1.00001', fixed: '0' } } },
      'methods.card.percent',
    ],
    ['a number for percent', { methods: { card: { percent: 2.9, fixed: '0' } } }, 'methods.card.percent'],
    [
      'three decimals of fixed',
      { methods: { card: { percent: '1', fixed: '0.301' } } },
      'methods.card.fixed',
    ],
    ['a method that is not an object', { methods: { card: 'cheap' as never } }, 'methods.card'],
    ['negative clearing days', { clearingDays: { card: -1 } }, 'clearing_days.card'],
    ['fractional clearing days', { clearingDays: { card: 1.5 } }, 'clearing_days.card'],
    ['31 clearing days', { clearingDays: { card: 31 } }, 'clearing_days.card'],
    ['clearing days as text', { clearingDays: { card: '2' } }, 'clearing_days.card'],
    ['clearing days of an unknown method', { clearingDays: { cheque: 1 } }, 'clearing_days.cheque'],
  ])('%s is refused, never rounded.', (_what, input, param) => {
    let refusal: unknown;
    try {
      parsePricing(input);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect((refusal as DomainError).param).toBe(param);
  });
});
