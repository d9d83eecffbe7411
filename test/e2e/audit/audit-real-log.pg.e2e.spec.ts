import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PostgresSqlClient } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { createServerDatabase } from '@payouts/testing';
import { countEvents } from '../../../libs/event-store/src/testing/stored-events';
import { DIST, startApp, stop, TEST_ENCRYPTION_KEY, waitFor200 } from '../spawn-app';

const run = promisify(execFile);

/**
 * The audit on a log the real write path made: four processes creating payouts on one account at
 * once (group commits, conflicts, refusals), chained by the projector app's own chain keeper.
 */
describe('npm run audit on a log written by the apps', () => {
  let database: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    database = await createServerDatabase();
  });
  afterAll(async () => database.drop());

  it("finds nothing once the projector's chain keeper has linked every event", async () => {
    const env = { ...process.env, DATABASE_URL: database.url, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY };
    await run(
      process.execPath,
      [join(DIST, 'tools/load/seed-account.js'), 'acct_audit', 'sandbox', '200.00', '0.50'],
      {
        env,
      },
    );
    await Promise.all(
      [0, 1, 2, 3].map((i) =>
        run(
          process.execPath,
          [join(DIST, 'tools/load/create-payouts.js'), 'acct_audit', 'sandbox', '25', '4.50', `a${i}`],
          {
            env,
          },
        ),
      ),
    );

    const projector = await startApp('projector', { DATABASE_URL: database.url });
    const db = new PostgresSqlClient({ connectionString: database.url, maxConnections: 1 });
    const store = new PostgresEventStore(db);
    try {
      await waitFor200(projector, '/health/ready');
      for (let behind = true; behind;) {
        // The loads have ended, so the log no longer grows: its count, then the chain's.
        const events = await countEvents(store);
        const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM event_chain');
        behind = events > rows[0]!.n;
        if (behind) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await db.close();
      expect(await stop(projector)).toBe(0);
    }

    const audit = await run(process.execPath, [join(DIST, 'tools/audit/main.js'), 'verify'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url },
    });
    expect(audit.stdout).not.toMatch(/^(finding|info)/m);
    expect(audit.stdout).toMatch(
      /^summary: \d+ events in \d+ streams checked .*; 0 finding\(s\); chain head [0-9a-f]{64}/m,
    );
  });
});
