import { readdirSync, readFileSync } from 'node:fs';

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

/**
 * CPU milliseconds used so far by every process named `name` (a local PostgreSQL server's
 * postmaster and backends are all `postgres`). A process that exits in between takes its time
 * with it, so measure over a window in which the pool keeps its connections.
 */
export function processesCpuMs(name: string): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  let total = 0;
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name) total += processCpuMs(Number(pid)) ?? 0;
    } catch {
      // exited meanwhile
    }
  }
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
  if (before === undefined || after === undefined || requests <= 0) return undefined;
  // A process that exited in the window (an autovacuum worker, say) can make a sum go down.
  return Math.max(0, ((after - before) * 1000) / requests);
}
