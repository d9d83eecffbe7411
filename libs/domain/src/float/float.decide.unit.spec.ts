import { deciderSpec } from '../testing/given-when-then';
import { FloatCommand, floatDecider } from './float.decide';
import { FloatEvent, floatView } from './float.events';

const { given, fold } = deciderSpec(floatDecider);

const T0 = new Date('2026-03-01T12:00:00.000Z');
const AT = T0.toISOString();
const environment = 'sandbox' as const;

const topUp = (amount: unknown, reference: unknown = 'wire-1'): FloatCommand => ({
  type: 'TopUpFloat',
  data: { environment, amount: amount as string, reference: reference as string },
});
const reserve = (payoutId: string, amount: unknown): FloatCommand => ({
  type: 'ReserveFloat',
  data: { environment, payoutId, amount: amount as string },
});
const release = (payoutId: string): FloatCommand => ({
  type: 'ReleaseFloat',
  data: { environment, payoutId },
});
const settle = (payoutId: string): FloatCommand => ({ type: 'SettleFloat', data: { environment, payoutId } });

const toppedUp = (amount: string, reference = 'wire-1'): FloatEvent => ({
  type: 'FloatToppedUp',
  data: { environment, amount, reference, at: AT },
});
const reserved = (payoutId: string, amount: string): FloatEvent => ({
  type: 'FloatReserved',
  data: { environment, payoutId, amount, at: AT },
});
const released = (payoutId: string, amount: string): FloatEvent => ({
  type: 'FloatReleased',
  data: { environment, payoutId, amount, at: AT },
});
const paidOut = (payoutId: string, amount: string): FloatEvent => ({
  type: 'FloatPaidOut',
  data: { environment, payoutId, amount, at: AT },
});

describe('Payout float: top-up', () => {
  it('A top-up adds its amount, written with two decimals, to what is available.', () => {
    const state = given([])
      .when(topUp('100.5'), T0)
      .then([toppedUp('100.50')]);
    expect(floatView(state)).toEqual({
      toppedUp: '100.50',
      available: '100.50',
      reserved: '0.00',
      paidOut: '0.00',
    });
  });

  it.each<[string, unknown]>([
    ['a JS number', 10],
    ['three decimals', '1.001'],
    ['a sign', '-5.00'],
    ['an exponent', '1e3'],
  ])('A top-up amount given as %s is refused with invalid_amount.', (_case, amount) => {
    given([]).when(topUp(amount), T0).thenRefuses('invalid_amount', 'amount');
  });

  it('A top-up of zero is refused with invalid_amount: it would move nothing.', () => {
    given([]).when(topUp('0.00'), T0).thenRefuses('invalid_amount', 'amount');
  });

  it('A top-up without a reference is refused with invalid_request.', () => {
    given([]).when(topUp('10.00', ''), T0).thenRefuses('invalid_request', 'reference');
  });
});

describe('Payout float: reservations', () => {
  it('A payout the float can cover has its amount set aside.', () => {
    const state = given([toppedUp('50.00')])
      .when(reserve('po_1', '20.00'), T0)
      .then([reserved('po_1', '20.00')]);
    expect(floatView(state)).toMatchObject({ available: '30.00', reserved: '20.00' });
  });

  it('A payout of exactly what is available is covered.', () => {
    given([toppedUp('20.00')])
      .when(reserve('po_1', '20'), T0)
      .then([reserved('po_1', '20.00')]);
  });

  it('A payout the float cannot cover is refused with float_insufficient and nothing is set aside.', () => {
    given([toppedUp('50.00'), reserved('po_1', '40.00')])
      .when(reserve('po_2', '10.01'), T0)
      .thenRefuses('float_insufficient');
  });

  it('An empty float refuses every payout with float_insufficient.', () => {
    given([]).when(reserve('po_1', '0.01'), T0).thenRefuses('float_insufficient');
  });

  it('Reserving the same payout and amount again changes nothing (a retried reservation).', () => {
    given([toppedUp('50.00'), reserved('po_1', '20.00')])
      .when(reserve('po_1', '20.00'), T0)
      .then([]);
  });

  it('Reserving an already reserved payout for another amount is refused with invalid_transition.', () => {
    given([toppedUp('50.00'), reserved('po_1', '20.00')])
      .when(reserve('po_1', '25.00'), T0)
      .thenRefuses('invalid_transition');
  });

  it.each([
    ['returned', released('po_1', '20.00')],
    ['paid out', paidOut('po_1', '20.00')],
  ])('Reserving a payout whose reservation was already %s is refused with invalid_transition.', (_c, end) => {
    given([toppedUp('50.00'), reserved('po_1', '20.00'), end])
      .when(reserve('po_1', '20.00'), T0)
      .thenRefuses('invalid_transition');
  });

  it('A reservation needs a payout id.', () => {
    given([toppedUp('50.00')])
      .when(reserve('', '20.00'), T0)
      .thenRefuses('invalid_request', 'payout_id');
  });

  it('A reservation amount must be a strict decimal string above zero.', () => {
    given([toppedUp('50.00')])
      .when(reserve('po_1', 20), T0)
      .thenRefuses('invalid_amount', 'amount');
    given([toppedUp('50.00')])
      .when(reserve('po_1', '0'), T0)
      .thenRefuses('invalid_amount', 'amount');
  });
});

