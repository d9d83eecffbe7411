import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { Gateway, Merchant } from '../api/gateway-harness';
import { fundsScene, FundsScene, startFundsGateway } from '../dashboard/home-and-balance-fixtures';
import { launchChromium } from './browser-harness';
import {
  checkPageAtBothWidths,
  dashboardContext,
  expectNoSeriousViolations,
  signIn,
  tabTo,
} from './dashboard-browser';

/**
 * Home and Balance in a real headless Chromium against the embedded start: both pages empty in
 * production and with the sandbox's money, the chart drawn under the pages' CSP with nothing
 * refused, the chart's currency chosen by keyboard alone, a filter applied and refused, the next
 * page, a CSV downloaded, and a settlement's page.
 */
describe('dashboard Home and Balance in Chromium', () => {
  let gateway: Gateway;
  let browser: Browser;
  let shop: Merchant;
  let scene: FundsScene;
  let page: Page;

  beforeAll(async () => {
    const started = startFundsGateway();
    [{ gateway, shop }, browser] = await Promise.all([started, launchChromium()]);
    scene = await fundsScene(gateway, shop, { creditCount: 26, timeZone: 'Europe/London' });
    page = await (await dashboardContext(browser)).newPage();
    await signIn(page, gateway.url, shop.adminToken);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  const main = () => page.locator('main');
  /** Clicks and waits for the page it leads to. */
  const follow = async (selector: string) => {
    await Promise.all([page.waitForNavigation(), page.click(selector)]);
  };
  const rowsOf = (caption: string) => page.locator(`table:has(caption:text-is("${caption}")) tbody tr`);

  it('draws Home’s chart and every page under the pages’ CSP, refusing nothing', async () => {
    const context = await browser.newContext();
    const strict = await context.newPage();
    const refused: string[] = [];
    strict.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await signIn(strict, gateway.url, shop.adminToken);
    await Promise.all([strict.waitForNavigation(), strict.click('button[value="sandbox"]')]);
    const chart = strict.locator('.home-chart svg');
    await expect(chart.getAttribute('role')).resolves.toBe('img');
    // Drawn: the bars have a size, and the stylesheet's rule fits the chart to its column.
    const box = await chart.boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    await expect(strict.locator('.home-chart rect.bar').count()).resolves.toBeGreaterThan(0);
    await strict.goto(`${gateway.url}/dashboard/balance`);
    await strict.goto(`${gateway.url}/dashboard/balance/settlements/${scene.settlementId}`);
    await expect(strict.locator('main h1').innerText()).resolves.toMatch(/^Settlement of /);
    expect(refused).toEqual([]);
    await context.close();
  });

  it('shows Home empty in production, then the sandbox’s balance, pending proceeds and chart; the chart’s currency chosen by keyboard', async () => {
    await expect(main().innerText()).resolves.toContain('Nothing waiting to clear');
    await expect(page.locator('.home-chart rect.bar').count()).resolves.toBe(0);
    await checkPageAtBothWidths(page, 'dashboard-home-empty');

    await follow('button[value="sandbox"]');
    const text = await main().innerText();
    expect(text).toContain('96.80 USD');
    expect(text).toContain('Pending proceeds');
    await expect(rowsOf('Pending proceeds').count()).resolves.toBe(2);
    await expect(rowsOf('Money in and out per day, USD').count()).resolves.toBe(30);
    await expect(page.locator('.home-chart text.axis-label').first().textContent()).resolves.toBe(
      'Day (Europe/London)',
    );
    await checkPageAtBothWidths(page, 'dashboard-home');

    await tabTo(page, '#field-currency', 80);
    await page.keyboard.type('EUR');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).searchParams.get('currency')).toBe('EUR');
    await expect(page.locator('#home-flows-heading').innerText()).resolves.toBe('Last 30 days in EUR');
    await expect(page.locator('.home-chart rect.bar').count()).resolves.toBe(0);
  });

  it('lists, filters, pages and downloads the balance transactions, refuses a bad filter, and opens a settlement', async () => {
    await follow('nav.site-nav a:text-is("Balance")');
    await page.waitForSelector('main h1:text-is("Balance")');
    await expect(rowsOf('Balance transactions').count()).resolves.toBe(25);
    await expect(rowsOf('Settlements').count()).resolves.toBe(1);
    await checkPageAtBothWidths(page, 'dashboard-balance');

    await page.selectOption('#field-type', 'adjustment');
    await follow('.filter-actions button');
    await expect(page.locator('.pagination p').first().innerText()).resolves.toBe(
      'Showing 1–25 of 26 balance transactions',
    );
    await follow('a:text-is("Next page")');
    await expect(rowsOf('Balance transactions').count()).resolves.toBe(1);
    await expect(rowsOf('Balance transactions').first().innerText()).resolves.toContain(scene.credits[0]!);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('a.balance-download:has-text("balance transactions")'),
    ]);
    expect(download.suggestedFilename()).toBe('balance-transactions-sandbox.csv');
    const lines = readFileSync((await download.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(27);
    expect(lines[0]).toMatch(/^id,type,currency,amount,fee,net,status,/);
    expect(lines.slice(1).every((line) => line.includes(',adjustment,USD,10.00,'))).toBe(true);

    await page.fill('#field-currency', 'usd');
    await follow('.filter-actions button');
    await expect(page.locator('#field-currency-error').innerText()).resolves.toBe(
      'currency must be three upper-case letters such as USD',
    );
    await expect(page.locator('#field-currency').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(rowsOf('Balance transactions').count()).resolves.toBe(0);
    await expectNoSeriousViolations(page);
    await follow('a:text-is("Clear filters")');

    await follow(`table:has(caption:text-is("Settlements")) a:text-is("${scene.settlementId}")`);
    await page.waitForSelector('main h1:text-matches("^Settlement of ")');
    const settlement = await main().innerText();
    expect(settlement).toContain('Paid. Your bank has been paid.');
    expect(settlement).toContain('Run by the operator');
    await expect(rowsOf('Movements it covers').count()).resolves.toBeGreaterThan(1);
    await checkPageAtBothWidths(page, 'dashboard-settlement');

    // The switch on a settlement's page goes back to the list, in production: empty there.
    await follow('button[value="production"]');
    await page.waitForSelector('main h1:text-is("Balance")');
    const empty = await main().innerText();
    expect(empty).toContain('No balance transactions yet');
    expect(empty).toContain('No settlements yet');
    await checkPageAtBothWidths(page, 'dashboard-balance-empty');
  });
});
