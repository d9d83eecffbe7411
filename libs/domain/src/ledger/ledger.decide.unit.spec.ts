import { formatMoney } from '../money/money';
import { deciderSpec } from '../testing/given-when-then';
import { LedgerLimits } from './ledger.events';
import { ledgerDecider } from './ledger.decide';
import { ledgerBalanceView } from './ledger.view';
import {
  AT,
  credit,
  credited,
  funded,
  limitsSet,
  release,
  released,
  reserve,
  reserved,
  setLimits,
  settle,
  settled,
  T0,
} from '../testing/ledger.fixtures';

const { given, fold } = deciderSpec(ledgerDecider);
const balance = (events: Parameters<typeof fold>[0]) => ledgerBalanceView(fold(events));

describe('Ledger limits', () => {
  it('Limits are recorded with every amount written with two decimals.', () => {
    given([])
      .when(
        setLimits({ feePerPayout: '1', minPayout: '5.5', maxPayout: '500', maxOpenExposure: '1000.00' }),
        T0,
      )
      .then([
        limitsSet({
          feePerPayout: '1.00',
          minPayout: '5.50',
          maxPayout: '500.00',
          maxOpenExposure: '1000.00',
        }),
      ]);
  });

  it.each<[keyof LedgerLimits, string]>([
    ['feePerPayout', 'fee_per_payout'],
    ['minPayout', 'min_payout'],
    ['maxPayout', 'max_payout'],
    ['maxOpenExposure', 'max_open_exposure'],
  ])('A malformed %s is refused with invalid_amount on %s.', (field, param) => {
    given([])
      .when(setLimits({ [field]: '1.001' }), T0)
      .thenRefuses('invalid_amount', param);
    given([])
      .when(setLimits({ [field]: 10 as unknown as string }), T0)
      .thenRefuses('invalid_amount', param);
  });

  it.each<[string, unknown]>([
    ['zero', 0],
    ['negative', -1],
    ['fractional', 1.5],
    ['not a number', Number.NaN],
    ['a string', '2'],
    ['beyond safe integers', 2 ** 53],
  ])('A max_pending_per_customer that is %s is refused.', (_label, value) => {
    given([])
      .when(setLimits({ maxPendingPerCustomer: value as number }), T0)
      .thenRefuses('invalid_request', 'max_pending_per_customer');
  });

  it('A min_payout above max_payout is refused.', () => {
    given([])
      .when(setLimits({ minPayout: '10.00', maxPayout: '9.99' }), T0)
      .thenRefuses('invalid_request', 'min_payout');
  });

  it('A min_payout equal to max_payout is accepted.', () => {
    given([])
      .when(setLimits({ minPayout: '10.00', maxPayout: '10' }), T0)
      .then([limitsSet({ minPayout: '10.00', maxPayout: '10.00' })]);
  });
});

describe('Crediting funds', () => {
  it('Credited funds raise both funds in and the available balance.', () => {
    const state = given([limitsSet()])
      .when(credit('150.5'), T0)
      .then([credited('150.50')]);
    expect(ledgerBalanceView(state)).toMatchObject({ matured: '150.50', available: '150.50' });
  });

  it.each<[string, unknown]>([
    ['zero', '0.00'],
    ['negative', '-5'],
    ['a JSON number', 5],
  ])('A credit that is %s is refused with invalid_amount.', (_label, amount) => {
    given([])
      .when(credit(amount as string), T0)
      .thenRefuses('invalid_amount', 'amount');
  });

  it('A credit without a reference is refused.', () => {
    given([]).when(credit('5.00', ''), T0).thenRefuses('invalid_request', 'reference');
  });
});

