import { EVENT_STORE_LIMITS } from '@payouts/event-store';
import { merchantReferenceStreamId } from './merchant-reference-stream-id';

const account = 'acct_0123456789abcdef01234567';

describe('merchant reference stream ids', () => {
  it('scope a reference to one account and environment', () => {
    expect(merchantReferenceStreamId('acc_1', 'sandbox', 'order-42')).not.toBe(
      merchantReferenceStreamId('acc_1', 'production', 'order-42'),
    );
    expect(merchantReferenceStreamId('acc_1', 'sandbox', 'order-42')).not.toBe(
      merchantReferenceStreamId('acc_2', 'sandbox', 'order-42'),
    );
  });

  it('keep every 191-character ASCII reference readable, as ids always were', () => {
    const ascii = 'r'.repeat(191);
    for (const environment of ['sandbox', 'production'] as const) {
      expect(merchantReferenceStreamId(account, environment, ascii)).toBe(
        `merchant-reference-${account}-${environment}-${ascii}`,
      );
    }
  });

  it('name a reference too long for a readable id (191 emoji) by a bounded id, the same each time', () => {
    const emoji = '\u{1F4B8}'.repeat(191);
    const id = merchantReferenceStreamId(account, 'production', emoji);
    expect(id.length).toBeLessThanOrEqual(EVENT_STORE_LIMITS.maxIdLength);
    expect(id).toBe(merchantReferenceStreamId(account, 'production', emoji));
    expect(id).not.toBe(
      merchantReferenceStreamId(account, 'production', '\u{1F4B8}'.repeat(190) + '\u{1F600}'),
    );
    expect(id).not.toBe(merchantReferenceStreamId(account, 'sandbox', emoji));
  });
});
