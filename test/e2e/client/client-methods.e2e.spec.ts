import { PayoutsApiError, PayoutsClient } from '@payouts/client';
import type { FeedEvent } from '@payouts/client';
import { client, Gateway, merchant, OPERATOR_TOKEN, startGateway } from '../api/gateway-harness';
import type { Call, Merchant } from '../api/gateway-harness';
import { checkoutShop, orderBody } from '../checkout/checkout-harness';
import { eventually } from '../../../libs/webhooks/src/testing/receiver';
import { collect, linkPayout, recordingFetch } from './client-harness';

/**
 * Every method of the TypeScript client (clients/typescript) once, against the embedded service
 * over real HTTP, with the sandbox's base address as the service gives it (`…/sandbox`): the answers
 * are the service's own, typed from its OpenAPI document.
 */
describe('the TypeScript client against the embedded service', () => {
  let gateway: Gateway;
  let call: Call;
  let shop: Merchant;
  let sandbox: string;
  let api: PayoutsClient;
  const created: string[] = [];

  beforeAll(async () => {
    gateway = await startGateway('pglite', { WORKER_POLL_MS: '25' });
    call = client(gateway.url);
    shop = await merchant(call, '1000.00', { origins: ['https://shop.example.com'] });
    // The base address exactly as the interface gives it, here with a trailing slash.
    sandbox = `${gateway.url}/sandbox`;
    api = new PayoutsClient({ baseUrl: `${sandbox}/`, token: shop.token });
  });
  afterAll(() => gateway.close());

  it('creates, gets, lists, links, hands off and cancels payouts, and reads the balance', async () => {
    const first = await api.payouts.create(linkPayout('client-1'), { idempotencyKey: 'client-1-key' });
    expect(first).toMatchObject({ status: 'awaiting_choice', amount: '10.00', total_reserved: '10.50' });
    expect(first.payout_url).toMatch(/\/sandbox\/claim\//);
    created.push(first.payout_id);
    // The same key again: the service's stored answer, the same payout.
    const replay = await api.payouts.create(linkPayout('client-1'), { idempotencyKey: 'client-1-key' });
    expect(replay.payout_id).toBe(first.payout_id);
    expect(replay.payout_url).toBeNull();

    const got = await api.payouts.get(first.payout_id);
    expect(got).toMatchObject({
      payout_id: first.payout_id,
      merchant_reference: 'client-1',
      status: 'awaiting_choice',
    });
    const listed = await api.payouts.list({ merchant_reference: 'client-1' });
    expect(listed).toMatchObject({ total: 1, offset: 0, data: [got] });

    for (let i = 2; i <= 5; i += 1)
      created.push((await api.payouts.create(linkPayout(`client-${i}`, '1.00'))).payout_id);
    // Two a page: three pages, every payout once, newest first as List Payouts gives them.
    const all = await collect(api.payouts.listAll({ limit: 2 }));
    expect(all.map((payout) => payout.payout_id)).toEqual([...created].reverse());
    expect(all.map((payout) => payout.payout_id)).toEqual(
      (await api.payouts.list({ limit: 10 })).data.map((payout) => payout.payout_id),
    );

    const balance = await api.payouts.balance();
    expect(balance).toMatchObject({ customer_payout_holds: '16.50' });

    const link = await api.payouts.claimLink(first.payout_id);
    expect(link).toMatchObject({ payout_id: first.payout_id, rotated: false });
    const rotated = await api.payouts.claimLink(first.payout_id, { rotate: true });
    expect(rotated.rotated).toBe(true);
    expect(rotated.url).not.toBe(link.url);

    const redirect = await api.payouts.create({
      amount: '2.00',
      merchant_reference: 'client-redirect',
      delivery: 'redirect',
      customer_id: 'cus_42',
      return_url: 'https://shop.example.com/back',
    });
    created.push(redirect.payout_id);
    const session = await api.payouts.redirectSession(redirect.payout_id, { customer_id: 'cus_42' });
    expect(session).toMatchObject({
      payout_id: redirect.payout_id,
      payout_url: expect.stringMatching(/\/sandbox\/handoff\//),
    });

    const cancelled = await api.payouts.cancel(redirect.payout_id);
    expect(cancelled).toMatchObject({ payout_id: redirect.payout_id, status: 'cancelled' });
    expect((await api.payouts.get(redirect.payout_id)).status).toBe('cancelled');
  });

  it('creates checkout orders with the checkout key, and lists them, their history and status', async () => {
    const checkout = await checkoutShop(call);
    const orders = new PayoutsClient({ baseUrl: sandbox, token: checkout.key });
    const card = await orders.orders.create('card', orderBody({ amount: 10.5 }));
    expect(card).toMatchObject({ amount: '10.50', order_url: expect.stringContaining('/checkout/') });
    const wallet = await orders.orders.create('onlinewallet', orderBody({ amount: 2, product: 'Sticker' }));
    const cash = await orders.orders.create('cash', orderBody({ amount: 0.5 }));

    const listed = await orders.orders.list({ limit: 2 });
    expect(listed).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(listed.data.map((order) => order.id)).toEqual([cash.order_id, wallet.order_id]);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const history = await orders.orders.history({ start_date: today, end_date: tomorrow });
    expect(history.amount).toBe(13);
    expect(history.data.map((order) => order.id)).toEqual([cash.order_id, wallet.order_id, card.order_id]);
    const status = await orders.orders.status(wallet.order_id);
    expect(status).toMatchObject({
      status: 'PENDING',
      data: { id: wallet.order_id, Amount: 2, product: 'Sticker', method: 'online_wallet' },
    });
  });

  it('lists balance transactions a page at a time and all at once', async () => {
    // The opening credit, each payout's reservation and the cancelled one's release, once projected.
    const expected = 1 + created.length + 1;
    const page = await eventually(async () => {
      const answer = await api.balanceTransactions.list({ limit: 3 });
      return answer.total === expected ? answer : undefined;
    });
    expect(page.data).toHaveLength(3);
    const all = await collect(api.balanceTransactions.listAll({ limit: 3 }));
    expect(all).toHaveLength(page.total);
    expect(all.slice(0, 3)).toEqual(page.data);
    expect(all.map((transaction) => transaction.type).sort()).toEqual(
      ['adjustment', 'payout_released', ...created.map(() => 'payout_reserved')].sort(),
    );
    const reservations = await collect(
      api.balanceTransactions.listAll({ type: 'payout_reserved', limit: 2 }),
    );
    expect(reservations).toHaveLength(created.length);
  });

  it('refuses with PayoutsApiError: the status, code, message, param and the answer’s Request-Id', async () => {
    const recorder = recordingFetch();
    const recorded = new PayoutsClient({ baseUrl: sandbox, token: shop.token, fetch: recorder.fetch });
    const badAmount = await recorded.payouts
      .create(linkPayout('client-bad', '1.234'))
      .catch((error: unknown) => error);
    expect(badAmount).toBeInstanceOf(PayoutsApiError);
    const refusal = badAmount as PayoutsApiError;
    expect(refusal).toMatchObject({ status: 400, code: 'invalid_amount', param: 'amount' });
    expect(refusal.message).not.toBe('');
    expect(refusal.requestId).toMatch(/^req_/);
    expect(refusal.requestId).toBe(recorder.exchanges.at(-1)!.response!.headers.get('request-id'));
    expect(refusal.idempotencyKey).toBe(recorder.exchanges.at(-1)!.headers['idempotency-key']);

    // A read-only credential may not create: 403 insufficient_scope, no param.
    const readOnly = await call('POST', '/dashboard/credentials', {
      token: shop.adminToken,
      body: { kind: 'payout', environment: 'sandbox', scopes: ['payouts:read'] },
    });
    const reader = new PayoutsClient({ baseUrl: sandbox, token: readOnly.body.token });
    await expect(reader.payouts.create(linkPayout('client-scope'))).rejects.toMatchObject({
      status: 403,
      code: 'insufficient_scope',
      param: undefined,
      requestId: expect.stringMatching(/^req_/),
    });
    // The production base address with a sandbox credential, and an unknown payout.
    const production = new PayoutsClient({ baseUrl: gateway.url, token: shop.token });
    await expect(production.payouts.balance()).rejects.toMatchObject({
      status: 403,
      code: 'wrong_environment',
    });
    await expect(api.payouts.get('po_000000000000000000000000')).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
    // Nothing of the refused creates exists.
    expect((await api.payouts.list({ merchant_reference: 'client-bad' })).total).toBe(0);
    expect((await api.payouts.list({ merchant_reference: 'client-scope' })).total).toBe(0);
  });

  it('lists and reads settlements', async () => {
    // Settle every sandbox ledger now: this shop's available balance goes to its bank account.
    const run = await call('POST', '/operator/settlements/run', {
      token: OPERATOR_TOKEN,
      body: { environment: 'sandbox' },
    });
    expect(run.status).toBe(200);
    const mine = (run.body.started as { account_id: string; settlement_id: string }[]).find(
      (settlement) => settlement.account_id === shop.accountId,
    );
    expect(mine).toBeDefined();
    const listed = await eventually(async () => {
      const answer = await api.settlements.list({ currency: 'USD' });
      return answer.total === 1 ? answer : undefined;
    });
    expect(listed).toMatchObject({
      total: 1,
      data: [{ id: mine!.settlement_id, status: 'paid', trigger: 'manual' }],
    });
    const settlement = await api.settlements.get(mine!.settlement_id);
    expect(settlement).toMatchObject({
      id: mine!.settlement_id,
      amount: listed.data[0]!.amount,
      status: 'paid',
    });
  });

  it('reads the events feed a page at a time and all at once', async () => {
    // The feed is written as the projector catches up: wait for the last change, the settlement
    // paid above; everything committed before it is in the feed then.
    await eventually(async () => {
      const settled = await collect(api.events.listAll({ types: ['settlement.paid'] }));
      return settled.length === 1 ? settled : undefined;
    });
    const payoutEvents = await collect(api.events.listAll({ types: ['payout.created'] }));
    expect(payoutEvents.map((event) => (event.data as { payout_id: string }).payout_id)).toEqual(created);

    const first = await api.events.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    expect(first.next_after).toBe(first.data[1]!.id);
    const second = await api.events.list({ after: first.next_after!, limit: 2 });
    // All at once, in pages of the default size, from the start and from a cursor.
    const all: FeedEvent[] = await collect(api.events.listAll());
    expect(all.slice(0, 4)).toEqual([...first.data, ...second.data]);
    expect(new Set(all.map((event) => event.id)).size).toBe(all.length);
    expect(await collect(api.events.listAll({ after: first.next_after!, limit: 3 }))).toEqual(all.slice(2));
    expect(new Set(all.map((event) => event.type))).toEqual(
      new Set([
        'balance.transaction',
        'payout.created',
        'payout.updated',
        'settlement.created',
        'settlement.paid',
      ]),
    );
    await expect(api.events.list({ limit: 0 })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_request',
      param: 'limit',
    });
  });
});
