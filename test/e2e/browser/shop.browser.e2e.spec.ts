import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PayoutsClient } from '@payouts/client';
import type { ShopConfig } from '../../../examples/shop/src/config';
import { RunningShop, startShop } from '../../../examples/shop/src/shop';
import type { Change, ShopData } from '../../../examples/shop/src/store';
import { eventually } from '../../../libs/webhooks/src/testing/receiver';
import { Answer, merchant, Merchant, OPERATOR_TOKEN } from '../api/gateway-harness';
import { freePort } from '../spawn-app';
import { startWebhookGateway, WebhookGateway } from '../webhooks/webhook-harness';
import { launchChromium, phonePage, screenshot, startSmtpReceiver } from './browser-harness';
import { withTimeMovedBy } from '../process-time';

/** A signature no secret made. */
const FORGED = '0'.repeat(64);
/** The service's order statuses as the shop names them. */
const SHOP_STATUS: Record<string, string> = { PENDING: 'pending', SUCCESS: 'paid', EXPIRED: 'expired' };
const CUSTOMER = 'ana@example.com';

/**
 * The sample shop (examples/shop) against the embedded start, in Chromium: a customer buys and pays
 * on the hosted checkout page, the checkout webhook marks the order paid, staff refund part of it
 * as a link payout; then the shop is stopped while the recipient claims the refund, a second
 * order is paid and a third expires (every webhook finds it down), and once restarted on the same
 * DATA_DIR it catches up from the events feed: its records equal the service's, and the webhooks'
 * later retries change nothing. Then a shop down while the sandbox clock moves 31 days, and one down for longer than the feed keeps events.
 */
