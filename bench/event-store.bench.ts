/**
 * Event store append throughput against raw INSERTs of the same rows, on a PostgreSQL server.
 *
 *   npm run bench:store            (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_EVENTS=20000 BENCH_ROUNDS=1 npm run bench:store
 *
 * Creates a fresh database next to the one in DATABASE_URL, migrates it, and per round measures:
 *   store single  one event per append (one transaction), 16 writers on their own streams, expected versions
 *   raw single    one autocommit single-row INSERT per event, 16 connections
 *   store batch   100 events per append, 16 writers
 *   raw batch     one 100-row multi-value INSERT per 100 events, 16 connections
 * The raw table has the events table's columns and defaults and a primary key, nothing else: the
 * difference is the price of the stream row (optimistic concurrency), the unique event id, the
 * unique stream version and the feed index.
 *
 * These machines are shared, so a store mode and its raw mode run interleaved in slices (store,
 * raw, raw, store, ...) and a round's ratio compares the two under the same background load. The
 * summary gives the median seconds of each mode and the median of the per-round ratios. The
 * database is dropped at the end.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import { migrate, PostgresSqlClient } from '@payouts/database';
import { ExpectedVersion, NewEvent, PostgresEventStore } from '@payouts/event-store';
import { median, positiveInt } from './support/bench-numbers';
import { createFreshDatabase } from './support/fresh-database';

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EVENTS = positiveInt(process.env.BENCH_EVENTS, 100_000);
const ROUNDS = positiveInt(process.env.BENCH_ROUNDS, 3);
const SLICES = positiveInt(process.env.BENCH_SLICES, 10);
const WRITERS = 16;
const BATCH = 100;
const STREAMS_PER_WRITER = 10;

type Mode = 'store single' | 'raw single' | 'store batch' | 'raw batch';
const PAIRS: [store: Mode, raw: Mode][] = [
  ['store single', 'raw single'],
  ['store batch', 'raw batch'],
];
const MODES: Mode[] = PAIRS.flat();

interface Measurement {
  mode: Mode;
  events: number;
  seconds: number;
  /** Raw seconds over store seconds in the same round: the store's throughput as a share of raw's (1 for raw). */
  ratioToRaw: number;
  /** CPU time of this (client) process per event; the server's share cannot be told apart here. */
  clientCpuUs: number;
}

async function main(): Promise<void> {
  if (EVENTS % (SLICES * BATCH) !== 0)
    throw new Error(`BENCH_EVENTS must be a multiple of ${SLICES * BATCH}`);
  const database = await createFreshDatabase(SERVER_URL, 'event_store_bench');
  const db = new PostgresSqlClient({
    connectionString: database.url,
    maxConnections: WRITERS,
    applicationName: 'bench-store',
  });
  const raw = new Pool({ connectionString: database.url, max: WRITERS, application_name: 'bench-raw' });
  try {
    await migrate(db);
    await db.exec(RAW_TABLE_SQL);
    const store = new PostgresEventStore(db);
    const server = await db.query<{ server_version: string }>('SHOW server_version');
    console.log(
      `PostgreSQL ${server.rows[0]?.server_version}: ${EVENTS} events per mode, ${WRITERS} writers, ` +
        `batches of ${BATCH}, ${ROUNDS} round(s) of ${SLICES} interleaved slices`,
    );

    const measurements: Measurement[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const results: Measurement[] = [];
      for (const pair of PAIRS) results.push(...(await measurePair(pair, db, store, raw)));
      printTable(`round ${round}`, results);
      measurements.push(...results);
    }

    const summary = MODES.map((mode) => {
      const of = measurements.filter((m) => m.mode === mode);
      return {
        mode,
        events: EVENTS,
        seconds: median(of.map((m) => m.seconds)),
        ratioToRaw: median(of.map((m) => m.ratioToRaw)),
        clientCpuUs: median(of.map((m) => m.clientCpuUs)),
      };
    });
    printTable(`median of ${ROUNDS} round(s)`, summary);
    saveResults({
      server: server.rows[0]?.server_version,
      events: EVENTS,
      writers: WRITERS,
      batch: BATCH,
      measurements,
      summary,
    });
  } finally {
    await raw.end();
    await db.close();
    await database.drop();
  }
}

/** Runs a store mode and its raw mode in alternating slices from empty tables. */
async function measurePair(
  pair: [Mode, Mode],
  db: PostgresSqlClient,
  store: PostgresEventStore,
  raw: Pool,
): Promise<Measurement[]> {
  await db.exec('TRUNCATE events, event_streams, raw_events');
  await db.exec('CHECKPOINT');
  const workloads = pair.map((mode) => new Workload(mode, store, raw));
  const seconds = [0, 0];
  const cpuUs = [0, 0];
  for (let slice = 0; slice < SLICES; slice += 1) {
    const order = slice % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const cpu = process.cpuUsage();
      const started = process.hrtime.bigint();
      await (workloads[i] as Workload).run(EVENTS / SLICES);
      seconds[i] = (seconds[i] as number) + Number(process.hrtime.bigint() - started) / 1e9;
      const used = process.cpuUsage(cpu);
      cpuUs[i] = (cpuUs[i] as number) + used.user + used.system;
    }
  }
  for (const mode of pair) await verify(mode, db);
  const [storeSeconds, rawSeconds] = seconds as [number, number];
  return pair.map((mode, i) => ({
    mode,
    events: EVENTS,
    seconds: seconds[i] as number,
    ratioToRaw: i === 0 ? rawSeconds / storeSeconds : 1,
    clientCpuUs: (cpuUs[i] as number) / EVENTS,
  }));
}

