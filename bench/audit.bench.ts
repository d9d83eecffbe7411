/**
 * The finance audit at scale (issue 32, "Scale and speed"), on a PostgreSQL server: a log of
 * BENCH_AUDIT_EVENTS events (1,000,000) across BENCH_AUDIT_ACCOUNTS accounts (1,000), made by the
 * domain's own deciders (bench/support/audit-log), chained by the chain keeper and projected into
 * the read models; then, each round, in this order:
 *   A       a plain read of the whole log in feed order (keyset pages of verify's size, rows parsed)
 *   B       the same read, each page upserted into a scratch table (INSERT … ON CONFLICT DO UPDATE)
 *   verify  `node dist/tools/audit/main.js verify`, spawned as an auditor runs it
 *   replay  `node dist/tools/audit/main.js replay`, likewise
 * Medians of BENCH_ROUNDS rounds (3); events/s = events in the log / wall seconds; the verbs'
 * peak RSS (VmHWM) sampled from outside; findings and differences from their summary lines.
 *
 *   npm run bench:audit      (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_AUDIT_EVENTS=50000 BENCH_ROUNDS=1 npm run bench:audit
 *
 * BENCH_KEEP=1 keeps the database (its URL is printed) and BENCH_AUDIT_DATABASE_URL=<that URL>
 * measures it again without building a log; BENCH_AUDIT_NODE_ARGS (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`) is passed to the verbs' node; BENCH_AUDIT_PROJECTOR_BATCH
 * (5000) is the read-model projection's batch.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { AUDIT_BATCH_SIZE } from '@payouts/audit';
import { migrate, PostgresSqlClient } from '@payouts/database';
import { buildAuditLog } from './support/audit-log/build-audit-log';
import { chainWholeLog, projectWholeLog } from './support/audit-log/live-state';
import { AuditCliRun, runAuditCli } from './support/audit-cli-run';
import { goals, Measured, measuredBaseline, measuredVerb, table } from './support/audit-bench-report';
import { selectWholeLog, upsertWholeLog } from './support/audit-raw-baselines';
import { positiveInt } from './support/bench-numbers';
import { createFreshDatabase } from './support/fresh-database';
import { saveResults } from './support/save-results';

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EVENTS = positiveInt(process.env.BENCH_AUDIT_EVENTS, 1_000_000);
const ACCOUNTS = positiveInt(process.env.BENCH_AUDIT_ACCOUNTS, 1_000);
const ROUNDS = positiveInt(process.env.BENCH_ROUNDS, 3);
const PROJECTOR_BATCH = positiveInt(process.env.BENCH_AUDIT_PROJECTOR_BATCH, 5_000);
const NODE_ARGS = (process.env.BENCH_AUDIT_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
const KEEP = process.env.BENCH_KEEP === '1';
/** A database an earlier run kept (BENCH_KEEP=1): measure its log again without building one. */
const REUSE = process.env.BENCH_AUDIT_DATABASE_URL;
const DIST = join(__dirname, '..');

