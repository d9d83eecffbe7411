import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp, stop, waitFor200 } from './spawn-app';

/** `npm start`: every app in one process on the embedded database, nothing else installed. */
describe('the embedded start', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'payouts-embedded-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('answers /health and /health/ready, logs JSON with request ids, and shuts down cleanly on SIGTERM', async () => {
    const app = await startApp('all-in-one', { DATA_DIR: dataDir });
    try {
      const live = await waitFor200(app, '/health');
      expect(await live.json()).toEqual({ status: 'ok' });
      const ready = await waitFor200(app, '/health/ready');
      expect(await ready.json()).toMatchObject({ status: 'ready' });

      const traced = await fetch(`${app.url}/health`, { headers: { 'Request-Id': 'trace-123' } });
      expect(traced.headers.get('request-id')).toBe('trace-123');
      expect((await fetch(`${app.url}/health`)).headers.get('request-id')).toMatch(/^req_/);
      // It listens on every interface: the development mailbox (e-mailed codes) is off unless asked for.
      expect((await fetch(`${app.url}/dev/mailbox`)).status).toBe(404);
    } finally {
      expect(await stop(app)).toBe(0);
    }
    const lines = app
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '');
    const parsed = lines.map((line) => JSON.parse(line) as { msg?: string; reqId?: string });
    expect(parsed.some((line) => line.reqId === 'trace-123')).toBe(true);
    expect(parsed.some((line) => line.msg === 'database closed')).toBe(true);
  });

  it('starts again on the same data folder with its migrations already applied', async () => {
    const app = await startApp('all-in-one', { DATA_DIR: dataDir });
    try {
      await waitFor200(app, '/health/ready');
      expect(app.output()).toContain('applied 0 (none new)');
    } finally {
      expect(await stop(app)).toBe(0);
    }
  });

  it.each([
    [
      'a malformed DATABASE_URL',
      { DATABASE_URL: 'not-a-url' },
      'invalid configuration: DATABASE_URL is not a valid URL',
    ],
    ['a database URL of another kind', { DATABASE_URL: 'mysql://root@127.0.0.1/db' }, 'must use postgres://'],
    [
      'an unreachable database',
      { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' },
      'cannot reach the PostgreSQL server at 127.0.0.1:1/nowhere',
    ],
    ['a bad PORT', { PORT: 'http' }, 'PORT must be a whole number'],
    [
      'the development mailbox with a database server',
      {
        DEV_MAILBOX: 'true',
        OPERATOR_TOKEN: 'op_0123456789abcdef0123456789',
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere',
      },
      'invalid configuration: DEV_MAILBOX=true is for the embedded start only',
    ],
  ])('stops with exit code 1 and one clear line for %s', async (_case, env, message) => {
    const app = await startApp('all-in-one', { DATA_DIR: dataDir, ...env });
    expect(await app.exited).toBe(1);
    expect(app.output()).toContain(message);
  });
});
