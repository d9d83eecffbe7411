import { DatabaseUnavailableError, isDatabaseUnavailable } from './connection-loss';
import { ReconnectBackoff } from './reconnect-backoff';

const pgError = (code: string, severity = 'ERROR') =>
  Object.assign(new Error(`pg ${code}`), { code, severity });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a backend terminated by an administrator (57P01)', pgError('57P01', 'FATAL')],
    ['a server shutting down (57P02)', pgError('57P02', 'FATAL')],
    ['a server starting up (57P03)', pgError('57P03', 'FATAL')],
    ['too many connections (53300)', pgError('53300', 'FATAL')],
    ['a connection exception of class 08', pgError('08006')],
    ['a database not accepting connections (55000, FATAL)', pgError('55000', 'FATAL')],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a refused socket', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['pg losing its connection', new Error('Connection terminated unexpectedly')],
    ['pg-pool timing out a connect', new Error('timeout exceeded when trying to connect')],
    [
      'a client that already lost it',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['our own pause before reconnecting', new DatabaseUnavailableError(new Error('refused'))],
    ['Prisma unable to reach the server (P1001)', Object.assign(new Error('P1001'), { code: 'P1001' })],
    [
      'Prisma seeing the server close the connection (P1017)',
      Object.assign(new Error('x'), { code: 'P1017' }),
    ],
    [
      "Prisma's adapter error for a closed connection",
      Object.assign(new Error('adapter'), { cause: { kind: 'ConnectionClosed' } }),
    ],
    [
      "Prisma's adapter error carrying a terminated backend",
      Object.assign(new Error('known'), {
        code: 'P2010',
        meta: { driverAdapterError: { cause: { kind: 'postgres', code: '57P01', severity: 'FATAL' } } },
      }),
    ],
    [
      'a lost connection wrapped as a cause',
      new Error('outer', { cause: new Error('Connection terminated') }),
    ],
  ])('is true for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', pgError('23505')],
    ['a serialization failure', pgError('40001')],
    ['a syntax error', pgError('42601')],
    ['a plain error', new Error('something else')],
    ['a string', 'Connection terminated'],
    ['nothing', undefined],
  ])('is false for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('follows causes only a bounded number of levels, even around a cycle', () => {
    const a: { cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
    let deep: unknown = new Error('Connection terminated');
    for (let i = 0; i < 20; i += 1) deep = new Error('wrapped', { cause: deep });
    expect(isDatabaseUnavailable(deep)).toBe(false);
  });
});

describe('ReconnectBackoff', () => {
  it('lets connects through until one fails, then refuses them for a pause that doubles up to 2 s', () => {
    let now = 0;
    const backoff = new ReconnectBackoff(() => now);
    expect(() => backoff.check()).not.toThrow();

    const refused = new Error('connect ECONNREFUSED');
    backoff.failed(refused);
    expect(() => backoff.check()).toThrow(DatabaseUnavailableError);
    expect(() => backoff.check()).toThrow('connect ECONNREFUSED');
    now = 100;
    expect(() => backoff.check()).not.toThrow();

    backoff.failed(refused); // second failure: 200 ms
    now = 299;
    expect(() => backoff.check()).toThrow(DatabaseUnavailableError);
    now = 300;
    expect(() => backoff.check()).not.toThrow();

    for (let i = 0; i < 30; i += 1) backoff.failed(refused);
    now += 1_999;
    expect(() => backoff.check()).toThrow(DatabaseUnavailableError);
    now += 1;
    expect(() => backoff.check()).not.toThrow();
  });

  it('ends the pauses at the first connect that succeeds', () => {
    let now = 0;
    const backoff = new ReconnectBackoff(() => now);
    backoff.failed(new Error('refused'));
    backoff.failed(new Error('refused'));
    now = 1_000;
    backoff.succeeded();
    expect(() => backoff.check()).not.toThrow();
    backoff.failed(new Error('refused again'));
    now = 1_099;
    expect(() => backoff.check()).toThrow('refused again');
  });
});
