import {
  AuditSetupError,
  formatDifference,
  MAX_REPLAY_BATCH_SIZE,
  REPLAY_BATCH_SIZE,
  ReplayPhase,
  replayReadModels,
  ReplayReport,
  replaySchemasPresent,
} from '@payouts/audit';
import { SqlClient, sqlStateOf } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { EXIT, ExitCode, Output, parseOptions, progressThrottle, UsageError, Verb } from '../cli';
import { openAuditDatabase, openAuditEventStore, openReplayScratch } from '../database';

const HELP = `replay [--batch-size N] [--keep]
    Rebuilds every read model (payouts, balances, balance transactions, settlements, checkout
    orders) from position zero into a fresh schema with the service's own projection code, and
    compares it row by row with the live tables at the same position of the log. Prints one line
    per difference on stdout, then a summary. Exit 0: no difference; 1: differences.
    Writes only its own scratch schemas (audit_replay_…), dropped at the end; --keep keeps them.
    On a server the login must be allowed to create a schema. --batch-size: events per batch
    (default ${REPLAY_BATCH_SIZE}, at most ${MAX_REPLAY_BATCH_SIZE}).`;

/** As verify: a count says how many when there are more than this. */
const MAX_PRINTED_DIFFERENCES = 10_000;

function batchSizeOf(raw: string | undefined): number {
  if (raw === undefined) return REPLAY_BATCH_SIZE;
  const size = /^[1-9][0-9]{0,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(size <= MAX_REPLAY_BATCH_SIZE)) {
    throw new UsageError(`--batch-size must be an integer from 1 to ${MAX_REPLAY_BATCH_SIZE}, not ${raw}`);
  }
  return size;
}

const PROGRESS: Record<ReplayPhase, (count: number, at: string) => string> = {
  copy: (count, at) => `replay: copying the live ${at}, ${count} rows`,
  'live-copy': (count, at) => `replay: live copy brought up to date by ${count} events, at position ${at}`,
  replay: (count, at) => `replay: ${count} events, at position ${at}`,
  compare: (count, at) => `replay: comparing ${at}, ${count} rows`,
};

async function replay(args: readonly string[], output: Output, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  const options = parseOptions(args, ['batch-size'], ['keep']);
  const batchSize = batchSizeOf(options.get('batch-size'));
  const keep = options.has('keep');
  const db = await openAuditDatabase(env);
  const store = openAuditEventStore(env, db);
  let scratch: SqlClient | undefined;
  // Ctrl-C stops between batches and drops the scratch schemas; a second one ends the process.
  const interrupted = new AbortController();
  const interrupt = () => interrupted.abort();
  process.once('SIGINT', interrupt).once('SIGTERM', interrupt);
  try {
    for (const schema of await replaySchemasPresent(db)) {
      output.progress(
        `audit replay: schema ${schema} is already there, left by a run that was stopped hard or another replay's still running; once none runs, drop it: DROP SCHEMA "${schema}" CASCADE`,
      );
    }
    scratch = await openReplayScratch(env, db);
    const progress = progressThrottle(output);
    const lines: Promise<void>[] = [];
    const report = await replayReadModels(db, {
      store,
      // On EventStoreDB the projections read streams there; on the database, in their scratch transaction.
      ...(store instanceof PostgresEventStore ? {} : { streamSource: store }),
      scratch,
      batchSize,
      keep,
      signal: interrupted.signal,
      onDifference: (difference) => {
        if (lines.length < MAX_PRINTED_DIFFERENCES) lines.push(output.line(formatDifference(difference)));
      },
      onProgress: (phase, count, at) => progress(() => PROGRESS[phase](count, at)),
    });
    await Promise.all(lines);
    output.progress(timings(report));
    await summarise(report, output);
    return report.differences === 0 ? EXIT.ok : EXIT.finding;
  } catch (error) {
    throw setupProblem(error) ?? error;
  } finally {
    process.off('SIGINT', interrupt).off('SIGTERM', interrupt);
    if (scratch !== undefined && scratch !== db) await scratch.close();
    await store.close?.();
    await db.close();
  }
}

async function summarise(report: ReplayReport, output: Output): Promise<void> {
  const { events, replayMs, rowsCompared, differences, liveCopyEvents, liveCheckpoint, end } = report;
  if (differences > MAX_PRINTED_DIFFERENCES) {
    await output.line(
      `info more_differences: ${differences - MAX_PRINTED_DIFFERENCES} difference(s) not printed`,
    );
  }
  if (report.kept) {
    await output.line(
      `info kept: replayed read models in schema ${report.schemas.replay}, the live copy in ${report.schemas.live}`,
    );
  }
  const perSecond = replayMs > 0 ? Math.round((events * 1000) / replayMs) : events;
  await output.line(
    `summary: ${events} events replayed in ${(replayMs / 1000).toFixed(1)} s (${perSecond} events/s) up to position ${end?.position ?? 'none'}; ` +
      `${rowsCompared} rows compared in ${report.tables} tables; ${differences} difference(s); ` +
      `${liveCopyEvents} event(s) after the projector's checkpoint (position ${liveCheckpoint.position}) applied to the live copy`,
  );
}

/** Where the run's time went, on the standard error: the summary's events/s is the rebuild's alone. */
function timings(report: ReplayReport): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const perSecond =
    report.elapsedMs > 0 ? Math.round((report.events * 1000) / report.elapsedMs) : report.events;
  return (
    `replay: pinning ${seconds(report.pinMs)}, copying the live tables ${seconds(report.copyMs)} and rebuilding ` +
    `${seconds(report.replayMs)} (side by side on a server), comparing ${seconds(report.compareMs)}; ` +
    `the whole run ${seconds(report.elapsedMs)} (${perSecond} events/s)`
  );
}

/** Errors that say the replay cannot run here (exit 2 with a plain message), not that it found something. */
function setupProblem(error: unknown): UsageError | undefined {
  if (error instanceof AuditSetupError) return new UsageError(error.message);
  if (error instanceof Error && error.name === 'AbortError') {
    return new UsageError('interrupted; the scratch schemas were dropped');
  }
  if (sqlStateOf(error) === '42501') {
    const reason = error instanceof Error ? error.message : String(error);
    return new UsageError(`${reason}: replay needs a login that may create a schema in this database`);
  }
  return undefined;
}

export const REPLAY_VERB: Verb = { name: 'replay', help: HELP, opensDatabase: false, run: replay };
