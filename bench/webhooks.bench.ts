/**
 * Payout webhooks through the real pipeline against a bare signed POST loop, on this machine.
 *
 *   npm run kafka:start
 *   KAFKA_BROKERS=127.0.0.1:19092 npm run bench:webhooks
 *   (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/postgres; BENCH_ROUNDS=3,
 *    BENCH_DELIVERIES=3000, BENCH_RATE=200, BENCH_SECONDS=15)
 *
 * The pipeline is the production shape: the built projector (Kafka relay) and webhook-dispatcher
 * run as their own processes on a fresh PostgreSQL database and a real Kafka broker; this process
 * appends paid payouts to the event store and runs a loopback receiver that checks every signature.
 * Per round:
 *   throughput  BENCH_DELIVERIES paid payouts committed while the relay (projector) is paused with
 *               SIGSTOP; deliveries/s from its SIGCONT to the last webhook received (relay of every
 *               event, Kafka, intake, signing, POST, recording; the projector's read models too)
 *   latency     paid payouts appended at a steady BENCH_RATE per second for BENCH_SECONDS; the time
 *               from each append's commit to its webhook's arrival, p50 and p99
 *   bare        the same bodies signed and POSTed to the same receiver by a plain loop with the same
 *               HTTP client and concurrency (throughput), and one every 1/BENCH_RATE s (latency)
 * The summary prints the medians over the rounds and the pipeline-to-bare ratios. Results are saved
 * under bench/results; the database is dropped and the topics are left to the broker's retention.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AccountsRepository, SecretBox } from '@payouts/accounts';
import { migrate, PostgresSqlClient } from '@payouts/database';
import { evolvePayout, initialPayoutState } from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import {
  payoutUpdatedBody,
  payoutUpdatedEventId,
  payoutWebhookData,
  postWebhook,
  resolveTarget,
  signatureHeaderValue,
  verifyPayoutWebhook,
  WebhookEndpoints,
} from '@payouts/webhooks';
import { appendPaidPayouts, paidPayoutEvents } from '../libs/webhooks/src/testing/paid-payouts';
import { positiveInt } from './support/bench-numbers';
import { createFreshDatabase } from './support/fresh-database';

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BROKERS = process.env.KAFKA_BROKERS ?? '';
const ROUNDS = positiveInt(process.env.BENCH_ROUNDS, 3);
const DELIVERIES = positiveInt(process.env.BENCH_DELIVERIES, 3_000);
const RATE = positiveInt(process.env.BENCH_RATE, 200);
const SECONDS = positiveInt(process.env.BENCH_SECONDS, 15);
/** The dispatcher's default WEBHOOK_MAX_IN_FLIGHT; the bare loop uses the same concurrency. */
const CONCURRENCY = 100;

interface Round {
  round: number;
  pipelinePerSecond: number;
  barePerSecond: number;
  pipelineP50Ms: number;
  pipelineP99Ms: number;
  bareP50Ms: number;
  bareP99Ms: number;
}

/** The loopback receiver: checks each signature and notes when each payout's first webhook arrived. */
class Receiver {
  readonly firstArrival = new Map<string, number>();
  received = 0;
  badSignatures = 0;
  private waiter: { count: number; resolve: () => void } | undefined;
  private constructor(
    readonly server: Server,
    readonly secret: { value: string },
  ) {}

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  static async start(): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server, { value: '' });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => receiver.handle(req, res));
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const raw = Buffer.concat(chunks).toString('utf8');
      try {
        verifyPayoutWebhook(raw, req.headers['x-service-payout-signature'] as string, this.secret.value);
      } catch {
        this.badSignatures += 1;
      }
      res.writeHead(200).end();
      const payoutId = (JSON.parse(raw) as { data: { payout_id: string } }).data.payout_id;
      this.received += 1;
      if (!this.firstArrival.has(payoutId)) this.firstArrival.set(payoutId, at);
      const waiter = this.waiter;
      if (waiter && this.firstArrival.size >= waiter.count) {
        this.waiter = undefined;
        waiter.resolve();
      }
    });
  }

  reset(): void {
    this.firstArrival.clear();
    this.received = 0;
  }

  waitFor(count: number, timeoutMs = 300_000): Promise<void> {
    if (this.firstArrival.size >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`only ${this.firstArrival.size} of ${count} webhooks arrived`)),
        timeoutMs,
      );
      this.waiter = {
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }
}

