import { createCipheriv, createDecipheriv } from 'node:crypto';
import { KeyMaterial, keysToTry } from './encryption-keys';
import { secureRandomBytes } from './secure-random';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for secrets that must be read back (the checkout API secret signs checkout
 * webhooks). Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url), with a fresh random IV each
 * time, so the same secret never gives the same ciphertext twice. The associated data binds a
 * ciphertext to its row (the credential id): copied onto another row, it no longer decrypts.
 *
 * During a key rotation it holds the previous key too (EncryptionKeys): it encrypts under the
 * current key only and opens what either key wrote. The format names no key: GCM's tag refuses the
 * wrong one, so trying both is as safe as trying one, and ciphertexts written before the rotation
 * need no migration to stay readable.
 */
export class SecretBox {
  /** The current key first. */
  readonly #keys: readonly Buffer[];

  constructor(keys: KeyMaterial) {
    this.#keys = keysToTry(keys, 'secret encryption key (AES-256-GCM)');
  }

  encrypt(plaintext: string, associatedData: string): string {
    const iv = secureRandomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#keys[0]!, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Throws when the ciphertext was altered, moved to another row, or written with another key. */
  decrypt(stored: string, associatedData: string): string {
    return this.open(stored, associatedData).plaintext;
  }

  /**
   * The plaintext, and whether the current key wrote it (false: the previous one did, and
   * `npm run rotate-encryption-key` should write it again). Throws as decrypt does.
   */
  open(stored: string, associatedData: string): { plaintext: string; underCurrentKey: boolean } {
    const [version, iv, tag, ciphertext, ...rest] = stored.split('.');
    if (
      version !== VERSION ||
      iv === undefined ||
      tag === undefined ||
      ciphertext === undefined ||
      rest.length > 0
    ) {
      throw new Error('unrecognised secret ciphertext format');
    }
    for (const [index, key] of this.#keys.entries()) {
      const plaintext = decryptWith(key, { iv, tag, ciphertext }, associatedData);
      if (plaintext !== null) return { plaintext, underCurrentKey: index === 0 };
    }
    // Never the key, the ciphertext or the plaintext in the message.
    throw new Error('secret ciphertext does not decrypt (altered, moved, or encrypted with another key)');
  }
}

/** The plaintext, or null when this key's tag check fails. */
function decryptWith(
  key: Buffer,
  parts: { iv: string; tag: string; ciphertext: string },
  associatedData: string,
): string | null {
  try {
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(parts.iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(Buffer.from(parts.tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(parts.ciphertext, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return null;
  }
}
