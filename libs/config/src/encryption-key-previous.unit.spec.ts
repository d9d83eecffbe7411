import { randomBytes } from 'node:crypto';
import { ConfigurationError, loadConfig } from './app-config';

describe('ENCRYPTION_KEY_PREVIOUS', () => {
  const current = randomBytes(32).toString('base64');
  const previous = randomBytes(32).toString('base64');

  it('is unset by default, and read as 32 bytes beside ENCRYPTION_KEY', () => {
    expect(loadConfig({ ENCRYPTION_KEY: current }).encryptionKeyPrevious).toBeUndefined();
    const config = loadConfig({ ENCRYPTION_KEY: current, ENCRYPTION_KEY_PREVIOUS: previous });
    expect(config.encryptionKeyPrevious?.toString('base64')).toBe(previous);
  });

  it('refuses a value that is not 32 bytes of base64', () => {
    const load = () => loadConfig({ ENCRYPTION_KEY: current, ENCRYPTION_KEY_PREVIOUS: 'c2hvcnQ=' });
    expect(load).toThrow(ConfigurationError);
    expect(load).toThrow(/ENCRYPTION_KEY_PREVIOUS must be 32 bytes/);
  });

  it('refuses it without ENCRYPTION_KEY: the new key must be named', () => {
    expect(() => loadConfig({ ENCRYPTION_KEY_PREVIOUS: previous })).toThrow(
      /ENCRYPTION_KEY_PREVIOUS needs ENCRYPTION_KEY/,
    );
  });

  it('refuses the same key as ENCRYPTION_KEY', () => {
    expect(() => loadConfig({ ENCRYPTION_KEY: current, ENCRYPTION_KEY_PREVIOUS: current })).toThrow(
      /same key as ENCRYPTION_KEY/,
    );
  });
});
