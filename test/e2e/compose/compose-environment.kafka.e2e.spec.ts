import { randomUUID } from 'node:crypto';
import { createServerDatabase, ForwardProxy, startForwardProxy } from '@payouts/testing';
import { verifyCheckoutWebhook, verifyPayoutWebhook } from '@payouts/webhooks';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { Call, client, linkBody, merchant, newKey, OPERATOR_TOKEN } from '../api/gateway-harness';
import { startSmtpReceiver } from '../browser/browser-harness';
import { checkoutShop, orderBody } from '../checkout/checkout-harness';
import { Payer } from '../checkout/page-client';
import { recipientClient } from '../recipient/recipient-client';
import { freePort, RunningApp, startApp, stop, TEST_ENCRYPTION_KEY, waitFor200 } from '../spawn-app';
import { waitForPayout } from '../worker/worker-harness';
import {
  appServices,
  COMPOSE_FILE,
  ComposeFile,
  ComposeService,
  containerEnvironment,
  ENV_EXAMPLE,
  parseCompose,
  parseEnvFile,
  readText,
} from './compose-file';

/**
 * docker/docker-compose.yml's apps as they run there, each its own process (the built entry point
 * of its `command`; `npm run build` first) with its compose environment and docker/.env.example
 * filled in, the compose services' addresses mapped to local ones: postgres to a fresh database on
 * the PostgreSQL server (DATABASE_URL), kafka:9092 to KAFKA_BROKERS, mailpit to a real SMTP
 * receiver, egress-proxy to a real CONNECT proxy. A checkout payment and a payout are carried to
 * paid, and their webhooks reach a receiver through the proxy. Run by `npm run test:kafka`.
 */
const brokers = process.env.KAFKA_BROKERS ?? '';
const compose: ComposeFile = parseCompose(readText(COMPOSE_FILE));

/** Compose's own addresses: none may be left in an app's environment once mapped. */
const COMPOSE_HOSTS = /(^|\/\/|@)(postgres|kafka|mailpit|egress-proxy|eventstoredb)(:\d|\/|$)/;

/** The app services in the order depends_on starts them. */
function startOrder(file: ComposeFile): [string, ComposeService][] {
  const apps = appServices(file);
  const ordered: [string, ComposeService][] = [];
  while (ordered.length < apps.length) {
    const next = apps.find(
      ([name, app]) =>
        !ordered.some(([done]) => done === name) &&
        Object.keys(app.depends_on ?? {}).every(
          (other) => !apps.some(([n]) => n === other) || ordered.some(([done]) => done === other),
        ),
    );
    if (!next) throw new Error('depends_on between the apps has a cycle');
    ordered.push(next);
  }
  return ordered;
}

