import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AppConfig, loadConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import { ReceivingDetails } from '@payouts/domain';
import { APP_CONFIG, SQL_CLIENT } from '@payouts/platform';
import { testBackends, TestDatabase } from '@payouts/testing';
import { deriveClaimsKeys, resolveClaimsKeys } from './claims-keys';
import { ClaimsModule } from './claims.module';
import { PageSessionStore } from './page-session-store';
import { PostgresReceivingDetailsVault } from './postgres-receiving-details-vault';
import { RECEIVING_DETAILS_VAULT, ReceivingDetailsVault } from './receiving-details-vault';
import { VerificationCodeStore } from './verification-code-store';

const DETAILS: ReceivingDetails = { method: 'wallet', walletHandle: 'review@example.com' };

/** The module as an app gets it: SQL_CLIENT and APP_CONFIG from a global module, nothing else. */
async function claimsModule(db: SqlClient, config: AppConfig) {
  @Global()
  @Module({
    providers: [
      { provide: SQL_CLIENT, useValue: db },
      { provide: APP_CONFIG, useValue: config },
    ],
    exports: [SQL_CLIENT, APP_CONFIG],
  })
  class Infrastructure {}
  return Test.createTestingModule({ imports: [Infrastructure, ClaimsModule] }).compile();
}

describe.each(testBackends())('the claims module on $name', (backend) => {
  let database: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'claims-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('provides the vault and both stores, working over the SQL client', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, ENCRYPTION_KEY: randomBytes(32).toString('base64') });
    const app = await claimsModule(database.db, config);
    const vault = app.get<ReceivingDetailsVault>(RECEIVING_DETAILS_VAULT);
    expect(vault).toBeInstanceOf(PostgresReceivingDetailsVault);
    const payoutId = `po_${randomUUID()}`;
    await vault.save(payoutId, DETAILS);
    await expect(vault.load(payoutId)).resolves.toEqual(DETAILS);

    const now = new Date('2030-01-01T00:00:00.000Z');
    const issued = await app.get(VerificationCodeStore).issue({ payoutId, linkId: 'lnk_1', now });
    expect(issued.ok).toBe(true);
    const session = await app.get(PageSessionStore).create({
      payoutId,
      accessId: 'lnk_1',
      verified: false,
      payoutExpiresAt: new Date(now.getTime() + 60_000),
      now,
    });
    await expect(app.get(PageSessionStore).find(session.cookie, now)).resolves.toMatchObject({ payoutId });
    // Nothing was written to DATA_DIR: the key came from ENCRYPTION_KEY.
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('uses ENCRYPTION_KEY: another module with the same key reads the details, one with another key cannot', async () => {
    const key = randomBytes(32).toString('base64');
    const payoutId = `po_${randomUUID()}`;
    const first = await claimsModule(database.db, loadConfig({ DATA_DIR: dataDir, ENCRYPTION_KEY: key }));
    await first.get<ReceivingDetailsVault>(RECEIVING_DETAILS_VAULT).save(payoutId, DETAILS);

    const same = await claimsModule(database.db, loadConfig({ DATA_DIR: dataDir, ENCRYPTION_KEY: key }));
    await expect(same.get<ReceivingDetailsVault>(RECEIVING_DETAILS_VAULT).load(payoutId)).resolves.toEqual(
      DETAILS,
    );
    const other = await claimsModule(
      database.db,
      loadConfig({ DATA_DIR: dataDir, ENCRYPTION_KEY: randomBytes(32).toString('base64') }),
    );
    await expect(other.get<ReceivingDetailsVault>(RECEIVING_DETAILS_VAULT).load(payoutId)).rejects.toThrow(
      /does not decrypt/,
    );
  });

  it('without ENCRYPTION_KEY, generates DATA_DIR/encryption.key once (this user only) and keeps using it', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const payoutId = `po_${randomUUID()}`;
    const first = await claimsModule(database.db, config);
    await first.get<ReceivingDetailsVault>(RECEIVING_DETAILS_VAULT).save(payoutId, DETAILS);
    const file = join(dataDir, 'encryption.key');
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(statSync(file).mode & 0o077).toBe(0);
    const written = readFileSync(file, 'utf8');

    const restarted = await claimsModule(database.db, config);
    await expect(
      restarted.get<ReceivingDetailsVault>(RECEIVING_DETAILS_VAULT).load(payoutId),
    ).resolves.toEqual(DETAILS);
    expect(readFileSync(file, 'utf8')).toBe(written);
    expect(readdirSync(dataDir)).toEqual(['encryption.key']); // no temporary file left behind
  });
});

describe('the claims keys', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'claims-keys-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('read the key file the API gateway wrote (base64 with a newline), and derive a separate HMAC key', () => {
    const key = randomBytes(32);
    writeFileSync(join(dataDir, 'encryption.key'), `${key.toString('base64')}\n`);
    const keys = resolveClaimsKeys(loadConfig({ DATA_DIR: dataDir }));
    expect(keys.encryptionKey.equals(key)).toBe(true);
    expect(keys.hmacKey).toHaveLength(32);
    expect(keys.hmacKey.equals(key)).toBe(false);
    expect(deriveClaimsKeys(key).hmacKey.equals(keys.hmacKey)).toBe(true);
  });

  it('refuse a key file that does not hold 32 bytes', () => {
    writeFileSync(join(dataDir, 'encryption.key'), randomBytes(16).toString('base64'));
    expect(() => resolveClaimsKeys(loadConfig({ DATA_DIR: dataDir }))).toThrow(/does not hold a 32-byte/);
  });

  it('create the data folder when it is missing', () => {
    const nested = join(dataDir, 'a', 'b');
    resolveClaimsKeys(loadConfig({ DATA_DIR: nested }));
    expect(existsSync(join(nested, 'encryption.key'))).toBe(true);
  });

  it('refuse a key that is not 32 bytes', () => {
    expect(() => deriveClaimsKeys(randomBytes(31))).toThrow(/32 bytes/);
  });
});
