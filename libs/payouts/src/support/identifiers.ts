import { createHash, randomBytes } from 'node:crypto';

/** 96 random bits: unguessable and collision-free at any volume we will see. */
export function newPayoutId(): string {
  return `po_${randomBytes(12).toString('hex')}`;
}

export interface AccessToken {
  id: string;
  /** Shown to the merchant once, in the URL; never stored. */
  token: string;
  /** What the payout's stream keeps (SHA-256, hex). */
  tokenHash: string;
}

/** A claim link or handoff token: 256 random bits, stored only as a hash. */
export function newAccessToken(prefix: 'lnk' | 'ses'): AccessToken {
  const token = randomBytes(32).toString('base64url');
  return { id: `${prefix}_${randomBytes(12).toString('hex')}`, token, tokenHash: sha256Hex(token) };
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
