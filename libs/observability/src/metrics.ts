import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's metrics in the Prometheus text format (docs/design.md#metrics): one registry per
 * app, served at GET /metrics. What happens in the process (requests, appends, webhook attempts)
 * is counted where it happens, through the small interfaces below; what lives in the database
 * (feed lags, the webhook queue, totals by status) is measured when Prometheus scrapes, by the
 * sources the app's modules attach, each one bounded query or two. Label values come from bounded
 * sets (route templates, methods, statuses, subscription ids), never a raw URL, an id or a token.
 */

/** How far a feed subscription is behind: events not processed yet (capped), and the oldest one's age. */
export interface FeedLag {
  events: number;
  seconds: number;
}

/** Rows of a read model counted by environment and status. */
export interface StatusCount {
  environment: string;
  status: string;
  count: number;
}

export interface StatusTotals {
  payouts: readonly StatusCount[];
  orders: readonly StatusCount[];
  settlements: readonly StatusCount[];
}

export type AppendOutcome = 'ok' | 'conflict' | 'error';
export type WebhookKind = 'payout' | 'checkout';
/** Delivered; failed with another attempt scheduled; failed on the delivery's last attempt. */
export type WebhookAttemptOutcome = 'delivered' | 'failed' | 'exhausted';

/** The content type of GET /metrics: the Prometheus text format, version 0.0.4. */
export const PROMETHEUS_CONTENT_TYPE: string = Registry.PROMETHEUS_CONTENT_TYPE;

/** Feed lags are counted up to this many events (EVENT_STORE_LIMITS.maxFeedPage): past it, "far behind". */
export const FEED_LAG_CAP = 10_000;
/** Pending webhook deliveries are counted up to this many. */
export const WEBHOOK_QUEUE_CAP = 100_000;

