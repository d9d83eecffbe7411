import { hkdfSync, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '@payouts/config';

const KEY_FILE = 'encryption.key';
/** An in-memory database lives and dies with its process, and so does the key of its secrets. */
let inMemoryKey: Buffer | undefined;

/**
 * The key for everything encrypted at rest (checkout API secrets, receiving details, webhook
 * secrets): ENCRYPTION_KEY. With a database server the apps run as separate processes and must
 * share one key, so it is required there. Only the embedded start may generate one, once, into
 * DATA_DIR (readable by this user only): it is written under a temporary name and linked into place,
 * so two modules starting at the same moment agree on one key and never read a half-written file.
 * An in-memory DATA_DIR (tests, tools) gets a key of the process's own, in memory only.
 */
export function resolveEncryptionKey(config: AppConfig): Buffer {
  if (config.encryptionKey) return config.encryptionKey;
  if (config.databaseUrl) {
    throw new Error(
      'ENCRYPTION_KEY is required with DATABASE_URL: every app must share one key (openssl rand -base64 32)',
    );
  }
  if (config.dataDir === ':memory:') return (inMemoryKey ??= randomBytes(32));
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
  return key;
}

/**
 * A 32-byte key of its own for one purpose (`info`, e.g. 'payouts/claims/hmac/v1'), derived from
 * the encryption key with HKDF-SHA256, so MACs and ciphertexts never share a key.
 */
export function deriveSubkey(encryptionKey: Buffer, info: string): Buffer {
  if (!Buffer.isBuffer(encryptionKey) || encryptionKey.length !== 32) {
    throw new Error('the encryption key must be 32 bytes');
  }
  return Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), info, 32));
}
