import { payoutUpdatedEventId } from '@payouts/webhooks';
import { linkBody, merchant, newKey, OPERATOR_TOKEN } from '../api/gateway-harness';
import type { Merchant } from '../api/gateway-harness';
import { orderBody } from '../checkout/checkout-harness';
import { Payer } from '../checkout/page-client';
import { DETAILS, startWorkerGateway, waitForPayout } from '../worker/worker-harness';
import type { WorkerGateway } from '../worker/worker-harness';
import { withTimeMovedBy } from '../process-time';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface FeedEvent {
  id: string;
  type: string;
  created_at: string;
  data: Body;
}

const operator = { token: OPERATOR_TOKEN };

/**
 * GET /api/events (docs/integration.md#events-feed) on the embedded start with its worker: each
 * event's data is the resource as its Get answered right after the change, the cursor walks the
 * feed one event at a time exactly as one page gives it, and nothing of another account or
 * environment shows.
 */
describe('the events feed', () => {
  let gateway: WorkerGateway;
  let shop: Merchant;
  let checkoutKey: string;

  beforeAll(async () => {
    gateway = await startWorkerGateway({ dataDir: ':memory:' });
    shop = await merchant(gateway.call, '100.00');
    const key = await gateway.call('POST', '/dashboard/credentials', {
      token: shop.adminToken,
      body: { kind: 'checkout', environment: 'sandbox' },
    });
    expect(key.status).toBe(201);
    checkoutKey = key.body.token as string;
  }, 60_000);
  afterAll(() => gateway.close());

  const events = (query = '', token = shop.token, base = '/sandbox') =>
    gateway.call('GET', `${base}/api/events${query}`, { token });

  /** Every event of the feed, read in one page (the tests stay below 200 events). */
  async function allEvents(token = shop.token): Promise<FeedEvent[]> {
    const page = await events('?limit=200', token);
    expect(page.status).toBe(200);
    expect(page.body.has_more).toBe(false);
    return page.body.data as FeedEvent[];
  }

  /** The feed's events after the last one seen, once the projector has caught up with them. */
  async function newEvents(after: string | null, count: number): Promise<FeedEvent[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const page = await events(`?limit=200${after ? `&after=${after}` : ''}`);
      expect(page.status).toBe(200);
      if ((page.body.data as FeedEvent[]).length >= count || Date.now() > deadline) {
        return page.body.data as FeedEvent[];
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('gives each change with the resource exactly as its Get answered it then', async () => {
    let cursor: string | null = null;
    const step = async (count: number) => {
      const fresh = await newEvents(cursor, count);
      expect(fresh).toHaveLength(count);
      cursor = fresh[fresh.length - 1]!.id;
      return fresh;
    };
    // The operator's credit of merchant(): one adjustment.
    const [credit] = await step(1);
    const listed = await gateway.call('GET', '/sandbox/api/balance/transactions', { token: shop.token });
    expect(credit).toMatchObject({ type: 'balance.transaction', data: listed.body.data[0] });
    expect(credit!.data.type).toBe('adjustment');

    // A payout: created (its reservation is a balance transaction of the same commit), then cancelled.
    const created = await gateway.call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: linkBody('feed-1', '10.00'),
    });
    expect(created.status).toBe(201);
    const payoutId = created.body.payout_id as string;
    const atCreation = (await gateway.call('GET', `/sandbox/api/payout/${payoutId}`, { token: shop.token }))
      .body;
    const afterCreate = await step(2);
    expect(afterCreate.map((e) => e.type).sort()).toEqual(['balance.transaction', 'payout.created']);
    expect(afterCreate.find((e) => e.type === 'payout.created')!.data).toEqual(atCreation);
    const cancelled = await gateway.call('POST', `/sandbox/api/payout/${payoutId}/cancel`, {
      token: shop.token,
      key: newKey(),
    });
    expect(cancelled.status).toBe(200);
    const afterCancel = await step(2);
    const update = afterCancel.find((e) => e.type === 'payout.updated')!;
    expect(update.data).toEqual(
      (await gateway.call('GET', `/sandbox/api/payout/${payoutId}`, { token: shop.token })).body,
    );
    expect(update.data.status).toBe('cancelled');

    // An order, paid on its hosted page: created, then paid (with its payment and fee rows).
    const order = await gateway.call('POST', '/sandbox/card', {
      token: checkoutKey,
      body: orderBody({ amount: 20 }),
    });
    expect(order.status).toBe(200);
    const orderId = order.body.order_id as number;
    const pendingOrder = await gateway.call('GET', `/sandbox/payment/status?payment_id=${orderId}`, {
      token: checkoutKey,
    });
    const [orderCreated] = await step(1);
    expect(orderCreated).toMatchObject({ type: 'order.created', data: pendingOrder.body.data });
    const payer = new Payer(`${gateway.url}${new URL(order.body.order_url as string).pathname}`);
    expect((await payer.open()).status).toBe(200);
    expect((await payer.payByCard('4242424242424242')).status).toBeLessThan(400);
    const paidOrder = await gateway.call('GET', `/sandbox/payment/status?payment_id=${orderId}`, {
      token: checkoutKey,
    });
    const afterPay = await step(3);
    expect(afterPay.map((e) => e.type).sort()).toEqual([
      'balance.transaction',
      'balance.transaction',
      'order.paid',
    ]);
    expect(afterPay.find((e) => e.type === 'order.paid')!.data).toEqual(paidOrder.body.data);
    const rows = (await gateway.call('GET', '/sandbox/api/balance/transactions', { token: shop.token })).body
      .data as Body[];
    const proceeds = afterPay.filter((e) => e.type === 'balance.transaction');
    expect(proceeds.map((e) => e.data)).toEqual(
      ['payment', 'payment_fee'].map((type) =>
        rows.find((row) => row.type === type && row.order_id === orderId),
      ),
    );
    expect(proceeds.map((e) => e.data.status)).toEqual(['pending', 'pending']);

    // A settlement of the available money, paid by the sandbox rail.
    const run = await gateway.call('POST', '/operator/settlements/run', {
      ...operator,
      body: { environment: 'sandbox' },
    });
    expect(run.status).toBe(200);
    const settlementId = (run.body.started as Body[]).find((s) => s.account_id === shop.accountId)!
      .settlement_id as string;
    const settled = await step(3);
    expect(settled.map((e) => e.type)).toEqual([
      'settlement.created',
      'balance.transaction',
      'settlement.paid',
    ]);
    const settlement = (
      await gateway.call('GET', `/sandbox/api/settlements/${settlementId}`, { token: shop.token })
    ).body;
    expect(settled[2]!.data).toEqual(withoutMovements(settlement));
    expect(settled[0]!.data).toEqual({
      ...withoutMovements(settlement),
      status: 'in_transit',
      paid_at: null,
    });
    expect(settled[1]!.data).toMatchObject({
      type: 'settlement',
      settlement_id: settlementId,
      status: 'in_transit',
    });

    // The feed is oldest first, every id once, each created_at a time.
    const all = await allEvents();
    expect(all.map((e) => e.id)).toEqual(
      [credit, ...afterCreate, ...afterCancel, orderCreated, ...afterPay, ...settled].map((e) => e!.id),
    );
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    for (const event of all) expect(new Date(event.created_at).toISOString()).toBe(event.created_at);
  }, 60_000);

  it("gives a paid payout's update its payout webhook's id", async () => {
    // The settlement above took the available money.
    const credited = await gateway.call('POST', `/operator/accounts/${shop.accountId}/funds`, {
      ...operator,
      body: { environment: 'sandbox', amount: '50.00' },
    });
    expect(credited.status).toBe(200);
    const created = await gateway.call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: linkBody('feed-paid', '5.00'),
    });
    expect(created.status).toBe(201);
    const payoutId = created.body.payout_id as string;
    await gateway.confirm(payoutId, DETAILS.paid);
    const paid = await waitForPayout(gateway.call, shop.token, payoutId, (p) => p.status === 'paid');
    const deadline = Date.now() + 10_000;
    let updates: FeedEvent[] = [];
    while (Date.now() < deadline) {
      updates = (await allEvents()).filter(
        (e) => e.type === 'payout.updated' && e.data.payout_id === payoutId,
      );
      if (updates.some((e) => e.data.status === 'paid')) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(updates.map((e) => e.data.status)).toEqual(['processing', 'paid']);
    const paidEvent = updates[1]!;
    expect(paidEvent.id).toBe(payoutUpdatedEventId(payoutId));
    expect(paidEvent.data).toEqual(paid);
    // Its id is a cursor like any other: the page after it starts right after it.
    const all = await allEvents();
    const after = await events(`?after=${paidEvent.id}&limit=200`);
    expect(after.status).toBe(200);
    expect(after.body.data).toEqual(all.slice(all.findIndex((e) => e.id === paidEvent.id) + 1));
  }, 60_000);

  it('pages one event at a time through exactly what one page gives, and filters by type', async () => {
    const all = await allEvents();
    expect(all.length).toBeGreaterThan(10);
    const walked: FeedEvent[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await events(`?limit=1${after ? `&after=${after}` : ''}`);
      expect(page.status).toBe(200);
      walked.push(...(page.body.data as FeedEvent[]));
      if (!page.body.has_more) break;
      after = page.body.next_after as string;
      expect(after).toBe(walked[walked.length - 1]!.id);
    }
    expect(walked).toEqual(all);
    const end = await events(`?after=${all[all.length - 1]!.id}`);
    expect(end.body).toEqual({ data: [], has_more: false, next_after: all[all.length - 1]!.id });

    const payouts = await events('?types=payout.created,payout.updated&limit=200');
    expect(payouts.body.data).toEqual(all.filter((e) => e.type.startsWith('payout.')));
    const firstTwo = await events('?types=balance.transaction&limit=2');
    expect(firstTwo.body.has_more).toBe(true);
    expect(firstTwo.body.data).toEqual(all.filter((e) => e.type === 'balance.transaction').slice(0, 2));
    expect((await events('?limit=500')).body.data).toEqual(all.slice(0, 200));
  });

  it("never shows another account's or the other environment's events", async () => {
    const other = await merchant(gateway.call, '30.00');
    const mine = await allEvents();
    const theirs = await allEvents(other.token);
    expect(theirs.map((e) => e.data.type)).toEqual(['adjustment']);
    expect(theirs.map((e) => e.id).filter((id) => mine.some((e) => e.id === id))).toEqual([]);
    // Another account's event id names nothing in this feed.
    const refused = await events(`?after=${mine[0]!.id}`, other.token);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_request', param: 'after' });
    // Production has its own feed: empty for this account; a sandbox credential may not read it.
    expect((await events('', shop.token, '')).status).toBe(403);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=ten', 'limit'],
    ['?types=payout.paid', 'types'],
    ['?types=', 'types'],
    ['?offset=5', 'offset'],
    ['?after=po_123', 'after'],
    ['?after=evt_po_000000000000000000000000_1', 'after'],
    ['?after=evt_0123456789abcdef0123456789abcdef', 'after'],
    ['?after=a&after=b', 'after'],
  ])('refuses %s with 400 invalid_request on %s', async (query, param) => {
    const answer = await events(query);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_request', param });
  });

  it('needs payouts:read', async () => {
    const writeOnly = await gateway.call('POST', '/dashboard/credentials', {
      token: shop.adminToken,
      body: { kind: 'payout', environment: 'sandbox', scopes: ['payouts:write'] },
    });
    expect(writeOnly.status).toBe(201);
    const answer = await events('', writeOnly.body.token as string);
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('insufficient_scope');
    expect((await events('', 'pk_nobody')).status).toBe(401);
    expect((await events('', checkoutKey)).status).toBe(403);
  });

  it('gives an order that expired unpaid as order.expired', async () => {
    const order = await gateway.call('POST', '/sandbox/card', {
      token: checkoutKey,
      body: orderBody({ amount: 3 }),
    });
    expect(order.status).toBe(200);
    const orderId = order.body.order_id as number;
    const moved = await gateway.call('POST', '/operator/sandbox/clock', {
      ...operator,
      body: { advance_seconds: 24 * 3600 + 60 },
    });
    expect(moved.status).toBe(200);
    const deadline = Date.now() + 15_000;
    let expired: FeedEvent | undefined;
    while (expired === undefined && Date.now() < deadline) {
      expired = (await allEvents()).find((e) => e.type === 'order.expired' && e.data.id === orderId);
      if (expired === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const status = await gateway.call('GET', `/sandbox/payment/status?payment_id=${orderId}`, {
      token: checkoutKey,
    });
    expect(status.body.data.status).toBe('EXPIRED');
    expect(expired?.data).toEqual(status.body.data);
    const ofOrder = (await allEvents()).filter((e) => e.type.startsWith('order.') && e.data.id === orderId);
    expect(ofOrder.map((e) => [e.type, e.data.status])).toEqual([
      ['order.created', 'PENDING'],
      ['order.expired', 'EXPIRED'],
    ]);
  }, 30_000);

  it('keeps events 30 days of real time: moving the sandbox clock does not age the feed', async () => {
    const before = await allEvents();
    const moved = await gateway.call('POST', '/operator/sandbox/clock', {
      ...operator,
      body: { advance_seconds: 31 * 24 * 3600 },
    });
    expect(moved.status).toBe(200);
    // Every event is still there (the move may already have added a settlement after them).
    expect((await allEvents()).slice(0, before.length)).toEqual(before);
    // An event made after the move is there too.
    const credited = await gateway.call('POST', `/operator/accounts/${shop.accountId}/funds`, {
      ...operator,
      body: { environment: 'sandbox', amount: '1.00' },
    });
    expect(credited.status).toBe(200);
    // (The move also passed settlement hours: settlements may come before or after it.)
    const deadline = Date.now() + 10_000;
    let credit: FeedEvent | undefined;
    while (credit === undefined && Date.now() < deadline) {
      const fresh = await newEvents(before[before.length - 1]!.id, 1);
      credit = fresh.find((e) => e.data.type === 'adjustment' && e.data.amount === '1.00');
    }
    expect(credit?.type).toBe('balance.transaction');
  });

  it('leaves out events older than the retention and refuses a cursor on one with 410 cursor_expired', async () => {
    const first = (await allEvents())[0]!;
    // Real time 31 days on, for this process's Date only: the timers and the database run on.
    await withTimeMovedBy(31 * 24 * 3600 * 1000, async () => {
      const answer = await events(`?after=${first.id}`);
      expect(answer.status).toBe(410);
      expect(answer.body.error).toMatchObject({ code: 'cursor_expired', param: 'after' });
      // Only what was recorded in the last 30 days of the moved time (PGlite's now() moved too,
      // so the worker's work meanwhile is recorded then): none of the events before.
      const kept = (await events('?limit=200')).body.data as FeedEvent[];
      const since = Date.now() - 30 * 24 * 3600 * 1000;
      expect(kept.filter((e) => Date.parse(e.created_at) < since)).toEqual([]);
      expect(kept.map((e) => e.id)).not.toContain(first.id);
    });
  });
});

/** A settlement as Get Settlement answers it, without the movements it lists beside it. */
function withoutMovements(settlement: Body): Body {
  const { transactions: _transactions, transactions_total: _total, ...rest } = settlement;
  return rest;
}
