import type { Browser, Page } from 'playwright-core';
import { Call, client, Gateway, merchant, startGateway } from '../api/gateway-harness';
import { launchChromium } from './browser-harness';
import { checkPageAtBothWidths, dashboardContext, signIn, tabTo } from './dashboard-browser';

/**
 * Send payouts in a real headless Chromium against the embedded start: the list empty, the form
 * refused (too little balance) then sent with the keyboard alone, the payout's page with its link
 * rotated and the payout cancelled by clicking, and the list with its rows and a filter.
 */
describe('dashboard Send payouts in Chromium', () => {
  let gateway: Gateway;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [gateway, browser] = await Promise.all([startGateway('pglite'), launchChromium()]);
    const call: Call = client(gateway.url);
    const { adminToken } = await merchant(call, '100.00', { name: 'Corner Shop' });
    page = await (await dashboardContext(browser)).newPage();
    await signIn(page, gateway.url, adminToken);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  const main = () => page.locator('main');
  /** Clicks and waits for the page it leads to. */
  const follow = async (selector: string) => {
    await Promise.all([page.waitForNavigation(), page.click(selector)]);
  };

  it('shows the list empty, refuses a payout the balance cannot cover, and creates one with the keyboard alone', async () => {
    await follow('nav.site-nav a:text-is("Send payouts")');
    await follow('button[value="sandbox"]');
    await page.waitForSelector('main h1:text-is("Send payouts")');
    await expect(main().innerText()).resolves.toContain('No payouts yet');
    await checkPageAtBothWidths(page, 'dashboard-send-payouts-empty');

    await follow('main a:text-is("Send a payout")');
    await page.waitForSelector('main h1:text-is("Send a payout")');
    await expect(main().innerText()).resolves.toContain('100.00 USD');
    await checkPageAtBothWidths(page, 'dashboard-send-payouts-new');

    await page.fill('#field-amount', '150.00');
    await page.fill('#field-customer_email', 'ana@example.com');
    await page.fill('#field-merchant_reference', 'refund-1');
    await page.fill('#field-description', 'Refund for order 1');
    await follow('button:text("Create payout")');
    await expect(page.locator('[role="alert"]').innerText()).resolves.toContain(
      'The balance is not enough for this payout',
    );
    await expect(page.inputValue('#field-merchant_reference')).resolves.toBe('refund-1');
    await checkPageAtBothWidths(page, 'dashboard-send-payouts-new-refused');

    // Fixed and sent with the keyboard alone.
    await tabTo(page, '#field-amount', 60);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('25.00');
    await tabTo(page, 'button:text("Create payout")');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await page.waitForSelector('main h1:text-is("Payout details")');
    await expect(page.locator('[role="status"]').innerText()).resolves.toContain('Payout created');
    await expect(page.inputValue('#copy-claim_link')).resolves.toMatch(/\/sandbox\/claim\/po_/);
    await expect(page.locator('.timeline').innerText()).resolves.toContain('Payout created in the dashboard');
    await checkPageAtBothWidths(page, 'dashboard-send-payout');
  });

  it('rotates the link and cancels the payout by clicking, then lists it with a filter', async () => {
    const before = await page.inputValue('#copy-claim_link');
    await follow('button:text("Rotate link")');
    await expect(page.locator('[role="status"]').innerText()).resolves.toContain('New claim link issued');
    await expect(page.inputValue('#copy-claim_link')).resolves.not.toBe(before);

    await follow('button:text("Cancel payout")');
    await expect(page.locator('[role="status"]').innerText()).resolves.toContain('Payout cancelled');
    await expect(page.locator('.details').innerText()).resolves.toContain('Cancelled (cancelled)');
    await expect(page.locator('button:text("Cancel payout")').count()).resolves.toBe(0);

    await follow('main a:text-is("Back to the payouts")');
    await expect(page.locator('table.data-table tbody tr').count()).resolves.toBe(1);
    await page.selectOption('#field-status', 'cancelled');
    await follow('button:text("Apply")');
    expect(page.url()).toContain('status=cancelled');
    await expect(main().innerText()).resolves.toContain('Showing 1–1 of 1 payouts');
    await checkPageAtBothWidths(page, 'dashboard-send-payouts');
  });
});
