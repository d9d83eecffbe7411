import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '@payouts/config';

/**
 * The key for secrets encrypted at rest: ENCRYPTION_KEY, or for local runs a key generated once
 * into DATA_DIR (readable by this user only). Production sets ENCRYPTION_KEY.
 */
export function resolveEncryptionKey(config: AppConfig): Buffer {
  if (config.encryptionKey) return config.encryptionKey;
  const file = join(config.dataDir, 'encryption.key');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    new Logger('Secrets').warn(
      `ENCRYPTION_KEY is not set: generated ${file}; set ENCRYPTION_KEY in production`,
    );
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return key;
}
