import type { AppConfig } from '@payouts/config';
import { deriveSubkey, resolveEncryptionKey } from '@payouts/accounts';

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
  const hmacKey = deriveSubkey(encryptionKey, HMAC_KEY_INFO);
  return { encryptionKey: Buffer.from(encryptionKey), hmacKey };
}

/** The claim flow's keys, from the one key of the installation (resolveEncryptionKey). */
export function resolveClaimsKeys(config: AppConfig): ClaimsKeys {
  return deriveClaimsKeys(resolveEncryptionKey(config));
}
