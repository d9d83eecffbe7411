import { createServer, Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import {
  Call,
  client,
  Gateway,
  merchant,
  Merchant,
  newKey,
  OPERATOR_TOKEN,
  startGateway,
} from '../api/gateway-harness';
import { launchChromium, phonePage, screenshot, startSmtpReceiver } from './browser-harness';

/**
 * The recipient's side in a real headless Chromium against the running embedded start (PGlite,
 * worker, payout rail simulator), with a real SMTP receiver for the verification codes. Every
 * page the recipient sees is saved as a screenshot (test-results/screenshots).
 */
describe('the recipient pages in Chromium', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let gateway: Gateway;
  let call: Call;
  let browser: Browser;
  let shop: Merchant;
  let returnServer: Server;
  let returnOrigin: string;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    returnServer = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<!doctype html><title>Merchant</title><h1>Back at the shop</h1><p>${request.url}</p>`);
    });
    await new Promise<void>((resolve) => returnServer.listen(0, '127.0.0.1', () => resolve()));
    const address = returnServer.address();
    returnOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    gateway = await startGateway('pglite', {
      SMTP_URL: smtp.url,
      WORKER_POLL_MS: '50',
      RAIL_SIMULATOR_DELAY_MS: '100',
    });
    call = client(gateway.url);
    shop = await merchant(call, '1000.00', { origins: [returnOrigin] });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await smtp?.close();
    await new Promise((resolve) => returnServer?.close(resolve));
  });

  /** payout_url names PUBLIC_BASE_URL; the test server listens elsewhere. */
  const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, gateway.url);

  async function createLink(email: string, amount = '10.00') {
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: { amount, merchant_reference: `ref-${newKey()}`, delivery: 'link', customer_email: email },
    });
    expect(created.status).toBe(201);
    return created.body as { payout_id: string; payout_url: string };
  }

  async function createRedirect(customerId: string, amount = '10.00') {
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: {
        amount,
        merchant_reference: `ref-${newKey()}`,
        delivery: 'redirect',
        customer_id: customerId,
        return_url: `${returnOrigin}/thanks`,
      },
    });
    expect(created.status).toBe(201);
    return created.body as { payout_id: string; payout_url: string };
  }

  async function payoutStatus(payoutId: string): Promise<Record<string, unknown>> {
    const got = await call('GET', `/sandbox/api/payout/${payoutId}`, { token: shop.token });
    expect(got.status).toBe(200);
    return got.body;
  }

  async function waitForStatus(payoutId: string, status: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 200; i += 1) {
      const payout = await payoutStatus(payoutId);
      if (payout.status === status) return payout;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(
      `payout ${payoutId} never reached ${status}; it is ${String((await payoutStatus(payoutId)).status)}`,
    );
  }

  async function operator(method: string, path: string, body: unknown) {
    const answer = await call(method, path, { token: OPERATOR_TOKEN, body });
    expect(answer.status).toBeLessThan(300);
    return answer.body;
  }

  /** Verifies the e-mail on a claim link page already open; `nth` is which e-mail to that address holds the code. */
  async function verifyEmail(page: Page, email: string, nth = 1, shots?: string) {
    await page.getByRole('button', { name: 'Send me a code' }).click();
    if (shots) await screenshot(page, `${shots}-enter-code`);
    await page.getByLabel('Verification code').fill(await smtp.codeFor(email, nth));
    await page.getByRole('button', { name: 'Verify' }).click();
  }

  async function chooseBank(page: Page, accountNumber: string) {
    await page.getByLabel('Bank transfer').check();
    await page.getByLabel('Account holder').fill('Jane Doe');
    await page.getByLabel('Routing number').fill('110000000');
    await page.getByLabel('Account number').fill(accountNumber);
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  async function chooseWallet(page: Page, handle: string) {
    await page.getByLabel('Wallet (e-mail or phone)').check();
    await page.getByLabel(/Wallet e-mail or phone/).fill(handle);
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  async function confirm(page: Page) {
    await page.getByRole('button', { name: /Confirm and receive/ }).click();
  }

  it('link delivery: verify the e-mail, choose a bank account, confirm, and see it paid', async () => {
    const page = await phonePage(browser);
    const payout = await createLink('jane@example.com');
    const opened = await page.goto(local(payout.payout_url));
    expect(opened?.status()).toBe(200);
    // The token left the address bar at once.
    expect(page.url()).toBe(`${gateway.url}/sandbox/recipient`);
    await screenshot(page, '01-link-verify-email');

    await verifyEmail(page, 'jane@example.com', 1, '02-link');
    await expect(
      page.getByRole('heading', { name: 'How would you like to be paid?' }).isVisible(),
    ).resolves.toBe(true);
    await screenshot(page, '03-choose-method');

    // A bad routing number is refused on the page, with the field marked.
    await page.getByLabel('Bank transfer').check();
    await page.getByLabel('Account holder').fill('Jane Doe');
    await page.getByLabel('Routing number').fill('123456789');
    await page.getByLabel('Account number').fill('000123456789');
    const refused = page.waitForResponse((r) => r.url().endsWith('/recipient/details'));
    await page.getByRole('button', { name: 'Continue' }).click();
    expect((await refused).status()).toBe(422);
    await expect(page.getByRole('alert').isVisible()).resolves.toBe(true);
    await screenshot(page, '03b-choose-method-error');

    await chooseBank(page, '000123456789');
    await expect(page.getByText('Bank account ending 6789').isVisible()).resolves.toBe(true);
    await screenshot(page, '04-confirm');
    await confirm(page);
    await screenshot(page, '05-status-processing');

    const paid = await waitForStatus(payout.payout_id, 'paid');
    expect(paid.selected_method).toBe('bank_transfer');
    expect(String(paid.receipt_reference)).toMatch(/^rcpt_/);
    await page.reload();
    await expect(page.locator('[data-status]').getAttribute('data-status')).resolves.toBe('paid');
    await screenshot(page, '06-status-paid');
    // The merchant sees the method, never the details.
    expect(JSON.stringify(paid)).not.toContain('6789');
    await page.context().close();
  });

  it('redirect delivery: the handoff opens a session, and confirming returns to return_url with the payout id', async () => {
    const page = await phonePage(browser);
    const payout = await createRedirect('cus_42');
    await page.goto(local(payout.payout_url));
    await screenshot(page, '07-redirect-choose-method');
    await chooseWallet(page, '+14155550100');
    await confirm(page);
    await page.waitForURL(`${returnOrigin}/thanks?payout_id=${payout.payout_id}`);
    await expect(page.getByRole('heading', { name: 'Back at the shop' }).isVisible()).resolves.toBe(true);
    const paid = await waitForStatus(payout.payout_id, 'paid');
    expect(paid.selected_method).toBe('wallet');
    await page.context().close();
  });

  it('a reused handoff URL is refused with 410', async () => {
    const payout = await createRedirect('cus_43');
    const first = await phonePage(browser);
    expect((await first.goto(local(payout.payout_url)))?.status()).toBe(200);
    const second = await phonePage(browser);
    const reused = await second.goto(local(payout.payout_url));
    expect(reused?.status()).toBe(410);
    await expect(second.getByRole('heading', { name: 'Link already used' }).isVisible()).resolves.toBe(true);
    await screenshot(second, '08-handoff-reused');
    await first.context().close();
    await second.context().close();
  });

  it('failed: the sandbox card ending 0002 fails and the money returns', async () => {
    const page = await phonePage(browser);
    const before = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
    const payout = await createLink('fail-card@example.com');
    await page.goto(local(payout.payout_url));
    await verifyEmail(page, 'fail-card@example.com');
    await page.getByLabel('Debit card').check();
    await page.getByLabel('Name on card').fill('Jane Doe');
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByLabel('Expiry (MM/YY)').fill('12/40');
    await page.getByRole('button', { name: 'Continue' }).click();
    await confirm(page);
    const failed = await waitForStatus(payout.payout_id, 'failed');
    expect(failed.funds_released).toBe(true);
    await page.reload();
    await expect(page.locator('[data-status]').getAttribute('data-status')).resolves.toBe('failed');
    await screenshot(page, '09-status-failed');
    const after = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
    expect(after.body.available_for_new_commitments).toBe(before.body.available_for_new_commitments);
    await page.context().close();
  });

  it('review: a flagged payout is held until the operator approves (paid) or rejects (failed)', async () => {
    const outcomes: Record<string, string> = {};
    for (const decision of ['approve', 'reject'] as const) {
      const page = await phonePage(browser);
      const payout = await createRedirect(`cus_review_${decision}`);
      await page.goto(local(payout.payout_url));
      await chooseWallet(page, 'review@example.com');
      await confirm(page);
      await waitForStatus(payout.payout_id, 'review_required');
      await page.goto(`${gateway.url}/sandbox/recipient`);
      await expect(page.locator('[data-status]').getAttribute('data-status')).resolves.toBe(
        'review_required',
      );
      if (decision === 'approve') await screenshot(page, '10-status-review');
      await operator('POST', `/operator/payouts/${payout.payout_id}/review`, { decision });
      outcomes[decision] = String(
        (await waitForStatus(payout.payout_id, decision === 'approve' ? 'paid' : 'failed')).status,
      );
      await page.context().close();
    }
    expect(outcomes).toEqual({ approve: 'paid', reject: 'failed' });
  });

  it('five wrong codes lock verification until a new code is requested', async () => {
    const page = await phonePage(browser);
    const payout = await createLink('lockout@example.com');
    await page.goto(local(payout.payout_url));
    await page.getByRole('button', { name: 'Send me a code' }).click();
    const right = await smtp.codeFor('lockout@example.com', 1);
    const wrong = right === '000000' ? '111111' : '000000';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      await page.getByLabel('Verification code').fill(wrong);
      const answer = page.waitForResponse((r) => r.url().endsWith('/recipient/verify'));
      await page.getByRole('button', { name: 'Verify' }).click();
      statuses.push((await answer).status());
    }
    expect(statuses).toEqual([422, 422, 422, 422, 429]);
    await screenshot(page, '11-code-locked');
    // Even the right code is refused now.
    await page.getByLabel('Verification code').fill(right);
    const locked = page.waitForResponse((r) => r.url().endsWith('/recipient/verify'));
    await page.getByRole('button', { name: 'Verify' }).click();
    expect((await locked).status()).toBe(429);
    // A new code (after the resend pause, on the sandbox clock) unlocks it.
    await operator('POST', '/operator/sandbox/clock', { advance_seconds: 31 });
    await page.getByRole('button', { name: 'Send a new code' }).click();
    await page.getByLabel('Verification code').fill(await smtp.codeFor('lockout@example.com', 2));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(
      page.getByRole('heading', { name: 'How would you like to be paid?' }).isVisible(),
    ).resolves.toBe(true);
    expect((await payoutStatus(payout.payout_id)).status).toBe('awaiting_choice');
    await page.context().close();
  });

  it('a rotated link is refused, and so is the session opened with it', async () => {
    const payout = await createLink('rotated@example.com');
    const page = await phonePage(browser);
    await page.goto(local(payout.payout_url));
    const rotated = await call('POST', `/sandbox/api/payout/${payout.payout_id}/link`, {
      token: shop.token,
      key: newKey(),
      body: { rotate: true },
    });
    expect(rotated.status).toBe(200);
    // The open session belonged to the old link.
    const stale = await page.reload();
    expect(stale?.status()).toBe(410);
    const old = await phonePage(browser);
    const refused = await old.goto(local(payout.payout_url));
    expect(refused?.status()).toBe(410);
    await expect(old.getByRole('heading', { name: 'Link replaced' }).isVisible()).resolves.toBe(true);
    await screenshot(old, '12-link-replaced');
    const fresh = await phonePage(browser);
    expect((await fresh.goto(local(rotated.body.url)))?.status()).toBe(200);
    for (const p of [page, old, fresh]) await p.context().close();
  });

  it('an unclaimed link payout expires by the sandbox clock, the money returns and the page says so', async () => {
    // A shop of its own: advancing the clock expires every open payout of every shop.
    const own = await merchant(call, '100.00');
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: own.token,
      key: newKey(),
      body: {
        amount: '10.00',
        merchant_reference: 'expiry-1',
        delivery: 'link',
        customer_email: 'expiry@example.com',
      },
    });
    expect(created.status).toBe(201);
    const balance = async () => (await call('GET', '/sandbox/api/payout/balance', { token: own.token })).body;
    expect((await balance()).available_for_new_commitments).toBe('89.50');
    await operator('POST', '/operator/sandbox/clock', { advance_seconds: 7 * 24 * 3600 + 60 });
    for (let i = 0; i < 200; i += 1) {
      const got = await call('GET', `/sandbox/api/payout/${created.body.payout_id}`, { token: own.token });
      if (got.body.status === 'expired') {
        expect(got.body.funds_released).toBe(true);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await balance()).toMatchObject({
      available_for_new_commitments: '100.00',
      customer_payout_holds: '0.00',
    });
    const page = await phonePage(browser);
    expect((await page.goto(local(created.body.payout_url)))?.status()).toBe(410);
    await expect(page.locator('[data-status]').getAttribute('data-status')).resolves.toBe('expired');
    await screenshot(page, '13-status-expired');
    await page.context().close();
  });
});

describe('the float queue in Chromium', () => {
  it('queues a payout the float cannot cover (awaiting_float) and sends it after the operator tops up', async () => {
    const gateway = await startGateway('pglite', {
      WORKER_POLL_MS: '50',
      RAIL_SIMULATOR_DELAY_MS: '50',
      SANDBOX_FLOAT_OPENING_BALANCE: '15.00',
    });
    const browser = await launchChromium();
    try {
      const call = client(gateway.url);
      const shop = await merchant(call, '100.00', { origins: ['http://127.0.0.1:9'] });
      const ids: string[] = [];
      for (const customer of ['cus_f1', 'cus_f2']) {
        const created = await call('POST', '/sandbox/api/payout/create', {
          token: shop.token,
          key: newKey(),
          body: {
            amount: '10.00',
            merchant_reference: `float-${customer}`,
            delivery: 'redirect',
            customer_id: customer,
            return_url: 'http://127.0.0.1:9/back',
          },
        });
        ids.push(created.body.payout_id);
        const page = await phonePage(browser);
        await page.goto(created.body.payout_url.replace(/^https?:\/\/[^/]+/, gateway.url));
        await page.getByLabel('Wallet (e-mail or phone)').check();
        await page.getByLabel(/Wallet e-mail or phone/).fill('+14155550100');
        await page.getByRole('button', { name: 'Continue' }).click();
        // The return origin does not answer; only the redirect to it matters here.
        await page
          .getByRole('button', { name: /Confirm and receive/ })
          .click()
          .catch(() => undefined);
        await page.context().close();
      }
      const get = async (id: string) =>
        (await call('GET', `/sandbox/api/payout/${id}`, { token: shop.token })).body;
      const until = async (id: string, check: (p: Record<string, unknown>) => boolean) => {
        for (let i = 0; i < 200; i += 1) {
          const p = await get(id);
          if (check(p)) return p;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error(`payout ${id}: ${JSON.stringify(await get(id))}`);
      };
      await until(ids[0]!, (p) => p.status === 'paid');
      const queued = await until(ids[1]!, (p) => p.safe_reason === 'awaiting_float');
      expect(queued.status).toBe('processing');

      const topUp = await call('POST', '/operator/float', {
        token: OPERATOR_TOKEN,
        body: { environment: 'sandbox', amount: '100.00' },
      });
      expect(topUp.status).toBeLessThan(300);
      const paid = await until(ids[1]!, (p) => p.status === 'paid');
      expect(paid.safe_reason).toBeNull();
    } finally {
      await browser.close();
      await gateway.close();
    }
  });
});
