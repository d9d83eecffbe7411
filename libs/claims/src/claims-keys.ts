import { hkdfSync } from 'node:crypto';
import type { AppConfig } from '@payouts/config';
import { resolveEncryptionKey } from '@payouts/platform';

/** The keys of the claim flow, all from the one ENCRYPTION_KEY. */
export interface ClaimsKeys {
  /** AES-256-GCM key of the receiving-details vault (the encryption key itself). */
  encryptionKey: Buffer;
  /**
   * HMAC key for verification codes and client keys, derived (HKDF-SHA256) rather than reused, so
   * the MACs and the ciphertexts never share a key.
   */
  hmacKey: Buffer;
}

const HMAC_KEY_INFO = 'payouts/claims/hmac/v1';

export function deriveClaimsKeys(encryptionKey: Buffer): ClaimsKeys {
  if (!Buffer.isBuffer(encryptionKey) || encryptionKey.length !== 32) {
    throw new Error('the encryption key must be 32 bytes');
  }
  const hmacKey = Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), HMAC_KEY_INFO, 32));
  return { encryptionKey: Buffer.from(encryptionKey), hmacKey };
}

/** The claim flow's keys, from the one key of the installation (resolveEncryptionKey). */
export function resolveClaimsKeys(config: AppConfig): ClaimsKeys {
  return deriveClaimsKeys(resolveEncryptionKey(config));
}
