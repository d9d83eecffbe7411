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
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
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
    expect(entered.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    expect(entered.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });
});
