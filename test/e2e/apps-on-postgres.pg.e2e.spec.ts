import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { createServerDatabase } from '@payouts/testing';
import { DIST, RunningApp, startApp, stop, TEST_ENCRYPTION_KEY, waitFor200 } from './spawn-app';

const run = promisify(execFile);

/**
 * Production shape: each app is its own process against one PostgreSQL server. `*.pg.*.spec.ts`
 * files need a server and run in `npm run test:pg` (DATABASE_URL set), not in `npm test`.
 */
describe('the apps against a PostgreSQL server', () => {
  let database: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    database = await createServerDatabase();
  });
  afterAll(async () => database.drop());

  it('starts each app alone, all ready, and stops each cleanly on SIGTERM', async () => {
    const apps: RunningApp[] = [];
    try {
      for (const name of ['api-gateway', 'projector', 'worker', 'webhook-dispatcher']) {
        apps.push(await startApp(name, { DATABASE_URL: database.url }));
      }
      for (const app of apps) await waitFor200(app, '/health/ready');
    } finally {
      const codes = await Promise.all(apps.map(stop));
      const failures = apps.filter((_, i) => codes[i] !== 0).map((app) => app.output());
      expect(failures).toEqual([]);
    }
  });

  it('keeps the money invariants when four processes create payouts on one account at once', async () => {
    // 200 payouts of 4.50 + 0.50 fee; 500.00 covers exactly 100 of them.
    const accountId = 'acct_multi_process';
    const seed = await run(
      process.execPath,
      [join(DIST, 'tools/load/seed-account.js'), accountId, 'sandbox', '500.00', '0.50'],
      {
        env: { ...process.env, DATABASE_URL: database.url, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY },
      },
    );
    expect(seed.stderr).toBe('');

    const processes = [0, 1, 2, 3].map((i) =>
      run(
        process.execPath,
        [join(DIST, 'tools/load/create-payouts.js'), accountId, 'sandbox', '50', '4.50', `p${i}`],
        {
          env: { ...process.env, DATABASE_URL: database.url, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY },
        },
      ),
    );
    const results = (await Promise.all(processes)).map(
      (r) => JSON.parse(r.stdout) as { succeeded: number; refused: Record<string, number> },
    );
    expect(results.reduce((sum, r) => sum + r.succeeded, 0)).toBe(100);
    const otherRefusals = results.flatMap((r) =>
      Object.keys(r.refused).filter((code) => code !== 'insufficient_funds'),
    );
    expect(otherRefusals).toEqual([]);

    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const balance = await client.query(
        `SELECT funds_in::text, available::text, customer_payout_holds::text AS holds,
                (available + customer_payout_holds + customer_payouts_settled + merchant_settlement_holds)::text AS accounted
           FROM payout_balances WHERE account_id = $1`,
        [accountId],
      );
      expect(balance.rows[0]).toEqual({
        funds_in: '500.00',
        available: '0.00',
        holds: '500.00',
        accounted: '500.00',
      });
      const payouts = await client.query('SELECT count(*)::int AS n FROM payout_list WHERE account_id = $1', [
        accountId,
      ]);
      expect(payouts.rows[0].n).toBe(100);
    } finally {
      await client.end();
    }
  });
});
