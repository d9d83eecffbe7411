import { createHmac, randomBytes } from 'node:crypto';
import { ClaimLinkTokens } from './claim-link-tokens';
import { payoutIdOfAccessToken, sha256Hex } from './identifiers';

const PAYOUT_ID = 'po_0123456789abcdef01234567';

describe('claim-link tokens', () => {
  it('issue a link shaped like every access token: the payout id, a dot and 43 base64url characters', () => {
    const link = new ClaimLinkTokens(randomBytes(32)).issue(PAYOUT_ID);
    expect(link.id).toMatch(/^lnk_[0-9a-f]{24}$/);
    expect(payoutIdOfAccessToken(link.token)).toBe(PAYOUT_ID);
    expect(link.tokenHash).toBe(sha256Hex(link.token));
  });

  it('show a link again from its id and hash, under the key that issued it only', () => {
    const key = randomBytes(32);
    const link = new ClaimLinkTokens(key).issue(PAYOUT_ID);
    const stored = { linkId: link.id, tokenHash: link.tokenHash };
    // Another process of the same installation derives the same token.
    expect(new ClaimLinkTokens(Buffer.from(key)).shownAgain(PAYOUT_ID, stored)).toBe(link.token);
    expect(new ClaimLinkTokens(randomBytes(32)).shownAgain(PAYOUT_ID, stored)).toBeNull();
    // The token is bound to its payout and its link id.
    expect(new ClaimLinkTokens(key).shownAgain('po_ffffffffffffffffffffffff', stored)).toBeNull();
    expect(new ClaimLinkTokens(key).shownAgain(PAYOUT_ID, { ...stored, linkId: 'lnk_other' })).toBeNull();
  });

  it('give a rotated link a token unrelated to the one it replaces', () => {
    const tokens = new ClaimLinkTokens(randomBytes(32));
    const first = tokens.issue(PAYOUT_ID);
    const second = tokens.issue(PAYOUT_ID);
    expect(second.id).not.toBe(first.id);
    expect(second.token).not.toBe(first.token);
  });

  it('derive their own key from the encryption key, never the encryption key itself', () => {
    const encryptionKey = randomBytes(32);
    const link = ClaimLinkTokens.fromEncryptionKey(encryptionKey).issue(PAYOUT_ID);
    const underEncryptionKey = createHmac('sha256', encryptionKey)
      .update(`${PAYOUT_ID}.${link.id}`)
      .digest('base64url');
    expect(link.token).not.toBe(`${PAYOUT_ID}.${underEncryptionKey}`);
    expect(
      ClaimLinkTokens.fromEncryptionKey(encryptionKey).shownAgain(PAYOUT_ID, {
        linkId: link.id,
        tokenHash: link.tokenHash,
      }),
    ).toBe(link.token);
  });

  it('refuse a key that is not 32 bytes', () => {
    expect(() => new ClaimLinkTokens(randomBytes(16))).toThrow('32 bytes');
    expect(() => ClaimLinkTokens.fromEncryptionKey(randomBytes(31))).toThrow('32 bytes');
  });
});
