import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgliteSqlClient, PostgresSqlClient, SqlClient } from '@payouts/database';
import { createServerDatabase, testBackends } from '@payouts/testing';
import { client, OPERATOR_TOKEN } from '../api/gateway-harness';
import { startApp, stop, waitFor200 } from '../spawn-app';
import { checkoutShop, orderBody } from './checkout-harness';
import { Payer } from './page-client';

const NUMBERS = ['4242424242424242', '4000000000000002'];
/**
 * Each number without and with its spaces, and the paid card's middle eight digits (its brand and
 * last four may be kept; the declined card's middle digits are zeros, found in any timestamp).
 */
const FORBIDDEN = [
  ...NUMBERS.flatMap((n) => [n, n.replace(/(\d{4})(?=\d)/g, '$1 ')]),
  NUMBERS[0]!.slice(4, 12),
];

/** Where the spawned embedded start keeps its data, and how the test reads it once it has stopped. */
interface Storage {
  env: Record<string, string>;
  open(): Promise<SqlClient>;
  remove(): Promise<void>;
}

async function storageOn(backend: 'pglite' | 'postgres'): Promise<Storage> {
  if (backend === 'postgres') {
    const server = await createServerDatabase();
    return {
      env: { DATABASE_URL: server.url },
      open: async () => new PostgresSqlClient({ connectionString: server.url, maxConnections: 2 }),
      remove: server.drop,
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'payouts-card-numbers-'));
  return {
    env: { DATA_DIR: dataDir },
    open: () => PgliteSqlClient.open(join(dataDir, 'pglite')),
    remove: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/**
 * docs/design.md#invariants (6): card numbers are never stored, logged or put in an event. The
 * embedded start at log level trace takes the numbers through every way the hosted page can receive
 * them (a forged post, an invalid form, a declined card, a paid card, a post after payment); then
 * every table of its database, the event log included, and everything it wrote to its logs are
 * searched.
 */
describe.each(testBackends().map((b) => b.name))('card numbers in the embedded start on %s', (backend) => {
  it('are in no table, no event, no log line and no page after every kind of attempt', async () => {
    const storage = await storageOn(backend);
    const app = await startApp('all-in-one', { ...storage.env, OPERATOR_TOKEN, LOG_LEVEL: 'trace' });
    try {
      await waitFor200(app, '/health/ready');
      const call = client(app.url);
      const shop = await checkoutShop(call);
      const created = await call('POST', '/sandbox/card', { token: shop.key, body: orderBody() });
      const pageToken = new URL(created.body.order_url as string).pathname.split('/').pop()!;
      const payer = new Payer(`${app.url}/checkout/${pageToken}`);
      await payer.open();
      const pages = [
        await payer.submit({ card_number: '4242 4242 4242 4242' }, { csrf: 'forged' }),
        await payer.payByCard('4242 4242 4242 4242', '01/20'),
        await payer.payByCard('4000 0000 0000 0002'),
        await payer.payByCard('4242 4242 4242 4242'),
        await payer.payByCard('4242424242424242'),
      ];
      expect(pages.map((p) => p.status)).toEqual([403, 400, 402, 303, 200]);
      // The pages never echo the number back either (the payer types it again). The sandbox page
      // prints the test cards as hints, so the card number field itself is what is checked.
      for (const page of pages) {
        const field = /<input[^>]*name="card_number"[^>]*>/.exec(page.body)?.[0];
        // An empty value, as the page kit's renderer writes it: `value` alone.
        if (field) expect(field).toMatch(/\svalue[\s/>]/);
      }
      const status = await call('GET', `/sandbox/payment/status?payment_id=${created.body.order_id}`, {
        token: shop.key,
      });
      expect(status.body.status).toBe('SUCCESS');
      await stop(app);

      const output = app.output();
      expect(output).toContain('/checkout/[redacted]');
      for (const text of FORBIDDEN) expect(output).not.toContain(text);
      // The page token opens the page: like a claim-link token, it is no log line's business.
      expect(output).not.toContain(pageToken);

      const db = await storage.open();
      try {
        const tables = await db.query<{ name: string }>(
          `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
        );
        expect(tables.rows.map((t) => t.name)).toEqual(expect.arrayContaining(['events', 'checkout_orders']));
        let rowsSearched = 0;
        for (const { name } of tables.rows) {
          const { rows } = await db.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`);
          rowsSearched += rows.length;
          for (const { row } of rows)
            for (const text of [...FORBIDDEN, pageToken])
              expect({ name, found: row.includes(text) }).toEqual({ name, found: false });
        }
        expect(rowsSearched).toBeGreaterThan(0);
        // What is kept: the brand and last four digits, and the attempts (the declined and the paid).
        const kept = await db.query<{ instrument: unknown; attempts: number }>(
          'SELECT instrument, attempts FROM checkout_orders',
        );
        expect(kept.rows).toEqual([
          { instrument: { kind: 'card', brand: 'visa', last4: '4242' }, attempts: 2 },
        ]);
      } finally {
        await db.close();
      }
    } finally {
      await stop(app);
      await storage.remove();
    }
  });
});
