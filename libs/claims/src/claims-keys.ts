import { hkdfSync, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '@payouts/config';

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

const KEY_FILE = 'encryption.key';
const HMAC_KEY_INFO = 'payouts/claims/hmac/v1';

export function deriveClaimsKeys(encryptionKey: Buffer): ClaimsKeys {
  if (!Buffer.isBuffer(encryptionKey) || encryptionKey.length !== 32) {
    throw new Error('the encryption key must be 32 bytes');
  }
  const hmacKey = Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), HMAC_KEY_INFO, 32));
  return { encryptionKey: Buffer.from(encryptionKey), hmacKey };
}

/**
 * ENCRYPTION_KEY, or for local runs the key file under DATA_DIR that the API gateway generates
 * (`encryption.key`, base64): the same file, so every module of a local install agrees on one key.
 * Whoever comes first creates it; the file is written under a temporary name and linked into
 * place, so a process starting at the same moment never reads a half-written key, and the loser
 * of the race reads the winner's key. Production sets ENCRYPTION_KEY.
 */
export function resolveClaimsKeys(config: AppConfig): ClaimsKeys {
  if (config.encryptionKey) return deriveClaimsKeys(config.encryptionKey);
  const file = join(config.dataDir, KEY_FILE);
  mkdirSync(config.dataDir, { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file);
    new Logger('Secrets').warn(
      `ENCRYPTION_KEY is not set: generated ${file}; set ENCRYPTION_KEY in production`,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return deriveClaimsKeys(key);
}
