import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { processCpuMs } from './cpu-usage';
import { createPayoutBody } from './api-scenarios';
import { latencyFigures, OpenLoopOutcome, PreparedRequest, runOpenLoop } from './open-loop-load';
import { RssSummary, sampleRssEverySecond, summariseRss } from './process-rss';

/** Open-loop Create Payout load on one account, above what the gateway can serve. */
export interface Overload {
  host: string;
  port: number;
  /** The payout credential of the one (hot) account every request uses. */
  token: string;
  gatewayPid: number;
  ratePerSecond: number;
  /** Where the rate came from, for the report (e.g. "2 × create-hot's median"). */
  rateSource: string;
  seconds: number;
  maxInFlight: number;
}

export interface OverloadReport {
  ratePerSecond: number;
  seconds: number;
  maxInFlight: number;
  scheduled: number;
  sent: number;
  notSent: number;
  peakInFlight: number;
  created: number;
  overloaded: number;
  overloadedWithRetryAfter: number;
  otherStatuses: Record<string, number>;
  timedOut: number;
  transportErrors: number;
  createdLatencyMs?: { p50: number; p99: number; max: number };
  answeredLatencyMs?: { p50: number; p99: number; max: number };
  /** p99 of the answers to requests sent in each second of the load: where the tail came from. */
  answeredP99BySecond: number[];
  rss?: RssSummary;
  /** This process's CPU during the load (the generator's own cost), % of one core. */
  generatorCpuPercent: number;
  /** Seconds from the last send until the account had not gained a payout for a second. */
  catchUpSeconds: number;
  retried: number;
  retriedStatuses: Record<string, number>;
  /** Payout ids answered 201 (load and retries) that Get Payout found. */
  payoutsFound: number;
  /** Payouts the account gained during the scenario, by List Payouts' total. */
  payoutsAdded: number;
  nothingLost: boolean;
}

const CREATE_PATH = '/sandbox/api/payout/create';
/** A request with no answer within this long counts as unanswered and is retried after the load. */
const REQUEST_TIMEOUT_MS = 10_000;
/** At most this long after the load for the server to work through its backlog. */
const BACKLOG_WAIT_MS = 60_000;
/** Concurrent requests of the retries and checks after the load. */
const CHECK_CONCURRENCY = 16;

