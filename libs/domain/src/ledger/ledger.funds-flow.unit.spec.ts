import { deciderSpec } from '../testing/given-when-then';
import {
  DAY_2,
  matured,
  proceedsRecorded,
  recordProceeds,
  retainedTargetSet,
  settlementFailed,
  settlementPaid,
  settlementStarted,
  startSettlement,
} from '../testing/funds.fixtures';
import { AT, credited, funded, reserve, reserved, settled, T0 } from '../testing/ledger.fixtures';
import { ledgerDecider } from './ledger.decide';
import { ledgerBalanceView } from './ledger.view';

const { given, fold } = deciderSpec(ledgerDecider);
const AFTER_CLEARING = new Date(DAY_2);
const BEFORE_CLEARING = new Date(Date.parse(DAY_2) - 1);

describe('Payment proceeds', () => {
  it('A paid order records its gross, fee and net as pending, available on its clearing day.', () => {
    const state = given([])
      .when(recordProceeds(7, '100.00', '3.20', '96.80'), T0)
      .then([proceedsRecorded(7, '100.00', '3.20', '96.80')]);
    expect(ledgerBalanceView(state)).toMatchObject({ pending: '96.80', available: '0.00', matured: '0.00' });
  });

  it('An order already pending is not recorded twice.', () => {
    given([proceedsRecorded(7, '100.00', '3.20', '96.80')])
      .when(recordProceeds(7, '100.00', '3.20', '96.80'), T0)
      .then([]);
  });

  it('Charges whose net is not gross minus fee are a bug, never recorded.', () => {
    expect(() => ledgerDecider.decide(recordProceeds(7, '100.00', '3.20', '96.00'), fold([]), T0)).toThrow(
      /not its gross minus its fee/,
    );
  });
});

describe('Maturing', () => {
  const paid = [
    proceedsRecorded(7, '100.00', '3.20', '96.80'),
    proceedsRecorded(8, '10.00', '0.15', '9.85', AT),
  ];

  it('Only proceeds whose day has come mature, soonest first; their net joins matured and available.', () => {
    const state = given(paid)
      .when({ type: 'MatureProceeds', data: { max: 200 } }, T0)
      .then([matured(8, '9.85')]);
    expect(ledgerBalanceView(state)).toMatchObject({ pending: '96.80', available: '9.85', matured: '9.85' });
  });

  it('Nothing matures before its available_on.', () => {
    given([proceedsRecorded(7, '100.00', '3.20', '96.80')])
      .when({ type: 'MatureProceeds', data: { max: 200 } }, BEFORE_CLEARING)
      .then([]);
  });

  it('At most max proceeds mature at once; the rest wait for the next command.', () => {
    given(paid)
      .when({ type: 'MatureProceeds', data: { max: 1 } }, AFTER_CLEARING)
      .then([matured(8, '9.85', DAY_2)]);
  });

  it('Matured proceeds can pay for a payout.', () => {
    const state = fold([...paid, matured(8, '9.85')]);
    expect(state.available.toFixed(2)).toBe('9.85');
    given([...funded.slice(0, 1), ...paid, matured(8, '9.85')])
      .when(reserve('po_1', '8.85'), T0)
      .then([reserved('po_1', '8.85')]);
  });
});

