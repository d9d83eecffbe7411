import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { EventStore } from '@payouts/event-store';
import { EVENT_STORE } from '@payouts/platform';
import { appendLedger, testBackends } from '@payouts/testing';
import {
  Answer,
  Call,
  client,
  Gateway,
  linkBody,
  merchant,
  Merchant,
  newKey,
  startGateway,
} from './gateway-harness';
import { CHECKOUT_PATHS, checkoutShop, orderBody } from '../checkout/checkout-harness';

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is plain JSON, read as such */

const PAYOUT_OPERATIONS = [
  ['post', '/api/payout/create'],
  ['get', '/api/payout/list'],
  ['get', '/api/payout/balance'],
  ['get', '/api/payout/{payout_id}'],
  ['post', '/api/payout/{payout_id}/link'],
  ['post', '/api/payout/{payout_id}/session'],
  ['post', '/api/payout/{payout_id}/cancel'],
] as const;

/**
 * Checks real answers against the document the app serves: each answer's status must be declared
 * for its path and method, and its body must match the declared schema.
 */
class DocumentedResponses {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp }[];
  readonly seen = new Set<string>();

  constructor(private readonly document: any) {
    addFormats(this.ajv);
    // The document's `#/components/schemas/X` become `openapi#/$defs/X`, one schema holding them all.
    const rewritten = JSON.parse(
      JSON.stringify(document).replaceAll('#/components/schemas/', 'openapi#/$defs/'),
    );
    this.ajv.addSchema({ $id: 'openapi', $defs: rewritten.components.schemas });
    this.document = rewritten;
    // Literal paths first, so `/api/payout/list` is not taken for `/api/payout/{payout_id}`.
    this.templates = Object.keys(document.paths)
      .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      }));
  }

  templateOf(path: string): string {
    const bare = path.split('?')[0]!;
    const found = this.templates.find((t) => t.pattern.test(bare));
    if (!found) throw new Error(`${bare} is not in the document`);
    return found.template;
  }

  /** The validator of the body declared for this path, method and status; throws if none is declared. */
  validator(method: string, template: string, status: number): ValidateFunction {
    const id = `${method.toUpperCase()} ${template} ${status}`;
    const cached = this.validators.get(id);
    if (cached) return cached;
    const operation = this.document.paths[template]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${method.toUpperCase()} ${template} is not in the document`);
    const response = operation.responses[String(status)];
    if (!response) throw new Error(`${id}: the document does not declare this status`);
    const schema = response.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${id}: the document declares no JSON body`);
    const validate = this.ajv.compile(schema);
    this.validators.set(id, validate);
    return validate;
  }

  check(method: string, path: string, answer: Answer): void {
    const template = this.templateOf(path);
    const validate = this.validator(method, template, answer.status);
    if (!validate(answer.body)) {
      throw new Error(
        `${method} ${path} answered ${answer.status} with a body the document does not allow:\n` +
          `${this.ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(answer.body, null, 2)}`,
      );
    }
    this.seen.add(`${method.toUpperCase()} ${template} ${answer.status}`);
  }
}

