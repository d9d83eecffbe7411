import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@payouts/config';
import { createApp, RootModuleFactory } from '@payouts/platform';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { AllInOneAppModule } from '../../../apps/all-in-one/src/all-in-one-app.module';
import { ApiGatewayAppModule } from '../../../apps/api-gateway/src/api-gateway-app.module';
import { ProjectorAppModule } from '../../../apps/projector/src/projector-app.module';
import { WebhookDispatcherAppModule } from '../../../apps/webhook-dispatcher/src/webhook-dispatcher-app.module';
import { WorkerAppModule } from '../../../apps/worker/src/worker-app.module';
import { OPERATOR_TOKEN } from '../api/gateway-harness';
import { merchantWithPayout, startWebhookGateway, WebhookGateway } from '../webhooks/webhook-harness';
import { histogramsOf, labelValues, scrape, seriesOf, typesOf, withLabels } from './scrape';

/**
 * GET /metrics (docs/design.md#metrics) on every app, read with a parser of the Prometheus text
 * format: each app's own metrics with their labels, routes labelled by their templates (never an
 * id or a token), and prom-client's process metrics.
 */

/** What every app reports, whatever it runs. */
const EVERY_APP = {
  http_requests_total: 'counter',
  http_request_duration_seconds: 'histogram',
  eventstore_append_duration_seconds: 'histogram',
  webhook_attempts_total: 'counter',
  metrics_scrape_errors_total: 'counter',
  // prom-client's default metrics, a few of them.
  process_cpu_user_seconds_total: 'counter',
  process_resident_memory_bytes: 'gauge',
  nodejs_heap_size_used_bytes: 'gauge',
  nodejs_eventloop_lag_seconds: 'gauge',
};
const PROJECTOR = {
  projection_lag_events: 'gauge',
  projection_lag_seconds: 'gauge',
  payouts_total: 'gauge',
  orders_total: 'gauge',
  settlements_total: 'gauge',
};
const DISPATCHER = { relay_lag_events: 'gauge', webhook_queue_depth: 'gauge' };

const APPS: [string, RootModuleFactory, Record<string, string>][] = [
  ['api-gateway', (config) => ApiGatewayAppModule.forRoot(config), {}],
  ['projector', (config) => ProjectorAppModule.forRoot(config), PROJECTOR],
  ['webhook-dispatcher', (config) => WebhookDispatcherAppModule.forRoot(config), DISPATCHER],
  ['worker', (config) => WorkerAppModule.forRoot(config), {}],
  ['all-in-one', (config) => AllInOneAppModule.forRoot(config), { ...PROJECTOR, ...DISPATCHER }],
];

