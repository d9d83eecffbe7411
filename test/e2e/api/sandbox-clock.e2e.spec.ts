import { testBackends } from '@payouts/testing';
import { client, Gateway, linkBody, merchant, newKey, OPERATOR_TOKEN, startGateway } from './gateway-harness';

const DAY_S = 24 * 3600;

describe.each(testBackends().map((b) => b.name))('the sandbox clock on %s', (backend) => {
  let gateway: Gateway;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    gateway = await startGateway(backend);
    call = client(gateway.url);
  });
  afterAll(() => gateway.close());

  it('moves sandbox time forward for new payouts and leaves production time alone', async () => {
    const shop = await merchant(call);
    const operator = { token: OPERATOR_TOKEN };
    await call('POST', `/operator/accounts/${shop.accountId}/funds`, {
      ...operator,
      body: { environment: 'production', amount: '100.00' },
    });
    await call('PUT', '/dashboard/payouts-enabled', {
      token: shop.adminToken,
      body: { environment: 'production', enabled: true },
    });
    const live = await call('POST', '/dashboard/credentials', {
      token: shop.adminToken,
      body: { kind: 'payout', environment: 'production' },
    });

    const advanced = await call('POST', '/operator/sandbox/clock', {
      ...operator,
      body: { advance_seconds: 2 * DAY_S },
    });
    expect(advanced.status).toBe(200);
    expect(advanced.body.offset_seconds).toBe(2 * DAY_S);
    const before = Date.now();
    expect(Date.parse(advanced.body.sandbox_now) - before).toBeGreaterThan(2 * DAY_S * 1000 - 60_000);

    const sandbox = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: linkBody('clock-s'),
    });
    const production = await call('POST', '/api/payout/create', {
      token: live.body.token,
      key: newKey(),
      body: linkBody('clock-p'),
    });
    expect(sandbox.status).toBe(201);
    expect(production.status).toBe(201);
    const sandboxCreated = (
      await call('GET', `/sandbox/api/payout/${sandbox.body.payout_id}`, { token: shop.token })
    ).body.created_at;
    const productionCreated = (
      await call('GET', `/api/payout/${production.body.payout_id}`, { token: live.body.token })
    ).body.created_at;
    expect(Date.parse(sandboxCreated) - before).toBeGreaterThan(2 * DAY_S * 1000 - 60_000);
    expect(Math.abs(Date.parse(productionCreated) - before)).toBeLessThan(60_000);
  });

  it.each([
    [{ advance_seconds: 0 }, 'advance_seconds'],
    [{ advance_seconds: -60 }, 'advance_seconds'],
    [{ advance_seconds: '60' }, 'advance_seconds'],
    [{ advance_seconds: 1.5 }, 'advance_seconds'],
    [{ advance_seconds: 400 * DAY_S }, 'advance_seconds'],
    [{ advance_seconds: 60, rewind: true }, 'rewind'],
  ])('refuses %j with invalid_request naming %s', async (body, param) => {
    const answer = await call('POST', '/operator/sandbox/clock', { token: OPERATOR_TOKEN, body });
    expect([answer.status, answer.body.error.code, answer.body.error.param]).toEqual([
      400,
      'invalid_request',
      param,
    ]);
  });

  it('is the operator’s alone', async () => {
    const shop = await merchant(call);
    for (const token of [undefined, shop.adminToken, shop.token]) {
      const answer = await call('POST', '/operator/sandbox/clock', { token, body: { advance_seconds: 60 } });
      expect([answer.status, answer.body.error.code]).toEqual([401, 'unauthenticated']);
    }
  });
});
