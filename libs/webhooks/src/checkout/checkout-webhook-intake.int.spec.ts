import { randomBytes } from 'node:crypto';
import { SecretBox } from '@payouts/accounts';
import { orderStreamId } from '@payouts/domain';
import { testBackends } from '@payouts/testing';
import { ingestRelayedEvents } from '../dispatcher/payout-intake';
import { WebhookEndpoints } from '../store/webhook-endpoints';
import { WebhookEvents } from '../store/webhook-events';
import { useCheckoutHarness } from '../testing/checkout-harness';
import { expireCreatedOrder } from '../testing/paid-orders';
import { eventually } from '../testing/receiver';
import { toRelayedEvent } from '../transport/event-transport';
import { orderPaidEventId } from './checkout-webhook-body';

describe.each(testBackends())('checkout webhook intake on $name', (backend) => {
  const h = useCheckoutHarness(backend);

  it('stores nothing for an order that is only created', async () => {
    const hook = await h.receiver();
    const { accountId, credentialId } = await h.merchant('production');
    const order = {
      accountId,
      environment: 'production' as const,
      credentialId,
      amount: '1.00',
      product: '',
    };
    const orderId = await h.order({ ...order, hookUrl: hook.url() }, { pay: false });
    await h.relay();
    expect(await h.deliveryOf(orderId)).toEqual([]);
  });

  it('sends nothing for a paid order without a hook_url, nor for an order that expired unpaid', async () => {
    const hook = await h.receiver();
    const { accountId, credentialId } = await h.merchant('production');
    const base = {
      accountId,
      environment: 'production' as const,
      credentialId,
      amount: '0.50',
      product: 'x',
    };
    const withoutHook = await h.order({ ...base, hookUrl: null });
    const expired = await h.order({ ...base, hookUrl: hook.url() }, { pay: false });
    await expireCreatedOrder(h.store, expired);
    await h.relay();
    h.scheduler();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { rows } = await h.database.db.query(
      'SELECT 1 FROM webhook_events WHERE order_id = ANY($1::bigint[])',
      [[withoutHook, expired]],
    );
    expect(rows).toEqual([]);
    expect(hook.received).toHaveLength(0);
  });

  it('stores no second event when the same OrderPaid is relayed again, also twice in one batch', async () => {
    const hook = await h.receiver();
    const { accountId, credentialId } = await h.merchant('production');
    const orderId = await h.order({
      accountId,
      environment: 'production',
      credentialId,
      amount: '12.00',
      product: 'Tea',
      hookUrl: hook.url(),
    });
    const relayed = (await h.store.readStream(orderStreamId(orderId))).events.map(toRelayedEvent);
    const ingest = (events = relayed) =>
      h.database.db.transaction((tx) => ingestRelayedEvents(tx, h.store, events, (env) => h.clock.now(env)));
    expect(await ingest()).toHaveLength(1);
    expect(await ingest()).toEqual([]);
    expect(await ingest([...relayed, ...relayed])).toEqual([]);
    await h.relay(); // and once more through the relay itself
    const { rows } = await h.database.db.query<{ event_id: string; body: string; n: number }>(
      `SELECT e.event_id, e.body, (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_id = e.event_id) AS n
         FROM webhook_events e WHERE e.order_id = $1`,
      [orderId],
    );
    expect(rows).toEqual([
      {
        event_id: orderPaidEventId(orderId),
        body: `{"order_id":${orderId},"status":"SUCCESS","amount":12,"product":"Tea"}`,
        n: 1,
      },
    ]);
  });

  it('refuses an order.paid row without its order, target or credential, and a second one for an order', async () => {
    const insert = (eventId: string, orderId: number | null, url: string | null, credential: string | null) =>
      h.database.db.query(
        `INSERT INTO webhook_events (event_id, account_id, environment, event_type, order_id, source_event_id,
                                     body, target_url, credential_id, created_at)
         VALUES ($1, 'acct_x', 'production', 'order.paid', $2, gen_random_uuid(), '{}', $3, $4, now())`,
        [eventId, orderId, url, credential],
      );
    await expect(insert('evt_shape00001', null, 'https://a.example', 'cred_1')).rejects.toThrow(
      /order_shape/,
    );
    await expect(insert('evt_shape00002', 7, null, 'cred_1')).rejects.toThrow(/order_shape/);
    await expect(insert('evt_shape00003', 7, 'https://a.example', null)).rejects.toThrow(/order_shape/);
    await insert('evt_shape00004', 7, 'https://a.example', 'cred_1');
    await expect(insert('evt_shape00005', 7, 'https://a.example', 'cred_1')).rejects.toThrow(
      /webhook_events_one_per_paid_order/,
    );
  });

  it("keeps checkout events out of the payout endpoint's log, and removing that endpoint leaves them be", async () => {
    const hook = await h.receiver();
    const payoutHook = await h.receiver();
    hook.answer = () => ({ status: 503 });
    const { accountId, credentialId } = await h.merchant('sandbox');
    const endpoints = new WebhookEndpoints(h.database.db, new SecretBox(randomBytes(32)));
    const events = new WebhookEvents(h.database.db);
    await endpoints.save(accountId, 'sandbox', payoutHook.url(), h.clock.now('sandbox'));
    const orderId = await h.order({
      accountId,
      environment: 'sandbox',
      credentialId,
      amount: '2.00',
      product: '',
      hookUrl: hook.url(),
    });
    await h.relay();
    h.scheduler();
    await hook.waitForRequests(1);
    await eventually(async () => ((await h.deliveryOf(orderId))[0]?.attempts_made === 1 ? true : undefined));
    const eventId = orderPaidEventId(orderId);
    expect((await events.list(accountId, 'sandbox')).total).toBe(0);
    expect(await events.get(accountId, eventId)).toBeNull();
    expect(await events.resend(accountId, eventId, (env) => h.clock.now(env))).toBeNull();
    expect(await endpoints.remove(accountId, 'sandbox', h.clock.now('sandbox'))).toEqual({
      removed: true,
      droppedDeliveries: 0,
    });
    expect((await h.deliveryOf(orderId))[0]).toMatchObject({ status: 'pending', attempts_made: 1 });
    expect(payoutHook.received).toHaveLength(0);
  });
});
