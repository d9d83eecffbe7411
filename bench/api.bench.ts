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
 * then in measured rounds that alternate gateway and bare; the summary gives medians. Everything
 * runs on this machine (loopback only) and stops by itself.
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
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  cpuMsBetween,
  machineBusyMs,
  microsecondsPerRequest,
  processCpuMs,
  processesCpu,
} from './support/cpu-usage';
import { createFreshDatabase } from './support/fresh-database';
import { perRequest } from './support/per-request';
import { MIB, ServerWal } from './support/server-wal';

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const OPERATOR_TOKEN = `op_${randomBytes(16).toString('hex')}`;
const DIST = join(__dirname, '..');

interface Measure {
  target: 'gateway' | 'bare';
  scenario: 'create' | 'get';
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /**
   * CPU µs per request: the server process alone, the local PostgreSQL server's processes, and the
   * whole machine (server, database, load generator, kernel).
   */
  serverCpuUs?: number;
  databaseCpuUs?: number;
  machineCpuUs?: number;
  /** Bytes of the database server's write-ahead log per request. */
  walBytes?: number;
}

async function main(): Promise<void> {
  const database = await createFreshDatabase(SERVER_URL, 'api_bench');
  // Ports the system gives as free: a random one in a fixed range can be a local service's (4369 is epmd).
  const [gatewayPort, barePort] = [await freePort(), await freePort()];
  // BENCH_GATEWAY_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the gateway under load.
  const nodeArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const image = imageGatewaySettings();
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
    const tokens = await setUpAccounts(`http://127.0.0.1:${gatewayPort}`);
    await prepareServerWal(serverWal);
    const measures: Measure[] = [];
    const created: string[] = [];
    // Unmeasured: V8 compiles the hot paths during the first seconds under load, and a measured
    // round that includes them compares a half-compiled server with a compiled bare one.
    for (const target of WARM_UP_SECONDS > 0 ? (['gateway', 'bare'] as const) : []) {
      const base = `http://127.0.0.1:${target === 'gateway' ? gatewayPort : barePort}`;
      await runCreate(target, base, tokens, target === 'gateway' ? created : [], WARM_UP_SECONDS);
      await runGet(target, base, tokens, created, WARM_UP_SECONDS);
    }
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const target of ['gateway', 'bare'] as const) {
        const base = `http://127.0.0.1:${target === 'gateway' ? gatewayPort : barePort}`;
        const pid = (target === 'gateway' ? gateway : bare).pid;
        measures.push(
          await withCosts(pid, serverWal, () =>
            runCreate(target, base, tokens, target === 'gateway' ? created : []),
          ),
        );
        measures.push(await withCosts(pid, serverWal, () => runGet(target, base, tokens, created)));
      }
      printTable(`round ${round}`, measures.slice(-4));
      await printWalReadyAhead(serverWal);
    }
    const summary = (['create', 'get'] as const).flatMap((scenario) =>
      (['gateway', 'bare'] as const).map((target) =>
        medianOf(measures.filter((m) => m.scenario === scenario && m.target === target)),
      ),
    );
    printTable(`median of ${ROUNDS} round(s)`, summary);
    for (const scenario of ['create', 'get'] as const) {
      const g = summary.find((m) => m.scenario === scenario && m.target === 'gateway')!;
      const b = summary.find((m) => m.scenario === scenario && m.target === 'bare')!;
      process.stdout.write(
        `${scenario}: gateway at ${((100 * g.requestsPerSecond) / b.requestsPerSecond).toFixed(1)}% of bare Fastify\n`,
      );
    }
    const dir = join(process.cwd(), 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `api-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        { seconds: SECONDS, connections: CONNECTIONS, accounts: ACCOUNTS, measures, summary },
        null,
        2,
      ),
    );
    process.stdout.write(`results saved to ${file}\n`);
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

async function printWalReadyAhead(wal: ServerWal): Promise<void> {
  const ready = await wal.readyAhead().catch(() => undefined);
  if (ready !== undefined)
    process.stdout.write(`server WAL: ${mib(ready)} MiB of segments still ready ahead\n`);
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(0);
}

async function setUpAccounts(base: string): Promise<string[]> {
  const json = async (method: string, path: string, token: string, body: unknown) => {
    const response = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, string>>;
  };
  const tokens: string[] = [];
  for (let i = 0; i < ACCOUNTS; i += 1) {
    const account = await json('POST', '/operator/accounts', OPERATOR_TOKEN, {
      name: `bench ${i}`,
      region: 'US',
    });
    const id = account.account_id!;
    await json('POST', `/operator/accounts/${id}/payouts-approval`, OPERATOR_TOKEN, { approved: true });
    await json('POST', `/operator/accounts/${id}/funds`, OPERATOR_TOKEN, {
      environment: 'sandbox',
      amount: '100000000.00',
    });
    await json('PUT', '/dashboard/payouts-enabled', account.admin_token!, {
      environment: 'sandbox',
      enabled: true,
    });
    const credential = await json('POST', '/dashboard/credentials', account.admin_token!, {
      kind: 'payout',
      environment: 'sandbox',
    });
    tokens.push(credential.token!);
  }
  return tokens;
}

async function runCreate(
  target: Measure['target'],
  base: string,
  tokens: string[],
  created: string[],
  seconds = SECONDS,
): Promise<Measure> {
  let next = 0;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/sandbox/api/payout/create',
        // Each connection sends one request at a time, so its context carries the token of the
        // request whose answer arrives next: that is how the get run knows each payout's owner.
        setupRequest: (request, context) => {
          const i = (next += 1);
          const reference = `bench-${randomUUID()}`;
          const token = tokens[i % tokens.length]!;
          (context as { token?: string }).token = token;
          return {
            ...request,
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${token}`,
              'idempotency-key': reference,
            },
            body: JSON.stringify({
              amount: '1.00',
              merchant_reference: reference,
              delivery: 'link',
              customer_email: `${reference}@example.com`,
            }),
          };
        },
        onResponse: (status, body, context) => {
          if (status !== 201 || created.length >= 50_000) return;
          const id = (JSON.parse(body) as { payout_id: string }).payout_id;
          created.push(id);
          owners.set(id, (context as { token?: string }).token ?? tokens[0]!);
        },
      },
    ],
  });
  return toMeasure(target, 'create', result);
}

