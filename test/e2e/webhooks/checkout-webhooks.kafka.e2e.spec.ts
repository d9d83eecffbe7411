import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { PostgresSqlClient } from '@payouts/database';
import { orderStreamId } from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import { createServerDatabase } from '@payouts/testing';
import {
  appendCreatedOrder,
  newTestOrderId,
  payCreatedOrder,
} from '../../../libs/webhooks/src/testing/paid-orders';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { Call, client, merchant, OPERATOR_TOKEN } from '../api/gateway-harness';
import { RunningApp, startApp, stop, waitFor200 } from '../spawn-app';

/**
 * Checkout webhooks end to end through Kafka: the built apps as separate processes (api-gateway for
 * the account and its checkout credential, projector with the Kafka relay, webhook-dispatcher
 * consuming the `order` topic) on a real broker (KAFKA_BROKERS) and the PostgreSQL server
 * (DATABASE_URL). The order's events are appended to the event store as the order commands
 * append them. Run by `npm run test:kafka` after `npm run build`.
 */
const brokers = process.env.KAFKA_BROKERS ?? '';
const ENCRYPTION_KEY = randomBytes(32).toString('base64');

/**
 * docs/webhooks.md#checkout-webhook alone, sharing no code with libs/webhooks: hex HMAC-SHA256 of
 * the raw body.
 */
const signatureOf = (rawBody: string, secret: string) =>
  createHmac('sha256', secret).update(rawBody).digest('hex');