describe('Reserving payout funds', () => {
  it('A reservation takes amount plus the live fee from the available balance into customer payout holds.', () => {
    const state = given(funded)
      .when(reserve('po_1', '100'), T0)
      .then([reserved('po_1', '100.00')]);
    expect(ledgerBalanceView(state)).toMatchObject({
      matured: '2000.00',
      available: '1899.00',
      customerPayoutHolds: '101.00',
      customerPayoutsSettled: '0.00',
      merchantSettlementHolds: '0.00',
    });
  });

  it('Without limits, nothing can be reserved.', () => {
    given([credited('100.00')])
      .when(reserve('po_1', 'not money'), T0)
      .thenRefuses('limits_not_configured');
  });

  it.each<[string, unknown]>([
    ['malformed', '10.001'],
    ['a JSON number', 10],
    ['zero', '0'],
  ])('An amount that is %s is refused with invalid_amount.', (_label, amount) => {
    given(funded)
      .when(reserve('po_1', amount as string), T0)
      .thenRefuses('invalid_amount', 'amount');
  });

  it('A reservation without a customer key is refused.', () => {
    given(funded)
      .when(reserve('po_1', '10', ''), T0)
      .thenRefuses('invalid_request', 'customer_key');
  });

  it.each(['4.99', '500.01'])(
    'An amount of %s, outside min_payout and max_payout, is refused with amount_out_of_range.',
    (amount) => {
      given(funded).when(reserve('po_1', amount), T0).thenRefuses('amount_out_of_range', 'amount');
    },
  );

  it.each(['5.00', '500.00'])('An amount of exactly %s, on a range bound, is accepted.', (amount) => {
    given(funded)
      .when(reserve('po_1', amount), T0)
      .then([reserved('po_1', amount)]);
  });

  it.each([
    ['open', [reserved('po_1', '10.00')]],
    ['released', [reserved('po_1', '10.00'), released('po_1', '11.00')]],
    ['settled', [reserved('po_1', '10.00'), settled('po_1', '11.00')]],
  ])('A payout whose reservation is %s cannot be reserved again.', (_label, history) => {
    given([...funded, ...history])
      .when(reserve('po_1', '10'), T0)
      .thenRefuses('payout_already_exists');
  });

  it('A customer with max_pending_per_customer open payouts cannot get another.', () => {
    given([...funded, reserved('po_1', '10.00'), reserved('po_2', '10.00')])
      .when(reserve('po_3', '10'), T0)
      .thenRefuses('customer_pending_limit');
  });

  it('Another customer is not held back by the first one’s pending payouts.', () => {
    given([...funded, reserved('po_1', '10.00'), reserved('po_2', '10.00')])
      .when(reserve('po_3', '10', 'cust_2'), T0)
      .then([reserved('po_3', '10.00', 'cust_2')]);
  });

  it('A paid or returned payout no longer counts as pending for its customer.', () => {
    given([...funded, reserved('po_1', '10.00'), reserved('po_2', '10.00'), settled('po_1', '11.00')])
      .when(reserve('po_3', '10'), T0)
      .then([reserved('po_3', '10.00')]);
    given([...funded, reserved('po_1', '10.00'), reserved('po_2', '10.00'), released('po_2', '11.00')])
      .when(reserve('po_3', '10'), T0)
      .then([reserved('po_3', '10.00')]);
  });

  it('A reservation that would take open holds above max_open_exposure is refused.', () => {
    // Holds of 500.00 plus 501.00 would exceed 1000.00; 500.00 plus 500.00 reach it exactly.
    given([...funded, reserved('po_1', '499.00')])
      .when(reserve('po_2', '500', 'cust_2'), T0)
      .thenRefuses('exposure_limit_exceeded');
    given([...funded, reserved('po_1', '499.00')])
      .when(reserve('po_2', '499', 'cust_2'), T0)
      .then([reserved('po_2', '499.00', 'cust_2')]);
  });

  it('A reservation larger than the available balance is refused with insufficient_funds.', () => {
    given([limitsSet(), credited('50.00')])
      .when(reserve('po_1', '49.01'), T0)
      .thenRefuses('insufficient_funds');
  });

  it('A reservation of exactly the available balance is accepted, leaving zero.', () => {
    const state = given([limitsSet(), credited('50.00')])
      .when(reserve('po_1', '49'), T0)
      .then([reserved('po_1', '49.00')]);
    expect(ledgerBalanceView(state).available).toBe('0.00');
  });

  describe('the checks run in a fixed order', () => {
    it('An amount out of range is reported before insufficient funds.', () => {
      given([limitsSet()]).when(reserve('po_1', '501'), T0).thenRefuses('amount_out_of_range', 'amount');
    });

    it('A repeated payout id is reported before the customer pending limit.', () => {
      given([...funded, reserved('po_1', '10.00'), reserved('po_2', '10.00')])
        .when(reserve('po_1', '10'), T0)
        .thenRefuses('payout_already_exists');
    });

    it('The customer pending limit is reported before the exposure limit.', () => {
      given([...funded, reserved('po_1', '499.00'), reserved('po_2', '499.00')])
        .when(reserve('po_3', '10'), T0)
        .thenRefuses('customer_pending_limit');
    });

    it('The exposure limit is reported before insufficient funds.', () => {
      given([limitsSet(), credited('600.00'), reserved('po_1', '499.00')])
        .when(reserve('po_2', '500', 'cust_2'), T0)
        .thenRefuses('exposure_limit_exceeded');
    });
  });

  it('A new fee applies to new reservations only.', () => {
    const history = [...funded, reserved('po_1', '10.00'), limitsSet({ feePerPayout: '2.50' })];
    given(history)
      .when(reserve('po_2', '10'), T0)
      .then([reserved('po_2', '10.00', 'cust_1', '2.50')]);
    given(history)
      .when(release('po_1'), T0)
      .then([released('po_1', '11.00')]);
  });
});

