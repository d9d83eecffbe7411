import { hash } from 'node:crypto';
import { secureRandomBytes } from '@payouts/accounts';

/** 96 random bits: unguessable and collision-free at any volume we will see. */
export function newPayoutId(): string {
  return `po_${secureRandomBytes(12).toString('hex')}`;
}

export interface AccessToken {
  id: string;
  /** Shown to the merchant once, in the URL; never stored. */
  token: string;
  /** What the payout's stream keeps (SHA-256, hex). */
  tokenHash: string;
}

/**
 * A redirect handoff token: `<payout_id>.<256 random bits>`, stored only as a hash and never shown
 * again (claim links are derived instead: ClaimLinkTokens). The payout id in front lets the hosted
 * pages find the payout in its stream without an index; the secret after it is what proves the
 * holder got the URL from the merchant.
 */
export function newHandoffToken(payoutId: string): AccessToken {
  const token = `${payoutId}.${secureRandomBytes(32).toString('base64url')}`;
  return { id: `ses_${secureRandomBytes(12).toString('hex')}`, token, tokenHash: sha256Hex(token) };
}

/** The payout an access token names, or null when it is not shaped like one. */
export function payoutIdOfAccessToken(token: string): string | null {
  const match = /^(po_[0-9a-f]{24})\.[A-Za-z0-9_-]{43}$/.exec(token);
  return match ? match[1]! : null;
}

export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}
