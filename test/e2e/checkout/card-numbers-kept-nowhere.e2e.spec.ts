import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgliteSqlClient } from '@payouts/database';
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

/**
 * ARCHITECTURE 6: card numbers are never stored, logged or put in an event. The embedded start at
 * log level trace takes a declined card and a paid one through the hosted page; then every table
 * of its database, the event log included, and everything it wrote to its logs are searched.
 */
describe('card numbers in the embedded start', () => {
  it('are in no table, no event and no log line after a declined and a paid attempt', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'payouts-card-numbers-'));
    const app = await startApp('all-in-one', { DATA_DIR: dataDir, OPERATOR_TOKEN, LOG_LEVEL: 'trace' });
    try {
      await waitFor200(app, '/health/ready');
      const call = client(app.url);
      const shop = await checkoutShop(call);
      const created = await call('POST', '/sandbox/card', { token: shop.key, body: orderBody() });
      const payer = new Payer(`${app.url}${new URL(created.body.order_url as string).pathname}`);
      await payer.open();
      expect((await payer.payByCard('4000 0000 0000 0002')).status).toBe(402);
      expect((await payer.payByCard('4242 4242 4242 4242')).status).toBe(303);
      const status = await call('GET', `/sandbox/payment/status?payment_id=${created.body.order_id}`, {
        token: shop.key,
      });
      expect(status.body.status).toBe('SUCCESS');
      await stop(app);

      const output = app.output();
      expect(output).toContain('/checkout/');
      for (const text of FORBIDDEN) expect(output).not.toContain(text);

      const db = await PgliteSqlClient.open(join(dataDir, 'pglite'));
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
            for (const text of FORBIDDEN)
              expect({ name, found: row.includes(text) }).toEqual({ name, found: false });
        }
        expect(rowsSearched).toBeGreaterThan(0);
        // What is kept: the brand and last four digits.
        const kept = await db.query<{ instrument: unknown }>('SELECT instrument FROM checkout_orders');
        expect(kept.rows[0]!.instrument).toEqual({ kind: 'card', brand: 'visa', last4: '4242' });
      } finally {
        await db.close();
      }
    } finally {
      await stop(app);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
