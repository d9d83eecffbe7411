import Big from 'big.js';
import { PostgresEventStore } from '@payouts/event-store';
import { assertMoneyInvariants } from '@payouts/testing';
import { verifyCheckoutWebhook, verifyPayoutWebhook } from '@payouts/webhooks';
import { countEvents } from '../../../libs/event-store/src/testing/stored-events';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { Call, merchant, newKey, OPERATOR_TOKEN } from '../api/gateway-harness';
import { checkoutShop, orderBody } from '../checkout/checkout-harness';
import { Payer } from '../checkout/page-client';
import { expectCleanReplay, expectCleanVerify, runAudit } from '../audit/audit-process';
import { EsdbService } from './esdb-service';
import { acceptOnHandoff, chainCaughtUp, RETURN_ORIGIN, redirectBody } from './service-steps';

const DAY_SECONDS = 24 * 3600;

/**
 * The whole service on EventStoreDB (docs/eventstoredb.md): api-gateway, projector, worker and
 * webhook-dispatcher as separate processes on the stand-in and a fresh PostgreSQL database. A
 * checkout payment, a payout to paid, a settlement and both signed webhooks go through; the audit
 * then finds the log and the read models in agreement, and the events are in EventStoreDB only.
 */
describe('the service on EventStoreDB', () => {
  let service: EsdbService;
  let receiver: TestReceiver;
  let eventsAtStart: number;

  beforeAll(async () => {
    receiver = await TestReceiver.start();
    // Settlements at 00:00 UTC on the sandbox clock, which the test moves three days on.
    service = await EsdbService.start({ SETTLEMENT_HOUR_UTC: '0' });
    eventsAtStart = service.standIn.eventCount();
  }, 120_000);

  afterAll(async () => {
    const unclean = (await service?.close()) ?? [];
    await receiver?.close();
    expect(unclean).toEqual([]);
  }, 60_000);

  // The service starts in beforeAll: every call goes to its gateway.
  const call: Call = (...args) => service.call(...args);
  const operator = { token: OPERATOR_TOKEN };

  /** A webhook at `path` that `match` picks; failing, the sending apps' logs say why. */
  const arrived = (path: string, match: (body: Record<string, unknown>) => boolean) =>
    eventually(
      () =>
        receiver.received.find(
          (request) => request.path === path && match(JSON.parse(request.rawBody) as Record<string, unknown>),
        ),
      30_000,
      `a webhook at ${path}`,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${service.logs(['webhook-dispatcher', 'projector'])}`);
    });

  let orderId: number;
  let payoutId: string;
  let shopAccount: string;

  it('takes a checkout payment on the hosted page and sends its signed webhook', async () => {
    const shop = await checkoutShop(call, { webhookUrl: receiver.url('/checkout') });
    shopAccount = shop.accountId;
    const created = await call('POST', '/sandbox/card', { token: shop.key, body: orderBody({ amount: 40 }) });
    expect(created.status).toBe(200);
    orderId = created.body.order_id as number;
    const payer = new Payer(`${service.gatewayUrl}${new URL(created.body.order_url as string).pathname}`);
    expect((await payer.open()).status).toBe(200);
    expect((await payer.payByCard('4242 4242 4242 4242')).status).toBe(303);
    const status = await call('GET', `/sandbox/payment/status?payment_id=${orderId}`, { token: shop.key });
    expect(status.body.status).toBe('SUCCESS');

    const webhook = await arrived('/checkout', (body) => body.order_id === orderId);
    expect(JSON.parse(webhook.rawBody)).toMatchObject({ order_id: orderId, status: 'SUCCESS' });
    expect(
      verifyCheckoutWebhook(webhook.rawBody, String(webhook.headers['x-service-signature']), shop.secret),
    ).toBe(true);
  });

  it('carries a payout to paid through the worker and sends its signed webhook', async () => {
    const shop = await merchant(call, '100.00', { origins: [RETURN_ORIGIN] });
    const saved = await call('PUT', '/dashboard/payout-webhook', {
      token: shop.adminToken,
      body: { environment: 'sandbox', url: receiver.url('/payouts') },
    });
    expect(saved.status).toBe(200);
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: redirectBody('esdb-paid', '25.00'),
    });
    expect(created.status).toBe(201);
    payoutId = created.body.payout_id as string;

    await acceptOnHandoff(service.gatewayUrl, created.body.payout_url as string);
    const paid = await eventually(
      async () => {
        const got = await call('GET', `/sandbox/api/payout/${payoutId}`, { token: shop.token });
        return got.body.status === 'paid' ? got.body : undefined;
      },
      30_000,
      `payout ${payoutId} paid`,
    );
    expect(paid.receipt_reference).toMatch(/^rcpt_/);
    const balance = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
    expect(balance.body).toMatchObject({
      available_for_new_commitments: '74.50',
      customer_payout_holds: '0.00',
      customer_payouts_settled: '25.50',
    });

    const webhook = await arrived('/payouts', (body) => {
      const data = body.data as { payout_id?: string; status?: string } | undefined;
      return data?.payout_id === payoutId && data.status === 'paid';
    });
    expect(JSON.parse(webhook.rawBody).type).toBe('payout.updated');
    verifyPayoutWebhook(webhook.rawBody, webhook.signature, saved.body.secret as string);
  });

  it('settles the cleared payment when the sandbox clock passes the settlement hour', async () => {
    const before = await service.db.query<{ pending: string; available: string }>(
      `SELECT pending::text, available::text FROM payout_balances WHERE account_id = $1 AND environment = 'sandbox'`,
      [shopAccount],
    );
    const { pending, available } = before.rows[0]!;
    expect(new Big(pending).gt(0)).toBe(true);
    // Past the card's two days of clearing and at least one 00:00 UTC.
    const moved = await call('POST', '/operator/sandbox/clock', {
      ...operator,
      body: { advance_seconds: 3 * DAY_SECONDS },
    });
    expect(moved.status).toBe(200);

    const settled = await eventually(
      async () => {
        const { rows } = await service.db.query<{ amount: string; status: string }>(
          `SELECT amount::text, status FROM settlements WHERE account_id = $1`,
          [shopAccount],
        );
        return rows.some((row) => row.status === 'paid') ? rows : undefined;
      },
      30_000,
      'a paid settlement',
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${service.logs(['worker'])}`);
    });
    expect(settled).toEqual([{ amount: new Big(pending).plus(available).toFixed(2), status: 'paid' }]);
    const row = await assertMoneyInvariants(service.db, shopAccount, 'sandbox');
    expect([row.available, row.pending, row.settlements_paid]).toEqual(['0.00', '0.00', settled[0]!.amount]);
  });

  it('keeps the events in EventStoreDB, none in the database', async () => {
    expect(service.standIn.eventCount()).toBeGreaterThan(eventsAtStart);
    const streams = await service.streamsInAll();
    expect(streams).toEqual(expect.arrayContaining([`payout-${payoutId}`, `order-${orderId}`]));
    expect(await service.streamTypes(`payout-${payoutId}`)).toEqual(
      expect.arrayContaining(['PayoutCreated', 'PayoutPaid']),
    );
    // The PostgreSQL event store on the same database reads the `events` table: had any app
    // fallen back to it (EVENTSTORE_CONNECTION_STRING lost on the way), its events would be there.
    expect(await countEvents(new PostgresEventStore(service.db))).toBe(0);
  });

  it('passes the audit: verify finds nothing, replay rebuilds the read models without a difference', async () => {
    await chainCaughtUp(service);
    const verify = await runAudit(['verify'], service.env);
    expectCleanVerify(verify);
    const replay = await runAudit(['replay'], service.env);
    expectCleanReplay(replay);
  }, 60_000);
});
