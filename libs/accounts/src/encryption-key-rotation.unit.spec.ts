import { randomBytes } from 'node:crypto';
import { loadConfig } from '@payouts/config';
import { deriveSubkeys, keysToTry, resolveEncryptionKeys } from './encryption-keys';
import { SecretBox } from './secret-box';

describe('rotating ENCRYPTION_KEY: the previous key still opens what it wrote', () => {
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);

  it('opens a ciphertext written under A after the switch to B with A as previous, and only then', () => {
    const underA = new SecretBox(keyA).encrypt('whsec_1', 'we_1');
    const rotating = new SecretBox({ current: keyB, previous: keyA });
    expect(rotating.decrypt(underA, 'we_1')).toBe('whsec_1');
    expect(rotating.open(underA, 'we_1')).toEqual({ plaintext: 'whsec_1', underCurrentKey: false });
    // B alone (the previous key dropped): unreadable.
    expect(() => new SecretBox(keyB).decrypt(underA, 'we_1')).toThrow(/does not decrypt/);
    // The associated data still binds it to its row under the previous key.
    expect(() => rotating.decrypt(underA, 'we_2')).toThrow(/does not decrypt/);
  });

  it('writes everything new under the current key only', () => {
    const rotating = new SecretBox({ current: keyB, previous: keyA });
    const written = rotating.encrypt('cks_1', 'cred_1');
    expect(rotating.open(written, 'cred_1')).toEqual({ plaintext: 'cks_1', underCurrentKey: true });
    expect(new SecretBox(keyB).decrypt(written, 'cred_1')).toBe('cks_1');
    expect(() => new SecretBox(keyA).decrypt(written, 'cred_1')).toThrow(/does not decrypt/);
  });

  it('opens nothing a third key wrote', () => {
    const underC = new SecretBox(randomBytes(32)).encrypt('x', 'row');
    expect(() => new SecretBox({ current: keyB, previous: keyA }).decrypt(underC, 'row')).toThrow(
      /does not decrypt/,
    );
  });

  it('refuses a previous key that is not 32 bytes, and tries a previous key equal to the current once', () => {
    expect(() => new SecretBox({ current: keyB, previous: randomBytes(31) })).toThrow(
      /previous .* must be 32 bytes/,
    );
    expect(keysToTry({ current: keyB, previous: Buffer.from(keyB) }, 'key')).toHaveLength(1);
    expect(keysToTry({ current: keyB, previous: keyA }, 'key')).toHaveLength(2);
  });

  it('derives each purpose key from both keys, current first', () => {
    const [current, previous] = deriveSubkeys({ current: keyB, previous: keyA }, 'payouts/test/v1');
    expect(current!.equals(deriveSubkeys(keyB, 'payouts/test/v1')[0]!)).toBe(true);
    expect(previous!.equals(deriveSubkeys(keyA, 'payouts/test/v1')[0]!)).toBe(true);
  });

  it('takes the pair from ENCRYPTION_KEY and ENCRYPTION_KEY_PREVIOUS', () => {
    const env = { DATABASE_URL: 'postgres://u@h/db', ENCRYPTION_KEY: keyB.toString('base64') };
    expect(resolveEncryptionKeys(loadConfig(env))).toEqual({ current: keyB });
    expect(
      resolveEncryptionKeys(loadConfig({ ...env, ENCRYPTION_KEY_PREVIOUS: keyA.toString('base64') })),
    ).toEqual({ current: keyB, previous: keyA });
  });
});
