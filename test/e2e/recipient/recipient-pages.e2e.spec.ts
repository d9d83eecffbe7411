import {
  client,
  Gateway,
  merchant,
  Merchant,
  newKey,
  OPERATOR_TOKEN,
  startGateway,
} from '../api/gateway-harness';
import { recipientClient } from './recipient-client';

/**
 * The recipient pages' HTTP contract, without a browser: statuses, cookies, security headers,
 * CSRF, and that only the pages take form posts. (The flows themselves run in Chromium:
 * test/e2e/browser.)
 */
describe('the recipient pages over HTTP', () => {
  let gateway: Gateway;
  let shop: Merchant;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    gateway = await startGateway('pglite', { DEV_MAILBOX: 'true' });
    call = client(gateway.url);
    shop = await merchant(call, '100.00');
  });
  afterAll(() => gateway.close());

  const { open, post } = recipientClient(() => gateway.url);

  async function linkPayout(email = 'jane@example.com') {
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: {
        amount: '10.00',
        merchant_reference: `pages-${newKey()}`,
        delivery: 'link',
        customer_email: email,
      },
    });
    expect(created.status).toBe(201);
    return created.body as { payout_id: string; payout_url: string };
  }

  it('trades the link for an HttpOnly, SameSite session cookie and sends the browser on without the token', async () => {
    const payout = await linkPayout();
    const { entered, page } = await open(payout.payout_url);
    expect(entered.headers.get('location')).toBe('/sandbox/recipient');
    expect(entered.headers.get('set-cookie')).toMatch(
      /^payout_session=[A-Za-z0-9_-]{43}; Path=\/sandbox\/recipient; HttpOnly; SameSite=Lax$/,
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // As @fastify/helmet writes it: the directives joined by ";".
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none';style-src 'self';img-src 'self';form-action 'self';frame-ancestors 'none';base-uri 'none'",
    );
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 404 pages for unknown or malformed tokens and for a token under the other environment', async () => {
    const payout = await linkPayout();
    const token = payout.payout_url.split('/').pop()!;
    const unknown = `${token.split('.')[0]}.${'A'.repeat(43)}`;
    for (const path of [
      '/sandbox/claim/nonsense',
      `/sandbox/claim/${unknown}`,
      `/claim/${token}`,
      `/sandbox/handoff/${token}`,
    ]) {
      const answer = await fetch(gateway.url + path, { redirect: 'manual' });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await answer.text()).toContain('This link is not valid');
    }
  });

  it('answers 401 without a session and 403 for a form without the right CSRF token, changing nothing', async () => {
    const payout = await linkPayout('csrf@example.com');
    const { cookie, csrf } = await open(payout.payout_url);
    expect((await fetch(`${gateway.url}/sandbox/recipient`)).status).toBe(401);
    expect((await post('/sandbox/recipient/send-code', undefined, { csrf_token: csrf })).status).toBe(401);
    expect((await post('/sandbox/recipient/send-code', cookie, {})).status).toBe(403);
    expect((await post('/sandbox/recipient/send-code', cookie, { csrf_token: `${csrf}x` })).status).toBe(403);
    expect(
      (
        await post('/sandbox/recipient/details', cookie, {
          csrf_token: 'x',
          method: 'wallet',
          wallet_handle: 'a@b.co',
        })
      ).status,
    ).toBe(403);
    // The right token works: a code is sent and the page asks for it.
    const sent = await post('/sandbox/recipient/send-code', cookie, { csrf_token: csrf });
    expect([sent.status, sent.headers.get('location')]).toEqual([303, '/sandbox/recipient?sent=1']);
  });

  it('refuses details before the e-mail is verified', async () => {
    const payout = await linkPayout('unverified@example.com');
    const { cookie, csrf } = await open(payout.payout_url);
    const answer = await post('/sandbox/recipient/details', cookie, {
      csrf_token: csrf,
      method: 'wallet',
      wallet_handle: 'someone@example.com',
    });
    expect([answer.status, answer.headers.get('location')]).toEqual([303, '/sandbox/recipient']);
    const confirm = await post('/sandbox/recipient/confirm', cookie, { csrf_token: csrf });
    expect(confirm.status).toBe(303);
    const got = await call('GET', `/sandbox/api/payout/${payout.payout_id}`, { token: shop.token });
    expect(got.body.status).toBe('awaiting_choice');
  });

  it('keeps form posts out of the JSON API (415) and malformed forms out of the pages (400)', async () => {
    const api = await fetch(`${gateway.url}/sandbox/api/payout/create`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${shop.token}`,
        'idempotency-key': newKey(),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'amount=10.00&merchant_reference=form&delivery=link&customer_email=a%40b.co',
    });
    expect(api.status).toBe(415);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
    const payout = await linkPayout('dup@example.com');
    const { cookie } = await open(payout.payout_url);
    const duplicate = await fetch(`${gateway.url}/sandbox/recipient/send-code`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: 'csrf_token=a&csrf_token=b',
    });
    expect(duplicate.status).toBe(400);
  });

  const asOperator = { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } };

  it('shows the e-mails in the development mailbox (DEV_MAILBOX=true, no SMTP_URL) to the operator', async () => {
    const payout = await linkPayout('mailbox@example.com');
    const { cookie, csrf } = await open(payout.payout_url);
    await post('/sandbox/recipient/send-code', cookie, { csrf_token: csrf });
    const list = await fetch(`${gateway.url}/dev/mailbox`, asOperator);
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain('mailbox@example.com');
    const id = /href="\/dev\/mailbox\/([^"]+)"/.exec(html)![1]!;
    const message = await (await fetch(`${gateway.url}/dev/mailbox/${id}`, asOperator)).text();
    expect(message).toMatch(/Your verification code is \d{6}\./);
    expect((await fetch(`${gateway.url}/dev/mailbox/..%2F..%2Fetc%2Fpasswd`, asOperator)).status).toBe(404);
  });

  it('answers 401 unauthenticated to the mailbox and its messages without the operator token', async () => {
    const payout = await linkPayout('mailbox-closed@example.com');
    const { cookie, csrf } = await open(payout.payout_url);
    await post('/sandbox/recipient/send-code', cookie, { csrf_token: csrf });
    const id = /href="\/dev\/mailbox\/([^"]+)"/.exec(
      await (await fetch(`${gateway.url}/dev/mailbox`, asOperator)).text(),
    )![1]!;
    const callers: [string, Record<string, string>][] = [
      ['no credential', {}],
      ['a wrong token', { authorization: `Bearer ${OPERATOR_TOKEN}x` }],
      ['a merchant credential', { authorization: `Bearer ${shop.token}` }],
      ['the token without Bearer', { authorization: OPERATOR_TOKEN }],
    ];
    for (const [caller, headers] of callers) {
      for (const path of ['/dev/mailbox', `/dev/mailbox/${id}`]) {
        const answer = await fetch(gateway.url + path, { headers });
        expect({ caller, path, status: answer.status }).toEqual({ caller, path, status: 401 });
        const body = await answer.text();
        expect(JSON.parse(body)).toEqual({ error: { code: 'unauthenticated', message: expect.any(String) } });
        expect(body).not.toMatch(/mailbox-closed|verification code|\d{6}/);
      }
    }
  });
});

describe('the development mailbox, off by default', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await startGateway('pglite');
  });
  afterAll(() => gateway.close());

  it('does not exist without DEV_MAILBOX=true: 404 not_found, even for the operator', async () => {
    const anyone: Record<string, string>[] = [{}, { authorization: `Bearer ${OPERATOR_TOKEN}` }];
    for (const headers of anyone) {
      for (const path of ['/dev/mailbox', '/dev/mailbox/2030-01-01T00-00-00.000Z-0123456789abcdef']) {
        const answer = await fetch(gateway.url + path, { headers });
        expect({ path, status: answer.status }).toEqual({ path, status: 404 });
        expect(await answer.json()).toEqual({ error: { code: 'not_found', message: 'no such endpoint' } });
      }
    }
  });
});

describe('a recipient who already asked for a code', () => {
  let gateway: Gateway;
  let shop: Merchant;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    gateway = await startGateway('pglite', { DEV_MAILBOX: 'true' });
    call = client(gateway.url);
    shop = await merchant(call, '100.00');
  });
  afterAll(() => gateway.close());

  const { open, post, codeFor } = recipientClient(() => gateway.url);
  const page = async (cookie: string) =>
    (await fetch(`${gateway.url}/sandbox/recipient`, { headers: { cookie } })).text();
  const codeForm = (html: string) =>
    html.includes('action="/sandbox/recipient/verify"') && html.includes('Send a new code');
  const sendForm = (html: string) =>
    !html.includes('action="/sandbox/recipient/verify"') && html.includes('Send me a code');

  async function linkPayout(email: string) {
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: {
        amount: '10.00',
        merchant_reference: `code-${newKey()}`,
        delivery: 'link',
        customer_email: email,
      },
    });
    expect(created.status).toBe(201);
    return created.body as { payout_id: string; payout_url: string };
  }

  it('is shown the code form on reload and through the link again, and the e-mailed code works there', async () => {
    const email = 'reload@example.com';
    const payout = await linkPayout(email);
    const first = await open(payout.payout_url);
    expect(sendForm(first.html)).toBe(true);
    await post('/sandbox/recipient/send-code', first.cookie, { csrf_token: first.csrf });

    // Reloaded (no ?sent=1), and in a new session opened with the same link.
    expect(codeForm(await page(first.cookie))).toBe(true);
    const back = await open(payout.payout_url);
    expect(codeForm(back.html)).toBe(true);

    // A new code is still subject to the resend pause.
    const resend = await post('/sandbox/recipient/send-code', back.cookie, { csrf_token: back.csrf });
    expect(resend.status).toBe(429);
    expect(resend.headers.get('retry-after')).toMatch(/^\d+$/);

    const verified = await post('/sandbox/recipient/verify', back.cookie, {
      csrf_token: back.csrf,
      code: await codeFor(email),
    });
    expect([verified.status, verified.headers.get('location')]).toEqual([303, '/sandbox/recipient']);
    expect(await page(back.cookie)).toContain('How would you like to be paid?');
    // Used up: another session of the link must ask for a code of its own.
    expect(sendForm(await page(first.cookie))).toBe(true);
  });

  it('is offered a new code once five wrong tries locked the one sent', async () => {
    const payout = await linkPayout('locked@example.com');
    const { cookie, csrf } = await open(payout.payout_url);
    await post('/sandbox/recipient/send-code', cookie, { csrf_token: csrf });
    const right = await codeFor('locked@example.com');
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1)
      await post('/sandbox/recipient/verify', cookie, { csrf_token: csrf, code: wrong });
    expect(sendForm(await page(cookie))).toBe(true);
  });

  // Last: it moves this gateway's sandbox clock.
  it('is offered a new code once the one sent has expired', async () => {
    const payout = await linkPayout('expired-code@example.com');
    const { cookie, csrf } = await open(payout.payout_url);
    await post('/sandbox/recipient/send-code', cookie, { csrf_token: csrf });
    expect(codeForm(await page(cookie))).toBe(true);
    const advanced = await call('POST', '/operator/sandbox/clock', {
      token: OPERATOR_TOKEN,
      body: { advance_seconds: 10 * 60 },
    });
    expect(advanced.status).toBe(200);
    expect(sendForm(await page(cookie))).toBe(true);
  });
});

describe('the recipient pages name the merchant that pays', () => {
  // Markup characters in the name: every page must show them as text, never as markup.
  const NAME = `Tom & Jerry's <b>Shop</b>`;
  // As the page kit's renderer escapes text: "&" and "<" (a ">" or "'" in text is no markup).
  const ESCAPED = "Tom &amp; Jerry's &lt;b>Shop&lt;/b>";
  let gateway: Gateway;
  let shop: Merchant;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    gateway = await startGateway('pglite', { DEV_MAILBOX: 'true' });
    call = client(gateway.url);
    shop = await merchant(call, '100.00', { name: NAME, origins: ['https://shop.example.com'] });
  });
  afterAll(() => gateway.close());

  const { local, open, post, codeFor } = recipientClient(() => gateway.url);
  const page = async (cookie: string, query = '') =>
    (await fetch(`${gateway.url}/sandbox/recipient${query}`, { headers: { cookie } })).text();

  function expectNamed(html: string, phrase = 'is sending you'): void {
    expect(html).toContain(`${ESCAPED} ${phrase}`);
    expect(html).not.toContain('<b>Shop');
  }

  async function create(body: Record<string, string>) {
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: { amount: '25.00', merchant_reference: `named-${newKey()}`, ...body },
    });
    expect(created.status).toBe(201);
    return created.body as { payout_id: string; payout_url: string };
  }

  it('on every page of a link payout: landing, code entry, choice, confirmation and status', async () => {
    const email = 'named-link@example.com';
    const payout = await create({ delivery: 'link', customer_email: email });
    const landing = await open(payout.payout_url);
    expectNamed(landing.html);
    expect(landing.html).toContain('$25.00');
    const { cookie, csrf } = landing;

    await post('/sandbox/recipient/send-code', cookie, { csrf_token: csrf });
    const codeEntry = await page(cookie, '?sent=1');
    expect(codeEntry).toContain('Verification code');
    expectNamed(codeEntry);

    const verified = await post('/sandbox/recipient/verify', cookie, {
      csrf_token: csrf,
      code: await codeFor(email),
    });
    expect(verified.status).toBe(303);
    const choose = await page(cookie);
    expect(choose).toContain('How would you like to be paid?');
    expectNamed(choose);

    await post('/sandbox/recipient/details', cookie, {
      csrf_token: csrf,
      method: 'wallet',
      wallet_handle: 'named@example.com',
    });
    const confirm = await page(cookie);
    expect(confirm).toContain('Confirm your payout');
    expectNamed(confirm);

    await post('/sandbox/recipient/confirm', cookie, { csrf_token: csrf });
    const status = await page(cookie);
    expect(status).toMatch(/data-status="(processing|paid)"/);
    expect(status).toContain(ESCAPED);
    expect(status).not.toContain('<b>Shop');
    // The claim link itself, after the confirm, shows the status page too.
    const again = await fetch(local(payout.payout_url), { redirect: 'manual' });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain(ESCAPED);
  });

  it('on the pages a redirect handoff opens', async () => {
    const payout = await create({
      delivery: 'redirect',
      customer_id: 'cus_named',
      return_url: 'https://shop.example.com/back',
    });
    const { html } = await open(payout.payout_url);
    expect(html).toContain('How would you like to be paid?');
    expectNamed(html);
  });

  it('on the status page of a cancelled payout', async () => {
    const payout = await create({ delivery: 'link', customer_email: 'named-cancelled@example.com' });
    const cancelled = await call('POST', `/sandbox/api/payout/${payout.payout_id}/cancel`, {
      token: shop.token,
      key: newKey(),
    });
    expect(cancelled.status).toBe(200);
    const gone = await fetch(local(payout.payout_url), { redirect: 'manual' });
    expect(gone.status).toBe(410);
    expectNamed(await gone.text(), 'was sending you');
  });
});

describe('the recipient pages behind https', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await startGateway('pglite', { PUBLIC_BASE_URL: 'https://pay.example.com' });
  });
  afterAll(() => gateway.close());

  it('marks the session cookie Secure and sends HSTS', async () => {
    const call = client(gateway.url);
    const shop = await merchant(call, '100.00');
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: {
        amount: '10.00',
        merchant_reference: 'https-1',
        delivery: 'link',
        customer_email: 'a@example.com',
      },
    });
    expect(created.body.payout_url).toMatch(/^https:\/\/pay\.example\.com\/sandbox\/claim\//);
    const entered = await fetch(created.body.payout_url.replace('https://pay.example.com', gateway.url), {
      redirect: 'manual',
    });
    expect(entered.headers.get('set-cookie')).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
    expect(entered.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });
});
