import { HOUR_MS } from '../kernel/time';
import { deciderSpec } from '../testing/given-when-then';
import {
  after,
  declineAttempt,
  declined,
  expired,
  expiredOrder,
  EXPIRES_AT,
  expireOrder,
  LAST_PAYABLE_MOMENT,
  markPaid,
  ORDER_ID,
  orderCreated,
  paid,
  paidOrder,
  pendingOrder,
  TTL_MS,
  VISA,
  WALLET,
} from '../testing/order.fixtures';
import { OrderCommand } from './order.commands';
import { orderDecider } from './order.decide';
import { OrderEvent, OrderInstrument } from './order.events';

const { given, outcome } = deciderSpec(orderDecider);
const NOW = after(3 * HOUR_MS);
const AT = NOW.toISOString();
const PAST_EXPIRY = new Date(EXPIRES_AT);

describe('Checkout order transitions', () => {
  describe('paying', () => {
    it('A PENDING order is paid by its first attempt: SUCCESS, with paid_at and the card kept as brand and last four.', () => {
      const state = given(pendingOrder)
        .when(markPaid(), NOW)
        .then([{ type: 'OrderPaid', data: { orderId: ORDER_ID, attempt: 1, instrument: VISA, at: AT } }]);
      expect(state).toMatchObject({ status: 'SUCCESS', paidAt: AT, attempts: 1, instrument: VISA });
    });

    it('A wallet order is paid with the masked wallet account.', () => {
      given([orderCreated({ method: 'online_wallet' })])
        .when(markPaid(WALLET), NOW)
        .then([{ type: 'OrderPaid', data: { orderId: ORDER_ID, attempt: 1, instrument: WALLET, at: AT } }]);
    });

    it('An order can still be paid in its last millisecond.', () => {
      given(pendingOrder)
        .when(markPaid(), LAST_PAYABLE_MOMENT)
        .then([paid(1, TTL_MS - 1)]);
    });
  });

  describe('declined attempts', () => {
    it('A declined attempt is recorded and leaves the order PENDING, so the payer can try again.', () => {
      const state = given(pendingOrder)
        .when(declineAttempt('insufficient_funds'), NOW)
        .then([
          {
            type: 'OrderPaymentDeclined',
            data: { orderId: ORDER_ID, attempt: 1, reason: 'insufficient_funds', instrument: VISA, at: AT },
          },
        ]);
      expect(state).toMatchObject({ status: 'PENDING', attempts: 1, lastDecline: 'insufficient_funds' });
    });

    it('Each declined attempt counts: the third is attempt 3.', () => {
      const state = given([...pendingOrder, declined(1), declined(2)])
        .when(declineAttempt(), NOW)
        .then([declined(3, 'card_declined', 3 * HOUR_MS)]);
      expect(state).toMatchObject({ status: 'PENDING', attempts: 3 });
    });

    it('A wallet order records a declined wallet.', () => {
      given([orderCreated({ method: 'p2p_app' })])
        .when(declineAttempt('wallet_declined', WALLET), NOW)
        .then([declined(1, 'wallet_declined', 3 * HOUR_MS, WALLET)]);
    });

    it('An order declined twice is paid by its third attempt.', () => {
      const state = given([...pendingOrder, declined(1), declined(2, 'insufficient_funds')])
        .when(markPaid(), NOW)
        .then([paid(3, 3 * HOUR_MS)]);
      expect(state).toMatchObject({ status: 'SUCCESS', attempts: 3, lastDecline: 'insufficient_funds' });
    });

    it('A decline reason the service does not know is refused with invalid_request.', () => {
      given(pendingOrder)
        .when(declineAttempt('stolen' as 'card_declined'), NOW)
        .thenRefuses('invalid_request', 'reason');
    });
  });

  describe('what an attempt may keep of the instrument', () => {
    const withCard = (instrument: unknown): OrderCommand => markPaid(instrument as OrderInstrument);

    it('Only the brand and last four digits of a card reach the event, whatever else the caller passed.', () => {
      const card = { ...VISA, number: '4242424242424242', cvc: '123' };
      given(pendingOrder)
        .when(withCard(card), NOW)
        .then([paid(1, 3 * HOUR_MS)]);
    });

    it.each<[string, unknown]>([
      ['a wallet for a card order', WALLET],
      ['no instrument', null],
      ['a card number as last4', { kind: 'card', brand: 'visa', last4: '4242424242424242' }],
      ['a card number as brand', { kind: 'card', brand: '4242424242424242', last4: '4242' }],
      ['an empty brand', { kind: 'card', brand: '', last4: '4242' }],
    ])('%s is refused with invalid_request.', (_case, instrument) => {
      given(pendingOrder).when(withCard(instrument), NOW).thenRefuses('invalid_request', 'instrument');
    });

    it.each<[string, unknown]>([
      ['a card for a wallet order', VISA],
      ['an empty wallet account', { kind: 'wallet', account: '' }],
      ['a wallet account holding a NUL', { kind: 'wallet', account: '**\u0000' }],
    ])('%s is refused with invalid_request.', (_case, instrument) => {
      given([orderCreated({ method: 'mobile_wallet' })])
        .when(declineAttempt('wallet_declined', instrument as OrderInstrument), NOW)
        .thenRefuses('invalid_request', 'instrument');
    });
  });

  describe('nothing changes a paid or expired order', () => {
    it.each<[string, OrderEvent[], OrderCommand]>([
      ['paying a paid order', paidOrder, markPaid()],
      ['declining a paid order', paidOrder, declineAttempt()],
      ['paying an expired order', expiredOrder, markPaid()],
      ['declining an expired order', expiredOrder, declineAttempt()],
    ])('%s is refused with order_not_payable.', (_case, history, command) => {
      given(history).when(command, NOW).thenRefuses('order_not_payable');
    });

    it.each<[string, OrderCommand]>([
      ['paid', markPaid()],
      ['declined', declineAttempt()],
    ])('A PENDING order past expires_at cannot be %s, even before the worker expires it.', (_c, command) => {
      given(pendingOrder).when(command, PAST_EXPIRY).thenRefuses('order_not_payable');
    });
  });

  describe('expiry', () => {
    it('A PENDING order expires once expires_at is reached.', () => {
      const state = given(pendingOrder).when(expireOrder, PAST_EXPIRY).then([expired]);
      expect(state).toMatchObject({ status: 'EXPIRED', paidAt: null });
    });

    it('A PENDING order with declined attempts expires too, and keeps its attempts.', () => {
      const state = given([...pendingOrder, declined(1)])
        .when(expireOrder, after(30 * HOUR_MS))
        .then([{ type: 'OrderExpired', data: { orderId: ORDER_ID, at: after(30 * HOUR_MS).toISOString() } }]);
      expect(state).toMatchObject({ status: 'EXPIRED', attempts: 1 });
    });

    it('An order that is not yet due is refused with invalid_transition, up to its last millisecond.', () => {
      given(pendingOrder).when(expireOrder, NOW).thenRefuses('invalid_transition');
      given(pendingOrder).when(expireOrder, LAST_PAYABLE_MOMENT).thenRefuses('invalid_transition');
    });

    it('Expiring an expired order again changes nothing (the worker may fire twice).', () => {
      given(expiredOrder)
        .when(expireOrder, after(48 * HOUR_MS))
        .then([]);
    });

    it('A paid order never expires: invalid_transition.', () => {
      given(paidOrder)
        .when(expireOrder, after(48 * HOUR_MS))
        .thenRefuses('invalid_transition');
    });
  });

  describe('an order that does not exist', () => {
    it.each<OrderCommand>([markPaid(), declineAttempt(), expireOrder])(
      '$type is refused with not_found.',
      (command) => {
        given([]).when(command, NOW).thenRefuses('not_found');
      },
    );
  });

  it('Every command on every status, at a time before expiry and after it.', () => {
    const histories = { PENDING: pendingOrder, SUCCESS: paidOrder, EXPIRED: expiredOrder };
    const commands = { pay: markPaid(), decline: declineAttempt(), expire: expireOrder };
    const table = Object.entries(histories).flatMap(([status, history]) =>
      Object.entries(commands).map(([name, command]) => [
        status,
        name,
        outcome(history, command, NOW),
        outcome(history, command, PAST_EXPIRY),
      ]),
    );
    expect(table).toEqual([
      ['PENDING', 'pay', ['OrderPaid'], 'order_not_payable'],
      ['PENDING', 'decline', ['OrderPaymentDeclined'], 'order_not_payable'],
      ['PENDING', 'expire', 'invalid_transition', ['OrderExpired']],
      ['SUCCESS', 'pay', 'order_not_payable', 'order_not_payable'],
      ['SUCCESS', 'decline', 'order_not_payable', 'order_not_payable'],
      ['SUCCESS', 'expire', 'invalid_transition', 'invalid_transition'],
      ['EXPIRED', 'pay', 'order_not_payable', 'order_not_payable'],
      ['EXPIRED', 'decline', 'order_not_payable', 'order_not_payable'],
      ['EXPIRED', 'expire', [], []],
    ]);
  });

  it('A command sent to another order’s state is a bug and throws a plain Error.', () => {
    const otherOrder = orderDecider.evolve(orderDecider.initialState(), orderCreated({ orderId: 7 }));
    expect(() => orderDecider.decide(markPaid(), otherOrder, NOW)).toThrow(/sent to order 7/);
  });
});
