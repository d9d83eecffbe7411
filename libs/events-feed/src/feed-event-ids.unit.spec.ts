import { ledgerFeedId, orderFeedId, parseFeedId, payoutFeedId } from './feed-event-ids';

describe('feed event ids', () => {
  it('name the stored event they come from, and parse back to it', () => {
    const payoutId = `po_${'a1'.repeat(12)}`;
    expect(payoutFeedId(payoutId, 3)).toBe(`evt_po_${'a1'.repeat(12)}_3`);
    expect(parseFeedId(payoutFeedId(payoutId, 3))).toEqual({ kind: 'payout', payoutId, version: 3 });
    expect(parseFeedId(orderFeedId(1000001, 2))).toEqual({ kind: 'order', orderId: 1000001, version: 2 });
    const ledger = { accountId: `acct_${'0f'.repeat(12)}`, environment: 'sandbox' as const, currency: 'GBP' };
    expect(ledgerFeedId(ledger, 12, 1)).toBe(`evt_led_${'0f'.repeat(12)}_sbx_gbp_12_1`);
    expect(parseFeedId(ledgerFeedId(ledger, 12, 1))).toEqual({
      kind: 'ledger',
      ...ledger,
      version: 12,
      index: 1,
    });
    expect(parseFeedId(ledgerFeedId({ ...ledger, environment: 'production' }, 1, 0))).toMatchObject({
      environment: 'production',
    });
    const paid = `evt_${'c'.repeat(32)}`;
    expect(parseFeedId(paid)).toEqual({ kind: 'paid-payout', eventId: paid });
  });

  it.each([
    'evt_po_a1_3',
    `evt_po_${'a'.repeat(24)}_0`,
    `evt_po_${'a'.repeat(24)}_01`,
    'evt_ord_0_1',
    `evt_led_${'0'.repeat(24)}_dev_usd_1_0`,
    `evt_led_${'0'.repeat(24)}_sbx_usd_1_1000`,
    `evt_${'c'.repeat(31)}`,
    `evt_test_${'c'.repeat(32)}`,
    'po_123',
  ])('names nothing for %s', (id) => {
    expect(parseFeedId(id)).toBeNull();
  });
});
