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
    expect(config.commandsInFlight).toEqual({ initial: 512, min: 128, max: 16_384, burst: 512 });
    expect(config.readinessMaxLagEvents).toBe(1000);
    expect(loadConfig({ READINESS_MAX_LAG_EVENTS: '0' }).readinessMaxLagEvents).toBe(0);
  });

  it.each([
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL is not a valid URL/],
    [{ DATABASE_URL: 'mysql://u@h/db' }, /postgres:\/\//],
    [{ DATABASE_URL: 'postgres://u@h' }, /names no database/],
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ OPERATOR_TOKEN: 'short' }, /OPERATOR_TOKEN must be at least 24/],
    [{ SMTP_URL: 'not a url' }, /SMTP_URL is not a valid URL/],
    [{ SMTP_URL: 'https://mail.example.com' }, /smtp:\/\/ or smtps:\/\//],
    [{ SMTP_URL: 'smtp://' }, /smtp:\/\/ or smtps:\/\//],
    [{ MAIL_FROM: 'nobody' }, /MAIL_FROM must be an e-mail address/],
    [{ MAIL_FROM: 'Payouts <no-reply@example.com' }, /MAIL_FROM must be an e-mail address/],
    [{ COMMANDS_IN_FLIGHT_MIN: '2048' }, /COMMANDS_IN_FLIGHT_MIN <= COMMANDS_IN_FLIGHT_INITIAL/],
    [{ COMMANDS_IN_FLIGHT_MAX: '100' }, /COMMANDS_IN_FLIGHT_MIN <= COMMANDS_IN_FLIGHT_INITIAL/],
    [{ COMMANDS_IN_FLIGHT_INITIAL: '0' }, /COMMANDS_IN_FLIGHT_INITIAL must be between/],
    [{ COMMANDS_IN_FLIGHT_BURST: '0' }, /COMMANDS_IN_FLIGHT_BURST must be between/],
    // Lags are counted up to 10000 events: a threshold must leave one above it to count.
    [{ READINESS_MAX_LAG_EVENTS: '10000' }, /READINESS_MAX_LAG_EVENTS must be between 0 and 9999/],
    [{ READINESS_MAX_LAG_EVENTS: '-1' }, /READINESS_MAX_LAG_EVENTS must be a whole number/],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigurationError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('sends e-mail through SMTP_URL from MAIL_FROM, or by default to the mailbox folder from no-reply at the public host', () => {
    expect(loadConfig({})).toMatchObject({ smtpUrl: undefined, mailFrom: 'Payouts <no-reply@localhost>' });
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://pay.example.com' }).mailFrom).toBe(
      'Payouts <no-reply@pay.example.com>',
    );
    expect(
      loadConfig({
        SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
        MAIL_FROM: 'Refunds <refunds@example.com>',
      }),
    ).toMatchObject({
      smtpUrl: 'smtps://user:pass@smtp.example.com:465',
      mailFrom: 'Refunds <refunds@example.com>',
    });
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'refunds@example.com' })).toMatchObject(
      {
        smtpUrl: 'smtp://127.0.0.1:2525',
        mailFrom: 'refunds@example.com',
      },
    );
  });

  it('never repeats an SMTP_URL it refuses (it may hold a password)', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp//user:s3cret-pass@host' })).toThrow(ConfigurationError);
    try {
      loadConfig({ SMTP_URL: 'smtp//user:s3cret-pass@host' });
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret');
    }
    try {
      loadConfig({ SMTP_URL: 'http://user:s3cret-pass@host' });
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret');
    }
  });

  it('runs the worker every 250 ms, the rail simulator in 1 s, with a sandbox float of 100000.00 by default', () => {
    expect(loadConfig({})).toMatchObject({
      workerPollMs: 250,
      railSimulatorDelayMs: 1000,
      sandboxFloatOpeningBalance: '100000.00',
    });
    expect(
      loadConfig({
        WORKER_POLL_MS: '25',
        RAIL_SIMULATOR_DELAY_MS: '0',
        SANDBOX_FLOAT_OPENING_BALANCE: '0.00',
      }),
    ).toMatchObject({ workerPollMs: 25, railSimulatorDelayMs: 0, sandboxFloatOpeningBalance: '0.00' });
  });

  it.each([
    [{ WORKER_POLL_MS: '1' }, /WORKER_POLL_MS must be between/],
    [{ WORKER_POLL_MS: 'fast' }, /WORKER_POLL_MS must be a whole number/],
    [{ RAIL_SIMULATOR_DELAY_MS: '600001' }, /RAIL_SIMULATOR_DELAY_MS must be between/],
    [{ SANDBOX_FLOAT_OPENING_BALANCE: '1e6' }, /SANDBOX_FLOAT_OPENING_BALANCE must be a decimal amount/],
  ])('refuses the worker setting %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  const OPERATOR_TOKEN = 'op_0123456789abcdef0123456789';

  it('serves the development mailbox only when DEV_MAILBOX is true (off by default)', () => {
    expect(loadConfig({}).devMailbox).toBe(false);
    expect(loadConfig({ DEV_MAILBOX: 'false' }).devMailbox).toBe(false);
    expect(loadConfig({ DEV_MAILBOX: 'true', OPERATOR_TOKEN }).devMailbox).toBe(true);
  });

  it.each([
    [{ DEV_MAILBOX: 'yes', OPERATOR_TOKEN }, 'DEV_MAILBOX must be true or false, got "yes"'],
    [
      { DEV_MAILBOX: 'true', OPERATOR_TOKEN, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' },
      'DEV_MAILBOX=true is for the embedded start only: unset it, or unset DATABASE_URL',
    ],
    [
      { DEV_MAILBOX: 'true', OPERATOR_TOKEN, SMTP_URL: 'smtp://127.0.0.1:2525' },
      'DEV_MAILBOX=true shows e-mails that are not sent: unset it, or unset SMTP_URL',
    ],
    [
      { DEV_MAILBOX: 'true' },
      'DEV_MAILBOX=true needs OPERATOR_TOKEN: the development mailbox answers only the operator',
    ],
  ])('refuses the development mailbox setting %j in one line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigurationError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('accepts a well-formed server URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' }).databaseUrl).toBe(
      'postgres://postgres@127.0.0.1:5432/test',
    );
  });
});

describe('OPERATOR_TOKEN_PREVIOUS', () => {
  const current = 'a'.repeat(32);
  it('is read during a rotation, beside the new OPERATOR_TOKEN', () => {
    const previous = 'b'.repeat(32);
    expect(
      loadConfig({ OPERATOR_TOKEN: current, OPERATOR_TOKEN_PREVIOUS: previous }).operatorTokenPrevious,
    ).toBe(previous);
    expect(loadConfig({ OPERATOR_TOKEN: current }).operatorTokenPrevious).toBeUndefined();
  });

  it.each([
    [{ OPERATOR_TOKEN_PREVIOUS: 'b'.repeat(32) }, /needs OPERATOR_TOKEN/],
    [{ OPERATOR_TOKEN: current, OPERATOR_TOKEN_PREVIOUS: 'short' }, /at least 24 characters/],
    [{ OPERATOR_TOKEN: current, OPERATOR_TOKEN_PREVIOUS: current }, /the same as OPERATOR_TOKEN/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigurationError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