async function runGet(
  target: Measure['target'],
  base: string,
  tokens: string[],
  created: string[],
  seconds = SECONDS,
): Promise<Measure> {
  let next = 0;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const i = (next += 1) % Math.max(1, created.length);
          return {
            ...request,
            path: `/sandbox/api/payout/${created[i] ?? 'po_000000000000000000000000'}`,
            headers: { authorization: `Bearer ${owners.get(created[i] ?? '') ?? tokens[0]!}` },
          };
        },
      },
    ],
  });
  return toMeasure(target, 'get', result);
}

/**
 * Runs one load and adds what a request cost: CPU for the server process, the database and the
 * machine, and the database server's WAL bytes.
 */
async function withCosts(
  pid: number | undefined,
  wal: ServerWal,
  run: () => Promise<Measure>,
): Promise<Measure> {
  const walBefore = await wal.position();
  const [serverBefore, databaseBefore, machineBefore] = [
    processCpuMs(pid),
    processesCpu('postgres'),
    machineBusyMs(),
  ];
  const measure = await run();
  const requests = measure.requestsPerSecond * SECONDS;
  const walAfter = await wal.position();
  return {
    ...measure,
    serverCpuUs: microsecondsPerRequest(serverBefore, processCpuMs(pid), requests),
    databaseCpuUs: microsecondsPerRequest(
      0,
      cpuMsBetween(databaseBefore, processesCpu('postgres')),
      requests,
    ),
    machineCpuUs: microsecondsPerRequest(machineBefore, machineBusyMs(), requests),
    walBytes: perRequest(walBefore, walAfter, requests),
  };
}