async function main(): Promise<void> {
  if (!BROKERS) throw new Error('KAFKA_BROKERS is not set: start a broker with npm run kafka:start');
  const database = await createFreshDatabase(SERVER_URL, 'webhooks_bench');
  const db = new PostgresSqlClient({ connectionString: database.url, maxConnections: 16 });
  const apps: RunningApp[] = [];
  const receiver = await Receiver.start();
  try {
    await migrate(db);
    const key = randomBytes(32);
    const accountId = (await new AccountsRepository(db, key).createAccount({ name: 'Bench', region: 'US' }))
      .accountId;
    const url = `http://127.0.0.1:${receiver.port}/webhooks`;
    const saved = await new WebhookEndpoints(db, new SecretBox(key)).save(
      accountId,
      'sandbox',
      url,
      new Date(),
    );
    receiver.secret.value = saved.secret;
    const env = {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: BROKERS,
      KAFKA_TOPIC_PREFIX: `bench-${randomUUID().slice(0, 8)}.`,
      ENCRYPTION_KEY: key.toString('base64'),
      WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
      LOG_LEVEL: 'warn',
      // Settings to try, e.g. BENCH_APP_ENV="WEBHOOK_MAX_IN_FLIGHT=200,KAFKA_RELAY_POLL_MS=5".
      ...Object.fromEntries(
        (process.env.BENCH_APP_ENV ?? '')
          .split(',')
          .filter(Boolean)
          .map((pair) => pair.split('=') as [string, string]),
      ),
    };
    for (const name of ['projector', 'webhook-dispatcher']) apps.push(await startApp(name, env));
    for (const app of apps) await waitFor200(app, '/health/ready');
    const relay = apps[0]!;
    const store = new PostgresEventStore(db);
    const target = await resolveTarget(url, { allowInsecure: true });

    // Warm-up: topics, consumer group, connections, JIT.
    await appendPaidPayouts(store, accountId, 'sandbox', 200);
    await receiver.waitFor(200);
    receiver.reset();

    const rounds: Round[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      // Pipeline throughput: the payouts are committed while the relay is paused (SIGSTOP), then it
      // resumes and the clock runs until the last webhook arrived. Appending is not the pipeline's
      // work; relaying every event, Kafka, intake, signing, sending and recording are.
      receiver.reset();
      relay.process.kill('SIGSTOP');
      try {
        await appendPaidPayouts(store, accountId, 'sandbox', DELIVERIES);
      } finally {
        relay.process.kill('SIGCONT');
      }
      const start = performance.now();
      await receiver.waitFor(DELIVERIES);
      const pipelinePerSecond = DELIVERIES / ((performance.now() - start) / 1000);

      // Bare throughput: the same number of signed POSTs, CONCURRENCY at a time.
      receiver.reset();
      const bodies = Array.from({ length: DELIVERIES }, (_, i) => bodyFor(`po_bare_${round}_${i}`));
      const bareStart = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < bodies.length) {
            const body = bodies[next++]!;
            await postWebhook(
              target,
              body,
              signatureHeaderValue(saved.secret, Math.floor(Date.now() / 1000), body),
            );
          }
        }),
      );
      await receiver.waitFor(DELIVERIES);
      const barePerSecond = DELIVERIES / ((performance.now() - bareStart) / 1000);

      // Pipeline latency at a steady rate.
      receiver.reset();
      const committed = new Map<string, number>();
      const count = RATE * SECONDS;
      await steady(count, async () => {
        const [payoutId] = await appendPaidPayouts(store, accountId, 'sandbox', 1);
        committed.set(payoutId!, performance.now());
      });
      await receiver.waitFor(count);
      const pipelineLatencies = [...committed].map(([id, at]) => receiver.firstArrival.get(id)! - at);

      // Bare latency at the same rate: from the start of the signed POST to its arrival.
      receiver.reset();
      const sentAt = new Map<string, number>();
      let seq = 0;
      await steady(count, async () => {
        const payoutId = `po_bare_latency_${round}_${seq++}`;
        const body = bodyFor(payoutId);
        sentAt.set(payoutId, performance.now());
        await postWebhook(
          target,
          body,
          signatureHeaderValue(saved.secret, Math.floor(Date.now() / 1000), body),
        );
      });
      await receiver.waitFor(count);
      const bareLatencies = [...sentAt].map(([id, at]) => receiver.firstArrival.get(id)! - at);

      const result: Round = {
        round,
        pipelinePerSecond,
        barePerSecond,
        pipelineP50Ms: percentile(pipelineLatencies, 50),
        pipelineP99Ms: percentile(pipelineLatencies, 99),
        bareP50Ms: percentile(bareLatencies, 50),
        bareP99Ms: percentile(bareLatencies, 99),
      };
      rounds.push(result);
      process.stdout.write(`${formatRound(`round ${round}`, result)}\n`);
    }
    if (receiver.badSignatures > 0) throw new Error(`${receiver.badSignatures} webhooks had a bad signature`);

    const median = (pick: (r: Round) => number) => percentile(rounds.map(pick), 50);
    const summary: Round = {
      round: 0,
      pipelinePerSecond: median((r) => r.pipelinePerSecond),
      barePerSecond: median((r) => r.barePerSecond),
      pipelineP50Ms: median((r) => r.pipelineP50Ms),
      pipelineP99Ms: median((r) => r.pipelineP99Ms),
      bareP50Ms: median((r) => r.bareP50Ms),
      bareP99Ms: median((r) => r.bareP99Ms),
    };
    const ratios = {
      throughputPipelineToBare: median((r) => r.pipelinePerSecond / r.barePerSecond),
      p50PipelineOverBare: median((r) => r.pipelineP50Ms / r.bareP50Ms),
      p99PipelineOverBare: median((r) => r.pipelineP99Ms / r.bareP99Ms),
    };
    process.stdout.write(
      `\nmedian of ${ROUNDS} round(s)\n${formatRound('median', summary)}\n` +
        `ratios (median of per-round ratios): pipeline/bare throughput ${ratios.throughputPipelineToBare.toFixed(2)}, ` +
        `pipeline/bare p50 ${ratios.p50PipelineOverBare.toFixed(1)}x, p99 ${ratios.p99PipelineOverBare.toFixed(1)}x\n` +
        `goals: >= 1000 deliveries/s (${summary.pipelinePerSecond >= 1000 ? 'met' : 'NOT met'}), ` +
        `p99 < 500 ms at ${RATE}/s (${summary.pipelineP99Ms < 500 ? 'met' : 'NOT met'})\n`,
    );
    const dir = join(process.cwd(), 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `webhooks-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        { settings: { ROUNDS, DELIVERIES, RATE, SECONDS, CONCURRENCY }, rounds, median: summary, ratios },
        null,
        2,
      ),
    );
    process.stdout.write(`results saved to ${file}\n`);
  } finally {
    for (const app of apps) await stop(app);
    receiver.server.closeAllConnections();
    await new Promise((resolve) => receiver.server.close(resolve));
    await db.close();
    // BENCH_KEEP_DATABASE=1 keeps it for a look at the delivery log afterwards.
    if (process.env.BENCH_KEEP_DATABASE === '1') process.stdout.write(`database kept: ${database.url}\n`);
    else await database.drop();
  }
}

/** Runs `task` `count` times at RATE per second, on schedule (not after the previous one finished). */
async function steady(count: number, task: () => Promise<void>): Promise<void> {
  const intervalMs = 1000 / RATE;
  const start = performance.now();
  const running: Promise<void>[] = [];
  let launched = 0;
  while (launched < count) {
    const due = Math.min(count, Math.floor((performance.now() - start) / intervalMs) + 1);
    while (launched < due) {
      running.push(task());
      launched += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(running);
}

/** The payout.updated body the dispatcher would send for such a payout: the library's own. */
function bodyFor(payoutId: string): string {
  const paid = paidPayoutEvents(payoutId, 'acct_bench', 'sandbox', new Date()).reduce(
    evolvePayout,
    initialPayoutState(),
  );
  if (paid.status === 'none') throw new Error('a paid payout folds to a payout');
  return payoutUpdatedBody(payoutUpdatedEventId(payoutId), payoutWebhookData(paid));
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function formatRound(label: string, r: Round): string {
  const f = (n: number) => n.toFixed(0).padStart(6);
  const ms = (n: number) => n.toFixed(1).padStart(7);
  return (
    `${label.padEnd(8)} throughput: pipeline ${f(r.pipelinePerSecond)}/s, bare ${f(r.barePerSecond)}/s | ` +
    `latency at ${RATE}/s: pipeline p50 ${ms(r.pipelineP50Ms)} ms p99 ${ms(r.pipelineP99Ms)} ms, ` +
    `bare p50 ${ms(r.bareP50Ms)} ms p99 ${ms(r.bareP99Ms)} ms`
  );
}

interface RunningApp {
  url: string;
  process: ChildProcess;
  output: () => string;
}

/** A built app (dist/apps/<name>) as its own process, as in production. */
async function startApp(name: string, env: Record<string, string>): Promise<RunningApp> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  // For a look inside the apps, e.g. BENCH_APP_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_APP_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, join(__dirname, '..', 'apps', name, 'src', 'main.js')],
    {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  return { url: `http://127.0.0.1:${port}`, process: child, output: () => output };
}

async function waitFor200(app: RunningApp, path: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (app.process.exitCode !== null) throw new Error(`app exited:\n${app.output()}`);
    const status = await fetch(app.url + path).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${app.url}${path} did not answer 200:\n${app.output()}`);
}

async function stop(app: RunningApp): Promise<void> {
  if (app.process.exitCode !== null) return;
  const exited = new Promise((resolve) => app.process.once('exit', resolve));
  app.process.kill('SIGTERM');
  await exited;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
