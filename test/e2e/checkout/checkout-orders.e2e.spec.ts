import type { SqlClient } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { SQL_CLIENT } from '@payouts/platform';
import { testBackends } from '@payouts/testing';
import { countEvents } from '../../../libs/event-store/src/testing/stored-events';
import { client, Gateway, merchant, newKey, startGateway } from '../api/gateway-harness';
import type { Call } from '../api/gateway-harness';
import { CHECKOUT_PATHS, checkoutShop, orderBody, Shop } from './checkout-harness';

describe.each(testBackends().map((b) => b.name))('checkout orders over HTTP on %s', (backend) => {
  let gateway: Gateway;
  let call: Call;
  let shop: Shop;

  beforeAll(async () => {
    gateway = await startGateway(backend, {
      PUBLIC_BASE_URL: 'https://pay.example.com',
      WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
    });
    call = client(gateway.url);
    shop = await checkoutShop(call);
  });
  afterAll(() => gateway.close());

  const countOrders = async () => {
    const db = gateway.app.get<SqlClient>(SQL_CLIENT);
    const orders = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM checkout_orders');
    const events = await countEvents(new PostgresEventStore(db), (e) => e.streamType === 'order');
    return orders.rows[0]!.n + events;
  };

  it.each(
    CHECKOUT_PATHS.map((path, i) => [
      path,
      ['card', 'mobile_wallet', 'cash_app', 'online_wallet', 'p2p_app'][i]!,
    ]),
  )(
    'creates a pending order on %s (method %s): order_url, an integer order_id and the amount as "10.50"',
    async (path, method) => {
      const created = await call('POST', path, { token: shop.key, body: orderBody() });
      expect(created.status).toBe(200);
      expect(Object.keys(created.body)).toEqual(['order_url', 'order_id', 'amount']);
      expect(Number.isInteger(created.body.order_id)).toBe(true);
      expect(created.body.amount).toBe('10.50');
      expect(created.body.order_url).toMatch(/^https:\/\/pay\.example\.com\/checkout\/[A-Za-z0-9_-]{43}$/);
      const status = await call('GET', `/sandbox/payment/status?payment_id=${created.body.order_id}`, {
        token: shop.key,
      });
      expect(status.status).toBe(200);
      expect(status.body.status).toBe('PENDING');
      expect(status.body.data).toMatchObject({
        id: created.body.order_id,
        Amount: 10.5,
        currency: 'USD',
        customer: 'payer@example.com',
        product: 'Blue mug',
        hook_url: null,
        status: 'PENDING',
        method,
        paid_at: null,
      });
    },
  );

  it('lists orders newest first with total, limit and offset, capping the limit at 100', async () => {
    const other = await checkoutShop(call);
    const ids: number[] = [];
    for (const amount of [1, 2.5, 3.25]) {
      ids.push(
        (await call('POST', '/sandbox/payment/cash', { token: other.key, body: orderBody({ amount }) })).body
          .order_id,
      );
    }
    const page = await call('GET', '/sandbox/payments?limit=2&offset=0', { token: other.key });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.body.data.map((o: { id: number }) => o.id)).toEqual([ids[2], ids[1]]);
    expect(page.body.data.map((o: { Amount: number }) => o.Amount)).toEqual([3.25, 2.5]);
    const defaults = await call('GET', '/sandbox/payments', { token: other.key });
    expect(defaults.body).toMatchObject({ total: 3, limit: 10, offset: 0 });
    expect((await call('GET', '/sandbox/payments?limit=500', { token: other.key })).body.limit).toBe(100);
    for (const query of ['limit=0', 'limit=abc', 'offset=-1', 'page=2']) {
      const refused = await call('GET', `/sandbox/payments?${query}`, { token: other.key });
      expect([refused.status, refused.body.error.code]).toEqual([400, 'invalid_request']);
    }
  });

  it('answers the history of a date range, both ends inclusive, with the exact sum', async () => {
    const other = await checkoutShop(call);
    for (const amount of [1.1, 2.2, 19.99]) {
      await call('POST', '/sandbox/payment/order', { token: other.key, body: orderBody({ amount }) });
    }
    const history = await call('POST', '/sandbox/payment/history', {
      token: other.key,
      body: { start_date: '2000-01-01T00:00:00Z', end_date: '2999-12-31T23:59:59Z' },
    });
    expect(history.status).toBe(200);
    // 1.1 + 2.2 + 19.99 in floating point is 23.290000000000003.
    expect(history.body.amount).toBe(23.29);
    expect(history.body.data).toHaveLength(3);
    const empty = await call('POST', '/sandbox/payment/history', {
      token: other.key,
      body: { start_date: '2000-01-01', end_date: '2000-01-02' },
    });
    expect(empty.body).toEqual({ amount: 0, data: [] });
    for (const body of [
      { start_date: '2001-01-02', end_date: '2001-01-01' },
      { start_date: 'yesterday', end_date: '2001-01-01' },
      { end_date: '2001-01-01' },
      { start_date: '2001-01-01', end_date: '2001-01-02', limit: 5 },
    ]) {
      const refused = await call('POST', '/sandbox/payment/history', { token: other.key, body });
      expect([refused.status, refused.body.error.code]).toEqual([400, 'invalid_request']);
    }
  });

  it("answers another account's or environment's order, and an unknown one, as 404 not_found", async () => {
    const created = await call('POST', '/sandbox/card', { token: shop.key, body: orderBody() });
    const stranger = await checkoutShop(call);
    for (const [token, id] of [
      [stranger.key, created.body.order_id],
      [shop.key, 999_999_999_999],
      [shop.key, 'abc'],
    ]) {
      const answer = await call('GET', `/sandbox/payment/status?payment_id=${id}`, { token });
      expect([answer.status, answer.body.error.code]).toEqual([404, 'not_found']);
    }
    const missing = await call('GET', '/sandbox/payment/status', { token: shop.key });
    expect([missing.status, missing.body.error.code]).toEqual([400, 'invalid_request']);
  });

  it.each([
    [{ amount: '10.50' }, 400, 'invalid_amount'],
    [{ amount: 10.555 }, 400, 'invalid_amount'],
    [{ amount: 0 }, 400, 'invalid_amount'],
    [{ amount: -5 }, 400, 'invalid_amount'],
    [{ amount: 0.49 }, 400, 'invalid_amount'],
    [{ amount: 100000.01 }, 400, 'invalid_amount'],
    [{ amount: 1e21 }, 400, 'invalid_amount'],
    [{ currency: 'EUR' }, 400, 'unsupported_currency'],
    [{ currency: undefined }, 400, 'invalid_request'],
    [{ customer: 'not an e-mail' }, 400, 'invalid_request'],
    [{ customer: undefined }, 400, 'invalid_request'],
    [{ product: 'x'.repeat(256) }, 400, 'invalid_request'],
    [{ redirect_url: 'ftp://shop.example.com/done' }, 400, 'invalid_request'],
    [{ redirect_url: '/relative' }, 400, 'invalid_request'],
    [{ colour: 'blue' }, 400, 'invalid_request'],
  ])('refuses %j with %i %s and creates nothing', async (overrides, status, code) => {
    const before = await countOrders();
    const refused = await call('POST', '/sandbox/card', { token: shop.key, body: orderBody(overrides) });
    expect([refused.status, refused.body.error.code]).toEqual([status, code]);
    expect(await countOrders()).toBe(before);
  });

  it('accepts the boundaries 0.50 and 100000.00 and another currency of the region', async () => {
    const gb = await checkoutShop(call, { region: 'GB' });
    for (const body of [
      orderBody({ amount: 0.5 }),
      orderBody({ amount: 100000 }),
      orderBody({ currency: 'GBP' }),
      orderBody({ currency: 'EUR' }),
    ]) {
      const created = await call('POST', '/sandbox/card', { token: gb.key, body });
      expect(created.status).toBe(200);
    }
    expect(
      (await call('POST', '/sandbox/card', { token: gb.key, body: orderBody({ amount: 0.5 }) })).body.amount,
    ).toBe('0.50');
  });

  it('refuses the card method outside the card regions with 403 method_not_available, and creates nothing', async () => {
    const elsewhere = await checkoutShop(call, { region: 'BR' });
    const before = await countOrders();
    const refused = await call('POST', '/sandbox/card', { token: elsewhere.key, body: orderBody() });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'method_not_available']);
    expect(await countOrders()).toBe(before);
    expect(
      (await call('POST', '/sandbox/payment/mobilewallet', { token: elsewhere.key, body: orderBody() }))
        .status,
    ).toBe(200);
  });

  it('refuses a payout credential (wrong_credential_kind), the other environment (wrong_environment) and no key (401), creating nothing', async () => {
    const payouts = await merchant(call);
    const production = await checkoutShop(call, { environment: 'production' });
    const before = await countOrders();
    const asPayout = await call('POST', '/sandbox/card', { token: payouts.token, body: orderBody() });
    expect([asPayout.status, asPayout.body.error.code]).toEqual([403, 'wrong_credential_kind']);
    const crossed = await call('POST', '/card', { token: shop.key, body: orderBody() });
    expect([crossed.status, crossed.body.error.code]).toEqual([403, 'wrong_environment']);
    const crossedBack = await call('GET', '/sandbox/payments', { token: production.key });
    expect([crossedBack.status, crossedBack.body.error.code]).toEqual([403, 'wrong_environment']);
    const anonymous = await call('POST', '/sandbox/card', { body: orderBody() });
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'unauthenticated']);
    // And the checkout key on a payout path, the other way round.
    const onPayouts = await call('GET', '/sandbox/api/payout/balance', { token: shop.key });
    expect([onPayouts.status, onPayouts.body.error.code]).toEqual([403, 'wrong_credential_kind']);
    expect(await countOrders()).toBe(before);
  });

  it('replays a create with the same Idempotency-Key (same order and url), refuses the key with another body, and works without a key', async () => {
    const key = newKey();
    const first = await call('POST', '/sandbox/payment/cash', { token: shop.key, key, body: orderBody() });
    const again = await call('POST', '/sandbox/payment/cash', { token: shop.key, key, body: orderBody() });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const reused = await call('POST', '/sandbox/payment/cash', {
      token: shop.key,
      key,
      body: orderBody({ amount: 11 }),
    });
    expect([reused.status, reused.body.error.code]).toEqual([422, 'idempotency_key_reused']);
  });

  it('captures the account checkout webhook URL as hook_url when the order is created', async () => {
    const hooked = await checkoutShop(call, { webhookUrl: 'http://127.0.0.1:9/hooks/checkout' });
    const created = await call('POST', '/sandbox/card', { token: hooked.key, body: orderBody() });
    const status = await call('GET', `/sandbox/payment/status?payment_id=${created.body.order_id}`, {
      token: hooked.key,
    });
    expect(status.body.data.hook_url).toBe('http://127.0.0.1:9/hooks/checkout');
  });
});
