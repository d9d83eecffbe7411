import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@payouts/config';
import { createApp } from '@payouts/platform';
import { ProjectorAppModule } from '../../../apps/projector/src/projector-app.module';
import { checkoutShop, orderBody } from '../checkout/checkout-harness';
import {
  Call,
  client,
  Gateway,
  linkBody,
  merchant,
  newKey,
  OPERATOR_TOKEN,
  startGateway,
} from './gateway-harness';
import { httpRequest, RawAnswer, rawRequest } from './raw-http';

/** A path written with its first character after `prefix` percent-encoded, hex digits in `hexCase`. */
const encodeFirstAfter = (prefix: string, path: string, hexCase: 'lower' | 'upper' = 'upper') => {
  const hex = path.charCodeAt(prefix.length).toString(16);
  return `${prefix}%${hexCase === 'upper' ? hex.toUpperCase() : hex}${path.slice(prefix.length + 1)}`;
};

/**
 * A path has one reading (docs/sandbox.md): the router decodes it once and picks the route, and the
 * environment is that route's. Before, the environment was read off the raw request target while
 * the router matched the decoded one, so `/%73andbox/payments` with a production key answered
 * production data through the sandbox route. Raw HTTP throughout: fetch would normalise the targets.
 */
describe('one reading of a request path', () => {
  let gateway: Gateway;
  let call: Call;
  /** A production checkout key (ck_live_…) and payout credential (pk_live_…) of an approved account. */
  let live: { checkoutKey: string; payoutToken: string; orderId: number };

  beforeAll(async () => {
    gateway = await startGateway('pglite', { DEV_MAILBOX: 'true' });
    call = client(gateway.url);
    const shop = await checkoutShop(call, { name: 'Live Shop', environment: 'production' });
    const operator = { token: OPERATOR_TOKEN };
    const admin = { token: shop.adminToken };
    const accountPath = `/operator/accounts/${shop.accountId}`;
    expect(
      (await call('POST', `${accountPath}/payouts-approval`, { ...operator, body: { approved: true } }))
        .status,
    ).toBe(200);
    expect(
      (
        await call('POST', `${accountPath}/funds`, {
          ...operator,
          body: { environment: 'production', amount: '250.00' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('PUT', '/dashboard/payouts-enabled', {
          ...admin,
          body: { environment: 'production', enabled: true },
        })
      ).status,
    ).toBe(200);
    const credential = await call('POST', '/dashboard/credentials', {
      ...admin,
      body: { kind: 'payout', environment: 'production' },
    });
    expect(credential.body.token).toMatch(/^pk_live_/);
    expect(shop.key).toMatch(/^ck_live_/);
    const order = await call('POST', '/card', { token: shop.key, body: orderBody() });
    expect(order.status).toBe(200);
    live = { checkoutKey: shop.key, payoutToken: credential.body.token, orderId: order.body.order_id };
  });
  afterAll(() => gateway.close());

  const get = (target: string, token?: string) =>
    rawRequest(gateway.url, httpRequest('GET', target, token ? [`Authorization: Bearer ${token}`] : []));

  function expectJsonError(answer: RawAnswer, status: number, code: string, message: RegExp) {
    expect({ status: answer.status, body: answer.json }).toEqual({
      status,
      body: { error: { code, message: expect.stringMatching(message) } },
    });
    expect(answer.headers.get('content-type')).toEqual([expect.stringMatching(/^application\/json/)]);
    expect(answer.headers.get('request-id')).toEqual([expect.stringMatching(/^req_[\w-]+$/)]);
  }

  describe('on the API', () => {
    it.each([
      ['/%73andbox/payments', 'checkout'],
      ['/%73andbox/api/payout/balance', 'payout'],
      ['/sa%6Edbox/payments', 'checkout'],
      ['/sa%6edbox/api/payout/balance', 'payout'],
      ['/%70ayments', 'checkout'],
      ['/api/payout/%62alance', 'payout'],
      ['/sandbox/api/payout/bal%41nce', 'payout'],
      ['/sandbox%2Dx/payments', 'checkout'],
      ['/sandbox/payment%5Fstatus', 'checkout'],
      ['/sandbox/payments%7e', 'checkout'],
    ] as const)(
      'refuses %s, which percent-encodes a character that is never encoded, with a production %s key',
      async (target, kind) => {
        const answer = await get(target, kind === 'checkout' ? live.checkoutKey : live.payoutToken);
        const encoded = /%[0-9A-Fa-f]{2}/.exec(target)![0];
        expectJsonError(
          answer,
          400,
          'invalid_request',
          new RegExp(
            `^the request target is not valid: the path percent-encodes ${encoded}, a character that is sent as itself$`,
          ),
        );
      },
    );

    it.each([
      '/sandbox/../payments',
      '/sandbox/%2e%2e/payments',
      '/sandbox/%2E%2E/payments',
      '/sandbox/.%2e/payments',
      '/./payments',
      '/sandbox/./payments',
      '/%2e/payments',
      '/api/payout/balance/..',
      '/api/payout/balance/.',
      '/api/payout/./balance?limit=1',
    ])('refuses the dot segment in %s', async (target) => {
      expectJsonError(
        await get(target, live.checkoutKey),
        400,
        'invalid_request',
        target.includes('%')
          ? /^the request target is not valid: the path percent-encodes %2[eE]/
          : /^the request target is not valid: the path has a "\." or "\.\." segment; send the path without it$/,
      );
    });

    it('refuses a fragment, which the router would cut off and the raw target would keep', async () => {
      expectJsonError(
        await get('/sandbox/payments#x', live.checkoutKey),
        400,
        'invalid_request',
        /^the request target is not valid: it has a fragment \(#\), which a request never sends$/,
      );
    });

    it('decides the environment from the route the router matched, also for an absolute-form target', async () => {
      // The router reads `http://host/sandbox/payments` as /sandbox/payments; so does the environment.
      expectJsonError(
        await get('http://127.0.0.1/sandbox/payments', live.checkoutKey),
        403,
        'wrong_environment',
        /belongs to production, not sandbox/,
      );
      expectJsonError(
        await get('http://127.0.0.1/sandbox/api/payout/balance', live.payoutToken),
        403,
        'wrong_environment',
        /belongs to production, not sandbox/,
      );
      const production = await get('http://127.0.0.1/payments', live.checkoutKey);
      expect([production.status, (production.json as { total: number }).total]).toEqual([200, 1]);
    });

    it('answers normal paths as before: each environment, percent-encoding in a query or parameter, 404, 405 with Allow', async () => {
      const payments = await get('/payments', live.checkoutKey);
      expect([payments.status, (payments.json as { data: { id: number }[] }).data[0]?.id]).toEqual([
        200,
        live.orderId,
      ]);
      expectJsonError(
        await get('/sandbox/payments', live.checkoutKey),
        403,
        'wrong_environment',
        /belongs to production, not sandbox/,
      );
      expect((await get('/api/payout/balance', live.payoutToken)).status).toBe(200);
      expectJsonError(
        await get('/sandbox/api/payout/balance', live.payoutToken),
        403,
        'wrong_environment',
        /belongs to production, not sandbox/,
      );
      // The query is not the path: an encoded unreserved character there is read as itself.
      const limited = await get('/payments?limit=%31&offset=%30', live.checkoutKey);
      expect([limited.status, limited.json]).toEqual([200, expect.objectContaining({ limit: 1, offset: 0 })]);
      // A path parameter may carry encoded characters that need it (here a non-ASCII one).
      expectJsonError(
        await get('/api/payout/po_%C3%A9', live.payoutToken),
        404,
        'not_found',
        /no such payout/,
      );
      expectJsonError(await get('/sandbox/api/nothing-here'), 404, 'not_found', /no such endpoint/);
      // An encoded "%" is decoded once, not twice: this is no route's path, not /sandbox/payments.
      expectJsonError(
        await get('/%2573andbox/payments', live.checkoutKey),
        404,
        'not_found',
        /no such endpoint/,
      );
      const wrongMethod = await rawRequest(
        gateway.url,
        httpRequest('DELETE', '/payments', [`Authorization: Bearer ${live.checkoutKey}`]),
      );
      expectJsonError(wrongMethod, 405, 'method_not_allowed', /DELETE is not allowed on this path/);
      expect(wrongMethod.headers.get('allow')).toEqual(['GET, HEAD']);
    });
  });

  describe('on the hosted pages', () => {
    function expectPage(answer: RawAnswer, status: number, text: string, target = '') {
      expect({ target, status: answer.status, type: answer.headers.get('content-type') }).toEqual({
        target,
        status,
        type: ['text/html; charset=utf-8'],
      });
      expect(answer.text).toContain(text);
      expect(answer.headers.get('content-security-policy')?.[0]).toContain("default-src 'none'");
      expect(answer.headers.get('request-id')).toEqual([expect.stringMatching(/^req_[\w-]+$/)]);
    }

    const FORM = 'Content-Type: application/x-www-form-urlencoded';

    it('answers a checkout page path no order has, or one it refuses, with the HTML 404 page of an unknown token', async () => {
      const shop = await checkoutShop(call);
      const created = await call('POST', '/sandbox/card', { token: shop.key, body: orderBody() });
      const page = new URL(created.body.order_url as string).pathname;
      expectPage(await get(page), 200, 'Pay');
      for (const [method, target, headers] of [
        ['GET', '/checkout/', []],
        ['POST', '/checkout/', []],
        ['POST', '/checkout/', [FORM]],
        ['POST', '/checkout/%2e%2e', []],
        ['POST', '/checkout/%2E%2E', [FORM]],
        ['GET', '/checkout/%2e%2e', []],
        ['GET', '/checkout/..', []],
        ['POST', '/checkout/.', []],
        ['GET', '/checkout/a/b', []],
        ['GET', '/checkout', []],
        // The real order's page, its token's first character percent-encoded: not a link we gave.
        ['GET', encodeFirstAfter('/checkout/', page), []],
        ['POST', encodeFirstAfter('/checkout/', page, 'lower'), [FORM]],
      ] as const) {
        const body = method === 'POST' ? 'wallet_account=ana' : undefined;
        const answer = await rawRequest(gateway.url, httpRequest(method, target, [...headers], body));
        expectPage(answer, 404, 'Payment not found', `${method} ${target}`);
      }
    });

    it("answers a recipient page path no route takes, or one it refuses, with the pages' HTML 404", async () => {
      const shop = await merchant(call, '100.00');
      const created = await call('POST', '/sandbox/api/payout/create', {
        token: shop.token,
        key: newKey(),
        body: linkBody(`paths-${newKey()}`),
      });
      expect(created.status).toBe(201);
      const claim = new URL(created.body.payout_url as string).pathname;
      expect((await get(claim)).status).toBe(303);
      for (const [method, target, headers] of [
        ['GET', encodeFirstAfter('/sandbox/claim/', claim), []],
        ['GET', '/sandbox/claim/%2e%2e', []],
        ['GET', '/claim/', []],
        ['GET', '/sandbox/handoff/./x', []],
        ['GET', '/recipient/', []],
        ['GET', '/recipient/nothing-here', []],
        ['POST', '/sandbox/recipient/%64etails', [FORM]],
        ['POST', '/recipient/../recipient/confirm', [FORM]],
        ['GET', '/recipient-assets/%72ecipient.css', []],
      ] as const) {
        const body = method === 'POST' ? 'csrf_token=x' : undefined;
        const answer = await rawRequest(gateway.url, httpRequest(method, target, [...headers], body));
        expectPage(answer, 404, 'This link is not valid', `${method} ${target}`);
      }
      // A page's prefix is read as sent, never decoded: this one is no page's path, so the API refuses it.
      expectJsonError(
        await get('/sandbox/%72ecipient'),
        400,
        'invalid_request',
        /the path percent-encodes %72/,
      );
    });
  });
});

/** The refusal is in createApp: every app it builds refuses such a path, not only the gateway. */
describe('one reading of a request path in an app without the API', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    const config = loadConfig({
      DATA_DIR: ':memory:',
      OPERATOR_TOKEN,
      LOG_LEVEL: 'silent',
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
    app = await createApp('projector', (c) => ProjectorAppModule.forRoot(c), config);
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => app.close());

  it('refuses /%68ealth and /health/./ but answers /health', async () => {
    expect((await rawRequest(url, httpRequest('GET', '/health', []))).status).toBe(200);
    for (const target of ['/%68ealth', '/health/.']) {
      const answer = await rawRequest(url, httpRequest('GET', target, []));
      expect({ target, status: answer.status, body: answer.json }).toEqual({
        target,
        status: 400,
        body: {
          error: {
            code: 'invalid_request',
            message: expect.stringMatching(/^the request target is not valid/),
          },
        },
      });
    }
  });
});