/** One app in this process on its own PGlite in memory, listening on a free loopback port. */
async function listenApp(
  name: string,
  rootModule: RootModuleFactory,
): Promise<{ url: string; close: () => Promise<void> }> {
  const config = loadConfig({
    DATA_DIR: ':memory:',
    OPERATOR_TOKEN,
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  });
  const app: NestFastifyApplication = await createApp(name, rootModule, config);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

describe('GET /metrics on each app', () => {
  it.each(APPS)('%s reports its metrics, with routes by template', async (name, rootModule, own) => {
    const app = await listenApp(name, rootModule);
    try {
      expect((await fetch(`${app.url}/health`)).status).toBe(200);
      expect((await fetch(`${app.url}/nowhere/po_0123456789abcdef`)).status).toBe(404);
      const { metrics } = await scrape(app.url);

      const types = typesOf(metrics);
      expect(types).toMatchObject({ ...EVERY_APP, ...own });
      // A gauge is reported by the app that runs what it measures, and only there.
      for (const gauge of Object.keys({ ...PROJECTOR, ...DISPATCHER })) {
        expect({ gauge, reported: gauge in types }).toEqual({ gauge, reported: gauge in own });
      }

      const requests = seriesOf(metrics, 'http_requests_total');
      expect(withLabels(requests, { route: '/health', method: 'GET', status: '200' })).toEqual([
        expect.objectContaining({ value: 1 }),
      ]);
      expect(withLabels(requests, { route: 'unmatched', method: 'GET', status: '404' })).toHaveLength(1);
      const durations = histogramsOf(metrics, 'http_request_duration_seconds');
      const [health] = withLabels(durations, { route: '/health', method: 'GET', status: '200' });
      expect(health?.count).toBe(1);
      expect(health?.sum).toBeGreaterThan(0);
      // The path of the request that no route took is in no label.
      expect(labelValues(metrics).filter((value) => /nowhere|po_/.test(value))).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('GET /metrics on the embedded start, after traffic', () => {
  let gateway: WebhookGateway;
  let receiver: TestReceiver;

  beforeAll(async () => {
    gateway = await startWebhookGateway({ env: { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' } });
    receiver = await TestReceiver.start();
  });
  afterAll(async () => {
    await gateway?.close();
    await receiver?.close();
  });

  it('labels requests by route template, counts appends, webhook attempts and payouts, and measures the feed', async () => {
    const shop = await merchantWithPayout(gateway.call, 'metrics-1');
    const got = await gateway.call('GET', `/sandbox/api/payout/${shop.payoutId}`, { token: shop.token });
    expect(got.status).toBe(200);
    const saved = await gateway.call('PUT', '/dashboard/payout-webhook', {
      token: shop.adminToken,
      body: { environment: 'sandbox', url: receiver.url() },
    });
    expect(saved.status).toBe(200);
    const sent = await gateway.call('POST', '/dashboard/payout-webhook/test', {
      token: shop.adminToken,
      body: { environment: 'sandbox' },
    });
    expect(sent.status).toBe(202);
    // Delivered and recorded: the attempt was counted before it was recorded.
    await eventually(async () => {
      const log = await gateway.call('GET', `/dashboard/payout-webhook/events/${sent.body.event_id}`, {
        token: shop.adminToken,
      });
      return log.body.deliveries?.[0]?.status === 'delivered' ? true : undefined;
    });

    const { text, metrics } = await scrape(gateway.url);

    // The route's template, never the payout's id; the same labels on the duration.
    const labels = { route: '/sandbox/api/payout/:payout_id', method: 'GET', status: '200' };
    expect(withLabels(seriesOf(metrics, 'http_requests_total'), labels)).toEqual([
      expect.objectContaining({ value: 1 }),
    ]);
    expect(withLabels(histogramsOf(metrics, 'http_request_duration_seconds'), labels)).toEqual([
      expect.objectContaining({ count: 1 }),
    ]);
    expect(
      withLabels(seriesOf(metrics, 'http_requests_total'), {
        route: '/sandbox/api/payout/create',
        method: 'POST',
        status: '201',
      }),
    ).toHaveLength(1);
    // No secret and no id anywhere in the answer.
    for (const secret of [shop.payoutId, shop.token, shop.adminToken, OPERATOR_TOKEN, saved.body.secret]) {
      expect(text).not.toContain(secret);
    }

    const appends = histogramsOf(metrics, 'eventstore_append_duration_seconds');
    expect(withLabels(appends, { outcome: 'ok' })[0]?.count).toBeGreaterThan(0);

    expect(withLabels(seriesOf(metrics, 'webhook_attempts_total'), { kind: 'payout' })).toEqual([
      { labels: { kind: 'payout', outcome: 'delivered' }, value: 1 },
    ]);
    expect(seriesOf(metrics, 'webhook_queue_depth')).toEqual([{ labels: {}, value: expect.any(Number) }]);

    for (const name of ['projection_lag_events', 'projection_lag_seconds']) {
      const series = seriesOf(metrics, name);
      expect(series.map((one) => one.labels.subscription).sort()).toEqual(['event-chain', 'read-models']);
      for (const one of series) expect(one.value).toBeGreaterThanOrEqual(0);
    }
    expect(seriesOf(metrics, 'relay_lag_events')).toEqual([
      { labels: { relay: 'in-process-relay' }, value: expect.any(Number) },
    ]);

    // Every status in both environments, 0 where there is none; the payout is awaiting_choice.
    const payouts = seriesOf(metrics, 'payouts_total');
    expect(payouts).toHaveLength(14);
    expect(withLabels(payouts, { environment: 'sandbox', status: 'awaiting_choice' })).toEqual([
      { labels: { environment: 'sandbox', status: 'awaiting_choice' }, value: 1 },
    ]);
    const labelSets = (name: string) =>
      seriesOf(metrics, name)
        .map((one) => JSON.stringify(one.labels))
        .sort();
    const everyEnvironment = (label: string, values: string[]) =>
      ['production', 'sandbox']
        .flatMap((environment) => values.map((value) => JSON.stringify({ environment, [label]: value })))
        .sort();
    expect(labelSets('orders_total')).toEqual(everyEnvironment('status', ['PENDING', 'SUCCESS', 'EXPIRED']));
    expect(labelSets('settlements_total')).toEqual(
      everyEnvironment('outcome', ['in_transit', 'paid', 'failed']),
    );
    expect(seriesOf(metrics, 'metrics_scrape_errors_total')).toEqual([]);
  });

  it('is in the OpenAPI document as the health checks are: open to anyone, and no merchant operation', async () => {
    const document = (await gateway.call('GET', '/openapi.json')).body;
    const operation = document.paths['/metrics'].get;
    expect(operation).toMatchObject({ tags: ['Health'], security: [{}] });
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400']);
    expect(Object.keys(operation.responses['200'].content)).toEqual(['text/plain']);
    expect(document.paths['/sandbox/metrics']).toBeUndefined();
  });
});