/** One mode's 16 writers; each keeps its streams and their versions from slice to slice. */
class Workload {
  private readonly writers = Array.from({ length: WRITERS }, () => ({
    appends: 0,
    versions: new Map<string, number>(),
  }));

  constructor(
    private readonly mode: Mode,
    private readonly store: PostgresEventStore,
    private readonly raw: Pool,
  ) {}

  async run(events: number): Promise<void> {
    const batched = this.mode.endsWith('batch');
    await Promise.all(
      this.writers.map(async (writer, index) => {
        const appends = share(batched ? events / BATCH : events, index);
        for (let n = 0; n < appends; n += 1) {
          const streamId = `bench-${index}-${writer.appends % STREAMS_PER_WRITER}`;
          const version = writer.versions.get(streamId) ?? 0;
          const size = batched ? BATCH : 1;
          const newEvents = Array.from({ length: size }, (_, j) =>
            newEvent(streamId, writer.appends * size + j),
          );
          writer.versions.set(streamId, await this.append(streamId, version, newEvents));
          writer.appends += 1;
        }
      }),
    );
  }

  /** Returns the stream's new version. */
  private async append(streamId: string, version: number, events: NewEvent[]): Promise<number> {
    if (this.mode.startsWith('store')) {
      const expectedVersion: ExpectedVersion = version === 0 ? 'no_stream' : version;
      const result = await this.store.append([{ streamId, streamType: 'payout', expectedVersion, events }]);
      return result.streams[0]?.version ?? 0;
    }
    const params = events.flatMap((event, j) => rawRow(event, streamId, version + j + 1));
    await this.raw.query(rawInsertSql(events.length), params);
    return version + events.length;
  }
}

/** Writer `writer`'s part of `total` units of work (the first ones take the remainder). */
function share(total: number, writer: number): number {
  return Math.floor(total / WRITERS) + (writer < total % WRITERS ? 1 : 0);
}

/** A payout-sized event: about 250 bytes of data and 120 of metadata. */
function newEvent(streamId: string, i: number): NewEvent {
  return {
    type: 'PayoutCreated',
    schemaVersion: 1,
    eventId: randomUUID(),
    data: {
      payoutId: streamId,
      accountId: 'acc_7Hq2LmN4pR8sT1vW',
      environment: 'production',
      amount: `${100 + (i % 900)}.25`,
      fee: '0.50',
      currency: 'EUR',
      merchantReference: `order-${i}`,
      customerId: `cus_${i % 1000}`,
      delivery: 'link',
    },
    metadata: { correlationId: randomUUID(), causationId: randomUUID(), actor: 'bench' },
  };
}

const RAW_COLUMNS =
  'event_id, stream_id, stream_type, stream_version, event_type, schema_version, data, metadata';
const RAW_TABLE_SQL = `CREATE TABLE raw_events (
  global_position  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id   xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id         uuid NOT NULL,
  stream_id        text NOT NULL,
  stream_type      text NOT NULL,
  stream_version   integer NOT NULL,
  event_type       text NOT NULL,
  schema_version   integer NOT NULL,
  data             jsonb NOT NULL,
  metadata         jsonb NOT NULL DEFAULT '{}'::jsonb,
  recorded_at      timestamptz NOT NULL DEFAULT now()
)`;

const rawSqlCache = new Map<number, string>();
function rawInsertSql(rows: number): string {
  let sql = rawSqlCache.get(rows);
  if (!sql) {
    const values = Array.from(
      { length: rows },
      (_, r) => `(${Array.from({ length: 8 }, (_, c) => `$${r * 8 + c + 1}`).join(', ')})`,
    );
    sql = `INSERT INTO raw_events (${RAW_COLUMNS}) VALUES ${values.join(', ')}`;
    rawSqlCache.set(rows, sql);
  }
  return sql;
}

function rawRow(event: NewEvent, streamId: string, version: number): unknown[] {
  return [
    event.eventId,
    streamId,
    'payout',
    version,
    event.type,
    event.schemaVersion,
    JSON.stringify(event.data),
    JSON.stringify(event.metadata ?? {}),
  ];
}

/** Every mode wrote exactly EVENTS rows, so no run is faster for having done less. */
async function verify(mode: Mode, db: PostgresSqlClient): Promise<void> {
  const table = mode.startsWith('raw') ? 'raw_events' : 'events';
  const { rows } = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`);
  if (Number(rows[0]?.n) !== EVENTS) throw new Error(`${mode} wrote ${rows[0]?.n} rows, expected ${EVENTS}`);
}

function printTable(title: string, results: Measurement[]): void {
  const row = (cells: string[]): string =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(12) : cell.padStart([8, 8, 9, 12, 15][i - 1] ?? 8)))
      .join('  ');
  console.log(`\n${title}`);
  console.log(row(['mode', 'events', 'seconds', 'events/s', 'ratio to raw', 'client µs/event']));
  for (const m of results) {
    console.log(
      row([
        m.mode,
        String(m.events),
        m.seconds.toFixed(2),
        String(Math.round(m.events / m.seconds)),
        `${(m.ratioToRaw * 100).toFixed(0)}%`,
        m.clientCpuUs.toFixed(0),
      ]),
    );
  }
}

function saveResults(results: unknown): void {
  const dir = join(process.cwd(), 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `event-store-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nresults saved to ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
