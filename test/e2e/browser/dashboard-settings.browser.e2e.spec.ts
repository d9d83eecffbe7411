import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { Call, client, Gateway, merchant, Merchant, startGateway } from '../api/gateway-harness';
import { orderBody } from '../checkout/checkout-harness';
import { Payer } from '../checkout/page-client';
import { launchChromium } from './browser-harness';
import { checkPageAtBothWidths, dashboardContext, signIn, tabTo } from './dashboard-browser';

const TEST_BODY = '{"order_id":0,"status":"SUCCESS","amount":1,"product":"Test webhook"}';

/**
 * Settings in a real headless Chromium against the embedded start, a real receiver on loopback
 * standing in for the checkout webhook URL: the page empty and with data, every form once by
 * clicking and filling (the return URL origins by keyboard alone), a refusal at its field, a
 * credential's token and secret shown once, and the delivery log of paid orders.
 */
describe('dashboard Settings in Chromium', () => {
  let gateway: Gateway;
  let call: Call;
  let receiver: TestReceiver;
  let browser: Browser;
  let shop: Merchant;
  let page: Page;

  beforeAll(async () => {
    [gateway, receiver, browser] = await Promise.all([
      startGateway('pglite', { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' }),
      TestReceiver.start(),
      launchChromium(),
    ]);
    call = client(gateway.url);
    shop = await merchant(call, '0.00', { name: 'Corner Shop' });
    page = await (await dashboardContext(browser)).newPage();
    await signIn(page, gateway.url, shop.adminToken);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await receiver?.close();
  });

  const main = () => page.locator('main');
  /** Clicks a form's button and waits for the page the POST answers with. */
  const submitBy = async (selector: string) => {
    await Promise.all([page.waitForNavigation(), page.click(selector)]);
  };

  it('shows production’s empty Settings, then saves the return URL origins with the keyboard alone', async () => {
    await page.click('nav.site-nav a:text-is("Settings")');
    await page.waitForSelector('main h1:text-is("Settings")');
    await expect(main().innerText()).resolves.toContain('No credentials in production yet');
    await expect(main().innerText()).resolves.toContain('No checkout webhooks sent in production yet');
    await checkPageAtBothWidths(page, 'dashboard-settings-empty');

    await tabTo(page, '#field-origins', 60);
    await page.keyboard.type('https://shop.example.com');
    await page.keyboard.press('Enter');
    await page.keyboard.type('http://localhost:3000');
    await tabTo(page, 'form[aria-label="Return URL origins"] button');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await page.waitForSelector('.notice:has-text("return URL origins of production are saved")');
    await expect(page.inputValue('#field-origins')).resolves.toBe(
      'https://shop.example.com\nhttp://localhost:3000',
    );
  });

  it('switches payouts on, sets the retained target and the time zone, and shows a refusal at its field', async () => {
    await submitBy('button:text-is("Switch payouts on")');
    await page.waitForSelector('.notice:has-text("Payouts are switched on in production")');
    await expect(page.locator('button[name="enabled"]').innerText()).resolves.toBe('Switch payouts off');

    await page.fill('#field-amount', '12.345');
    await submitBy('button:text-is("Save retained target")');
    await expect(page.locator('#field-amount-error').innerText()).resolves.toBe(
      'amount must be a decimal string with at most 2 decimal places',
    );
    await expect(page.locator('#field-amount').getAttribute('aria-invalid')).resolves.toBe('true');
    await checkPageAtBothWidths(page, 'dashboard-settings-refused');
    await page.fill('#field-amount', '250.00');
    await submitBy('button:text-is("Save retained target")');
    await page.waitForSelector('.notice:has-text("The retained target is saved")');
    await eventually(async () => {
      await page.reload();
      return (await main().innerText()).includes('250.00 USD') ? true : undefined;
    });

    await page.selectOption('#field-time_zone', 'America/New_York');
    await submitBy('button:text-is("Save time zone")');
    await page.waitForSelector('.notice:has-text("The time zone is saved")');
    await expect(page.inputValue('#field-time_zone')).resolves.toBe('America/New_York');
  });

  it('issues a checkout credential showing its key and secret once, then revokes a credential', async () => {
    await page.selectOption('#field-kind', 'checkout');
    await submitBy('button:text-is("Issue credential")');
    await page.waitForSelector('h2:text-is("Copy your new checkout credential now")');
    const key = await page.inputValue('#copy-token');
    const secret = await page.inputValue('#copy-secret');
    expect(key).toMatch(/^ck_live_/);
    expect(secret).toMatch(/^cks_/);
    await expect(main().innerText()).resolves.toContain(
      'This is the only time the API key and its API secret are shown',
    );
    await checkPageAtBothWidths(page, 'dashboard-settings-issued');

    await page.click('a:text-is("I have copied it: back to Settings")');
    await page.waitForSelector('main h1:text-is("Settings")');
    await expect(page.content()).resolves.not.toContain(secret);
    // Created just now, shown in the account's zone (New York: UTC−5 or −4).
    await expect(page.locator('.data-table time').first().innerText()).resolves.toMatch(/GMT-[45]$/);

    await page.selectOption('#field-kind', 'payout');
    await page.check('#field-scope_payouts_read');
    await submitBy('button:text-is("Issue credential")');
    const token = await page.inputValue('#copy-token');
    await page.click('a:text-is("I have copied it: back to Settings")');
    await page.waitForSelector('main h1:text-is("Settings")');
    await submitBy(`button:has-text("the credential ending in ${token.slice(-4)}")`);
    await page.waitForSelector('.notice:has-text("The credential is revoked")');
    expect((await call('GET', '/api/payout/list', { token })).status).toBe(401);
    await expect(main().innerText()).resolves.toContain('Showing 1–2 of 2 credentials');
  });

  it('saves the sandbox’s checkout webhook URL, sends the test webhook and lists paid orders’ attempts', async () => {
    await page.click('button[value="sandbox"]');
    await page.waitForSelector('.test-data-banner');
    await page.selectOption('#field-kind', 'checkout');
    await submitBy('button:text-is("Issue credential")');
    const key = await page.inputValue('#copy-token');
    const secret = await page.inputValue('#copy-secret');
    await page.click('a:text-is("I have copied it: back to Settings")');
    await page.waitForSelector('main h1:text-is("Settings")');

    await page.fill('#field-url', receiver.url('/hooks/checkout'));
    await submitBy('button:text-is("Save URL")');
    await page.waitForSelector('.notice:has-text("The checkout webhook URL of the sandbox is saved")');
    await submitBy('button:text-is("Send test webhook")');
    await page.waitForSelector('.notice:has-text("The test webhook was delivered")');
    expect(receiver.received.map((r) => r.rawBody)).toEqual([TEST_BODY]);
    expect(receiver.received[0]!.headers['x-service-signature']).toBe(
      createHmac('sha256', secret).update(TEST_BODY).digest('hex'),
    );

    receiver.answer = (request) =>
      request.rawBody.includes('"product":"Refused mug"')
        ? { status: 503, body: 'busy' }
        : { status: 200, body: 'ok' };
    await Promise.all(
      ['Blue mug', 'Refused mug'].map(async (product) => {
        const created = await call('POST', '/sandbox/card', { token: key, body: orderBody({ product }) });
        expect(created.status).toBe(200);
        const payer = new Payer(`${gateway.url}${new URL(created.body.order_url as string).pathname}`);
        await eventually(async () => ((await payer.open()).status === 200 ? true : undefined));
        expect((await payer.payByCard('4242 4242 4242 4242')).status).toBe(303);
      }),
    );
    await eventually(async () => {
      await page.goto(`${gateway.url}/dashboard/settings`);
      return (await main().innerText()).includes('Showing 1–2 of 2 attempts') ? true : undefined;
    });
    const log = page.locator('table:has(caption:has-text("Checkout webhook attempts")) tbody');
    await expect(log.innerText()).resolves.toMatch(/Failed\s+503\s+\d+ ms/);
    await expect(log.innerText()).resolves.toMatch(/Delivered\s+200\s+\d+ ms/);
    await checkPageAtBothWidths(page, 'dashboard-settings');
  });
});
