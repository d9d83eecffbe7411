import { testBackends } from '@payouts/testing';
import {
  Call,
  client,
  Gateway,
  linkBody,
  merchant,
  Merchant,
  newKey,
  OPERATOR_TOKEN,
  startGateway,
} from './gateway-harness';

/**
 * Text the database cannot store (NUL, an unpaired UTF-16 surrogate) and request targets Fastify
 * cannot decode: each is refused as a bad request with the documented body, before any write.
 * Before, such a create failed its append and answered 503 attempt_unresolved for ever, and the
 * List filter or a path holding one answered 500.
 */
describe.each(testBackends().map((b) => b.name))('unstorable text over HTTP on %s', (backend) => {
  let gateway: Gateway;
  let call: Call;

  beforeAll(async () => {
    gateway = await startGateway(backend);
    call = client(gateway.url);
  });
  afterAll(() => gateway.close());

  const create = (shop: Merchant, body: unknown, key = newKey()) =>
    call('POST', '/sandbox/api/payout/create', { token: shop.token, key, body });
  const available = async (shop: Merchant) =>
    (await call('GET', '/sandbox/api/payout/balance', { token: shop.token })).body.available;
  const listTotal = async (shop: Merchant) =>
    (await call('GET', '/sandbox/api/payout/list', { token: shop.token })).body.total;

  it.each([
    ['merchant_reference', { merchant_reference: 'ref\u0000x' }],
    ['description', { description: 'a lone \ud800 surrogate' }],
    ['case_reference', { case_reference: 'a lone \udc00 surrogate' }],
    ['customer_email', { customer_email: 'a\u0000@example.com' }],
  ])(
    'refuses a create whose %s holds one with 400 invalid_request, writes nothing, and keeps the refusal for its key',
    async (param, change) => {
      const shop = await merchant(call);
      const before = await available(shop);
      const key = newKey();
      const body = { ...linkBody(`unstorable-${param}`), ...change };

      const refused = await create(shop, body, key);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: { code: 'invalid_request', message: expect.stringContaining(param), param },
      });

      const again = await create(shop, body, key);
      expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([400, 'true']);
      expect(again.body).toEqual(refused.body);
      expect(await available(shop)).toBe(before);
      expect(await listTotal(shop)).toBe(0);
    },
  );

  it('refuses a body whose field name holds one without echoing the name', async () => {
    const shop = await merchant(call);
    const refused = await create(shop, { ...linkBody('unstorable-name'), 'x\u0000': 'y' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: { code: 'invalid_request', message: expect.stringContaining('a field name') },
    });
    expect(await listTotal(shop)).toBe(0);
  });

  it.each([
    ['an array', []],
    ['a string', 'create'],
    ['null', null],
  ])('refuses a create body that is %s as not a JSON object', async (_case, body) => {
    const shop = await merchant(call);
    const refused = await create(shop, body);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: { code: 'invalid_request', message: 'the request body must be a JSON object' },
    });
  });

  it.each(['merchant_reference', 'customer_id'])(
    'refuses a List filter %s holding NUL with 400 on that filter',
    async (filter) => {
      const shop = await merchant(call);
      const refused = await call('GET', `/sandbox/api/payout/list?${filter}=a%00b`, { token: shop.token });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: { code: 'invalid_request', param: filter } });
    },
  );

  it('refuses a payout id holding NUL with 400, with a credential and without one', async () => {
    const shop = await merchant(call);
    for (const token of [shop.token, undefined]) {
      const refused = await call('GET', '/sandbox/api/payout/po_%00', { token });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: { code: 'invalid_request', param: 'payout_id' } });
    }
  });

  it('refuses an operator account name holding NUL with 400 on name', async () => {
    const refused = await call('POST', '/operator/accounts', {
      token: OPERATOR_TOKEN,
      body: { name: 'Shop\u0000', region: 'US' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { code: 'invalid_request', param: 'name' } });
  });

  it('answers a path Fastify cannot decode with the documented error body and a Request-Id', async () => {
    const shop = await merchant(call);
    const refused = await call('GET', '/sandbox/api/payout/%FF', { token: shop.token });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
    expect(refused.headers.get('request-id')).toMatch(/^req_/);
  });
});