const say = (text: string) => process.stdout.write(`${text}\n`);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const started = process.hrtime.bigint();
  const result = await work();
  return { result, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

interface Prepared {
  events: number;
  /** What it took to make the log and its live state; null on a database kept from an earlier run. */
  preparation: Record<string, unknown> | null;
}

/** The log, its chain and its read models, on a fresh migrated database, each step timed. */
async function prepare(db: PostgresSqlClient): Promise<Prepared> {
  await migrate(db);
  const built = await buildAuditLog(db, {
    events: EVENTS,
    accounts: ACCOUNTS,
    onProgress: (events) => process.stderr.write(`built ${events} events\n`),
  });
  say(
    `log: ${built.events} events in ${built.appends} appends (${built.from} to ${built.to}), built in ${built.seconds.toFixed(1)} s (${Math.round(built.events / built.seconds)} events/s)`,
  );
  say(`  by type: ${JSON.stringify(built.types)}`);
  say(
    `  refused (nothing written): ${JSON.stringify(built.refused)}; actions: ${JSON.stringify(built.actions)}`,
  );
  const chain = await chainWholeLog(db);
  say(
    `chain keeper: ${chain.events} events linked in ${chain.seconds.toFixed(1)} s (${chain.eventsPerSecond} events/s)`,
  );
  const projection = await projectWholeLog(db, PROJECTOR_BATCH);
  say(
    `read models: ${projection.events} events projected in ${projection.seconds.toFixed(1)} s (${projection.eventsPerSecond} events/s, batches of ${PROJECTOR_BATCH})`,
  );
  const vacuum = await timed(() => db.exec('VACUUM ANALYZE'));
  say(`VACUUM ANALYZE: ${vacuum.seconds.toFixed(1)} s (as autovacuum would leave a loaded database)`);
  return {
    events: built.events,
    preparation: {
      build: built,
      chainKeeper: chain,
      projection: { ...projection, batchSize: PROJECTOR_BATCH },
      vacuumSeconds: vacuum.seconds,
    },
  };
}

/** A database a run with BENCH_KEEP=1 left: its log is measured again as it is. */
async function reused(db: PostgresSqlClient): Promise<Prepared> {
  const { rows } = await db.query<{ events: string }>('SELECT count(*)::text AS events FROM events');
  say(`log: ${rows[0]!.events} events, kept from an earlier run`);
  return { events: Number(rows[0]!.events), preparation: null };
}

/** The rounds, in issue 32's order each time: A, B, verify, replay. */
async function measure(db: PostgresSqlClient, url: string, { events, preparation }: Prepared): Promise<void> {
  const [selects, upserts, verifies, replays]: [number[], number[], AuditCliRun[], AuditCliRun[]] = [
    [],
    [],
    [],
    [],
  ];
  const loads: string[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    loads.push(load());
    const read = await timed(() => selectWholeLog(db, AUDIT_BATCH_SIZE));
    if (read.result !== events) throw new Error(`baseline A read ${read.result} of ${events} events`);
    selects.push(read.seconds);
    upserts.push((await timed(() => upsertWholeLog(db, AUDIT_BATCH_SIZE))).seconds);
    verifies.push(await runAuditCli(DIST, 'verify', url, NODE_ARGS));
    // A verb this build does not have answers at once: one try is enough.
    if (round === 1 || replays.some((run) => run.exitCode !== 2))
      replays.push(await runAuditCli(DIST, 'replay', url, NODE_ARGS));
    const last = (runs: AuditCliRun[]) => runs[runs.length - 1];
    say(
      `round ${round} (load ${loads[loads.length - 1]}): A ${selects[round - 1]!.toFixed(2)} s, B ${upserts[round - 1]!.toFixed(2)} s, verify ${describe(last(verifies))}, replay ${describe(last(replays))}`,
    );
  }
  const baselineA = measuredBaseline('A: SELECT whole log', events, selects);
  const baselineB = measuredBaseline('B: upsert whole log', events, upserts);
  const verify = measuredVerb('verify (CLI)', events, verifies, /finding/);
  const replay = measuredVerb('replay (CLI)', events, replays, /difference/);
  const rows: Measured[] = [baselineA, baselineB, verify, replay];
  say('');
  say(table(rows, baselineA, baselineB));
  say('');
  const met = goals(verify, replay);
  for (const goal of met) say(`${goal.met ? 'met    ' : 'NOT MET'}  ${goal.goal}: ${goal.value}`);
  say(`load average at the end ${load()} (2 cores; rounds began at ${loads.join(', ')})`);
  saveResults('audit', {
    events,
    accounts: ACCOUNTS,
    rounds: ROUNDS,
    preparation,
    measured: rows,
    runs: { verify: verifies, replay: replays, selectSeconds: selects, upsertSeconds: upserts },
    goals: met,
    loadAverages: loads,
  });
}

async function main(): Promise<void> {
  say(
    `bench:audit: ${REUSE ? 'a kept log' : `${EVENTS} events, ${ACCOUNTS} accounts`}, ${ROUNDS} round(s); load average ${load()}`,
  );
  const database = REUSE
    ? { url: REUSE, drop: () => Promise.resolve() }
    : await createFreshDatabase(SERVER_URL, 'audit_bench');
  const db = new PostgresSqlClient({ connectionString: database.url, maxConnections: 4 });
  try {
    await measure(db, database.url, REUSE ? await reused(db) : await prepare(db));
  } finally {
    await db.close();
    if (KEEP || REUSE) say(`kept the database: ${database.url}`);
    else await database.drop();
  }
}

function describe(run: AuditCliRun | undefined): string {
  if (run === undefined) return 'not run';
  return `${run.seconds.toFixed(2)} s, exit ${run.exitCode}, ${run.peakRssMib} MiB${run.summary ? '' : ` (${run.stderrTail || 'no summary'})`}`;
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
