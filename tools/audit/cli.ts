import type { SqlClient } from '@payouts/database';
import type { EventStore } from '@payouts/event-store';

/** Exit codes scripts can rely on (docs/audit.md). */
export const EXIT = { ok: 0, finding: 1, cannotRun: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A bad command line or an environment the audit cannot run in: exit 2 with this message. */
export class UsageError extends Error {}

/** Where a verb writes: stdout for results, stderr for progress and problems. */
export interface Output {
  /** Resolves once the line is handed to the stream (waits when a slow reader fills the pipe). */
  line(text: string): Promise<void>;
  progress(text: string): void;
}

export const processOutput: Output = {
  line: (text) =>
    new Promise((resolve, reject) => {
      const flushed = process.stdout.write(`${text}\n`, (error) => (error ? reject(error) : undefined));
      if (flushed) resolve();
      else process.stdout.once('drain', resolve);
    }),
  progress: (text) => {
    process.stderr.write(`${text}\n`);
  },
};

/**
 * `--name value` and `--name=value` options after the verb, and `--flag` switches that take no
 * value (set to 'true'); anything else is a usage error.
 */
export function parseOptions(
  args: readonly string[],
  known: readonly string[],
  flags: readonly string[] = [],
): Map<string, string> {
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    const isFlag = match?.[1] !== undefined && flags.includes(match[1]);
    if (!match?.[1] || (!known.includes(match[1]) && !isFlag))
      throw new UsageError(`unknown argument ${arg}`);
    if (isFlag && match[2] !== undefined) throw new UsageError(`--${match[1]} takes no value`);
    const value = isFlag ? 'true' : (match[2] ?? args[(i += 1)]);
    if (value === undefined || value === '') throw new UsageError(`--${match[1]} needs a value`);
    if (options.has(match[1])) throw new UsageError(`--${match[1]} given twice`);
    options.set(match[1], value);
  }
  return options;
}

/** A global position: a positive decimal integer. */
export function parsePosition(name: string, raw: string): string {
  if (!/^[1-9][0-9]{0,18}$/.test(raw))
    throw new UsageError(`--${name} must be a positive integer, not ${raw}`);
  return raw;
}

/** Every `every_ms` at most, a progress line; the first after `every_ms`, so short runs stay quiet. */
export function progressThrottle(output: Output, every_ms = 2_000): (text: () => string) => void {
  let last = Date.now();
  return (text) => {
    const now = Date.now();
    if (now - last < every_ms) return;
    last = now;
    output.progress(text());
  };
}

/**
 * The service's database as a verb reads it: the events through the event store over it (the
 * only way to them), the audit's own tables (the chain's) with SQL.
 */
export interface AuditDatabase {
  db: SqlClient;
  store: EventStore;
}

/** One `npm run audit -- <verb>`: its help paragraph and what it does (one file per verb in verbs/). */
export type Verb = { name: string; help: string } & (
  | {
      opensDatabase: true;
      run(database: AuditDatabase, args: readonly string[], output: Output): Promise<ExitCode>;
    }
  | {
      /** A verb that needs no database (one not available yet) or opens its own (replay). */
      opensDatabase: false;
      /** `env` says where the database is, for a verb that opens its own. */
      run(args: readonly string[], output: Output, env: NodeJS.ProcessEnv): Promise<ExitCode>;
    }
);
