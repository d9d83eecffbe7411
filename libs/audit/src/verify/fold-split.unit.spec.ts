import { ledgerStreamId, orderStreamId, payoutStreamId } from '@payouts/domain';
import { merchantReferenceStreamId } from '@payouts/payouts';
import { foldedBesideTheChain } from './fold-split';

describe("the streams folded on the chain's thread", () => {
  it('are the payouts and their merchant references, in both forms of a reference stream id', () => {
    expect(foldedBesideTheChain(payoutStreamId('po_1'))).toBe(true);
    expect(foldedBesideTheChain(merchantReferenceStreamId('acc_1', 'sandbox', 'ref-1'))).toBe(true);
    // A reference too long for the id is named by its digest: still the same prefix.
    const long = merchantReferenceStreamId('acc_1', 'production', '😀'.repeat(191));
    expect(long).toMatch(/^merchant-reference-sha256-/);
    expect(foldedBesideTheChain(long)).toBe(true);
  });

  it('leave ledgers, floats, orders and pricing to the main thread, whose paid checks pair orders with proceeds', () => {
    expect(foldedBesideTheChain(ledgerStreamId('acc_1', 'sandbox', 'USD'))).toBe(false);
    expect(foldedBesideTheChain(orderStreamId(7))).toBe(false);
    expect(foldedBesideTheChain('float-sandbox')).toBe(false);
    expect(foldedBesideTheChain('pricing-acc_1-sandbox')).toBe(false);
  });
});
