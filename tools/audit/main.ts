import { setFlagsFromString } from 'node:v8';
import { EXIT, ExitCode, Output, processOutput, UsageError, Verb } from './cli';
import { openAuditDatabase, openAuditEventStore } from './database';
import { EXPORT_VERB } from './verbs/export';
import { REPLAY_VERB } from './verbs/replay';
import { STATEMENT_VERB } from './verbs/statement';
import { VERIFY_VERB } from './verbs/verify';

const VERBS: readonly Verb[] = [VERIFY_VERB, EXPORT_VERB, REPLAY_VERB, STATEMENT_VERB];

export const USAGE = `Finance audit by replay (docs/audit.md). Reads the service's tables and never writes them
(replay writes only its own scratch schemas, dropped at the end).

Usage: npm run audit -- <verb> [options]
       node dist/tools/audit/main.js <verb> [options]

The database is the service's: DATABASE_URL (a PostgreSQL server), else the embedded database
under DATA_DIR (default ./.data; stop the service first, or point DATA_DIR at a copy).

Verbs:
${VERBS.map((verb) => `  ${verb.help.replace(/\n/g, '\n  ')}`).join('\n\n')}

Exit codes: 0 all checks hold (or the verb finished), 1 a finding, 2 could not run
(bad arguments, database unreachable, not migrated, verb not available).
Progress goes to stderr on long runs; results to stdout.`;

/** Runs one command line; never throws (every failure is an exit code and a line on stderr). */
export async function runAudit(
  argv: readonly string[],
  output: Output = processOutput,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ExitCode> {
  const [name, ...args] = argv;
  if (name === undefined) {
    output.progress(USAGE);
    return EXIT.cannotRun;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    await output.line(USAGE);
    return EXIT.ok;
  }
  const verb = VERBS.find((candidate) => candidate.name === name);
  if (verb === undefined) {
    output.progress(`audit: unknown verb ${name} (try --help)`);
    return EXIT.cannotRun;
  }
  if (args.includes('--help') || args.includes('-h')) {
    await output.line(verb.help);
    return EXIT.ok;
  }
  try {
    if (!verb.opensDatabase) return await verb.run(args, output, env);
    const db = await openAuditDatabase(env);
    const store = openAuditEventStore(env, db);
    try {
      return await verb.run({ db, store }, args, output);
    } finally {
      await store.close?.();
      await db.close();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    output.progress(
      error instanceof UsageError ? `audit ${name}: ${message}` : `audit ${name} failed: ${message}`,
    );
    return EXIT.cannotRun;
  }
}

if (require.main === module) {
  // verify and replay fold the whole log through states that live a while and then die; V8 let
  // the heap grow to about four times what was live (380 MB RSS for 85 MB live at 1M events).
  // Growing it by at most its live size keeps RSS near 250 MB for about the same CPU
  // (docs/performance.md). Set before anything is read, in the tool's own process only.
  setFlagsFromString('--heap-growing-percent=100');
  void runAudit(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
