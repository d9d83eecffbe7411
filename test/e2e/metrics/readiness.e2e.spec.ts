import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@payouts/config';
import type { EventStore } from '@payouts/event-store';
import { createApp, EVENT_STORE } from '@payouts/platform';
import { projectReadModels, READ_MODEL_SUBSCRIPTION_ID } from '@payouts/read-models';
import { ApiGatewayAppModule } from '../../../apps/api-gateway/src/api-gateway-app.module';
import { scrape, seriesOf } from './scrape';

/**
 * GET /health/ready against READINESS_MAX_LAG_EVENTS (docs/design.md#metrics): the gateway alone,
 * with no projector in its process, so the read models' lag is what the test makes it: events
 * appended through the event store port, then projected by a subscription of the read models' own.
 */
describe('readiness and the projection lag', () => {
  const MAX_LAG = 3;
  let app: NestFastifyApplication;
  let url: string;
  let store: EventStore;

  beforeAll(async () => {
    const config = loadConfig({
      DATA_DIR: ':memory:',
      LOG_LEVEL: 'silent',
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      READINESS_MAX_LAG_EVENTS: String(MAX_LAG),
    });
    app = await createApp('api-gateway', (c) => ApiGatewayAppModule.forRoot(c), config);
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    store = app.get<EventStore>(EVENT_STORE);
  });
  afterAll(() => app?.close());

  const ready = async () => {
    const answer = await fetch(`${url}/health/ready`);
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  let version = 0;
  /** Events of a stream type no read model projects: they only add to the lag. */
  const appendEvents = async (count: number) => {
    const events = Array.from({ length: count }, (_, i) => ({
      type: 'Probed',
      schemaVersion: 1,
      data: { i },
    }));
    await store.append([{ streamId: 'probe-1', streamType: 'probe', expectedVersion: version, events }]);
    version += count;
  };

  it('is 200 up to the threshold, 503 past it, and 200 again once the projector has caught up', async () => {
    expect(await store.subscriptionLag(READ_MODEL_SUBSCRIPTION_ID, 100)).toBe(0);
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready', projection_lag: 0 } });

    await appendEvents(MAX_LAG);
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready', projection_lag: MAX_LAG } });

    await appendEvents(1);
    expect(await ready()).toEqual({
      status: 503,
      body: {
        error: {
          code: 'not_ready',
          message: `projector: more than ${MAX_LAG} events behind (READINESS_MAX_LAG_EVENTS)`,
        },
      },
    });

    const projector = store.subscribe({
      subscriptionId: READ_MODEL_SUBSCRIPTION_ID,
      handle: (events, tx) => projectReadModels(tx, store, events),
    });
    try {
      await projector.caughtUp();
    } finally {
      await projector.stop();
    }
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready', projection_lag: 0 } });
  });

  it('counts the probes in the metrics like any request, and the gateway reports no projection lag of its own', async () => {
    const { metrics } = await scrape(url);
    const probes = seriesOf(metrics, 'http_requests_total').filter(
      (one) => one.labels.route === '/health/ready',
    );
    expect(probes.map((one) => [one.labels.status, one.value]).sort()).toEqual([
      ['200', 3],
      ['503', 1],
    ]);
    expect(metrics.projection_lag_events).toBeUndefined();
  });
});