describe('the compose file’s apps as processes on PostgreSQL and Kafka', () => {
  let database: { url: string; drop: () => Promise<void> };
  let proxy: ForwardProxy;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let receiver: TestReceiver;
  let gatewayUrl: string;
  let call: Call;
  const apps: Record<string, RunningApp> = {};

  beforeAll(async () => {
    [database, proxy, smtp, receiver] = await Promise.all([
      createServerDatabase(),
      startForwardProxy(),
      startSmtpReceiver(),
      TestReceiver.start(),
    ]);
    const gatewayPort = await freePort();
    const topicPrefix = `compose-${randomUUID().slice(0, 8)}.`;
    gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    // docker/.env as an SRE fills it in, with test secrets, and the gateway's address as the public one.
    const vars = {
      ...parseEnvFile(readText(ENV_EXAMPLE)),
      PUBLIC_BASE_URL: gatewayUrl,
      POSTGRES_PASSWORD: 'not-used-the-test-database-has-its-own',
      OPERATOR_TOKEN,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    };
    const local: Record<string, [string, string]> = {
      DATABASE_URL: [
        'postgres://postgres:not-used-the-test-database-has-its-own@postgres:5432/payouts',
        database.url,
      ],
      KAFKA_BROKERS: ['kafka:9092', brokers],
      SMTP_URL: ['smtp://mailpit:1025', smtp.url],
      WEBHOOK_PROXY_URL: ['http://egress-proxy:3128', proxy.url],
    };
    for (const [name, service] of startOrder(compose)) {
      const env = containerEnvironment(service, vars);
      for (const [variable, [inCompose, here]] of Object.entries(local)) {
        if (env[variable] === undefined) continue;
        expect([name, variable, env[variable]]).toEqual([name, variable, inCompose]);
        env[variable] = here;
      }
      const left = Object.entries(env).filter(([, value]) => COMPOSE_HOSTS.test(value));
      expect([name, left]).toEqual([name, []]);
      const port = name === 'api-gateway' ? gatewayPort : await freePort();
      const script = service.command!.filter((word) => word.startsWith('dist/'));
      expect(script).toEqual([`dist/apps/${name}/src/main.js`]);
      const started = await startApp(name, {
        ...env,
        HOST: '127.0.0.1',
        PORT: String(port),
        // Test overrides: the receiver is on loopback over http, which only this lets through;
        // a topic prefix of its own, as the broker is shared with other test files.
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        KAFKA_TOPIC_PREFIX: topicPrefix,
      });
      // startApp picks a port of its own unless given one: the URL is that of PORT.
      apps[name] = { ...started, url: `http://127.0.0.1:${port}` };
      // As `condition: service_healthy`: the next app starts once this one is ready.
      await waitFor200(apps[name], '/health/ready');
    }
    call = client(gatewayUrl);
  }, 180_000);

  afterAll(async () => {
    const codes = await Promise.all(Object.values(apps).map((app) => stop(app)));
    const unclean = Object.values(apps).filter((_, i) => codes[i] !== 0);
    await Promise.all([proxy?.close(), smtp?.close(), receiver?.close()]);
    await database?.drop();
    expect(unclean.map((app) => app.output())).toEqual([]);
  }, 60_000);

  /** The webhook at `path` that `match` picks; failing, the sending apps' logs say why. */
  const arrived = async (path: string, match: (body: Record<string, unknown>) => boolean) => {
    try {
      return await eventually(
        () =>
          receiver.received.find(
            (request) =>
              request.path === path && match(JSON.parse(request.rawBody) as Record<string, unknown>),
          ),
        60_000,
        `a webhook at ${path}`,
      );
    } catch (error) {
      const logs = ['webhook-dispatcher', 'api-gateway'].map(
        (name) => `--- ${name}:\n${apps[name]?.output().slice(-4_000)}`,
      );
      throw new Error(
        `${(error as Error).message}; proxy CONNECTs: ${proxy.connects.length}\n${logs.join('\n')}`,
        { cause: error },
      );
    }
  };

  it('runs all four apps from the compose file', () => {
    expect(Object.keys(apps).sort()).toEqual(['api-gateway', 'projector', 'webhook-dispatcher', 'worker']);
  });

  it('pays a payout the recipient claims by e-mailed code, and its webhook leaves through the proxy', async () => {
    const shop = await merchant(call);
    const saved = await call('PUT', '/dashboard/payout-webhook', {
      token: shop.adminToken,
      body: { environment: 'sandbox', url: receiver.url('/payouts') },
    });
    expect(saved.status).toBe(200);
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: linkBody('compose-claim'),
    });
    expect(created.status).toBe(201);
    const payoutId = created.body.payout_id as string;
    const payoutUrl = created.body.payout_url as string;
    expect(payoutUrl.startsWith(`${gatewayUrl}/sandbox/claim/`)).toBe(true);

    // The recipient's browser: the link, a code by e-mail (SMTP), a wallet, confirm.
    const { open, post } = recipientClient(() => gatewayUrl);
    const { cookie, csrf } = await open(payoutUrl);
    expect((await post('/sandbox/recipient/send-code', cookie, { csrf_token: csrf })).status).toBe(303);
    const code = await smtp.codeFor('compose-claim@example.com');
    expect((await post('/sandbox/recipient/verify', cookie, { csrf_token: csrf, code })).status).toBe(303);
    const details = { csrf_token: csrf, method: 'wallet', wallet_handle: 'ana@example.com' };
    expect((await post('/sandbox/recipient/details', cookie, details)).status).toBe(303);
    expect((await post('/sandbox/recipient/confirm', cookie, { csrf_token: csrf })).status).toBe(303);

    // The worker sends it to the rail simulator, which pays it.
    const paid = await waitForPayout(call, shop.token, payoutId, (p) => p.status === 'paid', 60_000);
    expect(paid.receipt_reference).toMatch(/^rcpt_/);

    const webhook = await arrived('/payouts', (body) => {
      const data = body.data as { payout_id?: string; status?: string } | undefined;
      return data?.payout_id === payoutId && data?.status === 'paid';
    });
    expect(JSON.parse(webhook.rawBody).type).toBe('payout.updated');
    verifyPayoutWebhook(webhook.rawBody, webhook.signature, saved.body.secret as string);
    expect(proxy.connects.length).toBeGreaterThan(0);
  }, 180_000);

  it('takes a checkout payment on the hosted page; its webhook and the test webhook leave through the proxy', async () => {
    const shop = await checkoutShop(call, { webhookUrl: receiver.url('/checkout') });
    const created = await call('POST', '/sandbox/card', { token: shop.key, body: orderBody() });
    expect(created.status).toBe(200);
    const orderId = created.body.order_id as number;
    const orderUrl = created.body.order_url as string;
    expect(orderUrl.startsWith(`${gatewayUrl}/checkout/`)).toBe(true);

    const payer = new Payer(orderUrl);
    expect((await payer.open()).status).toBe(200);
    expect((await payer.payByCard('4242 4242 4242 4242')).status).toBe(303);
    const status = await call('GET', `/sandbox/payment/status?payment_id=${orderId}`, { token: shop.key });
    expect(status.body.status).toBe('SUCCESS');

    // From the dispatcher, through the Kafka relay.
    const webhook = await arrived('/checkout', (body) => body.order_id === orderId);
    expect(JSON.parse(webhook.rawBody)).toMatchObject({ order_id: orderId, status: 'SUCCESS' });
    const signature = String(webhook.headers['x-service-signature']);
    expect(verifyCheckoutWebhook(webhook.rawBody, signature, shop.secret)).toBe(true);

    // From the gateway itself: a process that has not sent before opens a tunnel of its own.
    const before = proxy.connects.length;
    const tested = await call('GET', '/sandbox/payment/test_webhook', { token: shop.key });
    expect(tested.status).toBe(200);
    await arrived('/checkout', (body) => body.order_id === 0);
    expect(proxy.connects.length).toBeGreaterThan(before);
  }, 180_000);

  it('made every webhook connection through the proxy, to the receiver only', () => {
    expect(receiver.received.length).toBeGreaterThanOrEqual(3);
    expect(new Set(proxy.connects)).toEqual(new Set([`127.0.0.1:${receiver.port}`]));
    // Each connection the receiver took came out of a tunnel: none went around the proxy.
    expect(receiver.connections).toBeLessThanOrEqual(proxy.connects.length);
  });
});