/** Seconds: an append is one statement or one short transaction. */
const APPEND_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export class Metrics {
  private readonly registry = new Registry();
  private readonly httpRequests: Counter<'route' | 'method' | 'status'>;
  private readonly httpDuration: Histogram<'route' | 'method' | 'status'>;
  private readonly appendDuration: Histogram<'outcome'>;
  private readonly webhookAttempts: Counter<'kind' | 'outcome'>;
  private readonly scraped: ScrapedGauges;

  /** `processMetrics`: prom-client's default metrics of the process (CPU, memory, event loop, GC); on by default. */
  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.httpRequests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route template, method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving an HTTP request to the end of its answer, by route template, method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.appendDuration = new Histogram({
      name: 'eventstore_append_duration_seconds',
      help: 'Duration of event store appends, by outcome (ok, conflict, error)',
      labelNames: ['outcome'],
      buckets: APPEND_BUCKETS,
      registers,
    });
    this.webhookAttempts = new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook attempts made, by kind (payout, checkout) and outcome (delivered, failed, exhausted)',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    const scrapeErrors = new Counter({
      name: 'metrics_scrape_errors_total',
      help: 'Measurements that failed during a scrape (their series are left out of it), by source',
      labelNames: ['source'],
      registers,
    });
    this.scraped = new ScrapedGauges(this.registry, (source) => scrapeErrors.inc({ source }));
  }

  /** One answered HTTP request; `route` is its route's template ("unmatched" when no route took it). */
  request(route: string, method: string, status: number, seconds: number): void {
    const labels = { route, method, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  /** One event store append (the event store's observer). */
  appended(seconds: number, outcome: AppendOutcome): void {
    this.appendDuration.observe({ outcome }, seconds);
  }

  /** One webhook attempt made (the dispatcher's observer). */
  attempted(kind: WebhookKind, outcome: WebhookAttemptOutcome): void {
    this.webhookAttempts.inc({ kind, outcome });
  }

  /** Reports a projection's lag (projection_lag_events, projection_lag_seconds) on every scrape. */
  projectionLag(subscription: string, measure: () => Promise<FeedLag>): void {
    this.scraped.add('projection_lag', ['projectionLagEvents', 'projectionLagSeconds'], async () => {
      const lag = await measure();
      return [
        { gauge: 'projectionLagEvents', labels: { subscription }, value: lag.events },
        { gauge: 'projectionLagSeconds', labels: { subscription }, value: lag.seconds },
      ];
    });
  }

  /** Reports a relay's lag (relay_lag_events) on every scrape. */
  relayLag(relay: string, measure: () => Promise<FeedLag>): void {
    this.scraped.add('relay_lag', ['relayLagEvents'], async () => [
      { gauge: 'relayLagEvents', labels: { relay }, value: (await measure()).events },
    ]);
  }

  /** Reports the webhook deliveries still pending (webhook_queue_depth) on every scrape. */
  webhookQueueDepth(measure: () => Promise<number>): void {
    this.scraped.add('webhook_queue_depth', ['webhookQueueDepth'], async () => [
      { gauge: 'webhookQueueDepth', labels: {}, value: await measure() },
    ]);
  }

  /** Reports payouts_total, orders_total and settlements_total on every scrape. */
  statusTotals(measure: () => Promise<StatusTotals>): void {
    this.scraped.add('status_totals', ['payoutsTotal', 'ordersTotal', 'settlementsTotal'], async () => {
      const totals = await measure();
      return [
        ...totals.payouts.map(({ environment, status, count }): Sample => ({
          gauge: 'payoutsTotal',
          labels: { environment, status },
          value: count,
        })),
        ...totals.orders.map(({ environment, status, count }): Sample => ({
          gauge: 'ordersTotal',
          labels: { environment, status },
          value: count,
        })),
        ...totals.settlements.map(({ environment, status, count }): Sample => ({
          gauge: 'settlementsTotal',
          labels: { environment, outcome: status },
          value: count,
        })),
      ];
    });
  }

  /** Every metric in the text format, the scraped gauges measured first. */
  async text(): Promise<string> {
    await this.scraped.measure();
    return this.registry.metrics();
  }
}

/** The gauges measured on scrape; each is registered when a source for it is attached. */
class ScrapeGauges {
  readonly projectionLagEvents = gauge(
    'projection_lag_events',
    `Events committed that the projection has not processed yet (counted up to ${FEED_LAG_CAP})`,
    ['subscription'],
  );
  readonly projectionLagSeconds = gauge(
    'projection_lag_seconds',
    'Age of the oldest event the projection has not processed yet (0 when caught up)',
    ['subscription'],
  );
  readonly relayLagEvents = gauge(
    'relay_lag_events',
    `Events committed that the relay has not handed to its transport yet (counted up to ${FEED_LAG_CAP})`,
    ['relay'],
  );
  readonly webhookQueueDepth = gauge(
    'webhook_queue_depth',
    `Webhook deliveries pending, due now or scheduled for a retry (counted up to ${WEBHOOK_QUEUE_CAP})`,
    [],
  );
  readonly payoutsTotal = gauge('payouts_total', 'Payouts by environment and status (read model)', [
    'environment',
    'status',
  ]);
  readonly ordersTotal = gauge('orders_total', 'Checkout orders by environment and status (read model)', [
    'environment',
    'status',
  ]);
  readonly settlementsTotal = gauge(
    'settlements_total',
    'Settlements by environment and outcome: in_transit, paid, failed (read model)',
    ['environment', 'outcome'],
  );
}

type GaugeName = keyof ScrapeGauges;
interface Sample {
  gauge: GaugeName;
  labels: Record<string, string>;
  value: number;
}

function gauge(name: string, help: string, labelNames: string[]): Gauge<string> {
  // No registry yet: ScrapedGauges registers it with the first source, so an app without one reports none.
  return new Gauge({ name, help, labelNames, registers: [] });
}

/**
 * Measures every attached source once per scrape, all at once, then sets the gauges from what
 * came back. A source that fails is counted (metrics_scrape_errors_total) and its series are left
 * out of that scrape: neither a failed scrape nor a stale value.
 */
class ScrapedGauges {
  private readonly gauges = new ScrapeGauges();
  private readonly registered = new Set<GaugeName>();
  private readonly sources: { source: string; measure: () => Promise<Sample[]> }[] = [];
  private measuring: Promise<void> | undefined;

  constructor(
    private readonly registry: Registry,
    private readonly failed: (source: string) => void,
  ) {}

  add(source: string, gauges: readonly GaugeName[], measure: () => Promise<Sample[]>): void {
    for (const name of gauges) {
      if (!this.registered.has(name)) this.registry.registerMetric(this.gauges[name]);
      this.registered.add(name);
    }
    this.sources.push({ source, measure });
  }

  /** Scrapes that arrive together share one measurement. */
  measure(): Promise<void> {
    this.measuring ??= this.measureAll().finally(() => (this.measuring = undefined));
    return this.measuring;
  }

  private async measureAll(): Promise<void> {
    const measured = await Promise.all(
      this.sources.map(({ source, measure }) =>
        measure().catch(() => {
          this.failed(source);
          return [];
        }),
      ),
    );
    for (const name of this.registered) {
      this.gauges[name].reset();
      this.gauges[name].remove({}); // the 0 that reset leaves on a gauge without labels
    }
    for (const { gauge, labels, value } of measured.flat()) this.gauges[gauge].set(labels, value);
  }
}
