/**
 * REST API throughput and latency on a PostgreSQL server, beside a bare Fastify handler taking
 * the same requests in the same run (`bench/bare-fastify-server.ts`).
 *
 *   npm run bench:api     (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=32 BENCH_ACCOUNTS=40 BENCH_ROUNDS=3 BENCH_WARMUP_SECONDS=5 \
 *     npm run bench:api
 *
 * Creates a fresh database, starts the built api-gateway as its own process against it, as the
 * image runs it (docker/Dockerfile: its NODE_OPTIONS and the node flags of its CMD), sets up
 * BENCH_ACCOUNTS funded accounts through the operator and dashboard APIs, then runs autocannon:
 *   create  POST /sandbox/api/payout/create, a unique Idempotency-Key and merchant_reference per
 *           request, spread round-robin over the accounts
 *   get     GET /sandbox/api/payout/{id} over the payouts the create run made
 * and the same two against the bare server, first for BENCH_WARMUP_SECONDS (default 5) unmeasured,
 * then in measured rounds that alternate gateway and bare; the summary gives medians. Each round
 * then runs, on the gateway alone (BENCH_HOT=0 skips it):
 *   create-hot  the create load with every request on one account (its ledger is the hot spot)
 * and, last, on that same account (BENCH_OVERLOAD_SECONDS=0 skips it):
 *   overload    an open loop (`support/open-loop-load.ts`) at twice create-hot's median creates/s
 *               (BENCH_OVERLOAD_RATE, default 2,000/s, when create-hot is skipped) for
 *               BENCH_OVERLOAD_SECONDS (default 60), at most BENCH_OVERLOAD_MAX_IN_FLIGHT (default
 *               4096) requests out; then checks that every payout answered 201 exists and that the
 *               account holds no other new one (`support/overload-scenario.ts`)
 * Everything runs on this machine (loopback only) and stops by itself.
 *
 * Beside each figure, the CPU time one request cost (Linux /proc): the server process, the local
 * PostgreSQL server's processes, and the whole machine (both, plus autocannon and the kernel). On
 * a machine whose cores they all share, these say where the time went and what the ceiling is:
 * two cores divided by the machine µs is the most requests per second this machine can serve.
 * Last, the bytes of write-ahead log the database server wrote per request: what a request costs
 * the server's disk, its replicas and its archive.
 *
 * Before the warm-up it gives the server as many recycled WAL segments ahead as it keeps under
 * steady load, and after each round prints how many are left (`ServerWal.ensureHeadroom`): a
 * server that has to make a segment holds every commit in flight meanwhile.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Measure, medianOf, printTable, withCosts } from './support/api-measures';
import { ClosedLoop, runCreate, runGet } from './support/api-scenarios';
import { hotAccountFunds, setUpAccount, setUpAccounts } from './support/bench-accounts';
import { createFreshDatabase } from './support/fresh-database';
import { saveResults } from './support/save-results';
import { runOverload } from './support/overload-scenario';
import { exited, freePort, imageGatewaySettings, startProcess, waitReady } from './support/server-processes';
import { MIB, ServerWal } from './support/server-wal';

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
/** BENCH_HOT=0 skips create-hot. */
const HOT = process.env.BENCH_HOT !== '0';
/** Seconds of the overload scenario (0 skips it); its rate is 2 × create-hot's median creates/s. */
const OVERLOAD_SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 60);
/** The overload rate when create-hot did not run to measure one. */
const OVERLOAD_RATE = Number(process.env.BENCH_OVERLOAD_RATE ?? 2000);
const OVERLOAD_MAX_IN_FLIGHT = Number(process.env.BENCH_OVERLOAD_MAX_IN_FLIGHT ?? 4096);
const OPERATOR_TOKEN = `op_${randomBytes(16).toString('hex')}`;
const DIST = join(__dirname, '..');
const MEASURED: ClosedLoop = { connections: CONNECTIONS, seconds: SECONDS };
const WARM_UP: ClosedLoop = { connections: CONNECTIONS, seconds: WARM_UP_SECONDS };

