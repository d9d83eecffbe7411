/**
 * What the audit's hash chain (tamper evidence, docs/audit.md) costs Create Payout, on a
 * PostgreSQL server: the built api-gateway run as the image runs it (as bench:api does),
 * closed-loop creates over BENCH_ACCOUNTS accounts, beside the projector's feed work in its own
 * process (as in the projector's container), with the chain (CHAIN=on: linked in the projector's
 * batches, as apps/projector does) and without it (the projector as it was before the chain).
 *
 *   npm run bench:chain      (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_SECONDS=10 BENCH_ROUNDS=3 BENCH_CONNECTIONS=32 BENCH_ACCOUNTS=40 npm run bench:chain
 *
 * Rounds run in pairs, off then on, then on then off, ..., so both sides of a pair see the same
 * background load; the summary gives the median of the pairs' ratios of creates/s (on / off). The
 * projector is started, then waited for until it has projected (and, on, linked) everything so
 * far, before its round.
 */
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PostgresSqlClient } from '@payouts/database';
import { ClosedLoop, runCreate } from './support/api-scenarios';
import { setUpAccounts } from './support/bench-accounts';
import { createFreshDatabase } from './support/fresh-database';
import { saveResults } from './support/save-results';
import { exited, freePort, imageGatewaySettings, startProcess, waitReady } from './support/server-processes';

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 40);
const OPERATOR_TOKEN = `op_${randomBytes(16).toString('hex')}`;
const DIST = join(__dirname, '..');
const LOAD: ClosedLoop = { connections: CONNECTIONS, seconds: SECONDS };

interface Round {
  keeper: 'off' | 'on';
  createsPerSecond: number;
  p50_ms: number;
  p99_ms: number;
  /** CPU the projector's process used per create (three events each). */
  projectorCpuUs: number;
}

/** user + system CPU of a process so far, in microseconds (Linux /proc; clock ticks of 10 ms). */
function processCpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function round(
  base: string,
  tokens: string[],
  keeper: 'off' | 'on',
  projector: ChildProcess,
): Promise<Round> {
  const before = projector.pid ? processCpuUs(projector.pid) : 0;
  const measure = await runCreate('gateway', base, tokens, [], LOAD);
  const projectorCpu = projector.pid ? processCpuUs(projector.pid) - before : 0;
  const creates = Math.max(1, measure.requestsPerSecond * SECONDS);
  if (measure.non2xx > 0 || measure.errors > 0)
    throw new Error(`refused creates: ${JSON.stringify(measure)}`);
  return {
    keeper,
    createsPerSecond: Math.round(measure.requestsPerSecond),
    p50_ms: measure.p50Ms,
    p99_ms: measure.p99Ms,
    projectorCpuUs: Math.round(projectorCpu / creates),
  };
}

/** Starts the projector and waits until it has caught up: it then follows a live feed. */
async function startProjector(
  url: string,
  db: PostgresSqlClient,
  chain: 'off' | 'on',
): Promise<ChildProcess> {
  const projector = await startProcess('projector', [join(__dirname, 'support', 'chain-keeper-process.js')], {
    DATABASE_URL: url,
    CHAIN: chain,
  });
  for (;;) {
    const { rows } = await db.query<{ unprojected: string; unlinked: string }>(
      `SELECT (SELECT count(*) FROM events e
                WHERE NOT EXISTS (SELECT 1 FROM subscription_checkpoints c
                                   WHERE c.subscription_id = 'read-models'
                                     AND (c.last_transaction_id, c.last_position) >= (e.transaction_id, e.global_position)))::text AS unprojected,
              ((SELECT count(*) FROM events) - (SELECT count(*) FROM event_chain))::text AS unlinked`,
    );
    const row = rows[0];
    if (row && row.unprojected === '0' && (chain === 'off' || row.unlinked === '0')) return projector;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  const database = await createFreshDatabase(SERVER_URL, 'chain_bench');
  const port = await freePort();
  const image = imageGatewaySettings(DIST);
  const gateway = await startProcess('gateway', [...image.nodeFlags, join(DIST, image.script)], {
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    OPERATOR_TOKEN,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    DEFAULT_MAX_PENDING_PER_CUSTOMER: '1000000',
    DEFAULT_MAX_OPEN_EXPOSURE: '100000000000.00',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATABASE_POOL_SIZE: '40',
    NODE_OPTIONS: image.nodeOptions,
  });
  const db = new PostgresSqlClient({ connectionString: database.url, maxConnections: 2 });
  const rounds: Round[] = [];
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/health/ready`, gateway);
    const tokens = await setUpAccounts(base, OPERATOR_TOKEN, ACCOUNTS);
    await runCreate('gateway', base, tokens, [], { connections: CONNECTIONS, seconds: 5 }); // warm-up
    for (let pair = 0; pair < ROUNDS; pair += 1) {
      for (const mode of pair % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const projector = await startProjector(database.url, db, mode);
        const measured = await round(base, tokens, mode, projector);
        projector.kill('SIGTERM');
        await exited(projector);
        rounds.push(measured);
        process.stdout.write(`${JSON.stringify(measured)}\n`);
      }
    }
  } finally {
    await db.close();
    gateway.kill('SIGTERM');
    await exited(gateway);
    await database.drop();
  }
  const ratios = Array.from({ length: ROUNDS }, (_, pair) => {
    const [a, b] = [rounds[2 * pair]!, rounds[2 * pair + 1]!];
    const [on, off] = a.keeper === 'on' ? [a, b] : [b, a];
    return Number((on.createsPerSecond / off.createsPerSecond).toFixed(3));
  });
  const median = [...ratios].sort((x, y) => x - y)[Math.floor(ratios.length / 2)] ?? 0;
  process.stdout.write(
    `creates/s with the chain / without (both beside the projector), per pair: ${ratios.join(', ')}; median ${median}\n`,
  );
  saveResults('chain-keeper', { seconds: SECONDS, connections: CONNECTIONS, rounds, ratios, median });
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
