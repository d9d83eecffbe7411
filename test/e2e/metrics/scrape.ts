import { getMetricsFromIterator } from 'prom2javascript';
import type { PromData, PromHistogramData, PromLabels, PromMetrics } from 'prom2javascript';

/** prom-client's text format, version 0.0.4: what GET /metrics declares. */
export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

export interface Scraped {
  text: string;
  metrics: PromMetrics;
}

/**
 * GET /metrics with no credential, read by an independent parser of the text format
 * (prom2javascript: it refuses a line it cannot read, and a histogram whose +Inf bucket is not
 * its count).
 */
export async function scrape(baseUrl: string): Promise<Scraped> {
  const answer = await fetch(`${baseUrl}/metrics`);
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`GET /metrics answered ${answer.status}: ${text}`);
  expect(answer.headers.get('content-type')).toBe(PROMETHEUS_TEXT);
  return { text, metrics: await getMetricsFromIterator(text.split('\n')[Symbol.iterator]()) };
}

/** The type of each metric family, by name. */
export function typesOf(metrics: PromMetrics): Record<string, string> {
  return Object.fromEntries(Object.entries(metrics).map(([name, metric]) => [name, metric.type]));
}

/** A counter's or a gauge's series. */
export function seriesOf(metrics: PromMetrics, name: string): PromData[] {
  const metric = metrics[name];
  if (!metric) throw new Error(`no metric ${name}`);
  return metric.data as PromData[];
}

/** A histogram's series. */
export function histogramsOf(metrics: PromMetrics, name: string): PromHistogramData[] {
  const metric = metrics[name];
  if (metric?.type !== 'histogram') throw new Error(`no histogram ${name}`);
  return metric.data as PromHistogramData[];
}

/** The series whose labels include `labels`. */
export function withLabels<T extends { labels: PromLabels }>(series: readonly T[], labels: PromLabels): T[] {
  return series.filter((one) => Object.entries(labels).every(([key, value]) => one.labels[key] === value));
}

/** Every label value of every series, for checking that none holds an id, a token or a raw URL. */
export function labelValues(metrics: PromMetrics): string[] {
  return Object.values(metrics).flatMap((metric) =>
    (metric.data as { labels: PromLabels }[]).flatMap((one) => Object.values(one.labels)),
  );
}
