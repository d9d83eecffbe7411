import Big from 'big.js';
import type { LedgerEvent } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { EVENT_STORE } from '@payouts/platform';
import { appendLedger, testBackends } from '@payouts/testing';
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

const STL_A = `stl_${'a'.repeat(24)}`;
const STL_B = `stl_${'b'.repeat(24)}`;

/**
 * The funds reads over HTTP: Get Payout Balance from real movements, the balance transactions and
 * the settlements. Proceeds and settlements are appended to the ledger directly (with the inline
 * projection a command's commit runs; the app's projector then sees them too), as the write side
 * will.
 */
describe.each(testBackends().map((b) => b.name))('the funds reads on %s', (backend) => {
  let gateway: Gateway;
  let call: Call;
  let store: EventStore;
  let shop: Merchant;
  let reserved: string;
  // Movements after the payout are stamped a few minutes ahead, so newest first is their order.
  let start: number;
  const at = (minute: number) => new Date(start + minute * 60_000).toISOString();
  const get = (path: string, token = shop.token) => call('GET', `/sandbox/api${path}`, { token });

  beforeAll(async () => {
    gateway = await startGateway(backend);
    call = client(gateway.url);
    store = gateway.app.get<EventStore>(EVENT_STORE);
    shop = await merchant(call, '100.00');
    start = Date.now() + 60_000;
  });
  afterAll(() => gateway.close());

  it('answers the balance from proceeds, payouts and settlements, with pending and the next settlement time', async () => {
    await appendLedger(store, shop.accountId, [
      {
        type: 'PaymentProceedsRecorded',
        data: {
          orderId: 1000001,
          method: 'card',
          gross: '50.00',
          fee: '1.75',
          net: '48.25',
          paidAt: new Date().toISOString(),
          availableOn: at(30),
          at: new Date().toISOString(),
        },
      },
    ]);
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: linkBody('funds-1', '10.00'),
    });
    expect(created.status).toBe(201);
    reserved = created.body.total_reserved;
    const available = new Big('100.00').minus(reserved).toFixed(2);
    const first = await get('/payout/balance');
    expect(first.body).toMatchObject({
      currency: 'USD',
      pending: '48.25',
      matured: '100.00',
      available_for_new_commitments: available,
      customer_payout_holds: reserved,
      merchant_settlement_holds: '0.00',
      retained_target: '0.00',
      estimated_next_settlement: available,
    });

    const settled = new Big(available).plus('48.25').minus('10.00').toFixed(2);
    const later: LedgerEvent[] = [
      { type: 'PaymentProceedsMatured', data: { orderId: 1000001, net: '48.25', at: at(31) } },
      { type: 'RetainedTargetSet', data: { amount: '10.00', at: at(32) } },
      {
        type: 'SettlementStarted',
        data: { settlementId: STL_A, amount: settled, retainedTarget: '10.00', trigger: 'daily', at: at(33) },
      },
    ];
    await appendLedger(store, shop.accountId, later);
    const second = await get('/payout/balance');
    expect(second.body).toMatchObject({
      pending: '0.00',
      matured: '148.25',
      available_for_new_commitments: '10.00',
      merchant_settlement_holds: settled,
      retained_target: '10.00',
      estimated_next_settlement: '0.00',
    });
    const next = Date.parse(second.body.next_settlement_at);
    expect(second.body.next_settlement_at).toMatch(/T00:00:00\.000Z$/); // SETTLEMENT_HOUR_UTC 0
    expect(next - Date.now()).toBeGreaterThan(0);
    expect(next - Date.now()).toBeLessThanOrEqual(24 * 3600 * 1000);

    await appendLedger(store, shop.accountId, [
      {
        type: 'SettlementFailed',
        data: { settlementId: STL_A, amount: settled, reason: 'account closed', at: at(34) },
      },
      {
        type: 'SettlementStarted',
        data: {
          settlementId: STL_B,
          amount: settled,
          retainedTarget: '10.00',
          trigger: 'manual',
          at: at(35),
        },
      },
      { type: 'SettlementPaid', data: { settlementId: STL_B, amount: settled, at: at(36) } },
    ]);
    const third = await get('/payout/balance');
    expect(third.body).toMatchObject({
      matured: new Big('148.25').minus(settled).toFixed(2),
      merchant_settlement_holds: '0.00',
    });
  });

  it("puts next_settlement_at on the sandbox's own clock", async () => {
    const before = Date.parse((await get('/payout/balance')).body.next_settlement_at);
    const advanced = await call('POST', '/operator/sandbox/clock', {
      token: OPERATOR_TOKEN,
      body: { advance_seconds: 2 * 24 * 3600 },
    });
    expect(advanced.status).toBe(200);
    const after = Date.parse((await get('/payout/balance')).body.next_settlement_at);
    expect(after - before).toBe(2 * 24 * 3600 * 1000);
  });

  it('lists every movement newest first, with its running balances, and filters and pages it', async () => {
    const all = await get('/balance/transactions');
    expect(all.status).toBe(200);
    expect(all.body.data.map((t: { type: string }) => t.type)).toEqual([
      'settlement',
      'settlement_failed',
      'settlement',
      'payout_reserved',
      'payment_fee',
      'payment',
      'adjustment',
    ]);
    expect([all.body.total, all.body.limit, all.body.offset]).toEqual([7, 50, 0]);
    const net = all.body.data.reduce((sum: Big, t: { net: string }) => sum.plus(t.net), new Big(0));
    const balance = (await get('/payout/balance')).body;
    expect(net.toFixed(2)).toBe(
      new Big(balance.pending).plus(balance.available_for_new_commitments).toFixed(2),
    );
    expect(all.body.data[0].running_balances.available).toBe(balance.available_for_new_commitments);
    const payout = all.body.data.find((t: { type: string }) => t.type === 'payout_reserved');
    expect(new Big(payout.amount).minus(payout.fee).neg().toFixed(2)).toBe(reserved);

    const only = async (query: string) => (await get(`/balance/transactions?${query}`)).body;
    expect((await only('type=payment')).data.map((t: { order_id: number }) => t.order_id)).toEqual([1000001]);
    expect((await only('currency=USD')).total).toBe(7);
    expect((await only('currency=EUR')).total).toBe(0);
    // The failed settlement's returned money is taken by the next one, so it is listed there.
    expect((await only(`settlement_id=${STL_B}`)).data.map((t: { type: string }) => t.type)).toEqual([
      'settlement',
      'settlement_failed',
    ]);
    expect((await only(`settlement_id=${STL_A}`)).total).toBe(5);
    const window = await only(`since=${at(33)}&until=${at(35)}`);
    expect(window.data.map((t: { type: string }) => t.type)).toEqual(['settlement_failed', 'settlement']);
    const page = await only('limit=2&offset=1');
    expect([page.total, page.limit, page.offset, page.data.length]).toEqual([7, 2, 1, 2]);
    expect(page.data.map((t: { id: string }) => t.id)).toEqual(
      all.body.data.slice(1, 3).map((t: { id: string }) => t.id),
    );
    expect((await only('limit=500')).limit).toBe(200);
    expect((await only('offset=100')).data).toEqual([]);
  });

  it.each([
    ['type=refund', 'type'],
    ['currency=usd', 'currency'],
    ['currency=DOLLAR', 'currency'],
    ['since=2026-02-30T00:00:00Z', 'since'],
    ['until=yesterday', 'until'],
    ['settlement_id=stl_1', 'settlement_id'],
    ['limit=0', 'limit'],
    ['limit=ten', 'limit'],
    ['offset=-1', 'offset'],
    ['direction=up', 'direction'],
  ])('refuses balance transactions ?%s with 400 invalid_request naming %s', async (query, param) => {
    const answer = await get(`/balance/transactions?${query}`);
    expect([answer.status, answer.body.error.code, answer.body.error.param]).toEqual([
      400,
      'invalid_request',
      param,
    ]);
  });

  it('lists and shows settlements with the movements each covers, and no one else’s', async () => {
    const list = await get('/settlements');
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      [STL_B, 'paid'],
      [STL_A, 'failed'],
    ]);
    expect((await get('/settlements?status=failed')).body.data[0]).toMatchObject({
      id: STL_A,
      failure_reason: 'account closed',
      trigger: 'daily',
      retained_target: '10.00',
      paid_at: null,
    });
    expect((await get('/settlements?currency=EUR')).body.total).toBe(0);
    expect((await get('/settlements?limit=1&offset=1')).body.data.map((s: { id: string }) => s.id)).toEqual([
      STL_A,
    ]);
    for (const [query, param] of [
      ['status=lost', 'status'],
      ['currency=eur', 'currency'],
      ['limit=x', 'limit'],
    ]) {
      const refused = await get(`/settlements?${query}`);
      expect([refused.status, refused.body.error.code, refused.body.error.param]).toEqual([
        400,
        'invalid_request',
        param,
      ]);
    }

    const failed = await get(`/settlements/${STL_A}`);
    expect(failed.status).toBe(200);
    expect(failed.body.transactions_total).toBe(5);
    expect(failed.body.transactions.map((t: { type: string }) => t.type)).toEqual([
      'settlement',
      'payout_reserved',
      'payment_fee',
      'payment',
      'adjustment',
    ]);
    expect(
      (await get(`/settlements/${STL_B}`)).body.transactions.map((t: { type: string }) => t.type),
    ).toEqual(['settlement', 'settlement_failed']);

    const other = await merchant(call, '5.00', { name: 'Other shop' });
    for (const path of [
      `/settlements/${STL_A}`,
      `/settlements/stl_${'c'.repeat(24)}`,
      '/settlements/not-an-id',
    ]) {
      const missing = await get(path, other.token);
      expect([path, missing.status, missing.body.error.code]).toEqual([path, 404, 'not_found']);
    }
    expect((await get('/settlements', other.token)).body.total).toBe(0);
    expect((await get('/balance/transactions', other.token)).body.total).toBe(1);
  });

  it('asks for a payout credential with payouts:read, on the environment of the path, like List Payouts', async () => {
    const writeOnly = await call('POST', '/dashboard/credentials', {
      token: shop.adminToken,
      body: { kind: 'payout', environment: 'sandbox', scopes: ['payouts:write'] },
    });
    expect(writeOnly.status).toBe(201);
    for (const path of ['/balance/transactions', '/settlements', `/settlements/${STL_A}`, '/payout/list']) {
      const anonymous = await call('GET', `/sandbox/api${path}`);
      expect([path, anonymous.status, anonymous.body.error.code]).toEqual([path, 401, 'unauthenticated']);
      const scoped = await get(path, writeOnly.body.token);
      expect([path, scoped.status, scoped.body.error.code]).toEqual([path, 403, 'insufficient_scope']);
      const production = await call('GET', `/api${path}`, { token: shop.token });
      expect([path, production.status, production.body.error.code]).toEqual([path, 403, 'wrong_environment']);
    }
  });
});