describe('the sample shop in Chromium', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let gateway: WebhookGateway;
  let account: Merchant;
  let browser: Browser;
  let dataDir: string;
  let config: ShopConfig;
  let shop: RunningShop | undefined;
  let checkoutSecret: string;
  let payoutWebhookSecret: string;
  /** What the test asks the service, through the same client the shop uses. */
  let checkoutClient: PayoutsClient;
  let payoutClient: PayoutsClient;
  const shopLog: string[] = [];
  const ids = { first: 0, second: 0, third: 0, refund: '', claimUrl: '', paidEventId: '' };

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    // order_url and payout_url name PUBLIC_BASE_URL: the browser follows them, so it is where the service listens.
    const servicePort = await freePort();
    gateway = await startWebhookGateway({
      env: {
        PORT: String(servicePort),
        PUBLIC_BASE_URL: `http://127.0.0.1:${servicePort}`,
        SMTP_URL: smtp.url,
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        WORKER_POLL_MS: '50',
        RAIL_SIMULATOR_DELAY_MS: '100',
      },
    });
    account = await merchant(gateway.call, '0.00', { name: 'Corner Shop' });
    // Both webhook URLs name the shop's port, so the restarted shop listens on the same one.
    const shopPort = await freePort();
    const shopUrl = `http://127.0.0.1:${shopPort}`;
    const checkoutKey = await admin('POST', '/dashboard/credentials', {
      kind: 'checkout',
      environment: 'sandbox',
    });
    checkoutSecret = checkoutKey.body.secret;
    await admin('PUT', '/dashboard/checkout-webhook', {
      environment: 'sandbox',
      url: `${shopUrl}/webhooks/checkout`,
    });
    const endpoint = await admin('PUT', '/dashboard/payout-webhook', {
      environment: 'sandbox',
      url: `${shopUrl}/webhooks/payouts`,
    });
    payoutWebhookSecret = endpoint.body.secret;
    // Cleared proceeds stay in the balance for refunds rather than leave in the daily settlement.
    await admin('PUT', '/dashboard/retained-target', { environment: 'sandbox', amount: '1000.00' });

    const serviceUrl = `${gateway.url}/sandbox`;
    checkoutClient = new PayoutsClient({ baseUrl: serviceUrl, token: checkoutKey.body.token });
    payoutClient = new PayoutsClient({ baseUrl: serviceUrl, token: account.token });
    dataDir = mkdtempSync(join(tmpdir(), 'shop-'));
    config = {
      serviceUrl,
      checkoutApiKey: checkoutKey.body.token,
      checkoutApiSecret: checkoutSecret,
      payoutToken: account.token,
      payoutWebhookSecret,
      port: shopPort,
      dataDir,
      log: (line) => shopLog.push(line),
    };
    shop = await startShop(config);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    await gateway?.close();
    await smtp?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function admin(method: string, path: string, body: unknown): Promise<Answer> {
    const answer = await gateway.call(method, path, { token: account.adminToken, body });
    expect([200, 201]).toContain(answer.status);
    return answer;
  }

  async function advanceSandboxClock(seconds: number): Promise<void> {
    const moved = await gateway.call('POST', '/operator/sandbox/clock', {
      token: OPERATOR_TOKEN,
      body: { advance_seconds: seconds },
    });
    expect(moved.status).toBe(200);
  }

  /** The shop's records as it keeps them on disk. */
  const records = (): ShopData => JSON.parse(readFileSync(join(dataDir, 'shop.json'), 'utf8')) as ShopData;
  const statuses = (history: Change[]) => history.map((c) => `${c.status} (${c.source})`);

  async function stopShop(): Promise<void> {
    await shop!.stop();
    shop = undefined;
    await expect(fetch(`http://127.0.0.1:${config.port}/`)).rejects.toThrow();
  }

  /** Buys on the shop's form; the shop sends the browser on to the hosted checkout page. */
  async function buy(page: Page, product: string, amount: string): Promise<number> {
    await page.goto(shop!.url);
    await page.getByLabel('Product').fill(product);
    await page.getByLabel('Amount (USD)').fill(amount);
    await page.getByLabel('E-mail').fill(CUSTOMER);
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.waitForURL(`${gateway.url}/checkout/**`);
    const order = Object.values(records().orders).find((o) => o.product === product);
    expect(order).toMatchObject({ amount, status: 'pending' });
    return order!.id;
  }

  async function payByCard(page: Page): Promise<void> {
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Name on card').fill('Ana Payer');
    await page.getByRole('button', { name: 'Pay' }).click();
  }

  /** Pays on a checkout page whose redirect leads back to a shop that is down. */
  async function payWhileShopIsDown(page: Page, orderId: number): Promise<void> {
    await payByCard(page).catch(() => undefined); // the browser cannot load the shop's thanks page
    await page.context().close();
    await eventually(async () =>
      (await checkoutClient.orders.status(orderId)).status === 'SUCCESS' ? true : undefined,
    );
  }

  /** Staff refund `amount` of an order on its page; answers the payout and the claim link shown. */
  async function refundOnShop(
    orderId: number,
    amount: string,
  ): Promise<{ payoutId: string; claimUrl: string }> {
    const page = await phonePage(browser);
    await page.goto(`${shop!.url}/orders/${orderId}`);
    await page.getByLabel(/Refund amount/).fill(amount);
    await page.getByRole('button', { name: 'Refund' }).click();
    const claimUrl = String(await page.locator('#claim-link').getAttribute('href'));
    expect(claimUrl).toMatch(new RegExp(`^${gateway.url}/sandbox/claim/`));
    await screenshot(page, 'shop-refund-created');
    await page.context().close();
    const refunds = Object.values(records().refunds).filter((r) => r.order_id === orderId);
    expect(refunds.at(-1)).toMatchObject({
      merchant_reference: `refund-${orderId}-${refunds.length}`,
      amount,
      status: 'awaiting_choice',
    });
    return { payoutId: refunds.at(-1)!.payout_id, claimUrl };
  }

  /** The recipient claims a refund to a wallet with the code from their `nth` e-mail; it is paid. */
  async function claim(claimUrl: string, payoutId: string, nth: number): Promise<void> {
    const page = await phonePage(browser);
    await page.goto(claimUrl);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('Verification code').fill(await smtp.codeFor(CUSTOMER, nth));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByLabel('Wallet (e-mail or phone)').check();
    await page.getByLabel(/Wallet e-mail or phone/).fill('+14155550100');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: /Confirm and receive/ }).click();
    await eventually(async () =>
      (await payoutClient.payouts.get(payoutId)).status === 'paid' ? true : undefined,
    );
    await page.context().close();
  }

  /** Every order and refund of the shop as the service has it: status, and money as exact strings. */
  async function expectRecordsEqualService(data: ShopData): Promise<void> {
    for (const order of Object.values(data.orders)) {
      const { data: service } = await checkoutClient.orders.status(order.id);
      expect({ id: order.id, status: order.status, amount: order.amount }).toEqual({
        id: service.id,
        status: SHOP_STATUS[service.status],
        amount: service.Amount.toFixed(2), // a JSON number with at most 2 decimals: toFixed(2) writes it exactly
      });
    }
    for (const refund of Object.values(data.refunds)) {
      const payout = await payoutClient.payouts.get(refund.payout_id);
      expect({ status: refund.status, amount: refund.amount, version: refund.status_version }).toEqual({
        status: payout.status,
        amount: payout.amount,
        version: payout.status_version,
      });
    }
  }

  /** The payout webhook's delivery of the refund's paid event, from the dashboard's log. */
  async function refundDelivery() {
    const log = await gateway.call(
      'GET',
      `/dashboard/payout-webhook/events?environment=sandbox&payout_id=${ids.refund}`,
      { token: account.adminToken },
    );
    const event = log.body.data[0];
    return event
      ? { eventId: event.event_id as string, body: event.body as string, ...event.deliveries[0] }
      : undefined;
  }

  async function checkoutDelivery(orderId: number) {
    const { rows } = await gateway.db.query<{ status: string; attempts_made: number }>(
      `SELECT d.status, d.attempts_made FROM webhook_deliveries d JOIN webhook_events e USING (event_id)
        WHERE e.order_id = $1`,
      [orderId],
    );
    return rows[0];
  }

  /** Posts a webhook body to the shop as the service would; answers the status. */
  async function deliver(path: string, body: string, signature: Record<string, string>): Promise<number> {
    const headers = { 'content-type': 'application/json', ...signature };
    return (await fetch(`${shop!.url}${path}`, { method: 'POST', body, headers })).status;
  }

  it('a customer buys, pays by card on the hosted page, and the checkout webhook marks the order paid', async () => {
    const page = await phonePage(browser);
    ids.first = await buy(page, 'Blue mug', '24.90');
    await payByCard(page);
    await page.waitForURL(`${shop!.url}/thanks?order_id=${ids.first}`);
    await eventually(() => (records().orders[ids.first]!.status === 'paid' ? true : undefined));
    await page.goto(`${shop!.url}/orders/${ids.first}`);
    await expect(page.locator('strong[data-status]').textContent()).resolves.toBe('paid');
    await screenshot(page, 'shop-order-paid');
    expect(statuses(records().orders[ids.first]!.history)).toEqual(['pending (shop)', 'paid (webhook)']);
    await page.context().close();
  });

  it('once the proceeds clear, staff refund part of the order (no more than is left) and get the claim link', async () => {
    // Card proceeds clear 2 days after the payment: the sandbox clock moves past that.
    await advanceSandboxClock(2 * 86_400 + 60);
    await eventually(async () => {
      const balance = await payoutClient.payouts.balance();
      const cleared = 'pending' in balance && balance.pending === '0.00';
      return cleared && balance.available_for_new_commitments !== '0.00' ? balance : undefined;
    });

    const page = await phonePage(browser);
    await page.goto(`${shop!.url}/orders/${ids.first}`);
    await page.getByLabel(/Refund amount/).fill('24.91');
    const refused = page.waitForResponse((r) => r.url().endsWith('/refunds'));
    await page.getByRole('button', { name: 'Refund' }).click();
    expect((await refused).status()).toBe(422);
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Enter an amount from 0.01 to 24.90.');
    await page.context().close();

    ({ payoutId: ids.refund, claimUrl: ids.claimUrl } = await refundOnShop(ids.first, '10.00'));
    expect(await payoutClient.payouts.get(ids.refund)).toMatchObject({
      amount: '10.00',
      merchant_reference: `refund-${ids.first}-1`,
      status: 'awaiting_choice',
    });
    const after = await phonePage(browser);
    await after.goto(`${shop!.url}/orders/${ids.first}`);
    expect(await after.textContent('main')).toContain('Refund amount (at most 14.90)');
    await after.context().close();
  });

  it('while the shop is down, the refund is claimed and paid, a second order is paid and a third expires', async () => {
    // Two more orders first: one the customer pays while the shop is down, one nobody pays.
    const payer = await phonePage(browser);
    ids.second = await buy(payer, 'Tea set', '12.00');
    const idle = await phonePage(browser);
    ids.third = await buy(idle, 'Phone case', '5.50');
    await idle.context().close();
    await stopShop();

    await claim(ids.claimUrl, ids.refund, 1);
    // Its webhook found nobody listening.
    const missed = await eventually(async () => {
      const delivery = await refundDelivery();
      return delivery?.attempts?.length ? delivery : undefined;
    });
    expect(missed.attempts[0]).toMatchObject({ status_code: null });
    expect(missed.attempts[0].error).toMatch(/connection refused/);
    ids.paidEventId = missed.eventId;

    await payWhileShopIsDown(payer, ids.second);
    await eventually(async () => ((await checkoutDelivery(ids.second))?.attempts_made ? true : undefined));

    // A day later the third order is still unpaid: it expires. The day also makes both webhooks'
    // second attempts due (30 s and 1 min after the first), which find the shop down too; the next
    // are minutes away on the sandbox clock, so none arrives while the restarted shop catches up.
    await advanceSandboxClock(25 * 3600);
    await eventually(async () =>
      (await checkoutClient.orders.status(ids.third)).status === 'EXPIRED' ? true : undefined,
    );
    await eventually(async () => ((await refundDelivery())?.attempts_made === 2 ? true : undefined));
    await eventually(async () =>
      (await checkoutDelivery(ids.second))?.attempts_made === 2 ? true : undefined,
    );

    // The shop heard of none of it.
    const stale = records();
    expect([ids.second, ids.third].map((id) => stale.orders[id]!.status)).toEqual(['pending', 'pending']);
    expect(stale.refunds[ids.refund]!.status).toBe('awaiting_choice');
  });

  it('restarted on the same DATA_DIR, the shop catches up from the feed and its records equal the service’s', async () => {
    const stoppedAt = records().last_event_id;
    shop = await startShop(config);
    expect(shopLog.at(-1)).toMatch(/caught up with [1-9]\d* events from the feed/);

    const caughtUp = records();
    await expectRecordsEqualService(caughtUp);
    expect(Object.values(caughtUp.orders).map((o) => [o.id, o.status])).toEqual([
      [ids.first, 'paid'],
      [ids.second, 'paid'],
      [ids.third, 'expired'],
    ]);
    expect(Object.values(caughtUp.refunds).map((r) => [r.payout_id, r.status, r.amount])).toEqual([
      [ids.refund, 'paid', '10.00'],
    ]);
    // Each change recorded once, by whoever told the shop first.
    expect(statuses(caughtUp.orders[ids.first]!.history)).toEqual(['pending (shop)', 'paid (webhook)']);
    expect(statuses(caughtUp.orders[ids.second]!.history)).toEqual(['pending (shop)', 'paid (feed)']);
    expect(statuses(caughtUp.orders[ids.third]!.history)).toEqual(['pending (shop)', 'expired (feed)']);
    expect(statuses(caughtUp.refunds[ids.refund]!.history)).toEqual([
      'awaiting_choice (shop)',
      'processing (feed)',
      'paid (feed)',
    ]);
    // The paid refund's feed event is its webhook's event; the feed position moved to its end.
    expect(caughtUp.seen_event_ids).toContain(ids.paidEventId);
    expect(caughtUp.last_event_id).not.toBe(stoppedAt);
    const later = await payoutClient.events.list({
      after: caughtUp.last_event_id!,
      types: 'order.paid,order.expired,payout.updated',
    });
    expect(later.data).toEqual([]);

    const page = await phonePage(browser);
    await page.goto(`${shop.url}/orders/${ids.second}`);
    await expect(page.locator('strong[data-status]').textContent()).resolves.toBe('paid');
    await page.goto(`${shop.url}/orders/${ids.first}`);
    await expect(page.locator('td[data-status]').textContent()).resolves.toBe('paid');
    await screenshot(page, 'shop-caught-up');
    await page.context().close();
  });

  it('the webhooks’ retries reach the restarted shop and change nothing, nor does a replay', async () => {
    const before = records();
    // The retries still due (payout: 5 min after the second attempt; checkout: 4 min) come now.
    await advanceSandboxClock(10 * 60);
    const delivered = await eventually(async () => {
      const delivery = await refundDelivery();
      return delivery?.status === 'delivered' ? delivery : undefined;
    });
    expect(delivered.attempts.at(-1)).toMatchObject({ status_code: 200 });
    await eventually(async () =>
      (await checkoutDelivery(ids.second))?.status === 'delivered' ? true : undefined,
    );
    // The shop answers a webhook once its records are on disk.
    expect(records()).toEqual(before);

    // The same bodies once more, validly signed: answered 2xx, applied never again. Forged: refused.
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', payoutWebhookSecret).update(`${t}.${delivered.body}`).digest('hex');
    const payoutSignature = (hex: string) => ({ 'x-service-payout-signature': `t=${t},v1=${hex}` });
    expect(await deliver('/webhooks/payouts', delivered.body, payoutSignature(v1))).toBe(200);
    expect(await deliver('/webhooks/payouts', delivered.body, payoutSignature(FORGED))).toBe(400);
    const body = `{"order_id":${ids.second},"status":"SUCCESS","amount":12,"product":"Tea set"}`;
    const signature = createHmac('sha256', checkoutSecret).update(body).digest('hex');
    expect(await deliver('/webhooks/checkout', body, { 'x-service-signature': signature })).toBe(200);
    expect(await deliver('/webhooks/checkout', body, { 'x-service-signature': FORGED })).toBe(401);
    expect(records()).toEqual(before);
  });

  it('down while the sandbox clock moves 31 days, the restarted shop still catches up from the feed', async () => {
    // The feed keeps events 30 days of real time: the sandbox clock does not age it.
    await advanceSandboxClock(31 * 86_400);
    const before = records();
    const payer = await phonePage(browser);
    const fourth = await buy(payer, 'Teapot', '30.00');
    const second = await refundOnShop(ids.first, '4.90');
    await stopShop();
    await payWhileShopIsDown(payer, fourth);
    await claim(second.claimUrl, second.payoutId, 2);

    shop = await startShop(config);
    expect(shopLog.at(-1)).toMatch(/caught up with \d+ events from the feed/);
    const caughtUp = records();
    await expectRecordsEqualService(caughtUp);
    expect(statuses(caughtUp.orders[fourth]!.history)).toEqual(['pending (shop)', 'paid (feed)']);
    expect(statuses(caughtUp.refunds[second.payoutId]!.history).at(-1)).toBe('paid (feed)');
    for (const id of [ids.first, ids.second, ids.third])
      expect(caughtUp.orders[id]).toEqual(before.orders[id]);
    expect(caughtUp.refunds[ids.refund]).toEqual(before.refunds[ids.refund]);
  });

  // Last: it moves this process's time (the service's and the shop's) past the feed's retention.
  it('down longer than the feed keeps events, the restarted shop asks for its open orders', async () => {
    const payer = await phonePage(browser);
    const fifth = await buy(payer, 'Saucer', '6.00');
    await stopShop();
    await payWhileShopIsDown(payer, fifth);
    const before = records();
    await withTimeMovedBy(31 * 86_400_000, async () => {
      try {
        shop = await startShop(config);
        expect(shopLog.slice(-2)).toEqual([
          `shop: the feed no longer has event ${before.last_event_id}; asking for open orders and refunds`,
          expect.stringMatching(/caught up with \d+ events from the feed/),
        ]);
        const caughtUp = records();
        await expectRecordsEqualService(caughtUp);
        expect(statuses(caughtUp.orders[fifth]!.history)).toEqual(['pending (shop)', 'paid (status)']);
      } finally {
        await shop?.stop();
        shop = undefined;
      }
    });
  });
});
