import { createCipheriv, createDecipheriv } from 'node:crypto';
import { copyOf32ByteKey } from './key-copy';
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
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = copyOf32ByteKey(key, 'secret encryption key (AES-256-GCM)');
  }

  encrypt(plaintext: string, associatedData: string): string {
    const iv = secureRandomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Throws when the ciphertext was altered, moved to another row, or written with another key. */
  decrypt(stored: string, associatedData: string): string {
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
    try {
      const decipher = createDecipheriv(ALGORITHM, this.#key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      // Never the key, the ciphertext or the plaintext in the message.
      throw new Error('secret ciphertext does not decrypt (altered, moved, or encrypted with another key)');
    }
  }
}
