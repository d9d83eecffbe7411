import { randomBytes } from 'node:crypto';
import { ACQUIRER, SANDBOX_CARDS, SimulatedAcquirer } from '@payouts/checkout';
import { ledgerStreamId, orderStreamId } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import type { SqlClient } from '@payouts/database';
import { EVENT_STORE, SQL_CLIENT } from '@payouts/platform';
import { createServerDatabase, testBackends } from '@payouts/testing';
import { client, Gateway, startGateway } from '../api/gateway-harness';
import { checkoutShop, orderBody } from './checkout-harness';
import { PageAnswer, Payer } from './page-client';

const ORDERS = 30;
const SUBMISSIONS = 20;
/**
 * Ten orders' submissions at a time: 200 page posts in flight, within the gateway's admission
 * limit for commands (past it any command is refused with 503 overloaded, by design).
 */
const WAVE = 10;

/** What the payer at `index` submits: every fifth tries an instrument the sandbox declines. */
function submit(payer: Payer, card: boolean, index: number): Promise<PageAnswer> {
  const declines = index % 5 === 0;
  if (card) return payer.payByCard(declines ? SANDBOX_CARDS.declined : SANDBOX_CARDS.paid);
  return payer.payByWallet(declines ? 'payer-fail' : `payer-${index}@example.com`);
}

/**
 * ORDERS orders (card and mobile wallet in turn) on `gateways[0]`, each page opened SUBMISSIONS
 * times (the tabs spread over the gateways) and every form submitted at once; then checks that
 * each order is paid once and its acquirers authorized once per recorded attempt, with no 5xx.
 */
async function payConcurrently(gateways: Gateway[]): Promise<void> {
  const [first] = gateways;
  const call = client(first!.url);
  const shop = await checkoutShop(call, { name: 'Corner Shop' });
  const orders = await Promise.all(
    Array.from({ length: ORDERS }, async (_, i) => {
      const path = i % 2 === 0 ? '/sandbox/card' : '/sandbox/payment/mobilewallet';
      const created = await call('POST', path, { token: shop.key, body: orderBody() });
      expect(created.status).toBe(200);
      return { id: created.body.order_id as number, path: new URL(created.body.order_url).pathname };
    }),
  );
  const tabs = orders.map(({ path }) =>
    Array.from(
      { length: SUBMISSIONS },
      (_, tab) => new Payer(`${gateways[tab % gateways.length]!.url}${path}`),
    ),
  );
  for (const page of await Promise.all(tabs.flat().map((payer) => payer.open())))
    expect(page.status).toBe(200);

  const answers: PageAnswer[] = [];
  for (let wave = 0; wave < ORDERS; wave += WAVE) {
    const submitted = tabs
      .slice(wave, wave + WAVE)
      .flatMap((orderTabs, i) => orderTabs.map((payer, index) => submit(payer, (wave + i) % 2 === 0, index)));
    answers.push(...(await Promise.all(submitted)));
  }

  const statuses = answers.map((answer) => answer.status);
  expect(statuses.filter((status) => status >= 500)).toEqual([]);
  // Paid (303 on to the paid page), already paid (200), declined (402) or in progress (409).
  expect(statuses.filter((status) => ![200, 303, 402, 409].includes(status))).toEqual([]);
  expect(statuses.filter((status) => status === 303)).toHaveLength(ORDERS);

  const store = first!.app.get<EventStore>(EVENT_STORE);
  const acquirers = gateways.map((gateway) => gateway.app.get<SimulatedAcquirer>(ACQUIRER));
  for (const { id } of orders) {
    const { events } = await store.readStream(orderStreamId(id));
    const declined = events.filter((event) => event.type === 'OrderPaymentDeclined');
    expect(events.filter((event) => event.type === 'OrderPaid')).toHaveLength(1);
    // One authorization for the paying attempt and one per declined attempt, whichever process
    // made it: never a second authorization of one attempt.
    const authorizations = acquirers.reduce((sum, acquirer) => sum + acquirer.authorizationsFor(id), 0);
    expect(authorizations).toBe(declined.length + 1);
  }
  const ledger = await store.readStream(ledgerStreamId(shop.accountId, 'sandbox', 'USD'));
  expect(ledger.events.filter((event) => event.type === 'PaymentProceedsRecorded')).toHaveLength(ORDERS);
}

/**
 * Many payers submitting one order's page at once (the link opened in 20 tabs, a double click, a
 * retrying proxy): the acquirer is asked at most once per attempt, the order is paid once, and
 * every answer is a page the payer can act on, never a 5xx.
 */
describe.each(testBackends().map((b) => b.name))(
  'concurrent submissions of checkout pages on %s',
  (backend) => {
    it(`authorize each attempt once and pay each of ${ORDERS} orders once under ${SUBMISSIONS} submissions each`, async () => {
      const gateway = await startGateway(backend);
      try {
        await payConcurrently([gateway]);
      } finally {
        await gateway.close();
      }
    });

    it('answers a page saying the payment is in progress while another process is authorizing the order', async () => {
      const gateway = await startGateway(backend);
      try {
        const call = client(gateway.url);
        const shop = await checkoutShop(call);
        const created = await call('POST', '/sandbox/card', { token: shop.key, body: orderBody() });
        const orderId = created.body.order_id as number;
        const payer = new Payer(`${gateway.url}${new URL(created.body.order_url).pathname}`);
        await payer.open();
        // Another gateway process holds the order: its attempt is with the acquirer.
        const db = gateway.app.get<SqlClient>(SQL_CLIENT);
        await db.query(
          `INSERT INTO order_payment_locks (order_id, holder, locked_until) VALUES ($1, 'other', now() + interval '1 minute')`,
          [orderId],
        );
        const page = await payer.payByCard(SANDBOX_CARDS.paid);
        expect(page.status).toBe(409);
        expect(page.headers.get('content-type')).toContain('text/html');
        expect(page.body).toContain('Payment in progress');
        expect(gateway.app.get<SimulatedAcquirer>(ACQUIRER).authorizationsFor(orderId)).toBe(0);
        const status = await call('GET', `/sandbox/payment/status?payment_id=${orderId}`, {
          token: shop.key,
        });
        expect(status.body.status).toBe('PENDING');
      } finally {
        await gateway.close();
      }
    });

    if (backend === 'postgres') {
      it('authorize each attempt once when the submissions of each order reach two gateway processes', async () => {
        const database = await createServerDatabase();
        // One database and one key, as two processes of a deployment share them.
        const env = { DATABASE_URL: database.url, ENCRYPTION_KEY: randomBytes(32).toString('base64') };
        const gateways = [await startGateway(backend, env), await startGateway(backend, env)];
        try {
          await payConcurrently(gateways);
        } finally {
          for (const gateway of gateways) await gateway.close();
          await database.drop();
        }
      });
    }
  },
);