describe('checkout webhooks through Kafka, the apps as processes on PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: PostgresSqlClient;
  let store: PostgresEventStore;
  let env: Record<string, string>;
  const apps: Record<string, RunningApp> = {};
  let call: Call;
  let receiver: TestReceiver;
  const prefix = `e2e-checkout-${randomUUID().slice(0, 8)}.`;

  beforeAll(async () => {
    database = await createServerDatabase();
    db = new PostgresSqlClient({ connectionString: database.url, maxConnections: 4 });
    store = new PostgresEventStore(db);
    receiver = await TestReceiver.start();
    env = {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC_PREFIX: prefix,
      KAFKA_TOPIC_PARTITIONS: '3',
      OPERATOR_TOKEN,
      ENCRYPTION_KEY,
      WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
      WEBHOOK_POLL_MS: '50',
      PROJECTOR_POLL_MS: '20',
      LOG_LEVEL: 'warn',
    };
    for (const name of ['api-gateway', 'projector', 'webhook-dispatcher'])
      apps[name] = await startApp(name, env);
    for (const app of Object.values(apps)) await waitFor200(app, '/health/ready');
    call = client(apps['api-gateway']!.url);
  }, 120_000);

  afterAll(async () => {
    const codes = await Promise.all(Object.values(apps).map((app) => stop(app)));
    expect(codes.every((code) => code === 0)).toBe(true);
    await store?.close();
    await db?.close();
    await receiver?.close();
    await database?.drop();
  }, 60_000);

  /** An account with a sandbox checkout credential issued through the dashboard. */
  const checkoutMerchant = async () => {
    const shop = await merchant(call, '0.00');
    const issued = await call('POST', '/dashboard/credentials', {
      token: shop.adminToken,
      body: { kind: 'checkout', environment: 'sandbox' },
    });
    expect(issued.status).toBe(201);
    return {
      accountId: shop.accountId,
      credentialId: issued.body.credential_id as string,
      secret: issued.body.secret as string,
    };
  };
  const paidOrder = async (
    shop: { accountId: string; credentialId: string },
    amount: string,
    product: string,
  ) => {
    const orderId = newTestOrderId();
    await appendCreatedOrder(store, {
      orderId,
      accountId: shop.accountId,
      environment: 'sandbox',
      credentialId: shop.credentialId,
      amount,
      product,
      hookUrl: receiver.url(`/hooks/${orderId}`),
    });
    await payCreatedOrder(store, orderId);
    return orderId;
  };
  const requestsFor = (orderId: number) => receiver.received.filter((r) => r.path === `/hooks/${orderId}`);

  it('delivers a paid order through the order topic to its hook_url, once, signed with the API secret', async () => {
    const shop = await checkoutMerchant();
    const orderId = await paidOrder(shop, '10.50', 'Blue mug');
    const body = `{"order_id":${orderId},"status":"SUCCESS","amount":10.5,"product":"Blue mug"}`;
    await eventually(() => (requestsFor(orderId).length === 1 ? true : undefined), 60_000);
    const [request] = requestsFor(orderId);
    expect(request!.rawBody).toBe(body);
    expect(request!.headers['x-service-signature']).toBe(signatureOf(body, shop.secret));

    const delivered = await eventually(async () => {
      const { rows } = await db.query<{ status: string; attempts_made: number }>(
        `SELECT d.status, d.attempts_made FROM webhook_deliveries d JOIN webhook_events e USING (event_id)
          WHERE e.order_id = $1`,
        [orderId],
      );
      return rows[0]?.status === 'delivered' ? rows : undefined;
    });
    expect(delivered).toEqual([{ status: 'delivered', attempts_made: 1 }]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(requestsFor(orderId)).toHaveLength(1);

    // The relay's order topic holds the order's events, keyed by its stream id.
    const stream = await store.readStream(orderStreamId(orderId));
    const seen = await readTopic(`${prefix}order`, orderStreamId(orderId), stream.events.length);
    expect(seen).toEqual(stream.events.map((e) => e.eventId));
  }, 120_000);

  it('delivers the orders paid while the dispatcher was down once it is back, each with one event', async () => {
    const shop = await checkoutMerchant();
    const dispatcher = apps['webhook-dispatcher']!;
    dispatcher.process.kill('SIGKILL');
    await dispatcher.exited;
    const orderIds: number[] = [];
    for (const amount of ['0.50', '12.00', '100000.00']) orderIds.push(await paidOrder(shop, amount, ''));
    apps['webhook-dispatcher'] = await startApp('webhook-dispatcher', env);
    await waitFor200(apps['webhook-dispatcher'], '/health/ready');

    await eventually(() => (orderIds.every((id) => requestsFor(id).length >= 1) ? true : undefined), 60_000);
    const amounts = orderIds.map((id) => JSON.parse(requestsFor(id)[0]!.rawBody).amount as number);
    expect(amounts).toEqual([0.5, 12, 100000]);
    for (const id of orderIds) {
      const [request] = requestsFor(id);
      expect(request!.headers['x-service-signature']).toBe(signatureOf(request!.rawBody, shop.secret));
    }
    const { rows } = await db.query<{ order_id: string; n: number }>(
      `SELECT order_id::text, count(*)::int AS n FROM webhook_events WHERE account_id = $1 GROUP BY order_id`,
      [shop.accountId],
    );
    expect(rows.map((row) => row.n)).toEqual([1, 1, 1]);
  }, 120_000);

  /** Reads a topic from the start with a group of its own until `count` messages of `key` arrived. */
  async function readTopic(topic: string, key: string, count: number): Promise<string[]> {
    const kafka = new Kafka({
      clientId: 'e2e-reader',
      brokers: brokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    const reader = kafka.consumer({ groupId: `reader-${randomUUID()}`, maxWaitTimeInMs: 100 });
    const seen: string[] = [];
    await reader.connect();
    try {
      await reader.subscribe({ topics: [topic], fromBeginning: true });
      await reader.run({
        eachMessage: async ({ message }) => {
          if (String(message.key) !== key) return;
          const eventId = (JSON.parse(String(message.value)) as { eventId: string }).eventId;
          if (!seen.includes(eventId)) seen.push(eventId);
        },
      });
      await eventually(() => (seen.length >= count ? true : undefined), 60_000);
    } finally {
      await reader.disconnect();
    }
    return seen;
  }
});
