import type { Browser } from 'playwright-core';
import { client, Gateway, merchant, startGateway } from '../api/gateway-harness';
import { launchChromium } from './browser-harness';
import { checkPageAtBothWidths, expectNoSeriousViolations, tabTo } from './dashboard-browser';

/**
 * The dashboard's sign-in in a real headless Chromium against the embedded start, by keyboard
 * only: sign in with the admin token, switch to the sandbox and see it marked, sign out.
 */
describe('dashboard sign-in in Chromium', () => {
  let gateway: Gateway;
  let browser: Browser;
  let adminToken: string;

  beforeAll(async () => {
    gateway = await startGateway('pglite');
    ({ adminToken } = await merchant(client(gateway.url), '0.00', { name: 'Corner Shop' }));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('signs in, switches to the sandbox and signs out with the keyboard alone', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${gateway.url}/dashboard`);
    await expect(page.title()).resolves.toBe('Sign in · Payouts');
    await checkPageAtBothWidths(page, 'dashboard-sign-in');

    await tabTo(page, '#field-admin_token');
    await page.keyboard.type(adminToken);
    await page.keyboard.press('Enter');
    await page.waitForSelector('main h1:text-is("Home")');
    expect(page.url()).toBe(`${gateway.url}/dashboard`);
    await expect(page.title()).resolves.toBe('Home · Payouts');
    await expect(page.locator('.account').innerText()).resolves.toContain('Corner Shop');
    await expect(page.locator('.test-data-banner').count()).resolves.toBe(0);
    await expectNoSeriousViolations(page);

    await tabTo(page, 'button[value="sandbox"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.test-data-banner');
    await expect(page.locator('.test-data-banner').innerText()).resolves.toContain('Sandbox: test data');
    await expect(page.locator('button[value="sandbox"]').getAttribute('aria-pressed')).resolves.toBe('true');
    await checkPageAtBothWidths(page, 'dashboard-home-sandbox');

    await tabTo(page, 'button:text("Sign out")');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#field-admin_token');
    await expect(page.title()).resolves.toBe('Sign in · Payouts');
    const cookies = await context.cookies();
    expect(cookies.find((cookie) => cookie.name === 'dashboard_session')).toBeUndefined();
    await context.close();
  });

  it('loads the stylesheet under the pages’ CSP (no violation without bypass)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${gateway.url}/dashboard`);
    const skipLinkLeft = await page.evaluate("getComputedStyle(document.querySelector('.skip-link')).left");
    expect(skipLinkLeft).toBe('-10000px');
    expect(refused).toEqual([]);
    await context.close();
  });
});