describe('Settlements', () => {
  const withMoney = [...funded, retainedTargetSet('500.00')];

  it('A settlement takes available minus the retained target into the settlement holds.', () => {
    const state = given(withMoney)
      .when(startSettlement('stl_1'), T0)
      .then([settlementStarted('stl_1', '1500.00', '500.00')]);
    expect(ledgerBalanceView(state)).toMatchObject({
      available: '500.00',
      merchantSettlementHolds: '1500.00',
      matured: '2000.00',
      estimatedNextSettlement: '0.00',
    });
  });

  it('A settlement never takes money reserved for payouts.', () => {
    given([...funded, reserved('po_1', '499.00')])
      .when(startSettlement('stl_1'), T0)
      .then([settlementStarted('stl_1', '1500.00')]);
  });

  it('Less than 1.00 to settle starts nothing; the money waits for the next run.', () => {
    given([...funded.slice(0, 1), credited('0.99')])
      .when(startSettlement('stl_1'), T0)
      .then([]);
    given([...funded, retainedTargetSet('2500.00')])
      .when(startSettlement('stl_1'), T0)
      .then([]);
  });

  it('The daily run settles a ledger fed by checkout payments.', () => {
    const paid = [...funded, proceedsRecorded(9, '100.00', '3.20', '96.80', AT), matured(9, '96.80')];
    given(paid)
      .when(startSettlement('stl_1', 'daily'), T0)
      .then([settlementStarted('stl_1', '2096.80', '0.00', 'daily')]);
  });

  it('The daily run leaves a ledger funded only by operator credits (a prefunded payout balance); run-now settles it.', () => {
    given(funded).when(startSettlement('stl_1', 'daily'), T0).then([]);
    given(funded)
      .when(startSettlement('stl_1', 'manual'), T0)
      .then([settlementStarted('stl_1', '2000.00')]);
  });

  it('A settlement id already used starts nothing (a second worker running the same day).', () => {
    given([...withMoney, settlementStarted('stl_1', '1500.00', '500.00'), credited('100.00')])
      .when(startSettlement('stl_1'), T0)
      .then([]);
  });

  it('Paid: the holds and matured fall by the amount.', () => {
    const state = given([...withMoney, settlementStarted('stl_1', '1500.00', '500.00')])
      .when({ type: 'CompleteSettlement', data: { settlementId: 'stl_1', outcome: 'paid' } }, T0)
      .then([settlementPaid('stl_1', '1500.00')]);
    expect(ledgerBalanceView(state)).toMatchObject({ merchantSettlementHolds: '0.00', matured: '500.00' });
  });

  it('Failed: the amount returns to available.', () => {
    const state = given([...withMoney, settlementStarted('stl_1', '1500.00', '500.00')])
      .when(
        {
          type: 'CompleteSettlement',
          data: { settlementId: 'stl_1', outcome: 'failed', reason: 'account_closed' },
        },
        T0,
      )
      .then([settlementFailed('stl_1', '1500.00')]);
    expect(ledgerBalanceView(state)).toMatchObject({ available: '2000.00', merchantSettlementHolds: '0.00' });
  });

  it('The same answer twice changes nothing; the other answer after it is refused.', () => {
    const paid = [
      ...withMoney,
      settlementStarted('stl_1', '1500.00', '500.00'),
      settlementPaid('stl_1', '1500.00'),
    ];
    given(paid)
      .when({ type: 'CompleteSettlement', data: { settlementId: 'stl_1', outcome: 'paid' } }, T0)
      .then([]);
    given(paid)
      .when(
        { type: 'CompleteSettlement', data: { settlementId: 'stl_1', outcome: 'failed', reason: 'x' } },
        T0,
      )
      .thenRefuses('invalid_transition');
  });

  it('Completing a settlement the ledger never started is refused with not_found.', () => {
    given(withMoney)
      .when({ type: 'CompleteSettlement', data: { settlementId: 'stl_x', outcome: 'paid' } }, T0)
      .thenRefuses('not_found');
  });

  it('Payouts paid and settlements paid both leave matured; conservation holds.', () => {
    const state = fold([
      ...funded,
      reserved('po_1', '99.00'),
      settled('po_1', '100.00'),
      settlementStarted('stl_1', '1900.00'),
      settlementPaid('stl_1', '1900.00'),
    ]);
    expect(ledgerBalanceView(state)).toMatchObject({
      matured: '0.00',
      available: '0.00',
      customerPayoutsSettled: '100.00',
    });
  });
});

describe('Retained target', () => {
  it('The retained target is recorded with two decimals.', () => {
    given([])
      .when({ type: 'SetRetainedTarget', data: { amount: '250.5' } }, T0)
      .then([retainedTargetSet('250.50')]);
  });

  it.each(['-1', '1.001', '', 'abc'])('A retained target of %j is refused, never rounded.', (amount) => {
    given([])
      .when({ type: 'SetRetainedTarget', data: { amount } }, T0)
      .thenRefuses('invalid_amount', 'amount');
  });

  it('It is not a cap on payouts: a payout may take the available below it.', () => {
    given([...funded, retainedTargetSet('1900.00')])
      .when(reserve('po_1', '499.00'), T0)
      .then([reserved('po_1', '499.00')]);
  });
});

describe('Operator credits', () => {
  it('A credit without a reason is refused.', () => {
    given([])
      .when(
        {
          type: 'CreditFunds',
          data: { accountId: 'a', environment: 'sandbox', amount: '1.00', reference: 'r', reason: ' ' },
        },
        T0,
      )
      .thenRefuses('invalid_request', 'reason');
  });
});