export async function runOverload(overload: Overload): Promise<OverloadReport> {
  const base = `http://${overload.host}:${overload.port}`;
  const authorization = `Bearer ${overload.token}`;
  const run = randomBytes(4).toString('hex');
  const prepare = (seq: number): PreparedRequest => {
    const reference = `overload-${run}-${seq}`;
    const body = Buffer.from(JSON.stringify(createPayoutBody(reference)));
    const headers = {
      'content-type': 'application/json',
      'content-length': String(body.length),
      authorization,
      'idempotency-key': reference,
    };
    return { method: 'POST', path: CREATE_PATH, headers, body };
  };
  const payoutsBefore = await settledPayoutCount(base, authorization, 10_000);
  const created = new Set<string>();
  const otherStatuses: Record<string, number> = {};
  let [overloaded, overloadedWithRetryAfter] = [0, 0];
  process.stdout.write(
    `\noverload: open loop at ${overload.ratePerSecond.toFixed(0)} creates/s (${overload.rateSource}) on the hot account for ${overload.seconds} s, at most ${overload.maxInFlight} in flight\n`,
  );
  const rss = sampleRssEverySecond(overload.gatewayPid);
  const generatorCpuBefore = processCpuMs(process.pid) ?? 0;
  let rssSamples: number[] = [];
  let [generatorCpuMs, scheduleEndAt] = [0, 0];
  const outcome = await runOpenLoop({
    host: overload.host,
    port: overload.port,
    ratePerSecond: overload.ratePerSecond,
    seconds: overload.seconds,
    maxInFlight: overload.maxInFlight,
    timeoutMs: REQUEST_TIMEOUT_MS,
    prepare,
    bodyFor: new Set([201, 503]),
    onAnswer: (_seq, status, headers, body) => {
      if (status === 201) created.add(payoutIdOf(body));
      else if (status === 503 && isOverloaded(body)) {
        overloaded += 1;
        if (headers['retry-after'] !== undefined) overloadedWithRetryAfter += 1;
      } else otherStatuses[status] = (otherStatuses[status] ?? 0) + 1;
    },
    onScheduleEnd: () => {
      rssSamples = rss.stop();
      generatorCpuMs = (processCpuMs(process.pid) ?? 0) - generatorCpuBefore;
      scheduleEndAt = performance.now();
    },
  });
  const createdByLoad = created.size;
  // A request whose client gave up may still be in the server's backlog, and a retry meanwhile
  // would only hear 409 (key in flight): wait until the account stops gaining payouts.
  await settledPayoutCount(base, authorization, BACKLOG_WAIT_MS);
  const catchUpSeconds = (performance.now() - scheduleEndAt) / 1000;
  // No answer says nothing about what was written: the same request once more, same key, says.
  const retriedStatuses: Record<string, number> = {};
  await inParallel(outcome.unanswered, async (seq) => {
    const request = prepare(seq);
    const { 'content-length': _length, ...headers } = request.headers;
    const answer = await fetch(base + request.path, {
      method: 'POST',
      headers,
      body: new Uint8Array(request.body),
    }).then(
      async (response) => ({ status: String(response.status), body: await response.text() }),
      () => ({ status: 'no answer', body: '' }),
    );
    retriedStatuses[answer.status] = (retriedStatuses[answer.status] ?? 0) + 1;
    if (answer.status === '201') created.add(payoutIdOf(answer.body));
  });
  let payoutsFound = 0;
  await inParallel([...created], async (id) => {
    const status = await fetch(`${base}/sandbox/api/payout/${id}`, { headers: { authorization } }).then(
      async (response) => (await response.arrayBuffer(), response.status),
      () => 0,
    );
    if (status === 200) payoutsFound += 1;
  });
  const payoutsAdded = (await payoutCount(base, authorization)) - payoutsBefore;
  const report: OverloadReport = {
    ratePerSecond: overload.ratePerSecond,
    seconds: overload.seconds,
    maxInFlight: overload.maxInFlight,
    scheduled: outcome.scheduled,
    sent: outcome.sent,
    notSent: outcome.notSent,
    peakInFlight: outcome.peakInFlight,
    created: createdByLoad,
    overloaded,
    overloadedWithRetryAfter,
    otherStatuses,
    timedOut: outcome.timedOut,
    transportErrors: outcome.transportErrors,
    createdLatencyMs: latencyFigures(latenciesOf(outcome, 201)),
    answeredLatencyMs: latencyFigures(outcome.latenciesMs.subarray(0, outcome.answered)),
    answeredP99BySecond: p99BySecond(outcome),
    rss: summariseRss(rssSamples),
    generatorCpuPercent: (100 * generatorCpuMs) / 1000 / overload.seconds,
    catchUpSeconds,
    retried: outcome.unanswered.length,
    retriedStatuses,
    payoutsFound,
    payoutsAdded,
    nothingLost: payoutsFound === created.size && payoutsAdded === created.size,
  };
  printOverload(report, created.size);
  return report;
}

