import type { SqlClient } from '@payouts/database';
import { SQL_CLIENT } from '@payouts/platform';
import { testBackends } from '@payouts/testing';
import { client, Gateway, OPERATOR_TOKEN, startGateway } from '../api/gateway-harness';
import type { Call } from '../api/gateway-harness';
import { checkoutShop, orderBody, Shop } from './checkout-harness';
import { Payer } from './page-client';

describe.each(testBackends().map((b) => b.name))('the hosted checkout page on %s', (backend) => {
  let gateway: Gateway;
  let call: Call;
  let shop: Shop;

  beforeAll(async () => {
    gateway = await startGateway(backend);
    call = client(gateway.url);
    shop = await checkoutShop(call, { name: 'Corner Shop' });
  });
  afterAll(() => gateway.close());

  /** An order by `path`, and a payer at its page (the order_url's path on this gateway). */
  const order = async (path = '/sandbox/card', overrides: Record<string, unknown> = {}) => {
    const created = await call('POST', path, { token: shop.key, body: orderBody(overrides) });
    expect(created.status).toBe(200);
    const url = new URL(created.body.order_url as string);
    return { id: created.body.order_id as number, payer: new Payer(`${gateway.url}${url.pathname}`) };
  };
  const statusOf = async (id: number) =>
    (await call('GET', `/sandbox/payment/status?payment_id=${id}`, { token: shop.key })).body
      .status as string;
  const attempts = async (id: number) => {
    const db = gateway.app.get<SqlClient>(SQL_CLIENT);
    const { rows } = await db.query<{ attempts: number }>(
      'SELECT attempts FROM checkout_orders WHERE order_id = $1',
      [id],
    );
    return rows[0]!.attempts;
  };

  it('shows the card form with its labels, the merchant, product, amount and currency, under a strict CSP', async () => {
    const { payer } = await order('/sandbox/card', { amount: 10.5, product: 'Blue mug' });
    const page = await payer.open();
    expect(page.status).toBe(200);
    for (const label of ['Card number', 'Expiry (MM/YY)', 'Security code', 'Name on card']) {
      expect(page.body).toMatch(new RegExp(`<label for="[a-z_]+">${label.replace(/[()]/g, '\\$&')}</label>`));
    }
    expect(page.body).toContain('>Pay</button>');
    expect(page.body).toContain('Corner Shop');
    expect(page.body).toContain('Blue mug');
    expect(page.body).toContain('10.50 USD');
    expect(page.body).not.toMatch(/<script/i);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    [0.5, '0.50 USD'],
    [19.99, '19.99 USD'],
    [100000, '100000.00 USD'],
  ])('shows the amount %p as the decimal the order holds, with two places: %s', async (amount, shown) => {
    const page = await (await order('/sandbox/payment/cash', { amount })).payer.open();
    expect(page.body).toContain(`<p class="amount">${shown}</p>`);
  });

  it.each([
    '/sandbox/payment/mobilewallet',
    '/sandbox/payment/cash',
    '/sandbox/payment/onlinewallet',
    '/sandbox/payment/order',
  ])('shows the wallet form for %s', async (path) => {
    const page = await (await order(path)).payer.open();
    expect(page.body).toContain('<label for="wallet_account">Wallet account</label>');
    expect(page.body).not.toContain('Card number');
  });

  it('refuses a post without the CSRF token, or with another, and records no attempt', async () => {
    const { id, payer } = await order();
    await payer.open();
    expect((await payer.submit({ card_number: '4242424242424242' }, { csrf: null })).status).toBe(403);
    expect((await payer.submit({ card_number: '4242424242424242' }, { csrf: 'forged' })).status).toBe(403);
    expect(await attempts(id)).toBe(0);
    expect(await statusOf(id)).toBe('PENDING');
  });

  it("refuses another order's CSRF token, and a JSON body, with the 403 page and records no attempt", async () => {
    const other = (await order()).payer;
    await other.open();
    const { id, payer } = await order();
    await payer.open();
    const borrowed = await payer.submit(
      { card_number: '4242424242424242', expiry: '12/34', security_code: '123', name_on_card: 'Ana' },
      { csrf: other.csrf },
    );
    expect(borrowed.status).toBe(403);
    const json = await fetch(payer.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: payer.cookieHeader },
      body: JSON.stringify({ csrf_token: 7, card_number: 4242424242424242 }),
    });
    expect([json.status, json.headers.get('content-type')]).toEqual([403, 'text/html; charset=utf-8']);
    expect(await attempts(id)).toBe(0);
  });

  it.each([
    [{ card_number: '4242424242424241' }, 'Enter a valid card number'],
    [{ expiry: '01/20' }, 'This card has expired'],
    [{ expiry: '13/30' }, 'Enter the expiry as MM/YY'],
    [{ security_code: '12' }, 'Enter the 3 or 4 digit security code'],
    [{ name_on_card: '' }, 'Enter the name on the card'],
  ])('answers an invalid card form %j with 400, the form again, and no attempt', async (change, message) => {
    const { id, payer } = await order();
    await payer.open();
    const fields = {
      card_number: '4242 4242 4242 4242',
      expiry: '12/34',
      security_code: '123',
      name_on_card: 'Ana',
      ...change,
    };
    const page = await payer.submit(fields);
    expect(page.status).toBe(400);
    expect(page.body).toContain(message);
    expect(page.body).toContain('Card number');
    expect(await attempts(id)).toBe(0);
  });

  it('shows a declined card, lets the payer try again, and then sends them to redirect_url with order_id', async () => {
    const { id, payer } = await order('/sandbox/card', {
      redirect_url: 'https://shop.example.com/thanks?cart=7',
    });
    await payer.open();
    const declined = await payer.payByCard('4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(declined.body).toContain('Your card was declined');
    const poor = await payer.payByCard('4000000000009995');
    expect(poor.body).toContain('insufficient funds');
    expect(await statusOf(id)).toBe('PENDING');
    const paid = await payer.payByCard('4242 4242 4242 4242');
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`https://shop.example.com/thanks?cart=7&order_id=${id}`);
    expect(await statusOf(id)).toBe('SUCCESS');
    expect(await attempts(id)).toBe(3);
    // The paid order's page says so, and a second post charges nothing.
    expect((await payer.open()).body).toContain('Payment received');
    const again = await payer.payByCard('4242424242424242');
    expect([again.status, again.body.includes('Payment received')]).toEqual([200, true]);
    expect(await attempts(id)).toBe(3);
    const view = (await call('GET', `/sandbox/payment/status?payment_id=${id}`, { token: shop.key })).body
      .data;
    expect(view.paid_at).not.toBeNull();
  });

  it('pays by wallet after a declined wallet, and shows the paid page when there is no redirect_url', async () => {
    const { id, payer } = await order('/sandbox/payment/mobilewallet');
    await payer.open();
    const declined = await payer.payByWallet('ana-fail');
    expect([declined.status, declined.body.includes('Your wallet declined the payment')]).toEqual([
      402,
      true,
    ]);
    const paid = await payer.payByWallet('ana-wallet');
    expect(paid.status).toBe(303);
    expect(paid.location).toMatch(/^\/checkout\/[A-Za-z0-9_-]{43}$/);
    expect(await statusOf(id)).toBe('SUCCESS');
  });

  it('answers a failure of its own with an HTML page that tells the payer to come back, never JSON or the cause', async () => {
    const { payer } = await order();
    const db = gateway.app.get<SqlClient>(SQL_CLIENT);
    // A real failure of the real database: the read model the page reads is gone for a moment.
    await db.query('ALTER TABLE checkout_orders RENAME TO checkout_orders_away');
    try {
      const page = await payer.open();
      expect([page.status, page.headers.get('content-type')]).toEqual([500, 'text/html; charset=utf-8']);
      expect(page.body).toContain('Something went wrong');
      expect(page.body).not.toContain('checkout_orders');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    } finally {
      await db.query('ALTER TABLE checkout_orders_away RENAME TO checkout_orders');
    }
    expect((await payer.open()).status).toBe(200);
  });

  it('answers an unknown or malformed token with 404 and an order past expires_at with 410, before the worker runs', async () => {
    expect((await new Payer(`${gateway.url}/checkout/${'A'.repeat(43)}`).open()).status).toBe(404);
    expect((await new Payer(`${gateway.url}/checkout/short`).open()).status).toBe(404);
    const malformed = await new Payer(`${gateway.url}/checkout/short`).submit({ wallet_account: 'ana' });
    expect([malformed.status, malformed.headers.get('content-type')]).toEqual([
      404,
      'text/html; charset=utf-8',
    ]);
    const { id, payer } = await order('/sandbox/payment/cash');
    await payer.open();
    await call('POST', '/operator/sandbox/clock', {
      token: OPERATOR_TOKEN,
      body: { advance_seconds: 86_401 },
    });
    expect((await payer.open()).status).toBe(410);
    expect((await payer.payByWallet('ana-wallet')).status).toBe(410);
    expect(await statusOf(id)).not.toBe('SUCCESS');
  });
});

describe('the hosted checkout page behind https', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await startGateway('pglite', { PUBLIC_BASE_URL: 'https://pay.example.com' });
  });
  afterAll(() => gateway.close());

  it('marks its CSRF cookie Secure and sends HSTS, though TLS ended before the gateway', async () => {
    const call = client(gateway.url);
    const shop = await checkoutShop(call);
    const created = await call('POST', '/sandbox/card', { token: shop.key, body: orderBody() });
    expect(created.body.order_url).toMatch(/^https:\/\/pay\.example\.com\/checkout\//);
    const page = await new Payer(
      created.body.order_url.replace('https://pay.example.com', gateway.url),
    ).open();
    expect(page.headers.get('set-cookie')).toMatch(/; HttpOnly; Secure; SameSite=Strict$/);
    expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });
});
