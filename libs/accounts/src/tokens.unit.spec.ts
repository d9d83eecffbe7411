import { createHash } from 'node:crypto';
import { parseTokenPrefix } from './index';
import {
  newAccountId,
  newAdminToken,
  newCheckoutSecret,
  newCredentialId,
  newCredentialToken,
  tokenVerifier,
} from './tokens';

const BODY = 'A'.repeat(43);

describe('reading the kind and environment from a token prefix', () => {
  it.each([
    [`pk_live_${BODY}`, { kind: 'payout', environment: 'production' }],
    [`pk_test_${BODY}`, { kind: 'payout', environment: 'sandbox' }],
    [`ck_live_${BODY}`, { kind: 'checkout', environment: 'production' }],
    [`ck_test_${BODY}`, { kind: 'checkout', environment: 'sandbox' }],
    [`adm_${BODY}`, { kind: 'admin', environment: null }],
    // Only the prefix is read: a short or malformed body still names its kind and environment.
    ['pk_live_', { kind: 'payout', environment: 'production' }],
    ['ck_test_x', { kind: 'checkout', environment: 'sandbox' }],
  ])('%s names %o', (token, expected) => {
    expect(parseTokenPrefix(token)).toEqual(expected);
  });

  it.each([
    [''],
    [BODY],
    [`sk_live_${BODY}`],
    [`pk_prod_${BODY}`],
    [`pk_${BODY}`],
    [`ck_${BODY}`],
    [`PK_LIVE_${BODY}`], // prefixes are case-sensitive
    [`Pk_live_${BODY}`],
    [`cks_${BODY}`], // the checkout API secret is never a Bearer token
    [`admin_${BODY}`],
    [`ADM_${BODY}`],
    [` pk_live_${BODY}`],
    [`Bearer pk_live_${BODY}`],
  ])('%j has no known prefix', (token) => {
    expect(parseTokenPrefix(token)).toBeNull();
  });

  it('refuses a value that is not a string', () => {
    expect(parseTokenPrefix(undefined as unknown as string)).toBeNull();
    expect(parseTokenPrefix(42 as unknown as string)).toBeNull();
  });
});

describe('issuing tokens and ids', () => {
  it('gives each kind and environment its prefix and a 32-byte base64url body', () => {
    expect(newCredentialToken('payout', 'production')).toMatch(/^pk_live_[A-Za-z0-9_-]{43}$/);
    expect(newCredentialToken('payout', 'sandbox')).toMatch(/^pk_test_[A-Za-z0-9_-]{43}$/);
    expect(newCredentialToken('checkout', 'production')).toMatch(/^ck_live_[A-Za-z0-9_-]{43}$/);
    expect(newCredentialToken('checkout', 'sandbox')).toMatch(/^ck_test_[A-Za-z0-9_-]{43}$/);
    expect(newAdminToken()).toMatch(/^adm_[A-Za-z0-9_-]{43}$/);
    expect(newCheckoutSecret()).toMatch(/^cks_[A-Za-z0-9_-]{43}$/);
    const body = newAdminToken().slice('adm_'.length);
    expect(Buffer.from(body, 'base64url')).toHaveLength(32);
  });

  it('gives ids their prefix and 24 hex characters', () => {
    expect(newAccountId()).toMatch(/^acct_[0-9a-f]{24}$/);
    expect(newCredentialId()).toMatch(/^cred_[0-9a-f]{24}$/);
  });

  it('never issues the same token twice', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => newCredentialToken('payout', 'production')));
    expect(tokens.size).toBe(200);
  });

  it('stores the SHA-256 hex of the whole token as its verifier', () => {
    const token = newCredentialToken('checkout', 'sandbox');
    expect(tokenVerifier(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(tokenVerifier(token)).toMatch(/^[0-9a-f]{64}$/);
  });
});
