import { createHmac } from 'node:crypto';
import type { SqlClient } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { SQL_CLIENT } from '@payouts/platform';
import { countEvents } from '../../../libs/event-store/src/testing/stored-events';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import {
  Call,
  client,
  Gateway,
  merchant,
  Merchant,
  OPERATOR_TOKEN,
  startGateway,
} from '../api/gateway-harness';
import { orderBody } from '../checkout/checkout-harness';
import { Payer } from '../checkout/page-client';
import { PageAnswer, PageBrowser } from './page-browser';

const SETTINGS = '/dashboard/settings';
const TEST_BODY = '{"order_id":0,"status":"SUCCESS","amount":1,"product":"Test webhook"}';

/** The page's text with the renderer's escapes undone, for reading messages as people do. */
const text = (page: PageAnswer) =>
  page.body
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const fieldError = (page: PageAnswer, field: string) =>
  new RegExp(`<p class="error" id="field-${field}-error">([^<]*)</p>`).exec(page.body)?.[1];
const textarea = (page: PageAnswer, name: string) =>
  new RegExp(`<textarea id="field-${name}"[^>]*>([^<]*)</textarea>`).exec(page.body)?.[1];
const inputValue = (page: PageAnswer, id: string) =>
  new RegExp(`id="${id}"[^>]*value="([^"]*)"`).exec(page.body)?.[1];
const selected = (page: PageAnswer, name: string) =>
  new RegExp(`<select id="field-${name}"[^]*?<option value="([^"]*)" selected`).exec(page.body)?.[1];
const unescape = (value: string | undefined) => value?.replace(/&amp;/g, '&').replace(/&quot;/g, '"');

/**
 * The Settings page over real HTTP against the embedded start (webhook targets on loopback
 * allowed, so a real receiver stands in for the merchant's URL): every form, each refusal with
 * nothing changed, another account's ids, and the environment switch.
 */
