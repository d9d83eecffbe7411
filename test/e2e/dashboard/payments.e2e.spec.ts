import { CommandBus } from '@nestjs/cqrs';
import {
  ExpireOrderCommand,
  PayOrderCommand,
  PaymentInstrumentInput,
  SANDBOX_CARDS,
} from '@payouts/checkout';
import type { SqlClient } from '@payouts/database';
import { SQL_CLIENT } from '@payouts/platform';
import { Call, client, Gateway, merchant, OPERATOR_TOKEN, startGateway } from '../api/gateway-harness';
import { checkoutShop, orderBody } from '../checkout/checkout-harness';
import { PageAnswer, PageBrowser } from './page-browser';

const PAYMENTS = '/dashboard/payments';

/** The order ids a page lists, in its order. */
const listed = (page: PageAnswer): number[] =>
  [...page.body.matchAll(/<td><a href="\/dashboard\/payments\/(\d+)">/g)].map((match) => Number(match[1]));

/** The details list's value for `label`, as text. */
const detail = (page: PageAnswer, label: string): string | undefined =>
  new RegExp(`<dt>${label}</dt><dd>(.*?)</dd>`).exec(page.body)?.[1]?.replace(/<[^>]+>/g, '');

const timelineTitles = (page: PageAnswer): string[] =>
  [...page.body.matchAll(/<p class="timeline-title">([^<]*)<\/p>/g)].map((match) => match[1]!);

/**
 * Payments (docs/dashboard.md#payments) over real HTTP: the list of checkout orders with its
 * filters, pagination and sum, the order's page with its declined attempts and events, and every
 * refusal. One gateway; orders made through the checkout API, their attempts through PayOrderCommand
 * and the simulated acquirer (what the hosted page sends), the expiry through ExpireOrderCommand.
 *
 * The embedded start as the product boots it (startGateway), not startDashboardGateway's testing
 * module: that one lacks the app's strict JSON body parser, without which Create Order cannot read
 * its amount as written and answers 500. Nothing here needs the sessions' clock moved.
 */
