import { getMetricsFromIterator } from 'prom2javascript';
import type { PromMetrics } from 'prom2javascript';
import { Metrics } from './metrics';

const parse = async (metrics: Metrics): Promise<PromMetrics> =>
  getMetricsFromIterator((await metrics.text()).split('\n')[Symbol.iterator]());

// Without prom-client's process metrics: its event-loop gauges read NaN until the loop has been
// sampled (every 10 ms), which the parser refuses; the apps' tests read them (test/e2e/metrics).
const newMetrics = () => new Metrics({ processMetrics: false });

describe('Metrics', () => {
  it('reports a gauge measured on scrape only once a source for it is attached', async () => {
    const metrics = newMetrics();
    let parsed = await parse(metrics);
    expect(parsed.webhook_queue_depth).toBeUndefined();
    expect(parsed.projection_lag_events).toBeUndefined();
    expect(parsed.process_cpu_user_seconds_total).toBeUndefined();

    let depth = 7;
    metrics.webhookQueueDepth(async () => depth);
    parsed = await parse(metrics);
    expect(parsed.webhook_queue_depth?.data).toEqual([{ labels: {}, value: 7 }]);
    depth = 2;
    expect((await parse(metrics)).webhook_queue_depth?.data).toEqual([{ labels: {}, value: 2 }]);
  });

  it('measures each source once for scrapes that come together', async () => {
    const metrics = newMetrics();
    let measured = 0;
    metrics.projectionLag('read-models', async () => {
      measured += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { events: 4, seconds: 1.5 };
    });
    const [first, second] = await Promise.all([parse(metrics), parse(metrics)]);
    expect(measured).toBe(1);
    for (const parsed of [first, second]) {
      expect(parsed.projection_lag_events?.data).toEqual([
        { labels: { subscription: 'read-models' }, value: 4 },
      ]);
      expect(parsed.projection_lag_seconds?.data).toEqual([
        { labels: { subscription: 'read-models' }, value: 1.5 },
      ]);
    }
  });

  it('leaves out the series of a source that fails, counts the failure, and keeps the others', async () => {
    const metrics = newMetrics();
    let failing = false;
    metrics.relayLag('in-process-relay', async () => {
      if (failing) throw new Error('connection lost: postgres://user:secret@db/payouts');
      return { events: 3, seconds: 0 };
    });
    metrics.webhookQueueDepth(async () => {
      if (failing) throw new Error('connection lost');
      return 5;
    });
    metrics.projectionLag('read-models', async () => ({ events: 0, seconds: 0 }));
    expect((await parse(metrics)).relay_lag_events?.data).toHaveLength(1);

    failing = true;
    const text = await metrics.text();
    const parsed = await getMetricsFromIterator(text.split('\n')[Symbol.iterator]());
    expect(parsed.relay_lag_events?.data).toEqual([]);
    expect(parsed.webhook_queue_depth?.data).toEqual([]);
    expect(parsed.projection_lag_events?.data).toEqual([
      { labels: { subscription: 'read-models' }, value: 0 },
    ]);
    expect(parsed.metrics_scrape_errors_total?.data).toEqual([
      { labels: { source: 'relay_lag' }, value: 1 },
      { labels: { source: 'webhook_queue_depth' }, value: 1 },
    ]);
    // The error's message is nowhere in the answer.
    expect(text).not.toContain('secret');
  });

  it('counts requests, appends and webhook attempts with the labels given', async () => {
    const metrics = newMetrics();
    metrics.request('/api/payout/:payout_id', 'GET', 200, 0.004);
    metrics.request('/api/payout/:payout_id', 'GET', 200, 0.2);
    metrics.appended(0.002, 'ok');
    metrics.appended(0.003, 'conflict');
    metrics.attempted('checkout', 'exhausted');
    const parsed = await parse(metrics);
    expect(parsed.http_requests_total?.data).toEqual([
      { labels: { route: '/api/payout/:payout_id', method: 'GET', status: '200' }, value: 2 },
    ]);
    expect(parsed.http_request_duration_seconds?.data).toEqual([
      expect.objectContaining({
        labels: { route: '/api/payout/:payout_id', method: 'GET', status: '200' },
        count: 2,
        sum: expect.closeTo(0.204, 9),
      }),
    ]);
    expect(
      (parsed.eventstore_append_duration_seconds?.data as { labels: object; count: number }[]).map(
        ({ labels, count }) => ({ labels, count }),
      ),
    ).toEqual([
      { labels: { outcome: 'ok' }, count: 1 },
      { labels: { outcome: 'conflict' }, count: 1 },
    ]);
    expect(parsed.webhook_attempts_total?.data).toEqual([
      { labels: { kind: 'checkout', outcome: 'exhausted' }, value: 1 },
    ]);
  });
});
