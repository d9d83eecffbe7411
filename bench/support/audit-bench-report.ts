import type { AuditCliRun } from './audit-cli-run';
import { countIn } from './audit-cli-run';
import { median } from './bench-numbers';

/**
 * The goals at 1M events: issue 32's for replay and memory; verify's since it became one pass on
 * one thread (docs/audit.md, "For engineers"): a million events in 30 s.
 */
export const GOALS = {
  replayEventsPerSecond: 30_000,
  verifySecondsPerMillionEvents: 30,
  /** 300 MB, in MiB as the table shows memory. */
  peakRssMib: 300e6 / 2 ** 20,
} as const;

/** One line of the table: a median over rounds. */
export interface Measured {
  what: string;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  peakRssMib: number | null;
  /** What the run found: verify's findings, replay's differences; null for the baselines. */
  found: number | null;
  note: string;
}

/** A raw baseline's rounds (seconds each) as one line. */
export function measuredBaseline(what: string, events: number, seconds: readonly number[]): Measured {
  const middle = median(seconds);
  return {
    what,
    events,
    seconds: middle,
    eventsPerSecond: events / middle,
    peakRssMib: null,
    found: null,
    note: '',
  };
}

/**
 * A verb's rounds as one line: the median wall time, the highest peak RSS of any round, and what
 * it found (from its summary line; the exit code says whether it ran at all).
 */
export function measuredVerb(
  what: string,
  events: number,
  runs: readonly AuditCliRun[],
  label: RegExp,
): Measured {
  const ran = runs.filter((run) => run.exitCode === 0 || run.exitCode === 1);
  if (ran.length === 0) {
    const last = runs[runs.length - 1];
    const why = last?.stderrTail.includes('not yet available')
      ? 'not available'
      : `could not run: ${last?.stderrTail}`;
    return {
      what,
      events,
      seconds: NaN,
      eventsPerSecond: NaN,
      peakRssMib: null,
      found: null,
      note: `${why} (exit ${last?.exitCode})`,
    };
  }
  const seconds = median(ran.map((run) => run.seconds));
  const counts = ran.map((run) => countIn(run.summary, label));
  const found = counts.some((count) => count === null) ? null : Math.max(...(counts as number[]));
  return {
    what,
    events,
    seconds,
    eventsPerSecond: events / seconds,
    peakRssMib: Math.max(...ran.map((run) => run.peakRssMib)),
    found,
    note: `exit ${ran.map((run) => run.exitCode).join('/')}`,
  };
}

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

/** The table of issue 32: what, events, seconds, events/s, ratios to the baselines, peak RSS. */
export function table(rows: readonly Measured[], baselineA: Measured, baselineB: Measured): string {
  const header = ['what', 'events', 'seconds', 'events/s', 'vs A', 'vs B', 'peak RSS MiB', 'found', 'note'];
  const body = rows.map((row) => [
    row.what,
    String(row.events),
    fixed(row.seconds, 2),
    fixed(row.eventsPerSecond),
    fixed(row.eventsPerSecond / baselineA.eventsPerSecond, 3),
    fixed(row.eventsPerSecond / baselineB.eventsPerSecond, 3),
    row.peakRssMib === null ? '-' : String(row.peakRssMib),
    row.found === null ? '-' : String(row.found),
    row.note,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...body.map((line) => line[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}

/** Each goal, met or not (a verb that did not run meets none of its own). */
export function goals(verify: Measured, replay: Measured): { goal: string; met: boolean; value: string }[] {
  const peak = Math.max(verify.peakRssMib ?? Infinity, replay.peakRssMib ?? Infinity);
  return [
    {
      goal: `replay >= ${GOALS.replayEventsPerSecond} events/s`,
      met: replay.eventsPerSecond >= GOALS.replayEventsPerSecond,
      value: fixed(replay.eventsPerSecond),
    },
    {
      goal: `verify <= ${GOALS.verifySecondsPerMillionEvents} s per 1,000,000 events`,
      met: verify.eventsPerSecond * GOALS.verifySecondsPerMillionEvents >= 1_000_000,
      value: `${fixed(1_000_000 / verify.eventsPerSecond, 2)} s (${fixed(verify.eventsPerSecond)} events/s)`,
    },
    {
      goal: 'peak RSS < 300 MB (286 MiB), verify and replay',
      met: peak < GOALS.peakRssMib,
      value: `${verify.peakRssMib ?? '-'} / ${replay.peakRssMib ?? '-'} MiB`,
    },
    {
      goal: 'replay: 0 differences',
      met: replay.found === 0,
      value: replay.found === null ? replay.note : String(replay.found),
    },
    {
      goal: 'verify: 0 findings',
      met: verify.found === 0,
      value: verify.found === null ? verify.note : String(verify.found),
    },
  ];
}
