import { refusalOf } from '../testing/given-when-then';
import { claimMerchantReference, MerchantReferenceState } from './merchant-reference';
import { evolveMerchantReference } from './merchant-reference.evolve';

const claim = {
  accountId: 'acc_1',
  environment: 'sandbox' as const,
  merchantReference: 'order-42',
  payoutId: 'po_1',
};
const now = new Date('2026-03-01T12:00:00.000Z');

describe('Merchant references', () => {
  it('An unused reference is claimed for the payout that names it.', () => {
    const events = claimMerchantReference({ claimedBy: null }, claim, now);
    expect(events).toEqual([{ type: 'MerchantReferenceClaimed', data: { ...claim, at: now.toISOString() } }]);
    const state = events.reduce<MerchantReferenceState>(evolveMerchantReference, { claimedBy: null });
    expect(state).toEqual({ claimedBy: 'po_1' });
  });

  it('A reference already used by a payout is refused with duplicate_merchant_reference.', () => {
    const error = refusalOf(() => claimMerchantReference({ claimedBy: 'po_0' }, claim, now));
    expect([error.code, error.param]).toEqual(['duplicate_merchant_reference', 'merchant_reference']);
  });
});
