import { foldEvents } from '../kernel/decider';
import {
  declined,
  EXPIRES_AT,
  expired,
  iso,
  ORDER_ID,
  orderCreated,
  paid,
  T0,
  VISA,
  WALLET,
} from '../testing/order.fixtures';
import { HOUR_MS } from '../kernel/time';
import { OrderEvent } from './order.events';
import { initialOrderState, OrderState } from './order.state';
import { evolveOrder } from './order.evolve';

const fold = (events: OrderEvent[]): OrderState => foldEvents(evolveOrder, initialOrderState(), events);

const createdFields = {
  orderId: ORDER_ID,
  accountId: 'acc_1',
  environment: 'sandbox',
  method: 'card',
  amount: '10.50',
  currency: 'USD',
  customer: 'ana@example.com',
  product: 'Blue mug',
  redirectUrl: 'https://shop.example/thanks',
  hookUrl: 'https://shop.example/hooks/checkout',
  credentialId: 'cred_ck_1',
  pageTokenHash: 'hash-page-1',
  createdAt: T0.toISOString(),
  expiresAt: EXPIRES_AT,
};

describe('Checkout order state', () => {
  it('Before its creation, an order does not exist.', () => {
    expect(initialOrderState()).toEqual({ status: 'none' });
  });

  it('A created order is PENDING with every field it was created with, no attempt and no payment.', () => {
    expect(fold([orderCreated()])).toEqual({
      ...createdFields,
      status: 'PENDING',
      attempts: 0,
      lastDecline: null,
      paidAt: null,
      instrument: null,
    });
  });

  it('Declined attempts keep the order PENDING, count up and remember the last reason.', () => {
    const state = fold([
      orderCreated(),
      declined(1, 'card_declined', HOUR_MS),
      declined(2, 'insufficient_funds', 2 * HOUR_MS),
    ]);
    expect(state).toMatchObject({
      status: 'PENDING',
      attempts: 2,
      lastDecline: 'insufficient_funds',
      paidAt: null,
      instrument: null,
    });
  });

  it('A paid order is SUCCESS with its paying attempt counted, its time and its instrument; the created fields stay.', () => {
    const state = fold([orderCreated(), declined(1), paid(2, 3 * HOUR_MS)]);
    expect(state).toEqual({
      ...createdFields,
      status: 'SUCCESS',
      attempts: 2,
      lastDecline: 'card_declined',
      paidAt: iso(3 * HOUR_MS),
      instrument: VISA,
    });
  });

  it('A wallet order keeps the masked wallet account it was paid with.', () => {
    const state = fold([orderCreated({ method: 'mobile_wallet' }), paid(1, HOUR_MS, WALLET)]);
    expect(state).toMatchObject({ status: 'SUCCESS', method: 'mobile_wallet', instrument: WALLET });
  });

  it('An expired order is EXPIRED, unpaid, with its attempts still counted.', () => {
    const state = fold([orderCreated(), declined(1, 'wallet_declined'), expired]);
    expect(state).toEqual({
      ...createdFields,
      status: 'EXPIRED',
      attempts: 1,
      lastDecline: 'wallet_declined',
      paidAt: null,
      instrument: null,
    });
  });

  describe('an event the decider could not have produced is a bug and fails loudly', () => {
    it.each<[string, OrderEvent[]]>([
      ['an attempt before creation', [declined(1)]],
      ['a second creation', [orderCreated(), orderCreated()]],
      ['a payment of a paid order', [orderCreated(), paid(1), paid(2)]],
      ['a payment of an expired order', [orderCreated(), expired, paid(1)]],
      ['a declined attempt on a paid order', [orderCreated(), paid(1), declined(2)]],
      ['an expiry of a paid order', [orderCreated(), paid(1), expired]],
      ['a second expiry', [orderCreated(), expired, expired]],
      ['an attempt number out of order', [orderCreated(), declined(2)]],
      ['a repeated attempt number', [orderCreated(), declined(1), paid(1)]],
      ['an event of another order', [orderCreated({ orderId: 7 }), paid(1)]],
    ])('Evolve refuses %s.', (_label, events) => {
      expect(() => fold(events)).toThrow(/Cannot apply/);
    });
  });
});
