import autocannon from 'autocannon';
import { cpuMsBetween, machineBusyMs, microsecondsPerRequest, processCpuMs, processesCpu } from './cpu-usage';
import { perRequest } from './per-request';
import { ServerWal } from './server-wal';

/** One closed-loop load's figures, and what a request cost. */
export interface Measure {
  target: 'gateway' | 'bare';
  scenario: 'create' | 'get' | 'create-hot' | 'create-order' | 'order-status';
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

export function toMeasure(
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

/**
 * Runs one load of `seconds` and adds what a request cost: CPU for the server process, the
 * database and the machine, and the database server's WAL bytes.
 */
export async function withCosts(
  pid: number | undefined,
  wal: ServerWal,
  seconds: number,
  run: () => Promise<Measure>,
): Promise<Measure> {
  const walBefore = await wal.position();
  const [serverBefore, databaseBefore, machineBefore] = [
    processCpuMs(pid),
    processesCpu('postgres'),
    machineBusyMs(),
  ];
  const measure = await run();
  const requests = measure.requestsPerSecond * seconds;
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

export function medianOf(measures: Measure[]): Measure {
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

export function printTable(title: string, measures: Measure[]): void {
  const figure = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(0)).padStart(10);
  process.stdout.write(
    `\n${title}\nscenario   target    req/s     p50 ms   p99 ms   non-2xx  errors  server µs  database µs  machine µs  WAL bytes\n`,
  );
  for (const m of measures) {
    process.stdout.write(
      `${m.scenario.padEnd(10)} ${m.target.padEnd(8)} ${m.requestsPerSecond.toFixed(0).padStart(7)} ${m.p50Ms.toFixed(1).padStart(9)} ${m.p99Ms.toFixed(1).padStart(8)} ${String(m.non2xx).padStart(8)} ${String(m.errors).padStart(7)}${figure(m.serverCpuUs)} ${figure(m.databaseCpuUs).padStart(12)} ${figure(m.machineCpuUs).padStart(11)}${figure(m.walBytes)}\n`,
    );
  }
}
