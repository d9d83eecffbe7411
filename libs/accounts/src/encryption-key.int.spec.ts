import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@payouts/config';
import { resolveEncryptionKey } from './encryption-key';

describe('the encryption key', () => {
  const key = Buffer.alloc(32, 3).toString('base64');

  it('is ENCRYPTION_KEY when set', () => {
    const config = loadConfig({ ENCRYPTION_KEY: key, DATABASE_URL: 'postgres://u@h/db' });
    expect(resolveEncryptionKey(config).toString('base64')).toBe(key);
  });

  it('is required with a database server, where the apps are separate processes', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@h/db' });
    expect(() => resolveEncryptionKey(config)).toThrow(/ENCRYPTION_KEY is required with DATABASE_URL/);
  });

  it('is generated once into DATA_DIR for the embedded start, and then reused', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'payouts-key-'));
    try {
      const first = resolveEncryptionKey(loadConfig({ DATA_DIR: dataDir }));
      const second = resolveEncryptionKey(loadConfig({ DATA_DIR: dataDir }));
      expect(first.length).toBe(32);
      expect(second.equals(first)).toBe(true);
      const file = join(dataDir, 'encryption.key');
      expect(readFileSync(file, 'utf8').trim()).toBe(first.toString('base64'));
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is kept in memory, never written to a folder named ":memory:", for an in-memory DATA_DIR', () => {
    const cwd = process.cwd();
    const scratch = mkdtempSync(join(tmpdir(), 'payouts-key-cwd-'));
    process.chdir(scratch);
    try {
      const first = resolveEncryptionKey(loadConfig({ DATA_DIR: ':memory:' }));
      const second = resolveEncryptionKey(loadConfig({ DATA_DIR: ':memory:' }));
      expect(first.length).toBe(32);
      expect(second.equals(first)).toBe(true);
      expect(existsSync(join(scratch, ':memory:'))).toBe(false);
    } finally {
      process.chdir(cwd);
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
