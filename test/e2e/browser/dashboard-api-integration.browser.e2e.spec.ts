import type { Browser, Page } from 'playwright-core';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { merchant, Merchant, OPERATOR_TOKEN } from '../api/gateway-harness';
import { startWebhookGateway, WebhookGateway } from '../webhooks/webhook-harness';
import { launchChromium } from './browser-harness';
import { checkPageAtBothWidths, dashboardContext, signIn, tabTo } from './dashboard-browser';

const PAGE = '/dashboard/settings/api-integration';
const API = '/dashboard/payout-webhook';

/**
 * Settings → API integration in a real headless Chromium against the embedded start, its
 * in-process dispatcher delivering to a real receiver on loopback: the page empty and with a
 * delivery log, the secret shown once, an event's page, every action by clicking (saving the URL
 * by keyboard alone), and the automatic disabling's notice with Re-enable.
 */
describe('dashboard API integration in Chromium', () => {
  let gateway: WebhookGateway;
  let receiver: TestReceiver;
  let browser: Browser;
  let shop: Merchant;
  let page: Page;

  beforeAll(async () => {
    [gateway, receiver, browser] = await Promise.all([
      startWebhookGateway({ env: { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' } }),
      TestReceiver.start(),
      launchChromium(),
    ]);
    shop = await merchant(gateway.call, '0.00', { name: 'Corner Shop' });
    page = await (await dashboardContext(browser)).newPage();
    await signIn(page, gateway.url, shop.adminToken);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await receiver?.close();
  });

  /** Waits until every delivery of the environment's newest event has finished. */
  const newestSettled = (environment: 'production' | 'sandbox') =>
    eventually(async () => {
      const log = await gateway.call('GET', `${API}/events?environment=${environment}&limit=1`, {
        token: shop.adminToken,
      });
      const event = log.body.data[0];
      return event?.deliveries.every((d: { status: string }) => d.status !== 'pending') ? event : undefined;
    });
  const main = () => page.locator('main');
  /** Clicks a form's button and waits for the page the POST answers with. */
  const submitBy = async (selector: string) => {
    await Promise.all([page.waitForNavigation(), page.click(selector)]);
  };

  it('shows the empty page, then saves the URL with the keyboard alone and shows the secret once', async () => {
    await page.click('nav.site-nav a:text-is("API integration")');
    await page.waitForSelector('main h1:text-is("API integration")');
    await expect(main().innerText()).resolves.toContain('Not sending: no webhook URL is set');
    await expect(main().innerText()).resolves.toContain('No events yet');
    await checkPageAtBothWidths(page, 'dashboard-api-integration-empty');

    await tabTo(page, '#field-url');
    await page.keyboard.type(receiver.url());
    await page.keyboard.press('Enter');
    await page.waitForSelector('#copy-secret');
    const secret = await page.inputValue('#copy-secret');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await expect(main().innerText()).resolves.toContain('it is shown this once and never again');
    await checkPageAtBothWidths(page, 'dashboard-api-integration-secret');

    await page.goto(`${gateway.url}${PAGE}`);
    await expect(page.content()).resolves.not.toContain(secret);
    await expect(main().innerText()).resolves.toContain(receiver.url());
  });

  it('sends a test event and shows it in the delivery log and on its own page, then resends it', async () => {
    await submitBy('button:text-is("Send test event")');
    await page.waitForSelector('.notice:has-text("Test event queued")');
    const event = await newestSettled('production');
    await page.reload();
    const row = page.locator('.data-table tbody tr').first();
    await expect(row.innerText()).resolves.toMatch(/payout\.test[\s\S]*Delivered[\s\S]*200[\s\S]*\d+ ms/);
    await checkPageAtBothWidths(page, 'dashboard-api-integration');

    await page.click(`a:text-is("${event.event_id}")`);
    await page.waitForSelector('main h1:text-is("Webhook event")');
    await expect(main().innerText()).resolves.toContain('Delivery 1 (test event): Delivered');
    await checkPageAtBothWidths(page, 'dashboard-api-integration-event');

    await submitBy('main button:has-text("Resend")');
    await page.waitForSelector('.notice:has-text("Resend queued")');
    await newestSettled('production');
    await page.reload();
    await expect(main().innerText()).resolves.toContain('Delivery 2 (resend): Delivered');
    expect(receiver.received).toHaveLength(2);
  });

  it('rotates the secret: the new one shown with until when the old one also signs', async () => {
    await page.click('a:text-is("Back to API integration")');
    await page.click('button:text-is("Rotate secret")');
    await page.waitForSelector('h2:text-is("Your new signing secret")');
    await expect(page.inputValue('#copy-secret')).resolves.toMatch(/^whsec_/);
    await expect(main().innerText()).resolves.toMatch(/Until .+, every delivery is signed with both/);
  });

  it('shows the disabled notice in the sandbox after 5 days of failures, re-enables, and stops sending', async () => {
    await page.click('button[value="sandbox"]');
    await page.waitForSelector('.test-data-banner');
    await expect(main().innerText()).resolves.toContain('Not sending: no webhook URL is set');
    await page.fill('#field-url', receiver.url('/sandbox'));
    await page.click('button:text-is("Save URL")');
    await page.waitForSelector('#copy-secret');
    receiver.answer = () => ({ status: 503, body: 'maintenance' });
    await submitBy('button:text-is("Send test event")');
    await newestSettled('sandbox');
    const moved = await gateway.call('POST', '/operator/sandbox/clock', {
      token: OPERATOR_TOKEN,
      body: { advance_seconds: 5 * 86_400 + 1 },
    });
    expect(moved.status).toBe(200);
    await submitBy('button:text-is("Send test event")');
    await newestSettled('sandbox');
    await page.reload();
    await page.waitForSelector('.api-integration-disabled');
    await expect(page.locator('.api-integration-disabled').innerText()).resolves.toContain('HTTP 503');
    await checkPageAtBothWidths(page, 'dashboard-api-integration-disabled');

    receiver.answer = () => ({ status: 200, body: 'ok' });
    await page.click('button:text-is("Re-enable")');
    await page.waitForSelector('.notice:has-text("Endpoint enabled again")');
    await expect(page.locator('.api-integration-disabled').count()).resolves.toBe(0);

    await page.click('button:text-is("Stop sending")');
    await page.waitForSelector('.notice:has-text("Stopped sending")');
    await expect(main().innerText()).resolves.toContain('Not sending: no webhook URL is set');
    expect((await gateway.call('GET', `${API}?environment=sandbox`, { token: shop.adminToken })).status).toBe(
      404,
    );
  });
});
