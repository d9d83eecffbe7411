import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createServerDatabase } from '@payouts/testing';
import { Answer, client, linkBody, merchant, OPERATOR_TOKEN } from './api/gateway-harness';
import { RunningApp, startApp, stop, waitFor200 } from './spawn-app';

/**
 * Issue 28, item 1: a database failover or restart must not take the apps down. The production
 * shape (each app its own process on one PostgreSQL server) keeps serving while every one of its
 * server connections is terminated again and again under load; what was acknowledged is there,
 * what was not completes on a retry with the same Idempotency-Key, and the money adds up.
 */
describe('the apps when the PostgreSQL server drops their connections', () => {
  let database: { url: string; drop: () => Promise<void> };
  let admin: Client;
  let dataDir: string; // the development mailbox's folder
  const databaseName = () => new URL(database.url).pathname.slice(1);

  beforeAll(async () => {
    database = await createServerDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'payouts-connection-loss-'));
    admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Every connection to the test database but this one's (the issue's own statement). */
  const terminateBackends = async (): Promise<number> => {
    const result = await admin.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [databaseName()],
    );
    return result.rows[0]?.n ?? 0;
  };

  const startAll = async (): Promise<RunningApp[]> => {
    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      OPERATOR_TOKEN,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      DEFAULT_MAX_OPEN_EXPOSURE: '1000000.00',
      DEFAULT_MAX_PENDING_PER_CUSTOMER: '1000',
    };
    const apps: RunningApp[] = [];
    for (const name of ['api-gateway', 'projector', 'worker', 'webhook-dispatcher']) {
      apps.push(await startApp(name, env));
    }
    for (const app of apps) await waitFor200(app, '/health/ready');
    return apps;
  };

  const alive = (app: RunningApp) => app.process.exitCode === null && app.process.signalCode === null;

  it('keeps every process serving through five rounds of terminated connections under concurrent creates', async () => {
    const apps = await startAll();
    const [gateway] = apps as [RunningApp];
    const call = client(gateway.url);
    try {
      const shop = await merchant(call, '100000.00');
      let creating = true;
      const acknowledged = new Map<string, string>(); // merchant_reference -> payout_id
      const unanswered: { key: string; reference: string }[] = [];
      const unexpected: string[] = [];

      const creator = async (index: number): Promise<void> => {
        for (let n = 0; creating; n += 1) {
          const reference = `loss-${index}-${n}`;
          const key = `key-${reference}`;
          let answer: Answer | undefined;
          try {
            answer = await call('POST', '/sandbox/api/payout/create', {
              token: shop.token,
              key,
              body: linkBody(reference, '10.00'),
            });
          } catch {
            // The gateway must never drop a connection; count it as unanswered and as a finding.
            unexpected.push(`${reference}: no HTTP answer`);
          }
          if (answer?.status === 201) acknowledged.set(reference, answer.body.payout_id as string);
          else if (answer?.status === 503) {
            expect(answer.body.error.code).toMatch(/^(attempt_unresolved|service_unavailable)$/);
            expect(answer.headers.get('request-id')).toBeTruthy();
            unanswered.push({ key, reference });
          } else if (answer) unexpected.push(`${reference}: ${answer.status} ${JSON.stringify(answer.body)}`);
          else unanswered.push({ key, reference });
        }
      };

      const creators = Array.from({ length: 8 }, (_, i) => creator(i));
      let terminated = 0;
      for (let round = 0; round < 5; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 700));
        terminated += await terminateBackends();
      }
      await new Promise((resolve) => setTimeout(resolve, 700));
      creating = false;
      await Promise.all(creators);

      expect(terminated).toBeGreaterThan(5);
      expect(unexpected).toEqual([]);
      expect(apps.filter((app) => !alive(app)).map((app) => app.output())).toEqual([]);
      for (const app of apps) await waitFor200(app, '/health/ready');

      // Every unanswered create completes (or replays) with its own key; a lease left by an
      // attempt that could not release its key ends after 30 s, so retries may wait that long.
      for (const { key, reference } of unanswered) {
        const deadline = Date.now() + 60_000;
        let answer: Answer;
        do {
          answer = await call('POST', '/sandbox/api/payout/create', {
            token: shop.token,
            key,
            body: linkBody(reference, '10.00'),
          });
          if (answer.status !== 201 && answer.status !== 200)
            await new Promise((resolve) => setTimeout(resolve, 500));
        } while (answer.status !== 201 && answer.status !== 200 && Date.now() < deadline);
        // 201 when this retry created it, 200 when it replays the answer an earlier attempt stored.
        expect([reference, [200, 201].includes(answer.status)]).toEqual([reference, true]);
        const earlier = acknowledged.get(reference);
        if (earlier) expect(answer.body.payout_id).toBe(earlier);
        acknowledged.set(reference, answer.body.payout_id as string);
      }
      expect(acknowledged.size).toBeGreaterThan(20);

      // Every payout is listed once, and the books balance.
      const listed = new Map<string, string>();
      for (let offset = 0; ; offset += 200) {
        const page = await call('GET', `/sandbox/api/payout/list?limit=200&offset=${offset}`, {
          token: shop.token,
        });
        expect(page.status).toBe(200);
        for (const payout of page.body.data as { merchant_reference: string; payout_id: string }[]) {
          expect(listed.has(payout.merchant_reference)).toBe(false);
          listed.set(payout.merchant_reference, payout.payout_id);
        }
        if (offset + 200 >= page.body.total) break;
      }
      expect(listed).toEqual(acknowledged);
      const balance = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
      expect(balance.status).toBe(200);
      const held = (acknowledged.size * 1050) / 100; // 10.00 + 0.50 fee each, in whole cents
      expect(balance.body.customer_payout_holds).toBe(held.toFixed(2));
      expect(balance.body.available_for_new_commitments).toBe((100000 - held).toFixed(2));
      expect(apps.filter((app) => !alive(app)).map((app) => app.output())).toEqual([]);
    } finally {
      const codes = await Promise.all(apps.map(stop));
      const crashed = apps.filter((_, i) => codes[i] !== 0).map((app) => app.output());
      expect(crashed).toEqual([]);
    }
    for (const app of apps) expect(app.output()).not.toContain("Unhandled 'error' event");
  }, 240_000);

  it('answers 503 in the documented body while the database refuses connections, and recovers', async () => {
    const apps = await startAll();
    const [gateway] = apps as [RunningApp];
    const call = client(gateway.url);
    try {
      const shop = await merchant(call, '100.00');
      const created = await call('POST', '/sandbox/api/payout/create', {
        token: shop.token,
        key: 'before-outage',
        body: linkBody('before-outage'),
      });
      expect(created.status).toBe(201);

      await admin.query(`ALTER DATABASE ${databaseName()} ALLOW_CONNECTIONS false`);
      try {
        await terminateBackends();
        const ready = await fetch(`${gateway.url}/health/ready`);
        expect(ready.status).toBe(503);
        expect(((await ready.json()) as { error: { code: string } }).error.code).toBe('not_ready');

        const get = await call('GET', `/sandbox/api/payout/${created.body.payout_id as string}`, {
          token: shop.token,
        });
        expect(get.status).toBe(503);
        expect(get.body.error.code).toBe('service_unavailable');
        expect(get.headers.get('retry-after')).toBeTruthy();
        expect(get.headers.get('request-id')).toBeTruthy();

        const during = await call('POST', '/sandbox/api/payout/create', {
          token: shop.token,
          key: 'during-outage',
          body: linkBody('during-outage'),
        });
        expect(during.status).toBe(503);
        expect(during.body.error.code).toMatch(/^(attempt_unresolved|service_unavailable)$/);
        expect(apps.filter((app) => !alive(app))).toEqual([]);
      } finally {
        await admin.query(`ALTER DATABASE ${databaseName()} ALLOW_CONNECTIONS true`);
      }

      for (const app of apps) await waitFor200(app, '/health/ready');
      const retried = await call('POST', '/sandbox/api/payout/create', {
        token: shop.token,
        key: 'during-outage',
        body: linkBody('during-outage'),
      });
      expect([200, 201]).toContain(retried.status);
      const list = await call('GET', '/sandbox/api/payout/list', { token: shop.token });
      expect(list.body.total).toBe(2);
    } finally {
      const codes = await Promise.all(apps.map(stop));
      expect(apps.filter((_, i) => codes[i] !== 0).map((app) => app.output())).toEqual([]);
    }
  }, 180_000);
});
