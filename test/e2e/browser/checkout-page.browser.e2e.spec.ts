import { createHmac } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { Call, client, Gateway, startGateway } from '../api/gateway-harness';
import { checkoutShop, orderBody, Shop } from '../checkout/checkout-harness';
import { launchChromium, phonePage, screenshot } from './browser-harness';

/**
 * The payer's side of checkout in a real headless Chromium against the embedded start: the hosted
 * page for a card and for each wallet method, a declined card then a good one, the redirect back to
 * the shop with order_id, SUCCESS in Get Payments Status, and the signed checkout webhook, its
 * signature checked independently. The pages are saved as screenshots (test-results/screenshots).
 */
describe('the hosted checkout page in Chromium', () => {
  let gateway: Gateway;
  let call: Call;
  let browser: Browser;
  let shop: Shop;
  let shopServer: Server;
  let shopOrigin: string;
  let receiver: TestReceiver;

  beforeAll(async () => {
    shopServer = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        `<!doctype html><title>Shop</title><h1>Thanks for your order</h1><p id="url">${request.url}</p>`,
      );
    });
    await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', () => resolve()));
    const address = shopServer.address();
    shopOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    receiver = await TestReceiver.start();
    gateway = await startGateway('pglite', { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true', WEBHOOK_POLL_MS: '20' });
    call = client(gateway.url);
    shop = await checkoutShop(call, { name: 'Corner Shop', webhookUrl: receiver.url('/hooks/checkout') });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await receiver?.close();
    await new Promise((resolve) => shopServer?.close(resolve));
  });

  async function createOrder(path: string, product: string): Promise<{ id: number; url: string }> {
    const created = await call('POST', path, {
      token: shop.key,
      body: orderBody({ amount: 24.9, product, redirect_url: `${shopOrigin}/thanks?cart=7` }),
    });
    expect(created.status).toBe(200);
    // order_url names PUBLIC_BASE_URL; the test gateway listens elsewhere.
    return {
      id: created.body.order_id,
      url: `${gateway.url}${new URL(created.body.order_url as string).pathname}`,
    };
  }

  async function expectPaid(page: Page, id: number): Promise<void> {
    await page.waitForURL(`${shopOrigin}/thanks?cart=7&order_id=${id}`);
    expect(await page.textContent('h1')).toBe('Thanks for your order');
    const status = await call('GET', `/sandbox/payment/status?payment_id=${id}`, { token: shop.key });
    expect(status.body.status).toBe('SUCCESS');
    // The webhook: exact body, and a signature an independent HMAC over the raw body accepts.
    const webhook = await eventually(() =>
      receiver.received.find((r) => r.rawBody.includes(`"order_id":${id},`)),
    );
    expect(webhook.rawBody).toBe(
      `{"order_id":${id},"status":"SUCCESS","amount":24.9,"product":"${status.body.data.product}"}`,
    );
    const expected = createHmac('sha256', shop.secret).update(webhook.rawBody).digest('hex');
    expect(webhook.headers['x-service-signature']).toBe(expected);
  }

  it('pays by card after a declined card, lands back at the shop with order_id, and sends the signed webhook', async () => {
    const { id, url } = await createOrder('/sandbox/card', 'Blue mug');
    const page = await phonePage(browser);
    await page.goto(url);
    expect(await page.textContent('main')).toContain('Corner Shop');
    expect(await page.textContent('main')).toContain('24.90 USD');
    await screenshot(page, 'checkout-card');
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Name on card').fill('Ana Payer');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByText('Your card was declined').waitFor();
    await screenshot(page, 'checkout-card-declined');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Pay' }).click();
    await expectPaid(page, id);
    await page.close();
  });

  it.each([
    ['/sandbox/payment/mobilewallet', 'Phone case'],
    ['/sandbox/payment/cash', 'Gift card'],
    ['/sandbox/payment/onlinewallet', 'Tea set'],
    ['/sandbox/payment/order', 'Book'],
  ])('pays through %s with a wallet account', async (path, product) => {
    const { id, url } = await createOrder(path, product);
    const page = await phonePage(browser);
    await page.goto(url);
    if (path.endsWith('mobilewallet')) await screenshot(page, 'checkout-wallet');
    await page.getByLabel('Wallet account').fill('ana@wallet');
    await page.getByRole('button', { name: 'Pay' }).click();
    await expectPaid(page, id);
    await page.close();
  });
});
