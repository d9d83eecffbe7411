import { randomBytes, randomUUID } from 'node:crypto';
import { testBackends, TestDatabase } from '@payouts/testing';
import { deriveClaimsKeys } from './claims-keys';
import { VerificationCodeStore } from './verification-code-store';

describe.each(testBackends())('verification codes across an ENCRYPTION_KEY rotation on $name', (backend) => {
  let database: TestDatabase;
  const keysA = deriveClaimsKeys(randomBytes(32));
  const keyB = randomBytes(32);
  const now = new Date('2030-01-01T00:00:00.000Z');

  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(async () => {
    await database.drop();
  });

  async function codeIssuedUnderA(): Promise<{ payoutId: string; linkId: string; code: string }> {
    const payoutId = `po_${randomUUID()}`;
    const linkId = `lnk_${randomUUID()}`;
    const issued = await new VerificationCodeStore(database.db, keysA.hmacKey).issue({
      payoutId,
      linkId,
      now,
    });
    if (!issued.ok) throw new Error('expected a code');
    return { payoutId, linkId, code: issued.code };
  }

  it('verifies a code e-mailed under A on a process switched to B with A as previous', async () => {
    const rotating = deriveClaimsKeys({ current: keyB, previous: keysA.encryptionKey });
    expect(rotating.previous?.hmacKey.equals(keysA.hmacKey)).toBe(true);
    const store = new VerificationCodeStore(database.db, rotating.hmacKey, rotating.previous?.hmacKey);
    const sent = await codeIssuedUnderA();
    await expect(store.verify({ ...sent, clientKey: `client-${randomUUID()}`, now })).resolves.toEqual({
      outcome: 'verified',
    });
  });

  it('answers wrong for it once the previous key is dropped', async () => {
    const store = new VerificationCodeStore(database.db, deriveClaimsKeys(keyB).hmacKey);
    const sent = await codeIssuedUnderA();
    await expect(store.verify({ ...sent, clientKey: `client-${randomUUID()}`, now })).resolves.toEqual({
      outcome: 'wrong',
      triesLeft: 4,
    });
  });

  it('refuses a previous HMAC key shorter than 32 bytes', () => {
    expect(() => new VerificationCodeStore(database.db, keyB, randomBytes(16))).toThrow(/at least 32 bytes/);
  });
});
