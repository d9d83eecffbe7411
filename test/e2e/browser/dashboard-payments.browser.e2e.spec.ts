import { CommandBus } from '@nestjs/cqrs';
import { PayOrderCommand, SANDBOX_CARDS } from '@payouts/checkout';
import type { Browser, Page } from 'playwright-core';
import { Call, client, Gateway, merchant, startGateway } from '../api/gateway-harness';
import { orderBody } from '../checkout/checkout-harness';
import { launchChromium } from './browser-harness';
import {
  checkPageAtBothWidths,
  dashboardContext,
  expectNoSeriousViolations,
  signIn,
  tabTo,
} from './dashboard-browser';

/**
 * Payments in a real headless Chromium against the embedded start: the list empty in production
 * and with the sandbox's orders, a filter applied by keyboard alone, a refused date, and an order's
 * page with a declined attempt and its events, then one without any.
 */
describe('dashboard payments in Chromium', () => {
  let gateway: Gateway;
  let browser: Browser;
  let page: Page;
  const ids = { paid: 0, wallet: 0, pending: 0 };

  beforeAll(async () => {
    [gateway, browser] = await Promise.all([startGateway('pglite'), launchChromium()]);
    const call: Call = client(gateway.url);
    const { adminToken } = await merchant(call, '0.00', { name: 'Corner Shop' });
    const key = (
      await call('POST', '/dashboard/credentials', {
        token: adminToken,
        body: { kind: 'checkout', environment: 'sandbox' },
      })
    ).body.token as string;
    const create = async (path: string, body: Record<string, unknown>) =>
      (await call('POST', path, { token: key, body: orderBody(body) })).body.order_id as number;
    ids.paid = await create('/sandbox/card', { amount: 24.9, product: 'Blue mug' });
    const bus = gateway.app.get(CommandBus);
    for (const number of [SANDBOX_CARDS.declined, SANDBOX_CARDS.paid]) {
      await bus.execute(
        new PayOrderCommand(ids.paid, {
          kind: 'card',
          number,
          expiryMonth: 12,
          expiryYear: 2099,
          securityCode: '123',
          name: 'Ana Payer',
        }),
      );
    }
    ids.wallet = await create('/sandbox/payment/mobilewallet', { amount: 12, product: 'Tea towel' });
    ids.pending = await create('/sandbox/payment/order', { amount: 5.5, product: 'Gift card' });
    page = await (await dashboardContext(browser)).newPage();
    await signIn(page, gateway.url, adminToken);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  const main = () => page.locator('main');
  const rows = () => page.locator('table.data-table tbody tr');
  /** Clicks and waits for the page it leads to. */
  const follow = async (selector: string) => {
    await Promise.all([page.waitForNavigation(), page.click(selector)]);
  };

  it('shows production empty, the sandbox’s orders with their sum, a filter applied by keyboard alone and a refused date', async () => {
    await follow('nav.site-nav a:text-is("Payments")');
    await page.waitForSelector('main h1:text-is("Payments")');
    await expect(main().innerText()).resolves.toContain('No payments in production yet');
    await checkPageAtBothWidths(page, 'dashboard-payments-empty');

    await follow('button[value="sandbox"]');
    await expect(rows().count()).resolves.toBe(3);
    await expect(page.locator('.payments-sum').innerText()).resolves.toBe(
      'Sum of the 3 matching orders: 42.40 USD',
    );
    await checkPageAtBothWidths(page, 'dashboard-payments');

    // Status "Paid", chosen and applied with the keyboard alone.
    await tabTo(page, '#field-status');
    await page.keyboard.type('Paid');
    await tabTo(page, '.filter-actions button');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).searchParams.get('status')).toBe('SUCCESS');
    await expect(rows().count()).resolves.toBe(1);
    await expect(rows().first().innerText()).resolves.toContain('24.90 USD');

    await page.fill('#field-start_date', 'yesterday');
    await page.fill('#field-end_date', '2030-01-01');
    await follow('.filter-actions button');
    await expect(page.locator('#field-start_date-error').innerText()).resolves.toContain(
      'start_date must be a real date',
    );
    await expect(page.locator('#field-start_date').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(rows().count()).resolves.toBe(0);
    await expectNoSeriousViolations(page);
    await follow('a:text-is("Clear filters")');
    await expect(rows().count()).resolves.toBe(3);
  });

  it('opens an order from the list: its fields, its declined attempt and its events; then one without any', async () => {
    await follow(`a:text-is("${ids.paid}")`);
    await page.waitForSelector(`main h1:text-is("Order ${ids.paid}")`);
    const text = await main().innerText();
    expect(text).toContain('Paid (SUCCESS)');
    expect(text).toContain('Visa ending 4242');
    expect(text).toContain('Card declined');
    expect(text).toContain('Attempt 1 declined: Card declined');
    expect(text).toContain('Paid on attempt 2');
    await checkPageAtBothWidths(page, 'dashboard-payments-order');

    await follow('main a:text-is("All payments")');
    await follow(`a:text-is("${ids.pending}")`);
    await expect(main().innerText()).resolves.toContain('No declined attempts');
    await checkPageAtBothWidths(page, 'dashboard-payments-order-pending');
  });
});