describe('dashboard Settings (real HTTP)', () => {
  let gateway: Gateway;
  let call: Call;
  let receiver: TestReceiver;
  let shop: Merchant;
  let browser: PageBrowser;
  let db: SqlClient;

  /** What a refusal must leave as it was: settings, credentials, time zone and the event log. */
  const state = async (): Promise<string> => {
    const events = await countEvents(new PostgresEventStore(db));
    const { rows } = await db.query<{ state: string }>(
      `SELECT json_build_object(
         'accounts', (SELECT json_agg(json_build_object('id', account_id, 'zone', time_zone) ORDER BY account_id) FROM accounts),
         'credentials', (SELECT json_agg(json_build_object('id', credential_id, 'revoked', revoked_at) ORDER BY credential_id) FROM credentials),
         'environments', (SELECT json_agg(e ORDER BY e.account_id, e.environment) FROM account_environments e),
         'webhooks', (SELECT count(*) FROM webhook_events),
         'events', $1::bigint
       )::text AS state`,
      [events],
    );
    return rows[0]!.state;
  };

  const signIn = async (adminToken: string): Promise<PageBrowser> => {
    const signedIn = new PageBrowser(gateway.url);
    const answer = await signedIn.submit('/dashboard', '/dashboard/sign-in', { admin_token: adminToken });
    expect(answer.status).toBe(303);
    return signedIn;
  };
  const useEnvironment = async (on: PageBrowser, environment: 'production' | 'sandbox') => {
    const switched = await on.submit(SETTINGS, '/dashboard/environment', {
      environment,
      return_to: SETTINGS,
    });
    expect([switched.status, switched.headers.location]).toEqual([303, SETTINGS]);
  };
  /** Posts a Settings form, with the page's CSRF token, as the browser would. */
  const send = (action: string, fields: Record<string, string>, on = browser) =>
    on.submit(SETTINGS, `${SETTINGS}/${action}`, fields);
  /** A refusal: the page again with the status, the message at the field, and nothing changed. */
  const expectRefused = async (
    action: string,
    fields: Record<string, string>,
    status: number,
    message: string,
    field?: string,
    on = browser,
  ) => {
    const before = await state();
    const answer = await send(action, fields, on);
    expect(answer.status).toBe(status);
    expect(answer.body).toContain('<title>Settings · Payouts</title>');
    expect(text(answer)).toContain(`Nothing was changed: `);
    expect(text(answer)).toContain(message);
    if (field) expect(unescape(fieldError(answer, field))).toBe(message);
    expect(await state()).toBe(before);
    return answer;
  };
  const operator = { token: OPERATOR_TOKEN };

  beforeAll(async () => {
    gateway = await startGateway('pglite', { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' });
    call = client(gateway.url);
    db = gateway.app.get<SqlClient>(SQL_CLIENT);
    receiver = await TestReceiver.start();
    // Approved, payouts on in the sandbox and a sandbox payout credential; production untouched.
    shop = await merchant(call, '0.00', { name: 'Shop' });
    browser = await signIn(shop.adminToken);
  });
  afterAll(async () => {
    await gateway?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.answer = () => ({ status: 200, body: 'ok' });
  });

  it('sends a browser without a session to sign in, for the page and its forms alike', async () => {
    const stranger = new PageBrowser(gateway.url);
    const answer = await stranger.get(SETTINGS);
    expect([answer.status, answer.headers.location]).toEqual([303, '/dashboard']);
    const before = await state();
    // A valid form token (from the sign-in page) but no session: nothing is done.
    const post = await stranger.submit('/dashboard', `${SETTINGS}/payouts`, { enabled: 'true' });
    expect([post.status, post.headers.location]).toEqual([303, '/dashboard']);
    expect(await state()).toBe(before);
  });

  it('shows every section of production, with its empty lists saying what to do', async () => {
    const page = await browser.get(SETTINGS);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body.match(/<h1>/g)).toHaveLength(1);
    const headings = [...page.body.matchAll(/<h([23])[^>]*>([^<]+)<\/h\1>/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(headings).toEqual([
      '2 Payouts',
      '2 Return URL origins',
      '2 Retained target',
      '2 Pricing',
      '2 Time zone',
      '2 Credentials',
      '3 Issue a credential',
      '2 Checkout webhook',
      '3 Send test webhook',
      '3 Delivery log',
    ]);
    expect(page.body).toContain('are those of <strong>production</strong>');
    expect(page.body).toContain('<dd>Approved</dd>');
    expect(page.body).toMatch(/Payouts in production<\/dt><dd>Off<\/dd>/);
    expect(page.body).toContain('value="true" class="primary">Switch payouts on</button>');
    // The default pricing (the operator's GET answers the same), read only.
    expect(page.body).toMatch(
      /<td>Card<\/td><td class="numeric">2.90%<\/td><td class="numeric">0.30<\/td><td class="numeric">2 days<\/td>/,
    );
    expect(page.body).toMatch(
      /<td>Mobile wallet<\/td><td class="numeric">1.50%<\/td><td class="numeric">0.00<\/td><td class="numeric">1 day<\/td>/,
    );
    expect(page.body).toContain('Retained in USD</dt><dd>0.00 USD</dd>');
    expect(selected(page, 'time_zone')).toBe('UTC');
    expect(page.body).toContain('No credentials in production yet');
    expect(page.body).toContain('No checkout webhooks sent in production yet');
    expect(page.body).toContain('Save a checkout webhook URL first.');
    expect(page.body).toMatch(/<label for="field-origins">Origins, one a line<\/label>/);
    expect(page.body).toMatch(/<legend>Scopes<\/legend>/);
    expect(page.body).toMatch(
      /<input id="field-scope_payouts_read" type="checkbox" name="scope_payouts_read"\/><label for="field-scope_payouts_read">/,
    );
  });

  it('switches payouts on and off in the session’s environment, and refuses a value that is neither', async () => {
    const on = await send('payouts', { enabled: 'true' });
    expect([on.status, on.headers.location]).toEqual([303, `${SETTINGS}?notice=payouts_on`]);
    const page = await browser.get(on.headers.location as string);
    expect(page.body).toContain('Payouts are switched on in production.');
    expect(page.body).toMatch(/Payouts in production<\/dt><dd>On<\/dd>/);
    const off = await send('payouts', { enabled: 'false' });
    expect(off.headers.location).toBe(`${SETTINGS}?notice=payouts_off`);
    const { rows } = await db.query<{ environment: string; payouts_enabled: boolean }>(
      'SELECT environment, payouts_enabled FROM account_environments WHERE account_id = $1 ORDER BY environment',
      [shop.accountId],
    );
    // The sandbox's switch (on since the account was set up) was not touched.
    expect(rows).toEqual([
      { environment: 'production', payouts_enabled: false },
      { environment: 'sandbox', payouts_enabled: true },
    ]);
    await expectRefused('payouts', { enabled: 'maybe' }, 400, 'enabled must be true or false');
  });

  it('shows an account the operator has not approved that its payouts are refused', async () => {
    const created = await call('POST', '/operator/accounts', {
      ...operator,
      body: { name: 'New', region: 'US' },
    });
    const newcomer = await signIn(created.body.admin_token);
    const page = await newcomer.get(SETTINGS);
    expect(page.body).toContain('<dd>Not approved yet</dd>');
    expect(text(page)).toContain('every payout request is refused (');
    expect(page.body).toContain('<code>payouts_not_approved</code>');
  });

  it('saves the return URL origins normalised, once each, and refuses ones return_url could not use', async () => {
    const saved = await send('return-url-origins', {
      origins: 'https://Shop.example.com\r\n\r\n  http://localhost:3000  \r\nhttps://shop.example.com:443',
    });
    expect(saved.headers.location).toBe(`${SETTINGS}?notice=origins_saved`);
    const page = await browser.get(SETTINGS);
    expect(textarea(page, 'origins')).toBe('https://shop.example.com\nhttp://localhost:3000');
    const wildcard = await expectRefused(
      'return-url-origins',
      { origins: 'https://ok.example.com\nhttps://*.example.com' },
      400,
      'origins[1] must be an http(s) origin such as https://shop.example.com',
      'origins',
    );
    // What was typed is shown again, to be corrected.
    expect(textarea(wildcard, 'origins')).toBe('https://ok.example.com\nhttps://*.example.com');
    await expectRefused(
      'return-url-origins',
      { origins: 'https://shop_name.example.com' },
      400,
      'origins[0] has a host that return_url does not accept (no underscore, no trailing dot)',
      'origins',
    );
  });

  it('sets the retained target of a ledger and refuses a malformed amount or a currency with no ledger', async () => {
    const saved = await send('retained-target', { amount: '250.00', currency: 'USD' });
    expect(saved.headers.location).toBe(`${SETTINGS}?notice=retained_target_saved`);
    // The balance read model, as Get Payout Balance reads it, follows the ledger's event.
    await eventually(async () =>
      (await browser.get(SETTINGS)).body.includes('Retained in USD</dt><dd>250.00 USD</dd>')
        ? true
        : undefined,
    );
    const amount = await expectRefused(
      'retained-target',
      { amount: '12.345', currency: 'USD' },
      400,
      'amount must be a decimal string with at most 2 decimal places',
      'amount',
    );
    expect(inputValue(amount, 'field-amount')).toBe('12.345');
    await expectRefused(
      'retained-target',
      { amount: '1.00', currency: 'XYZ' },
      400,
      'no ledger is kept in XYZ',
      'currency',
    );
  });

  it('issues credentials showing the token (and a checkout key’s secret) once, lists them, and refuses wrong kinds and scopes', async () => {
    const payout = await send('credentials', { kind: 'payout', scope_payouts_read: 'on' });
    expect(payout.status).toBe(200);
    expect(payout.headers['cache-control']).toBe('no-store');
    const token = inputValue(payout, 'copy-token')!;
    expect(token).toMatch(/^pk_live_/);
    expect(payout.body).not.toContain('id="copy-secret"');
    expect(text(payout)).toContain('This is the only time the token is shown.');
    // The token works at once: the API knows it (production's payouts are off, which it says).
    const listed = await call('GET', '/api/payout/list', { token });
    expect([listed.status, listed.body.error.code]).toEqual([403, 'payouts_disabled']);

    const checkout = await send('credentials', { kind: 'checkout' });
    const key = inputValue(checkout, 'copy-token')!;
    expect(key).toMatch(/^ck_live_/);
    expect(inputValue(checkout, 'copy-secret')).toMatch(/^cks_/);
    expect(text(checkout)).toContain('This is the only time the API key and its API secret are shown.');
    expect((await call('GET', '/payments', { token: key })).status).toBe(200);

    // Seen again, the page shows neither: only the last four characters.
    const page = await browser.get(SETTINGS);
    expect(page.body).not.toContain(token);
    expect(page.body).not.toContain(key);
    expect(page.body).toContain(`<code>${token.slice(-4)}</code>`);
    expect(page.body).toMatch(/<td>Payout<\/td><td>Production<\/td><td>payouts:read<\/td>/);
    expect(page.body).toContain('Showing 1–2 of 2 credentials');

    await expectRefused(
      'credentials',
      { kind: 'checkout', scope_payouts_write: 'on' },
      400,
      'checkout credentials carry no payout scopes',
      'scopes',
    );
    await expectRefused(
      'credentials',
      { kind: 'payout' },
      400,
      'a payout credential needs at least one scope',
      'scopes',
    );
    await expectRefused('credentials', { kind: 'admin' }, 400, 'kind must be "checkout" or "payout"', 'kind');
  });

  it('revokes a credential (refused by the API from then on); another account’s or an unknown id is 404 and revokes nothing', async () => {
    const issued = await send('credentials', {
      kind: 'payout',
      scope_payouts_read: 'on',
      scope_payouts_write: 'on',
    });
    const token = inputValue(issued, 'copy-token')!;
    const { rows } = await db.query<{ credential_id: string }>(
      'SELECT credential_id FROM credentials WHERE account_id = $1 AND token_hint = $2',
      [shop.accountId, token.slice(-4)],
    );
    const credentialId = rows[0]!.credential_id;
    const revoked = await send('credentials/revoke', { credential_id: credentialId });
    expect(revoked.headers.location).toBe(`${SETTINGS}?notice=credential_revoked`);
    expect((await call('GET', '/api/payout/list', { token })).status).toBe(401);
    const page = await browser.get(revoked.headers.location as string);
    expect(page.body).toContain('The credential is revoked');
    expect(page.body).toContain(`Revoke<span class="visually-hidden"> the credential ending in`);
    expect(page.body).not.toContain(`value="${credentialId}"`);

    // The sandbox payout credential of another account: refused as not found, and still usable.
    const other = await merchant(call, '0.00', { name: 'Other' });
    const { rows: others } = await db.query<{ credential_id: string }>(
      'SELECT credential_id FROM credentials WHERE account_id = $1',
      [other.accountId],
    );
    await expectRefused(
      'credentials/revoke',
      { credential_id: others[0]!.credential_id },
      404,
      'no such credential',
    );
    expect((await call('GET', '/sandbox/api/payout/list', { token: other.token })).status).toBe(200);
    await expectRefused('credentials/revoke', { credential_id: 'cred_unknown' }, 404, 'no such credential');
  });

  it('shows every time in the account’s time zone once it is set, and refuses a zone not in the list', async () => {
    const before = await browser.get(SETTINGS);
    const created = /<time datetime="([^"]+)" title="[^"]+">([^<]+)<\/time>/.exec(before.body)!;
    expect(created[2]).toMatch(/ UTC$/);
    const saved = await send('time-zone', { time_zone: 'Asia/Tokyo' });
    expect(saved.headers.location).toBe(`${SETTINGS}?notice=time_zone_saved`);
    const after = await browser.get(SETTINGS);
    expect(selected(after, 'time_zone')).toBe('Asia/Tokyo');
    const tokyo = new Date(new Date(created[1]!).getTime() + 9 * 3_600_000).toISOString();
    const shown = new RegExp(`<time datetime="${created[1]}" title="[^"]+">([^<]+)</time>`).exec(
      after.body,
    )![1]!;
    expect(shown).toMatch(/ GMT\+9$/);
    expect(shown).toContain(`${tokyo.slice(11, 19)}`);
    await expectRefused(
      'time-zone',
      { time_zone: 'Mars/Olympus_Mons' },
      400,
      'choose a time zone from the list',
      'time_zone',
    );
    await send('time-zone', { time_zone: 'UTC' });
  });

  it('saves the checkout webhook URL checked as the API checks it, and refuses a URL no delivery may use', async () => {
    await useEnvironment(browser, 'sandbox');
    const saved = await send('checkout-webhook', { url: receiver.url('/hooks/checkout') });
    expect(saved.headers.location).toBe(`${SETTINGS}?notice=webhook_saved`);
    const page = await browser.get(SETTINGS);
    expect(inputValue(page, 'field-url')).toBe(receiver.url('/hooks/checkout'));
    const privateAddress = await expectRefused(
      'checkout-webhook',
      { url: 'http://10.0.0.1/hook' },
      400,
      '10.0.0.1 is not a public address',
    );
    expect(unescape(fieldError(privateAddress, 'url'))).toMatch(/^10\.0\.0\.1 is not a public address/);
    expect(inputValue(privateAddress, 'field-url')).toBe('http://10.0.0.1/hook');
    await expectRefused(
      'checkout-webhook',
      { url: 'https://user:secret@shop.example.com/hook' },
      400,
      'the URL must not contain a user name or password',
      'url',
    );
    await expectRefused('checkout-webhook', { url: '' }, 400, 'url must be 1 to 2048 characters', 'url');
  });

  it('sends the test webhook signed with the chosen key’s secret, and shows each refusal', async () => {
    // Sandbox (switched to above): the URL is the receiver's.
    const issued = await send('credentials', { kind: 'checkout' });
    const secret = inputValue(issued, 'copy-secret')!;
    const key = inputValue(issued, 'copy-token')!;
    const { rows } = await db.query<{ credential_id: string }>(
      'SELECT credential_id FROM credentials WHERE account_id = $1 AND token_hint = $2',
      [shop.accountId, key.slice(-4)],
    );
    const credentialId = rows[0]!.credential_id;
    const page = await browser.get(SETTINGS);
    expect(page.body).toContain(
      `<option value="${credentialId}">Checkout credential ending in ${key.slice(-4)}</option>`,
    );

    receiver.received.length = 0;
    const sent = await send('checkout-webhook/test', { signing_credential_id: credentialId });
    expect(sent.headers.location).toBe(`${SETTINGS}?notice=test_webhook_delivered`);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.rawBody).toBe(TEST_BODY);
    expect(receiver.received[0]!.headers['x-service-signature']).toBe(
      createHmac('sha256', secret).update(TEST_BODY).digest('hex'),
    );

    receiver.answer = () => ({ status: 500, body: 'down' });
    await expectRefused(
      'checkout-webhook/test',
      { signing_credential_id: credentialId },
      502,
      'the webhook URL did not accept the test (it answered 500)',
    );
    // The sandbox payout credential cannot sign; another account's is not found.
    const { rows: payoutCredential } = await db.query<{ credential_id: string }>(
      `SELECT credential_id FROM credentials WHERE account_id = $1 AND kind = 'payout' AND environment = 'sandbox'`,
      [shop.accountId],
    );
    await expectRefused(
      'checkout-webhook/test',
      { signing_credential_id: payoutCredential[0]!.credential_id },
      400,
      'sign with an active checkout credential of sandbox',
      'signing_credential_id',
    );
    const other = await call('POST', '/operator/accounts', {
      ...operator,
      body: { name: 'Third', region: 'US' },
    });
    const othersKey = await call('POST', '/dashboard/credentials', {
      token: other.body.admin_token,
      body: { kind: 'checkout', environment: 'sandbox' },
    });
    await expectRefused(
      'checkout-webhook/test',
      { signing_credential_id: othersKey.body.credential_id },
      404,
      'no such credential',
      'signing_credential_id',
    );
    // Production has no URL: the page offers no test there, and a posted one is refused.
    await useEnvironment(browser, 'production');
    const { rows: productionKey } = await db.query<{ credential_id: string }>(
      `SELECT credential_id FROM credentials WHERE account_id = $1 AND kind = 'checkout' AND environment = 'production' AND revoked_at IS NULL`,
      [shop.accountId],
    );
    await expectRefused(
      'checkout-webhook/test',
      { signing_credential_id: productionKey[0]!.credential_id },
      409,
      'no checkout webhook URL is set for production: save one first',
      'url',
    );
    await useEnvironment(browser, 'sandbox');
  });

  it('lists the checkout webhook’s attempts, newest first, a page at a time, with status, latency and error', async () => {
    // Sandbox orders made with the key issued above capture the receiver's URL; one is refused.
    const { rows } = await db.query<{ credential_id: string }>(
      `SELECT credential_id FROM credentials WHERE account_id = $1 AND kind = 'checkout' AND environment = 'sandbox'`,
      [shop.accountId],
    );
    expect(rows).toHaveLength(1);
    const issued = await send('credentials', { kind: 'checkout' });
    const key = inputValue(issued, 'copy-token')!;
    receiver.answer = (request) =>
      request.rawBody.includes('"product":"Refused mug"')
        ? { status: 503, body: 'busy' }
        : { status: 200, body: 'ok' };
    const paid = await Promise.all(
      Array.from({ length: 11 }, async (_, index) => {
        const product = index === 0 ? 'Refused mug' : `Mug ${index}`;
        const created = await call('POST', '/sandbox/card', { token: key, body: orderBody({ product }) });
        expect(created.status).toBe(200);
        const payer = new Payer(`${gateway.url}${new URL(created.body.order_url as string).pathname}`);
        // The page reads the order's view, which the projector writes a moment after the order.
        await eventually(async () => ((await payer.open()).status === 200 ? true : undefined));
        expect((await payer.payByCard('4242 4242 4242 4242')).status).toBe(303);
        return created.body.order_id as number;
      }),
    );
    const first = await eventually(async () => {
      const page = await browser.get(SETTINGS);
      return page.body.includes('Showing 1–10 of 11 attempts') ? page : undefined;
    });
    expect(first.body.match(/<td>Delivered<\/td>/g)?.length ?? 0).toBeGreaterThanOrEqual(9);
    const next = /<a href="([^"]+)">Next page<\/a>/.exec(
      first.body.slice(first.body.indexOf('Pages of attempts')),
    )![1]!;
    expect(next).toBe(`${SETTINGS}?log_offset=10#checkout-webhook-log`);
    const second = await browser.get(unescape(next)!);
    expect(second.body).toContain('Showing 11–11 of 11 attempts');
    const all = first.body + second.body;
    for (const orderId of paid) expect(all).toContain(`<td class="numeric">${orderId}</td>`);
    expect(all).toMatch(
      new RegExp(
        `<td class="numeric">${paid[0]}</td><td>1 of 4</td><td>Failed</td><td class="numeric">503</td><td class="numeric">\\d+ ms</td><td>[^<]*503`,
      ),
    );
    expect(all).toMatch(
      /<td>Delivered<\/td><td class="numeric">200<\/td><td class="numeric">\d+ ms<\/td><td>—<\/td>/,
    );
  });

  it('shows the other environment’s settings, credentials, pricing and log after the switch', async () => {
    const pricing = await call('PUT', `/operator/accounts/${shop.accountId}/pricing`, {
      ...operator,
      body: { environment: 'sandbox', methods: { card: { percent: '3.10', fixed: '0.25' } } },
    });
    expect(pricing.status).toBe(200);
    const sandbox = await browser.get(SETTINGS);
    expect(sandbox.body).toContain('are those of <strong>the sandbox</strong>');
    expect(sandbox.body).toMatch(/Payouts in the sandbox<\/dt><dd>On<\/dd>/);
    expect(sandbox.body).toMatch(
      /<td>Card<\/td><td class="numeric">3.10%<\/td><td class="numeric">0.25<\/td>/,
    );
    expect(textarea(sandbox, 'origins')).toBe('');
    expect(sandbox.body).toContain('Retained in USD</dt><dd>0.00 USD</dd>');
    expect(sandbox.body).toMatch(/<td>Payout<\/td><td>Sandbox<\/td><td>payouts:read, payouts:write<\/td>/);
    expect(sandbox.body).not.toContain('<td>Production</td>');
    expect(sandbox.body).toContain('of 11 attempts');

    await useEnvironment(browser, 'production');
    const production = await browser.get(SETTINGS);
    expect(production.body).toMatch(
      /<td>Card<\/td><td class="numeric">2.90%<\/td><td class="numeric">0.30<\/td>/,
    );
    expect(textarea(production, 'origins')).toBe('https://shop.example.com\nhttp://localhost:3000');
    expect(production.body).toContain('Retained in USD</dt><dd>250.00 USD</dd>');
    expect(production.body).not.toContain('<td>Sandbox</td>');
    expect(inputValue(production, 'field-url') ?? '').toBe('');
    expect(production.body).toContain('No checkout webhooks sent in production yet');
  });

  it('pages through the credentials, 20 at a time, with their total', async () => {
    const issued = await Promise.all(
      Array.from({ length: 20 }, () =>
        call('POST', '/dashboard/credentials', {
          token: shop.adminToken,
          body: { kind: 'payout', environment: 'sandbox', scopes: ['payouts:read'] },
        }),
      ),
    );
    expect(issued.every((answer) => answer.status === 201)).toBe(true);
    await useEnvironment(browser, 'sandbox');
    // The sandbox's: 20 here, the setup's payout credential and the two checkout keys.
    const first = await browser.get(SETTINGS);
    expect(first.body).toContain('Showing 1–20 of 23 credentials');
    const next = /<a href="([^"]+)">Next page<\/a>/.exec(first.body)![1]!;
    expect(unescape(next)).toBe(`${SETTINGS}?credentials_offset=20#credentials`);
    const second = await browser.get(unescape(next)!);
    expect(second.body).toContain('Showing 21–23 of 23 credentials');
    expect(second.body).toContain('Previous page');
  });
});