describe('dashboard payments (real HTTP)', () => {
  let gateway: Gateway;
  let call: Call;
  let adminToken: string;
  let sandboxKey: string;
  let other: { adminToken: string; key: string };
  /** Sandbox orders of the shop, oldest first: expired, paid card, declined wallet, pending p2p. */
  const ids = { expired: 0, paid: 0, wallet: 0, pending: 0, production: 0, others: [] as number[] };

  const createOrder = async (key: string, path: string, body: Record<string, unknown>) => {
    const created = await call('POST', path, { token: key, body: orderBody(body) });
    if (created.status !== 200) throw new Error(JSON.stringify(created.body));
    return created.body.order_id as number;
  };

  /** A payer's attempt, as the hosted page sends it: through the simulated acquirer. */
  const pay = async (orderId: number, instrument: PaymentInstrumentInput): Promise<boolean> =>
    (await gateway.app.get(CommandBus).execute(new PayOrderCommand(orderId, instrument))).paid;
  const card = (number: string): PaymentInstrumentInput => ({
    kind: 'card',
    number,
    expiryMonth: 12,
    expiryYear: 2099,
    securityCode: '123',
    name: 'Ana Payer',
  });

  const credential = async (token: string, environment: string): Promise<string> => {
    const created = await call('POST', '/dashboard/credentials', {
      token,
      body: { kind: 'checkout', environment },
    });
    expect(created.status).toBe(201);
    return created.body.token as string;
  };

  beforeAll(async () => {
    gateway = await startGateway('pglite');
    call = client(gateway.url);
    ({ adminToken } = await merchant(call, '0.00', { name: 'Corner Shop' }));
    sandboxKey = await credential(adminToken, 'sandbox');
    const productionKey = await credential(adminToken, 'production');

    // The first order expires: the sandbox clock moves past its deadline, then the expiry runs.
    ids.expired = await createOrder(sandboxKey, '/sandbox/payment/cash', { amount: 5 });
    expect(
      (
        await call('POST', '/operator/sandbox/clock', {
          token: OPERATOR_TOKEN,
          body: { advance_seconds: 90_000 },
        })
      ).status,
    ).toBe(200);
    await gateway.app.get(CommandBus).execute(new ExpireOrderCommand(ids.expired));

    ids.paid = await createOrder(sandboxKey, '/sandbox/card', { amount: 1.1 });
    expect(await pay(ids.paid, card(SANDBOX_CARDS.declined))).toBe(false);
    expect(await pay(ids.paid, card(SANDBOX_CARDS.insufficientFunds))).toBe(false);
    expect(await pay(ids.paid, card(SANDBOX_CARDS.paid))).toBe(true);
    ids.wallet = await createOrder(sandboxKey, '/sandbox/payment/mobilewallet', {
      amount: 2.2,
      product: undefined,
    });
    expect(await pay(ids.wallet, { kind: 'wallet', account: 'ana-fail' })).toBe(false);
    ids.pending = await createOrder(sandboxKey, '/sandbox/payment/order', { amount: 19.99 });
    ids.production = await createOrder(productionKey, '/card', { amount: 7 });

    const otherShop = await checkoutShop(call, { region: 'GB', name: 'Other Shop' });
    other = { adminToken: otherShop.adminToken, key: otherShop.key };
    for (const [amount, currency] of [
      [3, 'EUR'],
      [4.5, 'USD'],
      [1.25, 'EUR'],
    ] as const) {
      ids.others.push(await createOrder(other.key, '/sandbox/payment/cash', { amount, currency }));
    }
  });
  afterAll(() => gateway?.close());

  /** A browser signed in to the account, showing `environment`. */
  const signedIn = async (token: string, environment: 'production' | 'sandbox' = 'sandbox') => {
    const browser = new PageBrowser(gateway.url);
    expect((await browser.submit('/dashboard', '/dashboard/sign-in', { admin_token: token })).status).toBe(
      303,
    );
    if (environment === 'sandbox') {
      const switched = await browser.submit(PAYMENTS, '/dashboard/environment', {
        environment,
        return_to: PAYMENTS,
      });
      expect([switched.status, switched.headers.location]).toEqual([303, PAYMENTS]);
    }
    return browser;
  };

  /** Every order's state as the read model holds it, for "nothing was changed". */
  const ordersState = async () =>
    (
      await gateway.app
        .get<SqlClient>(SQL_CLIENT)
        .query('SELECT order_id, status, attempts, version FROM checkout_orders ORDER BY order_id')
    ).rows;

  const history = (body: Record<string, unknown>, key = sandboxKey) =>
    call('POST', '/sandbox/payment/history', { token: key, body });

  it('sends a browser without a session to sign in', async () => {
    const anonymous = new PageBrowser(gateway.url);
    for (const path of [PAYMENTS, `${PAYMENTS}/${ids.paid}`]) {
      const page = await anonymous.get(path);
      expect([page.status, page.headers.location]).toEqual([303, '/dashboard']);
    }
  });

  it('lists the environment’s orders newest first, each linked, with the sum History gives, and the other environment’s after the switch', async () => {
    const browser = await signedIn(adminToken, 'production');
    const production = await browser.get(PAYMENTS);
    expect(production.status).toBe(200);
    expect(production.body).toContain('<title>Payments · Payouts</title>');
    expect(production.body).toContain('<a href="/dashboard/payments" aria-current="page">Payments</a>');
    expect(listed(production)).toEqual([ids.production]);
    expect(production.body).toContain('<strong>7.00 USD</strong>');

    const switched = await browser.submit(PAYMENTS, '/dashboard/environment', {
      environment: 'sandbox',
      return_to: PAYMENTS,
    });
    expect([switched.status, switched.headers.location]).toEqual([303, PAYMENTS]);
    const sandbox = await browser.get(PAYMENTS);
    expect(listed(sandbox)).toEqual([ids.pending, ids.wallet, ids.paid, ids.expired]);
    const everything = await history({ start_date: '2000-01-01', end_date: '2999-12-31' });
    expect(everything.body.amount).toBe(28.29);
    expect(sandbox.body).toContain('Sum of the 4 matching orders: <span><strong>28.29 USD</strong></span>');
    expect(sandbox.body).toContain('Showing 1–4 of 4 orders');
    const paidRow = new RegExp(
      `<a href="/dashboard/payments/${ids.paid}">${ids.paid}</a></td><td><time datetime="[^"]+Z" title="[^"]+ UTC">[^<]+UTC</time></td>` +
        '<td class="numeric">1.10 USD</td><td>Card</td><td>Paid</td><td>payer@example.com</td><td>Blue mug</td>',
    );
    expect(sandbox.body).toMatch(paidRow);
    expect(sandbox.body).toMatch(
      new RegExp(
        `${ids.wallet}</a></td><td><time[^>]+>[^<]+</time></td><td class="numeric">2.20 USD</td><td>Mobile wallet</td><td>Pending</td><td>payer@example.com</td><td>—</td>`,
      ),
    );
    expect(sandbox.body).toContain('<td>Cash-transfer app</td><td>Expired</td>');
    expect(sandbox.body).toContain('<td>Peer-to-peer app</td><td>Pending</td>');
  });

  it('filters by status, method and History’s dates, the sum that of the orders matching, as History gives it', async () => {
    const browser = await signedIn(adminToken);
    const paid = await browser.get(`${PAYMENTS}?status=SUCCESS`);
    expect(listed(paid)).toEqual([ids.paid]);
    expect(paid.body).toContain('<option value="SUCCESS" selected>Paid</option>');
    expect(paid.body).toContain('<strong>1.10 USD</strong>');
    expect(listed(await browser.get(`${PAYMENTS}?status=PENDING`))).toEqual([ids.pending, ids.wallet]);
    const wallets = await browser.get(`${PAYMENTS}?method=mobile_wallet&status=`);
    expect(listed(wallets)).toEqual([ids.wallet]);
    expect(wallets.body).toContain('<option value="mobile_wallet" selected>Mobile wallet</option>');

    // Both ends inclusive, exactly as History: from the paid order's creation to the wallet order's.
    const status = async (id: number) =>
      (await call('GET', `/sandbox/payment/status?payment_id=${id}`, { token: sandboxKey })).body.data;
    const range = {
      start_date: (await status(ids.paid)).created_at,
      end_date: (await status(ids.wallet)).created_at,
    };
    const dated = await browser.get(`${PAYMENTS}?${new URLSearchParams(range).toString()}`);
    expect(listed(dated)).toEqual([ids.wallet, ids.paid]);
    const answer = await history(range);
    expect(answer.body.data.map((order: { id: number }) => order.id)).toEqual([ids.wallet, ids.paid]);
    expect(dated.body).toContain(`<strong>${answer.body.amount.toFixed(2)} USD</strong>`);
    expect(dated.body).toContain(`value="${range.start_date}"`);
    // A date alone is that day at 00:00 UTC, for the end too, as History reads it: none of these.
    const day = range.start_date.slice(0, 10);
    const dayOnly = await browser.get(`${PAYMENTS}?start_date=${day}&end_date=${day}`);
    expect(listed(dayOnly)).toEqual([]);
    expect((await history({ start_date: day, end_date: day })).body.data).toEqual([]);

    const none = await browser.get(`${PAYMENTS}?status=EXPIRED&method=card`);
    expect(none.status).toBe(200);
    expect(none.body).toContain('No orders match these filters');
    expect(none.body).not.toContain('<table');
  });

  it('pages through the orders with their total, keeping the filters in the links', async () => {
    const browser = await signedIn(adminToken);
    const first = await browser.get(`${PAYMENTS}?limit=2`);
    expect(listed(first)).toEqual([ids.pending, ids.wallet]);
    expect(first.body).toContain('Showing 1–2 of 4 orders');
    expect(first.body).toContain('Sum of the 4 matching orders');
    expect(first.body).toContain('<input type="hidden" name="limit" value="2"/>');
    expect(first.body).toContain('<a href="/dashboard/payments?limit=2&amp;offset=2">Next page</a>');
    const second = await browser.get(`${PAYMENTS}?limit=2&offset=2`);
    expect(listed(second)).toEqual([ids.paid, ids.expired]);
    expect(second.body).toContain('Showing 3–4 of 4 orders');
    expect(second.body).toContain('<a href="/dashboard/payments?limit=2&amp;offset=0">Previous page</a>');
    expect(second.body).not.toContain('Next page');

    const pending = await browser.get(`${PAYMENTS}?status=PENDING&limit=1`);
    expect(listed(pending)).toEqual([ids.pending]);
    expect(pending.body).toContain('Showing 1–1 of 2 orders');
    expect(pending.body).toContain('href="/dashboard/payments?status=PENDING&amp;limit=1&amp;offset=1"');
    // Past the end: the total still, and the way back.
    const past = await browser.get(`${PAYMENTS}?offset=40`);
    expect(listed(past)).toEqual([]);
    expect(past.body).toContain('This page is past the last order.');
    // Above 100, the limit is capped as Get Payments List caps it.
    expect(listed(await browser.get(`${PAYMENTS}?limit=500`))).toHaveLength(4);
  });

  it.each([
    ['an unknown status', 'status=PAID', 'status', 'status must be one of PENDING, SUCCESS, EXPIRED', null],
    [
      'an unknown method',
      'method=bitcoin',
      'method',
      'method must be one of card, mobile_wallet, cash_app, online_wallet, p2p_app',
      null,
    ],
    [
      'a date History refuses',
      'start_date=yesterday&end_date=2030-01-01',
      'start_date',
      null,
      { start_date: 'yesterday', end_date: '2030-01-01' },
    ],
    [
      'a day the month does not have',
      'start_date=2026-01-01&end_date=2026-02-30',
      'end_date',
      null,
      { start_date: '2026-01-01', end_date: '2026-02-30' },
    ],
    [
      'a start after the end',
      'start_date=2026-02-01&end_date=2026-01-31',
      'start_date',
      null,
      { start_date: '2026-02-01', end_date: '2026-01-31' },
    ],
    ['a start without an end', 'start_date=2026-01-01', 'end_date', null, { start_date: '2026-01-01' }],
    ['a limit of 0', 'limit=0', null, 'limit must be at least 1', null],
    ['an offset that is not a number', 'offset=abc', null, 'offset must be a whole number', null],
  ] as const)(
    'refuses %s with the API’s message at the filter (400), listing nothing and changing nothing',
    async (_case, search, field, message, historyBody) => {
      const browser = await signedIn(adminToken);
      const before = await ordersState();
      const page = await browser.get(`${PAYMENTS}?${search}`);
      expect(page.status).toBe(400);
      // The message is the API's own: History's answer to the same dates, word for word.
      const expected = historyBody
        ? ((await history(historyBody)).body.error.message as string)
        : (message as string);
      expect(page.body).toContain(
        `<div class="notice-error" role="alert"><p>The list could not be shown: ${expected}</p>`,
      );
      if (field) {
        expect(page.body).toContain(`<p class="error" id="field-${field}-error">${expected}</p>`);
        expect(page.body).toMatch(new RegExp(`id="field-${field}"[^>]*aria-invalid="true"`));
      }
      expect(page.body).not.toContain('<table');
      expect(await ordersState()).toEqual(before);
    },
  );

  it('says how orders arrive when an environment has none', async () => {
    const browser = await signedIn(other.adminToken, 'production');
    const empty = await browser.get(PAYMENTS);
    expect(empty.status).toBe(200);
    expect(empty.body).toContain('No payments in production yet');
    expect(empty.body).toContain('<code>POST /card</code>');
    expect(empty.body).toContain('<code>docs/checkout.md</code>');
    expect(empty.body).not.toContain('<table');
  });

  it('sums each currency apart when the orders are in several', async () => {
    const browser = await signedIn(other.adminToken);
    const page = await browser.get(PAYMENTS);
    expect(listed(page)).toEqual([...ids.others].reverse());
    expect(page.body).toContain(
      'Sum of the 3 matching orders: <span><strong>4.25 EUR</strong> (2 orders)</span><span>, <strong>4.50 USD</strong> (1 order)</span>',
    );
  });

  it('shows a paid order: its fields, its declined attempts and its events in words', async () => {
    const browser = await signedIn(adminToken);
    const page = await browser.get(`${PAYMENTS}/${ids.paid}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<h1>Order ${ids.paid}</h1>`);
    const api = (await call('GET', `/sandbox/payment/status?payment_id=${ids.paid}`, { token: sandboxKey }))
      .body.data;
    expect(detail(page, 'Order id')).toBe(String(ids.paid));
    expect(detail(page, 'Status')).toBe('Paid (SUCCESS)');
    expect(detail(page, 'Amount')).toBe('1.10 USD');
    expect(detail(page, 'Method')).toBe('Card');
    expect(detail(page, 'Customer')).toBe('payer@example.com');
    expect(detail(page, 'Product')).toBe('Blue mug');
    expect(detail(page, 'Webhook URL')).toBe('—');
    expect(page.body).toContain(`<dt>Created</dt><dd><time datetime="${api.created_at}"`);
    expect(page.body).toContain(`<dt>Paid</dt><dd><time datetime="${api.paid_at}"`);
    expect(page.body).toContain(`<dt>Payment deadline</dt><dd><time datetime="${api.expires_at}"`);
    expect(detail(page, 'Paid with')).toBe('Visa ending 4242');
    expect(detail(page, 'Attempts')).toBe('3');

    expect(page.body).toContain('<caption>Declined attempts, oldest first</caption>');
    expect(page.body).toMatch(
      /<td class="numeric">1<\/td><td><time[^>]+>[^<]+<\/time><\/td><td>Card declined<\/td><td>Visa ending 0002<\/td>/,
    );
    expect(page.body).toMatch(
      /<td class="numeric">2<\/td><td><time[^>]+>[^<]+<\/time><\/td><td>Insufficient funds<\/td><td>Visa ending 9995<\/td>/,
    );
    expect(page.body).toContain('Showing 1–2 of 2 declined attempts');
    expect(timelineTitles(page)).toEqual([
      'Order created',
      'Attempt 1 declined: Card declined',
      'Attempt 2 declined: Insufficient funds',
      'Paid on attempt 3',
    ]);
    expect(page.body).toContain('1.10 USD, to be paid by Card');
    // Never a card number, only the last four.
    expect(page.body).not.toMatch(/4242424242424242|4000000000000002/);
    // The environment switch goes back to the list (this order is not in production).
    expect(page.body).toContain('name="return_to" value="/dashboard/payments"');
  });

  it('shows an expired order, a pending one without declines and a wallet’s decline', async () => {
    const browser = await signedIn(adminToken);
    const expired = await browser.get(`${PAYMENTS}/${ids.expired}`);
    expect(detail(expired, 'Status')).toBe('Expired (EXPIRED)');
    expect(detail(expired, 'Paid')).toBe('—');
    expect(timelineTitles(expired)).toEqual(['Order created', 'Expired unpaid']);

    const pending = await browser.get(`${PAYMENTS}/${ids.pending}`);
    expect(detail(pending, 'Status')).toBe('Pending (PENDING)');
    expect(detail(pending, 'Attempts')).toBe('0');
    expect(pending.body).toContain('No declined attempts');
    expect(pending.body).not.toContain('<table');
    expect(timelineTitles(pending)).toEqual(['Order created']);

    const wallet = await browser.get(`${PAYMENTS}/${ids.wallet}`);
    expect(detail(wallet, 'Product')).toBe('—');
    expect(wallet.body).toContain('<td>Wallet declined</td><td>Wallet account ••••fail</td>');
    expect(timelineTitles(wallet)).toEqual(['Order created', 'Attempt 1 declined: Wallet declined']);
  });

  it('answers another account’s order, the other environment’s, and ids that name none with the 404 page', async () => {
    const browser = await signedIn(adminToken);
    const before = await ordersState();
    for (const id of [ids.others[0], ids.production, 'abc', '0', '0100', '99999999999999999999']) {
      const page = await browser.get(`${PAYMENTS}/${id}`);
      expect([id, page.status]).toEqual([id, 404]);
      expect(page.body).toContain('<h1>Order not found</h1>');
      expect(page.body).not.toContain('Blue mug');
    }
    // The production order in production, and the sandbox one not there.
    await browser.submit(PAYMENTS, '/dashboard/environment', {
      environment: 'production',
      return_to: PAYMENTS,
    });
    expect((await browser.get(`${PAYMENTS}/${ids.production}`)).status).toBe(200);
    expect((await browser.get(`${PAYMENTS}/${ids.paid}`)).status).toBe(404);
    // The other account sees its own order, not the shop's.
    const stranger = await signedIn(other.adminToken);
    expect((await stranger.get(`${PAYMENTS}/${ids.others[0]}`)).status).toBe(200);
    expect((await stranger.get(`${PAYMENTS}/${ids.paid}`)).status).toBe(404);
    expect(await ordersState()).toEqual(before);
  });
});