/** payout id → the token of the account that created it. */
const owners = new Map<string, string>();

function toMeasure(
  target: Measure['target'],
  scenario: Measure['scenario'],
  result: autocannon.Result,
): Measure {
  return {
    target,
    scenario,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

function medianOf(measures: Measure[]): Measure {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const first = measures[0]!;
  return {
    target: first.target,
    scenario: first.scenario,
    requestsPerSecond: median(measures.map((m) => m.requestsPerSecond)),
    p50Ms: median(measures.map((m) => m.p50Ms)),
    p99Ms: median(measures.map((m) => m.p99Ms)),
    non2xx: measures.reduce((sum, m) => sum + m.non2xx, 0),
    errors: measures.reduce((sum, m) => sum + m.errors, 0),
    serverCpuUs: medianOrUndefined(measures.map((m) => m.serverCpuUs)),
    databaseCpuUs: medianOrUndefined(measures.map((m) => m.databaseCpuUs)),
    machineCpuUs: medianOrUndefined(measures.map((m) => m.machineCpuUs)),
    walBytes: medianOrUndefined(measures.map((m) => m.walBytes)),
  };
}

function medianOrUndefined(values: (number | undefined)[]): number | undefined {
  const known = values.filter((value): value is number => value !== undefined).sort((a, b) => a - b);
  return known[Math.floor(known.length / 2)];
}

function printTable(title: string, measures: Measure[]): void {
  const figure = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(0)).padStart(10);
  process.stdout.write(
    `\n${title}\nscenario  target    req/s     p50 ms   p99 ms   non-2xx  errors  server µs  database µs  machine µs  WAL bytes\n`,
  );
  for (const m of measures) {
    process.stdout.write(
      `${m.scenario.padEnd(9)} ${m.target.padEnd(8)} ${m.requestsPerSecond.toFixed(0).padStart(7)} ${m.p50Ms.toFixed(1).padStart(9)} ${m.p99Ms.toFixed(1).padStart(8)} ${String(m.non2xx).padStart(8)} ${String(m.errors).padStart(7)}${figure(m.serverCpuUs)} ${figure(m.databaseCpuUs).padStart(12)} ${figure(m.machineCpuUs).padStart(11)}${figure(m.walBytes)}\n`,
    );
  }
}

function startProcess(name: string, args: string[], env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
  child.stdout?.resume();
  return Promise.resolve(child);
}

/**
 * How the image runs the gateway: the NODE_OPTIONS it gives every app, and the node flags and
 * script of its CMD (flags NODE_OPTIONS refuses, such as --initial-old-space-size, go there).
 */
function imageGatewaySettings(): { nodeOptions: string; nodeFlags: string[]; script: string } {
  const dockerfile = readFileSync(join(DIST, '..', 'docker', 'Dockerfile'), 'utf8');
  const nodeOptions = /^ENV NODE_OPTIONS="([^"]*)"$/m.exec(dockerfile)?.[1];
  if (nodeOptions === undefined) throw new Error('docker/Dockerfile sets no NODE_OPTIONS');
  const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
  const words = cmd === undefined ? [] : (JSON.parse(cmd) as string[]);
  if (words[0] !== 'node' || !words.at(-1)?.endsWith('api-gateway/src/main.js')) {
    throw new Error('docker/Dockerfile has no CMD ["node", ...flags, "dist/apps/api-gateway/src/main.js"]');
  }
  // The image's paths are under /app/dist; here the same files are under DIST.
  return { nodeOptions, nodeFlags: words.slice(1, -1), script: words.at(-1)!.replace(/^dist\//, '') };
}

/** A port nothing listens on now: the system's pick for port 0, released at once. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    if (child.exitCode !== null)
      throw new Error(`the server exited (${child.exitCode}) before ${url} was ready`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} not ready after 60 s`);
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
