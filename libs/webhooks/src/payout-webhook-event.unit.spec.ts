import { evolvePayout, initialPayoutState, Payout, PayoutEvent, PayoutState } from '@payouts/domain';
import {
  newTestEventId,
  payoutTestBody,
  payoutUpdatedBody,
  payoutUpdatedEventId,
  payoutWebhookData,
} from './payout-webhook-event';
import { MAX_ATTEMPTS, nextAttemptAfter, RETRY_DELAYS_MS } from './schedule';

const created: PayoutEvent = {
  type: 'PayoutCreated',
  data: {
    payoutId: 'po_abc',
    accountId: 'acct_1',
    environment: 'sandbox',
    amount: '10.00',
    fee: '0.50',
    totalReserved: '10.50',
    currency: 'USD',
    merchantReference: 'order-1',
    delivery: 'redirect',
    customerEmail: null,
    customerId: 'cus_9',
    returnUrl: 'https://shop.example.com/back',
    description: null,
    caseReference: 'case-7',
    originalPaymentId: null,
    source: 'api',
    createdAt: '2026-01-01T10:00:00.000Z',
    payoutExpiresAt: '2026-01-02T10:00:00.000Z',
  },
};
const confirmed: PayoutEvent = {
  type: 'PayoutConfirmed',
  data: { payoutId: 'po_abc', selectedMethod: 'bank_transfer', acceptedAt: '2026-01-01T10:05:00.000Z' },
};
const paid: PayoutEvent = {
  type: 'PayoutPaid',
  data: { payoutId: 'po_abc', receiptReference: 'rcpt_42', paidAt: '2026-01-01T10:06:00.000Z' },
};
const fold = (events: PayoutEvent[]): PayoutState => events.reduce(evolvePayout, initialPayoutState());

describe('the payout.updated event', () => {
  it('carries exactly the data fields docs/webhooks.md lists, as the payout was when paid', () => {
    const data = payoutWebhookData(fold([created, confirmed, paid]) as Payout);
    expect(data).toEqual({
      payout_id: 'po_abc',
      merchant_reference: 'order-1',
      customer_id: 'cus_9',
      status: 'paid',
      status_version: 3,
      amount: '10.00',
      fee: '0.50',
      total_reserved: '10.50',
      currency: 'USD',
      delivery: 'redirect',
      funds_released: false,
      receipt_reference: 'rcpt_42',
      created_at: '2026-01-01T10:00:00.000Z',
      updated_at: '2026-01-01T10:06:00.000Z',
    });
  });

  it('has a body with type first, then id, then data', () => {
    const id = payoutUpdatedEventId('po_abc');
    const body = payoutUpdatedBody(id, payoutWebhookData(fold([created, confirmed, paid]) as Payout));
    expect(body.startsWith(`{"type":"payout.updated","id":"${id}","data":{"payout_id":"po_abc"`)).toBe(true);
  });

  it('has one id per payout, whenever and however often it is computed', () => {
    expect(payoutUpdatedEventId('po_abc')).toBe(payoutUpdatedEventId('po_abc'));
    expect(payoutUpdatedEventId('po_abc')).not.toBe(payoutUpdatedEventId('po_abd'));
    expect(payoutUpdatedEventId('po_abc')).toMatch(/^evt_[0-9a-f]{32}$/);
    // Ids already delivered stay the same from build to build: sha256 of "payout.updated\n<payoutId>".
    expect(payoutUpdatedEventId('po_1')).toBe('evt_b5ff546172190ea56c74c54ec62828f9');
    expect(payoutUpdatedEventId('pay_ü😀x')).toBe('evt_071cb83d8711ee2b94557b17a8127537');
  });

  it.each([
    ['awaiting_choice', [created]],
    ['processing', [created, confirmed]],
  ])('is refused for a payout that is %s', (_status, events) => {
    expect(() => payoutWebhookData(fold(events) as Payout)).toThrow(/only a paid payout/);
  });
});

describe('the payout.test event', () => {
  it('has an evt_test_ id and no payout behind it', () => {
    const id = newTestEventId();
    expect(id).toMatch(/^evt_test_[0-9a-f]{32}$/);
    expect(JSON.parse(payoutTestBody(id, 'sandbox', new Date('2026-01-01T00:00:00Z')))).toEqual({
      type: 'payout.test',
      id,
      data: {
        environment: 'sandbox',
        message: 'Test event from the dashboard; do not act on it.',
        sent_at: '2026-01-01T00:00:00.000Z',
      },
    });
  });
});

describe('the retry schedule', () => {
  const t0 = new Date('2026-01-01T00:00:00Z');

  it('retries 30 s, 5 min, 1 h and 23 h after each failed attempt, then stops', () => {
    expect(RETRY_DELAYS_MS).toEqual([30_000, 300_000, 3_600_000, 82_800_000]);
    expect(MAX_ATTEMPTS).toBe(5);
    expect(nextAttemptAfter(1, 5, t0)?.toISOString()).toBe('2026-01-01T00:00:30.000Z');
    expect(nextAttemptAfter(2, 5, t0)?.toISOString()).toBe('2026-01-01T00:05:00.000Z');
    expect(nextAttemptAfter(3, 5, t0)?.toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(nextAttemptAfter(4, 5, t0)?.toISOString()).toBe('2026-01-01T23:00:00.000Z');
    expect(nextAttemptAfter(5, 5, t0)).toBeNull();
  });

  it('gives a one-attempt delivery (a test or a resend) no retry', () => {
    expect(nextAttemptAfter(1, 1, t0)).toBeNull();
  });

  it('refuses a count of attempts below 1', () => {
    expect(() => nextAttemptAfter(0, 5, t0)).toThrow(RangeError);
  });
});
