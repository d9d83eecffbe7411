import { readdirSync, readFileSync } from 'node:fs';
import { perRequest } from './per-request';

/**
 * CPU time from Linux's /proc, to print beside throughput: on a machine whose cores the server,
 * the database and the load generator share, requests per second alone cannot say which of them
 * the time went to. Both readers answer undefined where /proc is missing.
 */
const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux architecture we deploy to

/** User + system CPU milliseconds a process has used so far. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name, which may itself hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** CPU milliseconds used so far by each process named `name`, by pid. */
export type ProcessesCpu = Map<number, number>;

/**
 * A snapshot of every process named `name` (a local PostgreSQL server's postmaster and backends
 * are all `postgres`). Compare two with `cpuMsBetween`: a plain sum would go down when a backend
 * exits in between (the pool closes idle connections), hiding the time the others spent.
 */
export function processesCpu(name: string): ProcessesCpu | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  const snapshot: ProcessesCpu = new Map();
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== name) continue;
      const ms = processCpuMs(Number(pid));
      if (ms !== undefined) snapshot.set(Number(pid), ms);
    } catch {
      // exited meanwhile
    }
  }
  return snapshot;
}

/**
 * CPU milliseconds the processes spent between two snapshots: each one's growth, and all of a
 * process that started in between. A process that exited in between is missing from `after` and
 * its last moments are not counted, so the figure is a slight underestimate, never a negative.
 */
export function cpuMsBetween(
  before: ProcessesCpu | undefined,
  after: ProcessesCpu | undefined,
): number | undefined {
  if (before === undefined || after === undefined) return undefined;
  let total = 0;
  for (const [pid, ms] of after) total += Math.max(0, ms - (before.get(pid) ?? 0));
  return total;
}

/** CPU milliseconds the whole machine has spent busy (every core, every process) so far. */
export function machineBusyMs(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [, ...values] = line.trim().split(/\s+/);
    const ticks = values.map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user): all but
    // idle and iowait is busy.
    const busy = ticks.slice(0, 8).reduce((sum, value, i) => (i === 3 || i === 4 ? sum : sum + value), 0);
    return (busy * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** CPU microseconds per request between two readings, or undefined when either is missing. */
export function microsecondsPerRequest(
  before: number | undefined,
  after: number | undefined,
  requests: number,
): number | undefined {
  const ms = perRequest(before, after, requests);
  return ms === undefined ? undefined : ms * 1000;
}