describe('Payout float: the end of a reservation', () => {
  const history = [toppedUp('50.00'), reserved('po_1', '20.00')];

  it('When a reserved payout fails, its amount returns to what is available.', () => {
    const state = given(history)
      .when(release('po_1'), T0)
      .then([released('po_1', '20.00')]);
    expect(floatView(state)).toMatchObject({ available: '50.00', reserved: '0.00', paidOut: '0.00' });
  });

  it('When a reserved payout is paid, its amount leaves the float for good.', () => {
    const state = given(history)
      .when(settle('po_1'), T0)
      .then([paidOut('po_1', '20.00')]);
    expect(floatView(state)).toEqual({
      toppedUp: '50.00',
      available: '30.00',
      reserved: '0.00',
      paidOut: '20.00',
    });
  });

  it('Releasing twice, or releasing a payout that never reserved anything, changes nothing.', () => {
    given([...history, released('po_1', '20.00')])
      .when(release('po_1'), T0)
      .then([]);
    given(history).when(release('po_never'), T0).then([]);
  });

  it('Paying out twice changes nothing (the rail may report a payment twice).', () => {
    given([...history, paidOut('po_1', '20.00')])
      .when(settle('po_1'), T0)
      .then([]);
  });

  it('Returning money that was already paid out is refused with invalid_transition.', () => {
    given([...history, paidOut('po_1', '20.00')])
      .when(release('po_1'), T0)
      .thenRefuses('invalid_transition');
  });

  it('Paying out money that was already returned is refused with invalid_transition.', () => {
    given([...history, released('po_1', '20.00')])
      .when(settle('po_1'), T0)
      .thenRefuses('invalid_transition');
  });

  it('Paying out a payout that never reserved anything is refused with reservation_not_found.', () => {
    given(history).when(settle('po_never'), T0).thenRefuses('reservation_not_found');
  });
});

describe('Payout float: the books', () => {
  it('Topped up always equals available + reserved + paid out, whatever happened.', () => {
    const state = fold([
      toppedUp('100.00'),
      reserved('po_1', '10.00'),
      reserved('po_2', '20.00'),
      reserved('po_3', '30.00'),
      paidOut('po_1', '10.00'),
      released('po_2', '20.00'),
      toppedUp('5.25', 'wire-2'),
    ]);
    expect(floatView(state)).toEqual({
      toppedUp: '105.25',
      available: '65.25',
      reserved: '30.00',
      paidOut: '10.00',
    });
  });

  it('Applying an event that would overdraw the float is a bug and throws.', () => {
    expect(() => fold([toppedUp('10.00'), reserved('po_1', '10.01')])).toThrow(/Float invariant broken/);
  });

  it('Applying a release for an amount other than the reservation is a bug and throws.', () => {
    expect(() => fold([toppedUp('10.00'), reserved('po_1', '5.00'), released('po_1', '4.00')])).toThrow(
      /amount differs/,
    );
  });
});