function printOverload(r: OverloadReport, createdInAll: number): void {
  const mark = (met: boolean) => (met ? '✓' : '✗');
  const latency = (name: string, f: OverloadReport['createdLatencyMs']) =>
    `  ${name.padEnd(14)}${f ? `${f.p50.toFixed(1).padStart(9)}${f.p99.toFixed(1).padStart(9)}${f.max.toFixed(1).padStart(9)}` : '        -'}\n`;
  const byStatus = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ') || 'none';
  const rss = r.rss;
  const p99Met = r.answeredLatencyMs !== undefined && r.answeredLatencyMs.p99 < 250;
  const refusedMet = r.overloaded > 0 && r.overloadedWithRetryAfter === r.overloaded;
  process.stdout.write(
    `  scheduled ${r.scheduled}, sent ${r.sent}, not sent (${r.maxInFlight} already in flight) ${r.notSent}; at most ${r.peakInFlight} in flight\n` +
      `  answered 201: ${r.created}; 503 overloaded: ${r.overloaded} (${r.overloadedWithRetryAfter} with Retry-After); other statuses: ${byStatus(r.otherStatuses)}\n` +
      `  no answer: ${r.timedOut} timed out (${REQUEST_TIMEOUT_MS / 1000} s), ${r.transportErrors} transport errors\n` +
      `  latency ms           p50      p99      max\n` +
      latency('answered 201', r.createdLatencyMs) +
      latency('all answered', r.answeredLatencyMs) +
      `  p99 of all answered by second sent: ${r.answeredP99BySecond.map((ms) => ms.toFixed(0)).join(' ')}\n` +
      (rss
        ? `  gateway RSS MiB: first ${rss.firstMib.toFixed(0)}, median of the middle third ${rss.middleMedianMib.toFixed(0)}, last ${rss.lastMib.toFixed(0)}, max ${rss.maxMib.toFixed(0)}; last 10 s max ${rss.lastTenMaxMib.toFixed(0)}: ${rss.flat ? 'RSS flat' : 'RSS not flat'}\n`
        : '  gateway RSS: not readable (/proc)\n') +
      `  load generator CPU ${r.generatorCpuPercent.toFixed(0)}% of a core; the account had stopped gaining payouts ${r.catchUpSeconds.toFixed(1)} s after the last send\n` +
      `  retried once after that (no answer): ${r.retried}; their answers: ${byStatus(r.retriedStatuses)}\n` +
      `  nothing lost: ${r.payoutsFound} of ${createdInAll} payouts answered 201 found by Get Payout; the account gained ${r.payoutsAdded} payouts (List Payouts total) for ${createdInAll} answered 201\n` +
      `goal: p99 of answered < 250 ms, excess refused with Retry-After, nothing lost, RSS flat\n` +
      `  ${mark(p99Met)} p99 of answered ${r.answeredLatencyMs?.p99.toFixed(1) ?? '-'} ms  ${mark(refusedMet)} ${r.overloaded} refused, ${r.overloadedWithRetryAfter} with Retry-After  ${mark(r.nothingLost)} nothing lost  ${mark(rss?.flat ?? false)} RSS flat\n`,
  );
}

/** The payout id of a Create Payout answer, found without parsing the whole body. */
function payoutIdOf(body: string): string {
  const at = body.indexOf('"payout_id":"');
  if (at < 0) return (JSON.parse(body) as { payout_id: string }).payout_id;
  return body.slice(at + 13, body.indexOf('"', at + 13));
}

/** A 503 that is the server refusing work (`{"error":{"code":"overloaded",…}}`), not another 503. */
function isOverloaded(body: string): boolean {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code === 'overloaded';
  } catch {
    return false;
  }
}

function p99BySecond(outcome: OpenLoopOutcome): number[] {
  const seconds: number[][] = [];
  for (let i = 0; i < outcome.answered; i += 1) {
    const second = Math.floor(outcome.sentAtMs[i]! / 1000);
    (seconds[second] ??= []).push(outcome.latenciesMs[i]!);
  }
  return Array.from(seconds, (values) => latencyFigures(Float64Array.from(values ?? []))?.p99 ?? 0);
}

function latenciesOf(outcome: OpenLoopOutcome, status: number): Float64Array {
  const picked: number[] = [];
  for (let i = 0; i < outcome.answered; i += 1) {
    if (outcome.statuses[i] === status) picked.push(outcome.latenciesMs[i]!);
  }
  return Float64Array.from(picked);
}

/** The account's payouts in the sandbox: List Payouts' total (one page of one, the total counts all). */
async function payoutCount(base: string, authorization: string): Promise<number> {
  const response = await fetch(`${base}/sandbox/api/payout/list?limit=1`, { headers: { authorization } });
  if (!response.ok) throw new Error(`List Payouts: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { total: number }).total;
}

/**
 * The count once it has not moved for a second (or after maxWaitMs): creates the server was still
 * serving, their client gone, would otherwise land in the count after it is read.
 */
async function settledPayoutCount(base: string, authorization: string, maxWaitMs: number): Promise<number> {
  let [count, unchanged] = [await payoutCount(base, authorization), 0];
  for (let waited = 0; waited < maxWaitMs && unchanged < 2; waited += 500) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const again = await payoutCount(base, authorization);
    unchanged = again === count ? unchanged + 1 : 0;
    count = again;
  }
  return count;
}

async function inParallel<T>(items: T[], each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await each(items[(next += 1) - 1]!);
  };
  await Promise.all(Array.from({ length: CHECK_CONCURRENCY }, worker));
}
