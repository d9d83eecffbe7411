import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { floatStreamId, payoutStreamId } from '@payouts/domain';
import { assertMoneyInvariants, createServerDatabase, testBackends } from '@payouts/testing';
import { writtenWith } from '../../../libs/event-store/src/testing/stored-events';
import { linkBody, merchant, Merchant, newKey, OPERATOR_TOKEN } from '../api/gateway-harness';
import { DETAILS, startWorkerGateway, Storage, waitForPayout, WorkerGateway } from './worker-harness';

const DAY_S = 24 * 3600;
const operator = { token: OPERATOR_TOKEN };

/** A fresh place for one embedded start's data, and how to remove it. */
async function freshStorage(backend: 'pglite' | 'postgres', persistent: boolean) {
  if (backend === 'postgres') {
    const server = await createServerDatabase();
    return { storage: { databaseUrl: server.url } as Storage, remove: server.drop };
  }
  if (!persistent) return { storage: { dataDir: ':memory:' } as Storage, remove: async () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'payouts-worker-'));
  return {
    storage: { dataDir: dir } as Storage,
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function createPayout(gateway: WorkerGateway, shop: Merchant, reference: string, amount = '10.00') {
  const created = await gateway.call('POST', '/sandbox/api/payout/create', {
    token: shop.token,
    key: newKey(),
    body: linkBody(reference, amount),
  });
  expect(created.status).toBe(201);
  return created.body.payout_id as string;
}

async function eventTypes(gateway: WorkerGateway, streamId: string): Promise<string[]> {
  return (await gateway.store.readStream(streamId)).events.map((e) => e.type);
}

async function railRows(gateway: WorkerGateway, payoutId: string) {
  const { rows } = await gateway.db.query<{ status: string; receipt_reference: string }>(
    'SELECT status, receipt_reference FROM rail_simulator_transfers WHERE transfer_id = $1',
    [payoutId],
  );
  return rows;
}

describe.each(testBackends().map((b) => b.name))('payouts after the recipient confirms, on %s', (backend) => {
  let gateway: WorkerGateway;
  let remove: () => Promise<void>;
  let shop: Merchant;

  beforeAll(async () => {
    const fresh = await freshStorage(backend, false);
    remove = fresh.remove;
    gateway = await startWorkerGateway(fresh.storage);
    shop = await merchant(gateway.call, '1000.00', { origins: ['https://shop.example.com'] });
  });
  afterAll(async () => {
    await gateway.close();
    await remove();
  });

  const get = async (payoutId: string) =>
    (await gateway.call('GET', `/sandbox/api/payout/${payoutId}`, { token: shop.token })).body;
  const review = (payoutId: string, decision: unknown, token: string | undefined = OPERATOR_TOKEN) =>
    gateway.call('POST', `/operator/payouts/${payoutId}/review`, { token, body: { decision } });

  it('pays a confirmed payout with an rcpt_ receipt and settles its amount and fee', async () => {
    const payoutId = await createPayout(gateway, shop, 'paid-1', '10.00');
    await gateway.confirm(payoutId, DETAILS.paid);
    const paid = await waitForPayout(gateway.call, shop.token, payoutId, (p) => p.status === 'paid');
    expect(paid).toMatchObject({
      status: 'paid',
      status_version: 3,
      selected_method: 'bank_transfer',
      funds_released: false,
      safe_reason: null,
    });
    expect(paid.receipt_reference).toMatch(/^rcpt_[0-9a-f]{24}$/);
    expect(await railRows(gateway, payoutId)).toEqual([
      { status: 'paid', receipt_reference: paid.receipt_reference },
    ]);
    const balance = await assertMoneyInvariants(gateway.db, shop.accountId, 'sandbox');
    expect(balance).toMatchObject({ settled: '10.50', holds: '0.00', available: '989.50' });
    expect(await eventTypes(gateway, payoutStreamId(payoutId))).toEqual([
      'PayoutCreated',
      'ClaimLinkIssued',
      'PayoutConfirmed',
      'PayoutPaid',
    ]);
    await expectDetailsErased(gateway, payoutId);
  });

  it('fails a payout the rail declines and returns its money without a receipt', async () => {
    const payoutId = await createPayout(gateway, shop, 'failed-1', '20.00');
    await gateway.confirm(payoutId, DETAILS.failed);
    const failed = await waitForPayout(gateway.call, shop.token, payoutId, (p) => p.status === 'failed');
    expect(failed).toMatchObject({
      funds_released: true,
      safe_reason: 'declined_by_rail',
      receipt_reference: null,
      status_version: 3,
    });
    await expectDetailsErased(gateway, payoutId);
    expect(await assertMoneyInvariants(gateway.db, shop.accountId, 'sandbox')).toMatchObject({
      settled: '10.50',
      holds: '0.00',
      available: '989.50',
    });
  });

  it('holds a payout for review; the operator approves and it is paid', async () => {
    const payoutId = await createPayout(gateway, shop, 'review-approve', '15.00');
    await gateway.confirm(payoutId, DETAILS.review);
    const held = await waitForPayout(
      gateway.call,
      shop.token,
      payoutId,
      (p) => p.status === 'review_required',
    );
    expect(held).toMatchObject({ safe_reason: 'under_review', funds_released: false, status_version: 3 });

    const approved = await review(payoutId, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ payout_id: payoutId, status: 'processing', status_version: 4 });
    const paid = await waitForPayout(gateway.call, shop.token, payoutId, (p) => p.status === 'paid');
    expect(paid.receipt_reference).toMatch(/^rcpt_/);
    expect(paid.status_version).toBe(5);
    expect(await assertMoneyInvariants(gateway.db, shop.accountId, 'sandbox')).toMatchObject({
      settled: '26.00',
      holds: '0.00',
    });
  });

  it('holds a payout for review; the operator rejects it, it fails and its money returns', async () => {
    const payoutId = await createPayout(gateway, shop, 'review-reject', '15.00');
    await gateway.confirm(payoutId, DETAILS.review);
    await waitForPayout(gateway.call, shop.token, payoutId, (p) => p.status === 'review_required');
    const rejected = await review(payoutId, 'reject');
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      status: 'failed',
      funds_released: true,
      safe_reason: 'review_rejected',
    });
    expect(await assertMoneyInvariants(gateway.db, shop.accountId, 'sandbox')).toMatchObject({
      settled: '26.00',
      holds: '0.00',
      available: '974.00',
    });
    // The worker tells the rail, so the held transfer can never be paid later.
    const deadline = Date.now() + 10_000;
    while ((await railRows(gateway, payoutId))[0]?.status !== 'failed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect((await railRows(gateway, payoutId))[0]?.status).toBe('failed');
    expect((await get(payoutId)).status).toBe('failed');
  });

  it('refuses review decisions that do not apply, and anyone but the operator', async () => {
    const payoutId = await createPayout(gateway, shop, 'review-refusals');
    const answers = await Promise.all([
      review(payoutId, 'approve'),
      review('po_0123456789abcdef01234567', 'approve'),
      review('not-a-payout', 'approve'),
      review(payoutId, 'maybe'),
      review(payoutId, 'approve', shop.adminToken),
    ]);
    expect(answers.map((a) => [a.status, a.body.error.code, a.body.error.param])).toEqual([
      [409, 'invalid_transition', undefined],
      [404, 'not_found', undefined],
      [404, 'not_found', undefined],
      [400, 'invalid_request', 'decision'],
      [401, 'unauthenticated', undefined],
    ]);
    expect((await get(payoutId)).status).toBe('awaiting_choice');
  });

  it('refuses a malformed float top-up and anyone but the operator', async () => {
    const top = (body: unknown, token: string | undefined = OPERATOR_TOKEN) =>
      gateway.call('POST', '/operator/float', { token, body });
    const answers = await Promise.all([
      top({ environment: 'sandbox', amount: '10.001' }),
      top({ environment: 'sandbox', amount: 10 }),
      top({ environment: 'sandbox', amount: '0.00' }),
      top({ environment: 'staging', amount: '10.00' }),
      top({ environment: 'sandbox', amount: '10.00', reference: '' }),
      top({ environment: 'sandbox', amount: '10.00' }, shop.adminToken),
    ]);
    expect(answers.map((a) => [a.status, a.body.error.code, a.body.error.param])).toEqual([
      [400, 'invalid_amount', 'amount'],
      [400, 'invalid_amount', 'amount'],
      [400, 'invalid_amount', 'amount'],
      [400, 'invalid_request', 'environment'],
      [400, 'invalid_request', 'reference'],
      [401, 'unauthenticated', undefined],
    ]);
  });

  it('documents the operator’s float and review endpoints in the OpenAPI document', async () => {
    const document = (await (await fetch(`${gateway.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(document.paths['/operator/float']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401']),
    );
    expect(
      Object.keys(document.paths['/operator/payouts/{payout_id}/review']?.post?.responses ?? {}),
    ).toEqual(expect.arrayContaining(['200', '400', '401', '404', '409']));
  });

  // Last: moving the sandbox clock ages every sandbox payout of this app.
  it('expires unclaimed payouts when the sandbox clock reaches their deadline and returns their money', async () => {
    const link = await createPayout(gateway, shop, 'expire-link', '7.00');
    const redirect = await gateway.call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: {
        amount: '8.00',
        merchant_reference: 'expire-redirect',
        delivery: 'redirect',
        customer_id: 'cust-expire',
        return_url: 'https://shop.example.com/back',
      },
    });
    expect(redirect.status).toBe(201);
    // Held: these two (7.50 and 8.50 with fees) and the unclaimed payout of the refusals test (10.50).
    const before = await assertMoneyInvariants(gateway.db, shop.accountId, 'sandbox');
    expect(before.holds).toBe('26.50');

    // 24 h and a minute: the redirect payout's deadline, not the link payout's.
    const advance = async (seconds: number) =>
      expect(
        (
          await gateway.call('POST', '/operator/sandbox/clock', {
            ...operator,
            body: { advance_seconds: seconds },
          })
        ).status,
      ).toBe(200);
    await advance(DAY_S + 60);
    const expired = await waitForPayout(
      gateway.call,
      shop.token,
      redirect.body.payout_id,
      (p) => p.status === 'expired',
    );
    expect(expired).toMatchObject({ funds_released: true, status_version: 2 });
    expect((await get(link)).status).toBe('awaiting_choice');

    await advance(6 * DAY_S);
    await waitForPayout(gateway.call, shop.token, link, (p) => p.status === 'expired');
    const after = await assertMoneyInvariants(gateway.db, shop.accountId, 'sandbox');
    expect(after).toMatchObject({ holds: '0.00', available: '974.00', settled: '26.00' });
  });
});

describe.each(testBackends().map((b) => b.name))('the payout float queue on %s', (backend) => {
  let gateway: WorkerGateway;
  let remove: () => Promise<void>;
  let shop: Merchant;

  beforeAll(async () => {
    const fresh = await freshStorage(backend, false);
    remove = fresh.remove;
    // No opening balance: the float is empty until the operator tops it up.
    gateway = await startWorkerGateway(fresh.storage, { SANDBOX_FLOAT_OPENING_BALANCE: '0.00' });
    shop = await merchant(gateway.call, '1000.00');
  });
  afterAll(async () => {
    await gateway.close();
    await remove();
  });

  const topUp = async (amount: string) => {
    const answer = await gateway.call('POST', '/operator/float', {
      ...operator,
      body: { environment: 'sandbox', amount },
    });
    expect(answer.status).toBe(200);
    return answer.body;
  };

  it('queues payouts the float cannot cover as awaiting_float and sends them first come, first served after top-ups', async () => {
    const first = await createPayout(gateway, shop, 'fifo-a', '30.00');
    const second = await createPayout(gateway, shop, 'fifo-b', '10.00');
    const third = await createPayout(gateway, shop, 'fifo-c', '5.00');
    for (const payoutId of [first, second, third]) await gateway.confirm(payoutId, DETAILS.paid);

    for (const payoutId of [first, second, third]) {
      const queued = await waitForPayout(
        gateway.call,
        shop.token,
        payoutId,
        (p) => p.safe_reason === 'awaiting_float',
      );
      expect(queued).toMatchObject({ status: 'processing', status_version: 2, funds_released: false });
    }

    // Enough for the second and third but not the first: strict order, so nothing goes.
    expect(await topUp('15.00')).toMatchObject({ available: '15.00', reserved: '0.00', topped_up: '15.00' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const payoutId of [first, second, third]) {
      expect(await railRows(gateway, payoutId)).toEqual([]);
      expect(
        (await gateway.call('GET', `/sandbox/api/payout/${payoutId}`, { token: shop.token })).body.status,
      ).toBe('processing');
    }

    // 40.00 in all: the first and second go, the third waits for the next top-up.
    await topUp('25.00');
    await waitForPayout(gateway.call, shop.token, first, (p) => p.status === 'paid');
    await waitForPayout(gateway.call, shop.token, second, (p) => p.status === 'paid');
    const waiting = (await gateway.call('GET', `/sandbox/api/payout/${third}`, { token: shop.token })).body;
    expect(waiting).toMatchObject({ status: 'processing', safe_reason: 'awaiting_float' });

    await topUp('5.00');
    const paid = await waitForPayout(gateway.call, shop.token, third, (p) => p.status === 'paid');
    expect(paid).toMatchObject({ safe_reason: null, receipt_reference: expect.stringMatching(/^rcpt_/) });

    const floatEvents = (await gateway.store.readStream(floatStreamId('sandbox'))).events;
    const reservedOrder = floatEvents
      .filter((e) => e.type === 'FloatReserved')
      .map((e) => (e.data as { payoutId: string }).payoutId);
    expect(reservedOrder).toEqual([first, second, third]);
    expect(await topUp('0.01')).toMatchObject({ available: '0.01', reserved: '0.00', paid_out: '45.00' });
    expect(await assertMoneyInvariants(gateway.db, shop.accountId, 'sandbox')).toMatchObject({
      settled: '46.50',
      holds: '0.00',
    });
  });
});

describe.each(testBackends().map((b) => b.name))('a queued payout being sent on %s', (backend) => {
  let gateway: WorkerGateway;
  let remove: () => Promise<void>;
  let shop: Merchant;

  beforeAll(async () => {
    const fresh = await freshStorage(backend, false);
    remove = fresh.remove;
    // An empty float, and a rail that takes ten minutes of the sandbox clock: the payout stays
    // processing after it leaves the queue until the test moves the clock, so that moment is
    // observed without racing the rail.
    gateway = await startWorkerGateway(fresh.storage, {
      SANDBOX_FLOAT_OPENING_BALANCE: '0.00',
      RAIL_SIMULATOR_DELAY_MS: '600000',
    });
    shop = await merchant(gateway.call, '100.00');
  });
  afterAll(async () => {
    await gateway.close();
    await remove();
  });

  it('no longer shows awaiting_float once the float is set aside for it, while it is still processing', async () => {
    const payoutId = await createPayout(gateway, shop, 'leaves-queue', '10.00');
    await gateway.confirm(payoutId, DETAILS.paid);
    const queued = await waitForPayout(
      gateway.call,
      shop.token,
      payoutId,
      (p) => p.safe_reason === 'awaiting_float',
    );
    expect(queued).toMatchObject({ status: 'processing', status_version: 2 });

    const topUp = await gateway.call('POST', '/operator/float', {
      ...operator,
      body: { environment: 'sandbox', amount: '10.00' },
    });
    expect(topUp.status).toBe(200);
    const sending = await waitForPayout(gateway.call, shop.token, payoutId, (p) => p.safe_reason === null);
    expect(sending).toMatchObject({ status: 'processing', status_version: 2, receipt_reference: null });
    expect(Date.parse(String(sending.updated_at))).toBeGreaterThan(Date.parse(String(queued.updated_at)));
    const listed = await gateway.call('GET', '/sandbox/api/payout/list?merchant_reference=leaves-queue', {
      token: shop.token,
    });
    expect(listed.body.data).toEqual([sending]);

    // Still being sent: the rail holds it, pending, for ten minutes of the sandbox clock.
    const deadline = Date.now() + 10_000;
    while ((await railRows(gateway, payoutId)).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await railRows(gateway, payoutId)).toEqual([
      { status: 'pending', receipt_reference: expect.any(String) },
    ]);
    expect(
      (await gateway.call('GET', `/sandbox/api/payout/${payoutId}`, { token: shop.token })).body,
    ).toMatchObject({ status: 'processing', safe_reason: null });

    // The reservation and the payout's event are one append.
    const leftQueue = (await gateway.store.readStream(payoutStreamId(payoutId))).events.find(
      (e) => e.type === 'PayoutLeftFloatQueue',
    );
    const appended = await writtenWith(gateway.store, leftQueue!);
    expect(appended.map((e) => e.type)).toEqual(['FloatReserved', 'PayoutLeftFloatQueue']);

    const clock = await gateway.call('POST', '/operator/sandbox/clock', {
      ...operator,
      body: { advance_seconds: 601 },
    });
    expect(clock.status).toBe(200);
    const paid = await waitForPayout(gateway.call, shop.token, payoutId, (p) => p.status === 'paid');
    expect(paid).toMatchObject({ safe_reason: null, status_version: 3 });
    expect(await eventTypes(gateway, payoutStreamId(payoutId))).toEqual([
      'PayoutCreated',
      'ClaimLinkIssued',
      'PayoutConfirmed',
      'PayoutAwaitingFloat',
      'PayoutLeftFloatQueue',
      'PayoutPaid',
    ]);
  });
});

describe.each(testBackends().map((b) => b.name))('a worker restarted mid-send on %s', (backend) => {
  let remove: () => Promise<void>;
  let storage: Storage;
  const key = Buffer.alloc(32, 7).toString('base64');

  beforeAll(async () => {
    const fresh = await freshStorage(backend, true);
    storage = fresh.storage;
    remove = fresh.remove;
  });
  afterAll(() => remove());

  it('pays the payout exactly once after the restart', async () => {
    // A slow rail, so the stop lands between the send and the rail's answer.
    let gateway = await startWorkerGateway(storage, { RAIL_SIMULATOR_DELAY_MS: '3000' }, key);
    const shop = await merchant(gateway.call, '100.00');
    const payoutId = await createPayout(gateway, shop, 'restart-1', '10.00');
    await gateway.confirm(payoutId, DETAILS.paid);
    const deadline = Date.now() + 10_000;
    while ((await railRows(gateway, payoutId)).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await railRows(gateway, payoutId)).toEqual([
      { status: 'pending', receipt_reference: expect.any(String) },
    ]);
    await gateway.close();

    gateway = await startWorkerGateway(storage, {}, key);
    try {
      const paid = await waitForPayout(gateway.call, shop.token, payoutId, (p) => p.status === 'paid');
      const rows = await railRows(gateway, payoutId);
      expect(rows).toEqual([{ status: 'paid', receipt_reference: paid.receipt_reference }]);
      const types = await eventTypes(gateway, payoutStreamId(payoutId));
      expect(types.filter((t) => t === 'PayoutPaid')).toHaveLength(1);
      expect(await assertMoneyInvariants(gateway.db, shop.accountId, 'sandbox')).toMatchObject({
        settled: '10.50',
        holds: '0.00',
        available: '89.50',
      });
    } finally {
      await gateway.close();
    }
  });
});

/** The worker erases a final payout's receiving details just after recording the outcome. */
async function expectDetailsErased(gateway: WorkerGateway, payoutId: string): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    const { rows } = await gateway.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM claim_receiving_details WHERE payout_id = $1',
      [payoutId],
    );
    if (rows[0]!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the receiving details of ${payoutId} were not erased`);
}