async function main(): Promise<void> {
  const database = await createFreshDatabase(SERVER_URL, 'api_bench');
  // Ports the system gives as free: a random one in a fixed range can be a local service's (4369 is epmd).
  const [gatewayPort, barePort] = [await freePort(), await freePort()];
  // BENCH_GATEWAY_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the gateway under load.
  const nodeArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const image = imageGatewaySettings(DIST);
  const gateway = await startProcess('gateway', [...image.nodeFlags, ...nodeArgs, join(DIST, image.script)], {
    DATABASE_URL: database.url,
    PORT: String(gatewayPort),
    HOST: '127.0.0.1',
    OPERATOR_TOKEN,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    DEFAULT_MAX_PENDING_PER_CUSTOMER: '1000000',
    DEFAULT_MAX_OPEN_EXPOSURE: '100000000000.00',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATABASE_POOL_SIZE: '40',
    // As the image runs it (docker/Dockerfile), so the figures are the shipped configuration's.
    NODE_OPTIONS: image.nodeOptions,
    // e.g. PGOPTIONS="-c plan_cache_mode=force_generic_plan" to try server settings per session.
    ...(process.env.PGOPTIONS ? { PGOPTIONS: process.env.PGOPTIONS } : {}),
  });
  const bare = await startProcess('bare', [join(DIST, 'bench/bare-fastify-server.js'), String(barePort)], {});
  let wal: ServerWal | undefined;
  try {
    const serverWal = await ServerWal.open(SERVER_URL);
    wal = serverWal; // closed in finally, even when a later step fails
    await waitReady(`http://127.0.0.1:${gatewayPort}/health/ready`, gateway);
    const gatewayBase = `http://127.0.0.1:${gatewayPort}`;
    const tokens = await setUpAccounts(gatewayBase, OPERATOR_TOKEN, ACCOUNTS);
    // The one account of create-hot and overload, funded for every create they could make.
    const hotSeconds = (HOT ? ROUNDS * SECONDS : 0) + OVERLOAD_SECONDS;
    const hotAccount =
      hotSeconds > 0
        ? await setUpAccount(gatewayBase, OPERATOR_TOKEN, 'bench hot', hotAccountFunds(hotSeconds))
        : undefined;
    const hotToken = HOT ? hotAccount : undefined;
    await prepareServerWal(serverWal);
    const measures: Measure[] = [];
    const created: string[] = [];
    // Unmeasured: V8 compiles the hot paths during the first seconds under load, and a measured
    // round that includes them compares a half-compiled server with a compiled bare one.
    for (const target of WARM_UP_SECONDS > 0 ? (['gateway', 'bare'] as const) : []) {
      const base = `http://127.0.0.1:${target === 'gateway' ? gatewayPort : barePort}`;
      await runCreate(target, base, tokens, target === 'gateway' ? created : [], WARM_UP);
      await runGet(target, base, tokens, created, WARM_UP);
    }
    for (let round = 1; round <= ROUNDS; round += 1) {
      const roundStart = measures.length;
      for (const target of ['gateway', 'bare'] as const) {
        const base = `http://127.0.0.1:${target === 'gateway' ? gatewayPort : barePort}`;
        const pid = (target === 'gateway' ? gateway : bare).pid;
        measures.push(
          await withCosts(pid, serverWal, SECONDS, () =>
            runCreate(target, base, tokens, target === 'gateway' ? created : [], MEASURED),
          ),
        );
        measures.push(
          await withCosts(pid, serverWal, SECONDS, () => runGet(target, base, tokens, created, MEASURED)),
        );
      }
      if (hotToken !== undefined) {
        measures.push(
          await withCosts(gateway.pid, serverWal, SECONDS, () =>
            runCreate('gateway', gatewayBase, [hotToken], [], MEASURED, 'create-hot'),
          ),
        );
      }
      printTable(`round ${round}`, measures.slice(roundStart));
      await printWalReadyAhead(serverWal);
    }
    const summary = (['create', 'get'] as const).flatMap((scenario) =>
      (['gateway', 'bare'] as const).map((target) =>
        medianOf(measures.filter((m) => m.scenario === scenario && m.target === target)),
      ),
    );
    const hot =
      hotToken === undefined ? undefined : medianOf(measures.filter((m) => m.scenario === 'create-hot'));
    if (hot) summary.push(hot);
    printTable(`median of ${ROUNDS} round(s)`, summary);
    for (const scenario of ['create', 'get'] as const) {
      const g = summary.find((m) => m.scenario === scenario && m.target === 'gateway')!;
      const b = summary.find((m) => m.scenario === scenario && m.target === 'bare')!;
      process.stdout.write(
        `${scenario}: gateway at ${((100 * g.requestsPerSecond) / b.requestsPerSecond).toFixed(1)}% of bare Fastify\n`,
      );
    }
    if (hot) printHotGoal(hot);
    const overload =
      hotAccount !== undefined && OVERLOAD_SECONDS > 0
        ? await runOverload({
            host: '127.0.0.1',
            port: gatewayPort,
            token: hotAccount,
            gatewayPid: gateway.pid!,
            ratePerSecond: hot ? Math.round(2 * hot.requestsPerSecond) : OVERLOAD_RATE,
            rateSource: hot ? "2 × create-hot's median" : 'BENCH_OVERLOAD_RATE, create-hot skipped',
            seconds: OVERLOAD_SECONDS,
            maxInFlight: OVERLOAD_MAX_IN_FLIGHT,
          })
        : undefined;
    saveResults('api', {
      seconds: SECONDS,
      connections: CONNECTIONS,
      accounts: ACCOUNTS,
      measures,
      summary,
      overload,
    });
  } finally {
    gateway.kill('SIGTERM');
    bare.kill('SIGTERM');
    await Promise.all([exited(gateway), exited(bare)]);
    await wal?.close();
    await database.drop();
  }
}

