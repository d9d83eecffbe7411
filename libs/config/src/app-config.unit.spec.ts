import { ConfigurationError, loadConfig } from './app-config';

describe('configuration from the environment', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      dataDir: './.data',
      logLevel: 'info',
    });
    expect(config.operatorToken).toBeUndefined();
  });

  it.each([
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL is not a valid URL/],
    [{ DATABASE_URL: 'mysql://u@h/db' }, /postgres:\/\//],
    [{ DATABASE_URL: 'postgres://u@h' }, /names no database/],
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ OPERATOR_TOKEN: 'short' }, /OPERATOR_TOKEN must be at least 24/],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigurationError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('accepts a well-formed server URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' }).databaseUrl).toBe(
      'postgres://postgres@127.0.0.1:5432/test',
    );
  });
});