describe.each(testBackends().map((b) => b.name))('the OpenAPI document on %s', (backend) => {
  let gateway: Gateway;
  let raw: Call;
  let documented: DocumentedResponses;
  let document: any;
  let shop: Merchant;
  /** Every answer through here is checked against the document. */
  const call: Call = async (method, path, options) => {
    const answer = await raw(method, path, options);
    documented.check(method, path, answer);
    return answer;
  };

  beforeAll(async () => {
    gateway = await startGateway(backend);
    raw = client(gateway.url);
    const served = await fetch(`${gateway.url}/openapi.json`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
    document = await served.json();
    documented = new DocumentedResponses(document);
    shop = await merchant(call, '1000.00', { origins: ['https://shop.example.com'] });
  });
  afterAll(() => gateway.close());

  it('is served as OpenAPI 3.1 with every payout endpoint under both prefixes, and /docs shows it', async () => {
    expect(document.openapi).toBe('3.1.0');
    for (const prefix of ['', '/sandbox']) {
      for (const [method, path] of PAYOUT_OPERATIONS) {
        const operation = document.paths[`${prefix}${path}`]?.[method];
        expect({ method, path: `${prefix}${path}`, security: operation?.security }).toEqual({
          method,
          path: `${prefix}${path}`,
          security: [{ payout_credential: [] }],
        });
        if (method === 'post') {
          expect(operation.parameters).toContainEqual(
            expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: true }),
          );
        }
      }
    }
    const page = await fetch(`${gateway.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('swagger-ui');
    // The page's script and its init (which carries the document) are served too: no build step.
    for (const asset of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui-init.js']) {
      const answer = await fetch(gateway.url + asset);
      expect([asset, answer.status]).toEqual([asset, 200]);
      expect((await answer.text()).length).toBeGreaterThan(100);
    }
  });

  // What `redocly lint --extends recommended` asks of it (npm run lint:openapi runs the linter
  // itself), checked here on the document the app serves.
  it('names its server and license, and gives every operation a summary, security and a 4xx answer', async () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(document.info.license).toEqual(expect.objectContaining({ name: expect.any(String) }));
    const operations = Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
      Object.entries(item).map(([method, operation]: [string, any]) => ({ method, path, operation })),
    );
    expect(operations.length).toBeGreaterThan(30);
    for (const { method, path, operation } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect({ where, summary: typeof operation.summary }).toEqual({ where, summary: 'string' });
      expect({ where, security: Array.isArray(operation.security) }).toEqual({ where, security: true });
      const fourXx = Object.keys(operation.responses).filter((status) => /^4\d\d$/.test(status));
      expect({ where, has4xx: fourXx.length > 0 }).toEqual({ where, has4xx: true });
    }
    // The health checks are open to anyone (an empty requirement) and answer as documented.
    expect(document.paths['/health'].get.security).toEqual([{}]);
    expect((await call('GET', '/health')).status).toBe(200);
    // Ready once the projector has caught up with what the setup wrote: on a loaded machine that
    // may take a moment after start, so ask until it is (503 `not_ready` meanwhile, as documented).
    let ready = await call('GET', '/health/ready');
    for (let attempt = 0; ready.status === 503 && attempt < 100; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await call('GET', '/health/ready');
    }
    expect(ready.status).toBe(200);
  });

  it('declares the bearer tokens as what they are: opaque, prefixed, never JWTs', () => {
    const schemes = document.components.securitySchemes;
    expect(Object.keys(schemes).sort()).toEqual([
      'admin_token',
      'checkout_key',
      'operator_token',
      'payout_credential',
    ]);
    for (const [name, scheme] of Object.entries(schemes) as [string, any][]) {
      expect({ name, type: scheme.type, scheme: scheme.scheme }).toEqual({
        name,
        type: 'http',
        scheme: 'bearer',
      });
      expect({ name, bearerFormat: scheme.bearerFormat }).toEqual({ name, bearerFormat: undefined });
      expect(JSON.stringify(scheme)).not.toMatch(/JWT/i);
    }
    expect(schemes.payout_credential.description).toContain('pk_live_');
    expect(schemes.admin_token.description).toContain('adm_');
    expect(schemes.checkout_key.description).toContain('ck_live_');
  });

  it('checks bodies for real: a null where none is allowed, a missing or an extra field all fail', () => {
    const payout = documented.validator('GET', '/sandbox/api/payout/{payout_id}', 200);
    const valid = {
      payout_id: 'po_0123456789abcdef01234567',
      status: 'awaiting_choice',
      status_version: 1,
      amount: '10.00',
      fee: '0.50',
      total_reserved: '10.50',
      currency: 'USD',
      funds_released: false,
      merchant_reference: 'r',
      customer_id: null,
      delivery: 'link',
      source: 'api',
      case_reference: null,
      selected_method: null,
      safe_reason: null,
      receipt_reference: null,
      created_at: '2026-01-31T00:00:00.000Z',
      accepted_at: null,
      payout_expires_at: '2026-02-07T00:00:00.000Z',
      updated_at: '2026-01-31T00:00:00.000Z',
    };
    expect(payout(valid)).toBe(true);
    expect(payout({ ...valid, merchant_reference: null })).toBe(false);
    expect(payout({ ...valid, amount: 10 })).toBe(false);
    expect(payout({ ...valid, destination_address: 'x' })).toBe(false);
    const { updated_at: _dropped, ...missing } = valid;
    expect(payout(missing)).toBe(false);
    const balance = documented.validator('GET', '/sandbox/api/payout/balance', 200);
    expect(balance({ currency: 'USD', available: null, reason: 'being recalculated' })).toBe(true);
    expect(balance({ currency: 'USD', available: '1.00', reason: 'x' })).toBe(false);
    const error = documented.validator('POST', '/sandbox/api/payout/create', 400);
    expect(error({ error: { code: 'invalid_request', message: 'm', param: 'amount' } })).toBe(true);
    expect(error({ code: 'invalid_request', message: 'm' })).toBe(false);
  });

  it('matches every payout endpoint’s real answers, successes and refusals', async () => {
    const token = shop.token;
    const post = (path: string, body?: unknown, key = newKey()) =>
      call('POST', `/sandbox/api/payout${path}`, { token, key, body });
    const get = (path: string) => call('GET', `/sandbox/api/payout${path}`, { token });

    // Create, both deliveries, and a replay (payout_url null).
    const createKey = newKey();
    const link = await post('/create', { ...linkBody('oa-link', '20.00'), case_reference: 'T-1' }, createKey);
    expect(link.status).toBe(201);
    const replay = await post(
      '/create',
      { ...linkBody('oa-link', '20.00'), case_reference: 'T-1' },
      createKey,
    );
    expect([replay.status, replay.body.payout_url]).toEqual([201, null]);
    const redirect = await post('/create', {
      amount: '5.00',
      merchant_reference: 'oa-redirect',
      delivery: 'redirect',
      customer_id: 'cust-1',
      return_url: 'https://shop.example.com/back',
    });
    expect(redirect.status).toBe(201);
    const linkId = link.body.payout_id;
    const redirectId = redirect.body.payout_id;

    // Reads.
    expect((await get(`/${linkId}`)).status).toBe(200);
    expect((await get(`/${redirectId}`)).body.customer_id).toBe('cust-1');
    expect((await get('/list?merchant_reference=oa-link')).body.total).toBe(1);
    expect((await get('/list?limit=500&status=awaiting_choice')).status).toBe(200);
    expect((await get('/balance')).status).toBe(200);

    // Claim link: shows the current one again, rotates, replays.
    expect((await post(`/${linkId}/link`, {})).status).toBe(200);
    const rotateKey = newKey();
    expect((await post(`/${linkId}/link`, { rotate: true }, rotateKey)).status).toBe(200);
    const rotateReplay = await post(`/${linkId}/link`, { rotate: true }, rotateKey);
    expect([rotateReplay.status, rotateReplay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect((await post(`/${redirectId}/link`, { rotate: true })).status).toBe(409);

    // Redirect session: a handoff, its replay (the same URL), the wrong customer and the wrong delivery.
    const sessionKey = newKey();
    const session = await post(`/${redirectId}/session`, { customer_id: 'cust-1' }, sessionKey);
    expect(session.status).toBe(200);
    const sessionReplay = await post(`/${redirectId}/session`, { customer_id: 'cust-1' }, sessionKey);
    expect([sessionReplay.status, sessionReplay.body.payout_url]).toEqual([200, session.body.payout_url]);
    expect((await post(`/${redirectId}/session`, { customer_id: 'someone-else' })).status).toBe(403);
    expect((await post(`/${linkId}/session`, { customer_id: 'cust-1' })).status).toBe(409);

    // Cancel, then cancel again (unchanged), then no session for a cancelled payout.
    expect((await post(`/${linkId}/cancel`)).body.status).toBe('cancelled');
    expect((await post(`/${linkId}/cancel`)).status).toBe(200);
    expect((await post(`/${redirectId}/cancel`)).status).toBe(200);
    expect((await post(`/${redirectId}/session`, { customer_id: 'cust-1' })).status).toBe(409);

    // Refusals of create: 400, 409, 413, 415, 422.
    expect(
      (await call('POST', '/sandbox/api/payout/create', { token, body: linkBody('oa-nokey') })).status,
    ).toBe(400);
    expect((await post('/create', { ...linkBody('oa-bad'), amount: 12 })).status).toBe(400);
    expect((await post('/create', { ...linkBody('oa-bad'), destination: 'x' })).status).toBe(400);
    expect((await post('/create', linkBody('oa-link'))).status).toBe(409);
    expect((await post('/create', linkBody('oa-big', '5000.01'))).status).toBe(422);
    const reusedKey = newKey();
    await post('/create', linkBody('oa-reuse-1'), reusedKey);
    expect((await post('/create', linkBody('oa-reuse-2'), reusedKey)).status).toBe(422);
    const text = await call('POST', '/sandbox/api/payout/create', {
      token,
      key: newKey(),
      rawBody: 'x',
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
    const big = await post('/create', { ...linkBody('oa-huge'), description: 'x'.repeat(70 * 1024) });
    expect(big.status).toBe(413);

    // Refusals of the other endpoints: 400, 401, 403, 404.
    expect((await get('/list?status=lost')).status).toBe(400);
    expect((await post(`/${linkId}/link`, { rotate: 'yes' })).status).toBe(400);
    expect((await call('POST', `/sandbox/api/payout/${linkId}/cancel`, { token })).status).toBe(400);
    expect((await get('/po_ffffffffffffffffffffffff')).status).toBe(404);
    expect((await post('/not-a-payout-id/cancel')).status).toBe(404);
    expect((await post('/po_ffffffffffffffffffffffff/link', { rotate: true })).status).toBe(404);
    for (const [method, path] of PAYOUT_OPERATIONS) {
      const concrete = path.replace('{payout_id}', linkId);
      const body = method === 'post' ? {} : undefined;
      // No credential: 401 on both prefixes; a sandbox credential on production: 403 wrong_environment.
      expect((await call(method.toUpperCase(), `/sandbox${concrete}`, { key: newKey(), body })).status).toBe(
        401,
      );
      expect((await call(method.toUpperCase(), concrete, { key: newKey(), body })).status).toBe(401);
      const production = await call(method.toUpperCase(), concrete, { token, key: newKey(), body });
      expect([production.status, production.body.error.code]).toEqual([403, 'wrong_environment']);
    }

    const statuses = (method: string, template: string) =>
      [...documented.seen]
        .filter((entry) => entry.startsWith(`${method} ${template} `))
        .map((entry) => Number(entry.split(' ')[2]))
        .sort((a, b) => a - b);
    expect({
      create: statuses('POST', '/sandbox/api/payout/create'),
      list: statuses('GET', '/sandbox/api/payout/list'),
      balance: statuses('GET', '/sandbox/api/payout/balance'),
      get: statuses('GET', '/sandbox/api/payout/{payout_id}'),
      link: statuses('POST', '/sandbox/api/payout/{payout_id}/link'),
      session: statuses('POST', '/sandbox/api/payout/{payout_id}/session'),
      cancel: statuses('POST', '/sandbox/api/payout/{payout_id}/cancel'),
    }).toEqual({
      create: [201, 400, 401, 409, 413, 415, 422],
      list: [200, 400, 401],
      balance: [200, 401],
      get: [200, 401, 404],
      link: [200, 400, 401, 404, 409],
      session: [200, 401, 403, 409],
      cancel: [200, 400, 401, 404],
    });
  });

  it('documents the funds reads under both prefixes and matches their real answers', async () => {
    for (const prefix of ['', '/sandbox']) {
      for (const path of [
        '/api/balance/transactions',
        '/api/settlements',
        '/api/settlements/{settlement_id}',
        '/api/events',
      ]) {
        expect({
          path: `${prefix}${path}`,
          security: document.paths[`${prefix}${path}`]?.get?.security,
        }).toEqual({
          path: `${prefix}${path}`,
          security: [{ payout_credential: [] }],
        });
      }
    }
    const settlementId = `stl_${'e'.repeat(24)}`;
    const now = new Date().toISOString();
    await appendLedger(gateway.app.get<EventStore>(EVENT_STORE), shop.accountId, [
      {
        type: 'PaymentProceedsRecorded',
        data: {
          orderId: 9000001,
          method: 'card',
          gross: '20.00',
          fee: '0.88',
          net: '19.12',
          paidAt: now,
          availableOn: now,
          at: now,
        },
      },
      { type: 'PaymentProceedsMatured', data: { orderId: 9000001, net: '19.12', at: now } },
      {
        type: 'SettlementStarted',
        data: { settlementId, amount: '5.00', retainedTarget: '0.00', trigger: 'manual', at: now },
      },
    ]);
    const get = (path: string) => call('GET', `/sandbox/api${path}`, { token: shop.token });
    const anonymous = (path: string) => call('GET', `/sandbox/api${path}`);
    expect((await get('/balance/transactions?limit=500')).status).toBe(200);
    expect((await get('/balance/transactions?type=lost')).status).toBe(400);
    expect((await anonymous('/balance/transactions')).status).toBe(401);
    expect((await get('/settlements')).body.total).toBe(1);
    expect((await get('/settlements?status=lost')).status).toBe(400);
    expect((await anonymous('/settlements')).status).toBe(401);
    expect((await get(`/settlements/${settlementId}`)).body.transactions_total).toBeGreaterThan(2);
    expect((await get(`/settlements/stl_${'f'.repeat(24)}`)).status).toBe(404);
    expect((await anonymous(`/settlements/${settlementId}`)).status).toBe(401);
    const events = await get('/events?limit=200');
    expect(events.body.data.map((e: { type: string }) => e.type)).toContain('settlement.created');
    expect((await get('/events?types=lost')).status).toBe(400);
    expect((await anonymous('/events')).status).toBe(401);
  });

  it('matches every checkout endpoint’s real answers, successes and refusals', async () => {
    const checkout = await checkoutShop(call, { region: 'US' });
    const elsewhere = await checkoutShop(call, { region: 'BR' });
    const token = checkout.key;
    for (const path of CHECKOUT_PATHS) {
      expect((await call('POST', path, { token, body: orderBody() })).status).toBe(200);
      expect((await call('POST', path, { token, body: orderBody({ amount: '1.00' }) })).status).toBe(400);
    }
    const key = newKey();
    const created = await call('POST', '/sandbox/card', { token, key, body: orderBody() });
    expect((await call('POST', '/sandbox/card', { token, key, body: orderBody() })).status).toBe(200);
    expect((await call('POST', '/sandbox/card', { token, key, body: orderBody({ amount: 2 }) })).status).toBe(
      422,
    );
    expect(
      (await call('POST', '/sandbox/card', { token, body: orderBody({ currency: 'JPY' }) })).status,
    ).toBe(400);
    expect((await call('POST', '/sandbox/card', { token: elsewhere.key, body: orderBody() })).status).toBe(
      403,
    );
    expect((await call('POST', '/sandbox/card', { token: shop.token, body: orderBody() })).status).toBe(403);
    expect((await call('POST', '/sandbox/card', { body: orderBody() })).status).toBe(401);
    expect((await call('GET', '/sandbox/payments?limit=2', { token })).status).toBe(200);
    expect((await call('GET', '/sandbox/payments?limit=0', { token })).status).toBe(400);
    const range = { start_date: '2000-01-01T00:00:00Z', end_date: '2999-01-01T00:00:00Z' };
    expect((await call('POST', '/sandbox/payment/history', { token, body: range })).status).toBe(200);
    expect((await call('POST', '/sandbox/payment/history', { token, body: {} })).status).toBe(400);
    const id = created.body.order_id as number;
    expect((await call('GET', `/sandbox/payment/status?payment_id=${id}`, { token })).status).toBe(200);
    expect((await call('GET', `/sandbox/payment/status?payment_id=${id + 100000}`, { token })).status).toBe(
      404,
    );
    expect((await call('GET', '/sandbox/payment/status', { token })).status).toBe(400);
    const hook = await call('PUT', '/dashboard/checkout-webhook', {
      token: checkout.adminToken,
      body: { environment: 'sandbox', url: 'http://127.0.0.1/hook' },
    });
    expect([hook.status, hook.body.error?.code]).toEqual([400, 'invalid_request']);
  });
});
