import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('encrypting secrets at rest (AES-256-GCM)', () => {
  const key = randomBytes(32);
  const secret = 'cks_' + randomBytes(32).toString('base64url');

  it('gives the secret back, from a ciphertext that is not the secret and differs every time', () => {
    const box = new SecretBox(key);
    const first = box.encrypt(secret, 'cred_1');
    const second = box.encrypt(secret, 'cred_1');
    expect(first).not.toBe(second);
    for (const ciphertext of [first, second]) {
      expect(ciphertext).not.toContain(secret);
      expect(ciphertext).not.toContain(secret.slice(4));
      expect(box.decrypt(ciphertext, 'cred_1')).toBe(secret);
    }
  });

  it('does not decrypt with another key, on another row, or once altered', () => {
    const box = new SecretBox(key);
    const ciphertext = box.encrypt(secret, 'cred_1');
    expect(() => new SecretBox(randomBytes(32)).decrypt(ciphertext, 'cred_1')).toThrow(/does not decrypt/);
    expect(() => box.decrypt(ciphertext, 'cred_2')).toThrow(/does not decrypt/);
    const parts = ciphertext.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    const altered = [...parts.slice(0, 3), body.toString('base64url')].join('.');
    expect(() => box.decrypt(altered, 'cred_1')).toThrow(/does not decrypt/);
    expect(() => box.decrypt('plain', 'cred_1')).toThrow(/format/);
  });

  it('keeps its own copy of the key', () => {
    const mutable = Buffer.from(key);
    const box = new SecretBox(mutable);
    const ciphertext = box.encrypt(secret, 'cred_1');
    mutable.fill(0);
    expect(box.decrypt(ciphertext, 'cred_1')).toBe(secret);
  });

  it.each([[Buffer.alloc(16)], [Buffer.alloc(31)], [Buffer.alloc(33)], ['x'.repeat(32)]])(
    'refuses a key that is not 32 bytes (%#)',
    (badKey) => {
      expect(() => new SecretBox(badKey as Buffer)).toThrow(/32 bytes/);
    },
  );
});
