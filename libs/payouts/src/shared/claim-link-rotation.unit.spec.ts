import { randomBytes } from 'node:crypto';
import { ClaimLinkTokens } from './claim-link-tokens';
import { SealedAnswerUrls } from './sealed-answer-urls';

const PAYOUT_ID = 'po_0123456789abcdef01234567';

describe('claim links and sealed answers across an ENCRYPTION_KEY rotation', () => {
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);

  it('shows a link issued under A again after the switch to B with A as previous, and not without A', () => {
    const link = ClaimLinkTokens.fromEncryptionKey(keyA).issue(PAYOUT_ID);
    const stored = { linkId: link.id, tokenHash: link.tokenHash };
    expect(
      ClaimLinkTokens.fromEncryptionKey({ current: keyB, previous: keyA }).shownAgain(PAYOUT_ID, stored),
    ).toBe(link.token);
    expect(ClaimLinkTokens.fromEncryptionKey(keyB).shownAgain(PAYOUT_ID, stored)).toBeNull();
  });

  it('issues new links under the current key', () => {
    const link = ClaimLinkTokens.fromEncryptionKey({ current: keyB, previous: keyA }).issue(PAYOUT_ID);
    const stored = { linkId: link.id, tokenHash: link.tokenHash };
    expect(ClaimLinkTokens.fromEncryptionKey(keyB).shownAgain(PAYOUT_ID, stored)).toBe(link.token);
    expect(ClaimLinkTokens.fromEncryptionKey(keyA).shownAgain(PAYOUT_ID, stored)).toBeNull();
  });

  it('replays an answer sealed under A during the overlap, and reseals it under B for the rotation tool', () => {
    const url = `https://pay.example/claim/${PAYOUT_ID}.token`;
    const stored = new SealedAnswerUrls(keyA).seal({ payout_id: PAYOUT_ID, status: 'x' }, 'payout_url', url);
    const rotating = new SealedAnswerUrls({ current: keyB, previous: keyA });
    expect(rotating.open(stored, 'payout_url')).toEqual({
      payout_id: PAYOUT_ID,
      status: 'x',
      payout_url: url,
    });
    expect(() => new SealedAnswerUrls(keyB).open(stored, 'payout_url')).toThrow(/does not decrypt/);

    const resealed = rotating.resealed(stored);
    expect(resealed).not.toBeNull();
    expect(new SealedAnswerUrls(keyB).open(resealed, 'payout_url')).toEqual({
      payout_id: PAYOUT_ID,
      status: 'x',
      payout_url: url,
    });
    // Already under the current key, or nothing sealed: nothing to do.
    expect(rotating.resealed(resealed)).toBeNull();
    expect(rotating.resealed({ payout_id: PAYOUT_ID, url: 'https://x' })).toBeNull();
    // Sealed under neither key: an error, never a silent skip.
    const foreign = new SealedAnswerUrls(randomBytes(32)).seal({ payout_id: PAYOUT_ID }, 'url', url);
    expect(() => rotating.resealed(foreign)).toThrow(/does not decrypt/);
  });
});
