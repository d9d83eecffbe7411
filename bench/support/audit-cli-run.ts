import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { peakRssMib } from './process-rss';

/** One run of the built audit CLI, as an auditor runs it, seen from outside. */
export interface AuditCliRun {
  verb: string;
  /** 0 all holds, 1 findings or differences, 2 could not run (docs/audit.md). */
  exitCode: number | null;
  /** Wall time of the child process, spawn to exit. */
  seconds: number;
  /** Highest resident set the child reached (VmHWM, sampled until it exits), MiB. */
  peakRssMib: number;
  /** The `summary:` line, if it printed one. */
  summary: string | null;
  /** Lines it printed on stdout other than the summary (findings, differences, information). */
  reportLines: number;
  /** The first few of them, to show why a run did not come out clean. */
  firstLines: string[];
  stderrTail: string;
}

/** How often the child's peak RSS is read: VmHWM keeps the high-water mark, so late reads lose nothing but the last interval. */
const SAMPLE_MS = 100;

/**
 * Spawns `node [nodeArgs] dist/tools/audit/main.js <verb>` on `databaseUrl` and waits for it; the
 * parent does nothing else meanwhile, so the child's time is its own and the database's.
 */
export function runAuditCli(
  dist: string,
  verb: string,
  databaseUrl: string,
  nodeArgs: readonly string[] = [],
): Promise<AuditCliRun> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [...nodeArgs, join(dist, 'tools', 'audit', 'main.js'), verb], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let peak = 0;
  const sample = () => (peak = Math.max(peak, peakRssMib(child.pid ?? 0) ?? 0));
  const timer = setInterval(sample, SAMPLE_MS);
  const lines: string[] = [];
  let summary: string | null = null;
  let reportLines = 0;
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (pending + chunk.toString()).split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) {
      if (line.startsWith('summary:')) summary = line;
      else if (line !== '') {
        reportLines += 1;
        if (lines.length < 10) lines.push(line);
      }
    }
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    // 'exit' comes before the pipes close; 'close' after both, with every line read.
    child.on('exit', () => sample());
    child.on('close', (code) => {
      clearInterval(timer);
      if (pending.startsWith('summary:')) summary = pending;
      resolve({
        verb,
        exitCode: code,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        peakRssMib: Math.round(peak),
        summary,
        reportLines,
        firstLines: lines,
        stderrTail: stderr.trim().split('\n').slice(-3).join('\n'),
      });
    });
  });
}

/** The count a summary line gives before `label` ("0 finding(s)", "3 difference(s)"); null without one. */
export function countIn(summary: string | null, label: RegExp): number | null {
  const match = summary === null ? null : new RegExp(`(\\d+) ${label.source}`).exec(summary);
  return match ? Number(match[1]) : null;
}
