import { Agent, IncomingHttpHeaders, request } from 'node:http';
import { performance } from 'node:perf_hooks';

/** One request of an open-loop load, built ahead of its send. */
export interface PreparedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface OpenLoop {
  host: string;
  port: number;
  ratePerSecond: number;
  seconds: number;
  /** Requests sent and not yet answered, at most: a send due while this many are out is not sent. */
  maxInFlight: number;
  /** A request with no answer this long is given up (its socket destroyed) and counted as timed out. */
  timeoutMs: number;
  /** The request with sequence number `seq` (0, 1, …): the same each time, so a retry can repeat it. */
  prepare: (seq: number) => PreparedRequest;
  /** Statuses whose answer body `onAnswer` receives; every other body is discarded unread. */
  bodyFor: ReadonlySet<number>;
  onAnswer: (seq: number, status: number, headers: IncomingHttpHeaders, body: string) => void;
  /** Called when the last scheduled request is sent (or not sent), before those out are awaited. */
  onScheduleEnd?: () => void;
}

export interface OpenLoopOutcome {
  /** Sends the schedule called for: ratePerSecond × seconds. */
  scheduled: number;
  sent: number;
  /** Sends due while maxInFlight requests were out: never sent, so they cannot have written anything. */
  notSent: number;
  answered: number;
  timedOut: number;
  /** Connection errors other than the timeout: refused, reset, closed before the answer. */
  transportErrors: number;
  /** Sequence numbers of the requests sent and never answered (timed out or transport error). */
  unanswered: number[];
  /** Milliseconds from send to the answer's end, by request answered. */
  latenciesMs: Float64Array;
  /** When each answered request was sent, ms from the start of the load; same index. */
  sentAtMs: Float64Array;
  /** The status of each latency in `latenciesMs`, same index. */
  statuses: Uint16Array;
  /** Highest number of requests out at once. */
  peakInFlight: number;
}

/** Requests prepared at a time: the bodies and headers of the next CHUNK sends, built together. */
const CHUNK = 256;
const TIMED_OUT = new Error('no answer within the timeout');
/** How often the sender wakes; each wake sends every request the clock says is due by then. */
const TICK_MS = 2;
/**
 * Keep-alive connections opened before the schedule starts, as a client with a warm pool has
 * them: without them the first second measures a storm of TCP handshakes, not the server's queue.
 */
const WARM_CONNECTIONS = 1024;

/**
 * Open loop: requests leave at `ratePerSecond` whatever the server answers, as independent clients
 * would send them, so a slow server meets a growing backlog instead of a politely waiting load
 * generator (autocannon's closed loop). Keep-alive sockets, at most maxInFlight of them.
 */
export async function runOpenLoop(load: OpenLoop): Promise<OpenLoopOutcome> {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: load.maxInFlight,
    maxFreeSockets: load.maxInFlight,
    scheduling: 'lifo',
  });
  await openConnections(agent, load.host, load.port, Math.min(WARM_CONNECTIONS, load.maxInFlight));
  const scheduled = Math.floor(load.ratePerSecond * load.seconds);
  const outcome: OpenLoopOutcome = {
    scheduled,
    sent: 0,
    notSent: 0,
    answered: 0,
    timedOut: 0,
    transportErrors: 0,
    unanswered: [],
    latenciesMs: new Float64Array(scheduled),
    sentAtMs: new Float64Array(scheduled),
    statuses: new Uint16Array(scheduled),
    peakInFlight: 0,
  };
  const start = performance.now();
  let inFlight = 0;
  let drained: (() => void) | undefined;
  let chunk: PreparedRequest[] = [];
  const finish = () => {
    inFlight -= 1;
    if (inFlight === 0) drained?.();
  };
  const send = (seq: number) => {
    if (seq % CHUNK === 0) chunk = Array.from({ length: CHUNK }, (_, i) => load.prepare(seq + i));
    const prepared = chunk[seq % CHUNK]!;
    const sentAt = performance.now();
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      if (error === TIMED_OUT) outcome.timedOut += 1;
      else outcome.transportErrors += 1;
      outcome.unanswered.push(seq);
      finish();
    };
    const req = request(
      {
        host: load.host,
        port: load.port,
        agent,
        method: prepared.method,
        path: prepared.path,
        headers: prepared.headers,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const wanted = load.bodyFor.has(status);
        let body = '';
        if (wanted) {
          res.setEncoding('utf8');
          res.on('data', (part: string) => (body += part));
        } else {
          res.resume();
        }
        res.on('error', fail);
        res.on('end', () => {
          if (settled) return;
          settled = true;
          const i = outcome.answered;
          outcome.answered += 1;
          outcome.latenciesMs[i] = performance.now() - sentAt;
          outcome.sentAtMs[i] = sentAt - start;
          outcome.statuses[i] = status;
          load.onAnswer(seq, status, res.headers, body);
          finish();
        });
      },
    );
    req.setTimeout(load.timeoutMs, () => req.destroy(TIMED_OUT));
    req.on('error', fail);
    req.end(prepared.body);
  };
  await new Promise<void>((resolve) => {
    let due = 0;
    const tick = () => {
      const until = Math.min(
        scheduled,
        Math.floor(((performance.now() - start) * load.ratePerSecond) / 1000),
      );
      for (; due < until; due += 1) {
        if (inFlight >= load.maxInFlight) {
          outcome.notSent += 1;
          continue;
        }
        inFlight += 1;
        if (inFlight > outcome.peakInFlight) outcome.peakInFlight = inFlight;
        send(outcome.sent);
        outcome.sent += 1;
      }
      if (due >= scheduled) resolve();
      else setTimeout(tick, TICK_MS);
    };
    tick();
  });
  load.onScheduleEnd?.();
  // Every request still out ends by its answer or its timeout.
  if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
  agent.destroy();
  return outcome;
}

/** p50, p99 and the maximum of `values` (ms), or undefined when there is none. */
export function latencyFigures(values: Float64Array): { p50: number; p99: number; max: number } | undefined {
  if (values.length === 0) return undefined;
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1]! };
}

/** Opens `count` keep-alive connections in the agent's pool at once (GET /health on each). */
async function openConnections(agent: Agent, host: string, port: number, count: number): Promise<void> {
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          const req = request({ host, port, agent, method: 'GET', path: '/health' }, (res) => {
            res.resume();
            res.on('end', resolve);
          });
          req.on('error', reject);
          req.end();
        }),
    ),
  );
}
