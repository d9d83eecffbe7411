import type { AppConfig } from '@payouts/config';
import { deriveSubkey, KeyMaterial, keysToTry, resolveEncryptionKeys } from '@payouts/accounts';

/** The keys of the claim flow, all from the one ENCRYPTION_KEY (and its predecessor during a rotation). */
export interface ClaimsKeys {
  /** AES-256-GCM key of the receiving-details vault (the encryption key itself). */
  encryptionKey: Buffer;
  /**
   * HMAC key for verification codes and client keys, derived (HKDF-SHA256) rather than reused, so
   * the MACs and the ciphertexts never share a key.
   */
  hmacKey: Buffer;
  /** During an ENCRYPTION_KEY rotation: the same two keys from ENCRYPTION_KEY_PREVIOUS. */
  previous?: { encryptionKey: Buffer; hmacKey: Buffer };
}

const HMAC_KEY_INFO = 'payouts/claims/hmac/v1';

export function deriveClaimsKeys(encryptionKey: KeyMaterial): ClaimsKeys {
  const [current, previous] = keysToTry(encryptionKey, 'encryption key');
  const keys = { encryptionKey: current!, hmacKey: deriveSubkey(current!, HMAC_KEY_INFO) };
  return previous === undefined
    ? keys
    : { ...keys, previous: { encryptionKey: previous, hmacKey: deriveSubkey(previous, HMAC_KEY_INFO) } };
}

/** The claim flow's keys, from the installation's key(s) (resolveEncryptionKeys). */
export function resolveClaimsKeys(config: AppConfig): ClaimsKeys {
  return deriveClaimsKeys(resolveEncryptionKeys(config));
}
