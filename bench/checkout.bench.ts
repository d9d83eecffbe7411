/**
 * bench:checkout: the checkout API on the PostgreSQL server (DATABASE_URL, default the local
 * server), the gateway as the image runs it, beside a bare Fastify server answering the same
 * requests (bench/bare-fastify-server.ts) in the same run:
 *
 *   create-order  POST /sandbox/card, a unique customer per request, over BENCH_ACCOUNTS accounts
 *   order-status  GET /sandbox/payment/status over the orders create-order made, each with its owner
 *   webhooks      BENCH_WEBHOOK_ORDERS wallet orders (default 2,000) paid through the hosted page of
 *                 the embedded start on its own database: checkout-webhook deliveries/s to a loopback
 *                 receiver that checks every signature, beside a plain loop POSTing the same bodies
 *
 * BENCH_ROUNDS rounds (default 3) of BENCH_SECONDS each (default 10) after an unmeasured warm-up;
 * the medians, and the gateway as a share of bare Fastify. Goals (issue 30): Create Order 2,000/s
 * or more with p99 under 30 ms; Status 8,000/s or more. The bench reports; it never fails on timing.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Measure, medianOf, printTable, withCosts } from './support/api-measures';
import type { ClosedLoop } from './support/api-scenarios';
import { runCreateOrder, runOrderStatus, setUpCheckoutAccount } from './support/checkout-scenarios';
import { runCheckoutWebhooks, WebhookFigures } from './support/checkout-webhook-scenario';
import { createFreshDatabase } from './support/fresh-database';
import { saveResults } from './support/save-results';
import { exited, freePort, imageGatewaySettings, startProcess, waitReady } from './support/server-processes';
import { ServerWal } from './support/server-wal';

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
/** Orders paid through the page for the webhook deliveries/s figure (0 skips it). */
const WEBHOOK_ORDERS = Number(process.env.BENCH_WEBHOOK_ORDERS ?? 2000);
const OPERATOR_TOKEN = `op_${randomBytes(16).toString('hex')}`;
const DIST = join(__dirname, '..');
const MEASURED: ClosedLoop = { connections: CONNECTIONS, seconds: SECONDS };
const WARM_UP: ClosedLoop = { connections: CONNECTIONS, seconds: WARM_UP_SECONDS };

async function main(): Promise<void> {
  const database = await createFreshDatabase(SERVER_URL, 'checkout_bench');
  const [gatewayPort, barePort] = [await freePort(), await freePort()];
  const image = imageGatewaySettings(DIST);
  const gateway = await startProcess('gateway', [...image.nodeFlags, join(DIST, image.script)], {
    DATABASE_URL: database.url,
    PORT: String(gatewayPort),
    HOST: '127.0.0.1',
    OPERATOR_TOKEN,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATABASE_POOL_SIZE: '40',
    NODE_OPTIONS: image.nodeOptions,
  });
  const bare = await startProcess('bare', [join(DIST, 'bench/bare-fastify-server.js'), String(barePort)], {});
  let wal: ServerWal | undefined;
  try {
    wal = await ServerWal.open(SERVER_URL);
    await waitReady(`http://127.0.0.1:${gatewayPort}/health/ready`, gateway);
    const gatewayBase = `http://127.0.0.1:${gatewayPort}`;
    const keys: string[] = [];
    for (let i = 0; i < ACCOUNTS; i += 1)
      keys.push(await setUpCheckoutAccount(gatewayBase, OPERATOR_TOKEN, `shop ${i}`));
    await wal.ensureHeadroom();
    const created: number[] = [];
    const base = (target: 'gateway' | 'bare') =>
      `http://127.0.0.1:${target === 'gateway' ? gatewayPort : barePort}`;
    for (const target of WARM_UP_SECONDS > 0 ? (['gateway', 'bare'] as const) : []) {
      await runCreateOrder(target, base(target), keys, target === 'gateway' ? created : [], WARM_UP);
      await runOrderStatus(target, base(target), keys, created, WARM_UP);
    }
    const measures: Measure[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const start = measures.length;
      for (const target of ['gateway', 'bare'] as const) {
        const pid = (target === 'gateway' ? gateway : bare).pid;
        const serverWal = wal;
        measures.push(
          await withCosts(pid, serverWal, SECONDS, () =>
            runCreateOrder(target, base(target), keys, target === 'gateway' ? created : [], MEASURED),
          ),
        );
        measures.push(
          await withCosts(pid, serverWal, SECONDS, () =>
            runOrderStatus(target, base(target), keys, created, MEASURED),
          ),
        );
      }
      printTable(`round ${round}`, measures.slice(start));
    }
    const summary = (['create-order', 'order-status'] as const).flatMap((scenario) =>
      (['gateway', 'bare'] as const).map((target) =>
        medianOf(measures.filter((m) => m.scenario === scenario && m.target === target)),
      ),
    );
    printTable(`median of ${ROUNDS} round(s)`, summary);
    const figure = (scenario: string, target: string) =>
      summary.find((m) => m.scenario === scenario && m.target === target)!;
    const create = figure('create-order', 'gateway');
    const status = figure('order-status', 'gateway');
    for (const scenario of ['create-order', 'order-status']) {
      const ratio =
        figure(scenario, 'gateway').requestsPerSecond / figure(scenario, 'bare').requestsPerSecond;
      process.stdout.write(`${scenario}: gateway at ${(100 * ratio).toFixed(1)}% of bare Fastify\n`);
    }
    const mark = (met: boolean) => (met ? '✓' : '✗');
    process.stdout.write(
      `goals: Create Order ${create.requestsPerSecond.toFixed(0)}/s p99 ${create.p99Ms.toFixed(1)} ms (≥ 2,000/s, < 30 ms) ${mark(create.requestsPerSecond >= 2000 && create.p99Ms < 30)}; ` +
        `Status ${status.requestsPerSecond.toFixed(0)}/s (≥ 8,000/s) ${mark(status.requestsPerSecond >= 8000)}\n`,
    );
    let webhooks: WebhookFigures | undefined;
    if (WEBHOOK_ORDERS > 0) {
      webhooks = await runCheckoutWebhooks(SERVER_URL, DIST, WEBHOOK_ORDERS);
      process.stdout.write(
        `webhooks: ${webhooks.orders} orders paid through the page, ${webhooks.pipelinePerSecond.toFixed(0)} deliveries/s ` +
          `(first payment to last webhook), bare signed POST loop ${webhooks.barePerSecond.toFixed(0)}/s, ` +
          `${webhooks.badSignatures} bad signatures\n`,
      );
    }
    saveResults('checkout', {
      seconds: SECONDS,
      connections: CONNECTIONS,
      accounts: ACCOUNTS,
      measures,
      summary,
      webhooks,
    });
  } finally {
    gateway.kill('SIGTERM');
    bare.kill('SIGTERM');
    await Promise.all([exited(gateway), exited(bare)]);
    await wal?.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