/**
 * A run should measure the service, not the server making WAL files: see `ServerWal.ensureHeadroom`.
 * The rounds then print what is still ready ahead; once it reaches 0 the server makes a segment in
 * a commit again about once every 16 MB of WAL.
 */
async function prepareServerWal(wal: ServerWal): Promise<void> {
  try {
    const { readyBefore, filled, readyAfter } = await wal.ensureHeadroom();
    process.stdout.write(
      filled === 0
        ? `server WAL: ${mib(readyBefore)} MiB of segments ready ahead\n`
        : `server WAL: ${mib(readyBefore)} MiB of segments were ready ahead; wrote ${mib(filled)} MiB and checkpointed: ${mib(readyAfter)} MiB ready\n`,
    );
  } catch (error) {
    process.stdout.write(
      `server WAL: could not prepare segments ahead (${(error as Error).message}); a round may include making them\n`,
    );
  }
}

/** create-hot's figures beside its goal; the bench reports, it never fails a run on timing. */
function printHotGoal(hot: Measure): void {
  const met = hot.requestsPerSecond >= 1000 && hot.p99Ms < 50 && hot.non2xx === 0 && hot.errors === 0;
  process.stdout.write(
    `create-hot: ${hot.requestsPerSecond.toFixed(0)} creates/s, p99 ${hot.p99Ms.toFixed(1)} ms, ${hot.non2xx} non-2xx, ${hot.errors} errors  (goal: ≥ 1,000 creates/s, p99 < 50 ms) ${met ? '✓' : '✗'}\n`,
  );
}

async function printWalReadyAhead(wal: ServerWal): Promise<void> {
  const ready = await wal.readyAhead().catch(() => undefined);
  if (ready !== undefined)
    process.stdout.write(`server WAL: ${mib(ready)} MiB of segments still ready ahead\n`);
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