describe('Releasing payout funds', () => {
  it('Releasing an open reservation returns its total to the available balance.', () => {
    const state = given([...funded, reserved('po_1', '100.00')])
      .when(release('po_1', 'expired'), T0)
      .then([released('po_1', '101.00', 'expired')]);
    expect(ledgerBalanceView(state)).toMatchObject({
      available: '2000.00',
      customerPayoutHolds: '0.00',
      matured: '2000.00',
    });
  });

  it('Releasing again, or releasing a payout never reserved, changes nothing.', () => {
    given([...funded, reserved('po_1', '100.00'), released('po_1', '101.00')])
      .when(release('po_1'), T0)
      .then([]);
    given(funded).when(release('po_9'), T0).then([]);
  });

  it('Releasing funds already paid out is refused.', () => {
    given([...funded, reserved('po_1', '100.00'), settled('po_1', '101.00')])
      .when(release('po_1', 'failed'), T0)
      .thenRefuses('invalid_transition');
  });
});

describe('Settling payout funds', () => {
  it('Settling moves the total from holds to settled, and matured funds go down by it.', () => {
    const state = given([...funded, reserved('po_1', '100.00')])
      .when(settle('po_1'), T0)
      .then([settled('po_1', '101.00')]);
    expect(ledgerBalanceView(state)).toMatchObject({
      matured: '1899.00',
      available: '1899.00',
      customerPayoutHolds: '0.00',
      customerPayoutsSettled: '101.00',
    });
  });

  it('Settling again changes nothing.', () => {
    given([...funded, reserved('po_1', '100.00'), settled('po_1', '101.00')])
      .when(settle('po_1'), T0)
      .then([]);
  });

  it('Settling a payout never reserved is refused with reservation_not_found.', () => {
    given(funded).when(settle('po_9'), T0).thenRefuses('reservation_not_found');
  });

  it('Settling funds already returned is refused.', () => {
    given([...funded, reserved('po_1', '100.00'), released('po_1', '101.00')])
      .when(settle('po_1'), T0)
      .thenRefuses('invalid_transition');
  });
});

describe('Balance view', () => {
  it('A new ledger shows zeros and no limits.', () => {
    expect(balance([])).toEqual({
      currency: 'USD',
      matured: '0.00',
      available: '0.00',
      customerPayoutHolds: '0.00',
      customerPayoutsSettled: '0.00',
      merchantSettlementHolds: '0.00',
      pending: '0.00',
      retainedTarget: '0.00',
      estimatedNextSettlement: '0.00',
      limits: null,
    });
  });

  it('A busy ledger shows each bucket and the live limits.', () => {
    const view = balance([
      ...funded,
      credited('0.10', 'wire-2'),
      reserved('po_1', '100.00'),
      reserved('po_2', '20.20', 'cust_2'),
      reserved('po_3', '5.00', 'cust_3'),
      settled('po_1', '101.00'),
      released('po_3', '6.00'),
    ]);
    expect(view).toEqual({
      currency: 'USD',
      matured: '1899.10',
      available: '1877.90',
      customerPayoutHolds: '21.20',
      customerPayoutsSettled: '101.00',
      merchantSettlementHolds: '0.00',
      pending: '0.00',
      retainedTarget: '0.00',
      estimatedNextSettlement: '1877.90',
      limits: {
        feePerPayout: '1.00',
        minPayout: '5.00',
        maxPayout: '500.00',
        maxOpenExposure: '1000.00',
        maxPendingPerCustomer: 2,
      },
    });
    expect(formatMoney(fold(funded).fundsIn)).toBe('2000.00');
  });
});

describe('Evolve guards the money invariants', () => {
  it('A reservation that would overdraw the available balance is never applied.', () => {
    expect(() => fold([limitsSet(), credited('10.00'), reserved('po_1', '10.00')])).toThrow(/available/);
  });

  it('A release or settlement of a reservation that is not open is never applied.', () => {
    expect(() => fold([...funded, released('po_1', '11.00')])).toThrow(/no open reservation/);
    expect(() =>
      fold([...funded, reserved('po_1', '10.00'), settled('po_1', '11.00'), settled('po_1', '11.00')]),
    ).toThrow(/no open reservation/);
  });

  it('A release whose total differs from the reservation is never applied.', () => {
    expect(() => fold([...funded, reserved('po_1', '10.00'), released('po_1', '10.00')])).toThrow(
      /total differs/,
    );
  });

  it('A second reservation for one payout is never applied.', () => {
    expect(() => fold([...funded, reserved('po_1', '10.00'), reserved('po_1', '10.00')])).toThrow(
      /already reserved/,
    );
  });

  it('Events carry the time they were decided at.', () => {
    expect(ledgerDecider.decide(credit('1'), fold([]), T0)[0]?.data).toMatchObject({ at: AT });
  });
});
