import { EncryptionKeys } from '@payouts/accounts';
import { ConfigurationError, loadConfig } from '@payouts/config';
import { openDatabase, SqlClient } from '@payouts/database';
import { rotateStoredCiphertexts, StoreReport } from './rotate';

/** 0: everything opens under ENCRYPTION_KEY; 1: some rows open under no key; 2: could not run. */
export const ROTATION_EXIT = { ok: 0, undecryptable: 1, cannotRun: 2 } as const;
export type RotationExit = (typeof ROTATION_EXIT)[keyof typeof ROTATION_EXIT];

const USAGE = `Writes every ciphertext stored under ENCRYPTION_KEY_PREVIOUS again under ENCRYPTION_KEY
(docs/operations.md#rotate-encryption_key). Run it while the apps run with both keys set.

Usage: npm run rotate-encryption-key
       node dist/tools/rotate-encryption-key/main.js

Reads DATABASE_URL (else the embedded database under DATA_DIR: stop the service first),
ENCRYPTION_KEY (required) and ENCRYPTION_KEY_PREVIOUS (without it, it only checks that every
ciphertext opens under ENCRYPTION_KEY). Batches of 500 rows, one transaction each; running it
again is harmless. One JSON line per table on stdout.

Exit codes: 0 every ciphertext is now under ENCRYPTION_KEY, 1 some rows open under neither key
(their ids are listed), 2 could not run.`;

/** Runs the tool; never throws (every failure is an exit code and a line on stderr). */
export async function runRotation(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<RotationExit> {
  if (argv.includes('--help') || argv.includes('-h')) {
    out(USAGE);
    return ROTATION_EXIT.ok;
  }
  if (argv.length > 0) {
    err(`rotate-encryption-key: unexpected arguments ${argv.join(' ')} (try --help)`);
    return ROTATION_EXIT.cannotRun;
  }
  let db: SqlClient | undefined;
  try {
    const { keys, location } = configured(env);
    db = await openDatabase({ ...location, applicationName: 'rotate-encryption-key', maxConnections: 2 });
    const reports = await rotateStoredCiphertexts(db, keys);
    for (const report of reports) out(JSON.stringify(reportLine(report)));
    const undecryptable = reports.reduce((sum, report) => sum + report.undecryptable.length, 0);
    out(
      JSON.stringify({
        msg: undecryptable === 0 ? 'every ciphertext is under ENCRYPTION_KEY' : 'rows open under no key',
        reencrypted: reports.reduce((sum, report) => sum + report.reencrypted, 0),
        undecryptable,
      }),
    );
    return undecryptable === 0 ? ROTATION_EXIT.ok : ROTATION_EXIT.undecryptable;
  } catch (error) {
    err(`rotate-encryption-key: ${error instanceof Error ? error.message : String(error)}`);
    return ROTATION_EXIT.cannotRun;
  } finally {
    await db?.close();
  }
}

function configured(env: NodeJS.ProcessEnv): {
  keys: EncryptionKeys;
  location: { databaseUrl: string | undefined; dataDir: string };
} {
  const config = loadConfig(env);
  if (config.encryptionKey === undefined) {
    // Never the embedded start's key file: a tool that generated a new key would strand everything.
    throw new ConfigurationError(
      'set ENCRYPTION_KEY (the new key) and ENCRYPTION_KEY_PREVIOUS (the one it replaces)',
    );
  }
  const keys: EncryptionKeys =
    config.encryptionKeyPrevious === undefined
      ? { current: config.encryptionKey }
      : { current: config.encryptionKey, previous: config.encryptionKeyPrevious };
  return { keys, location: { databaseUrl: config.databaseUrl, dataDir: config.dataDir } };
}

function reportLine(report: StoreReport): Record<string, unknown> {
  return {
    table: report.store,
    scanned: report.scanned,
    reencrypted: report.reencrypted,
    already_current: report.alreadyCurrent,
    changed_meanwhile: report.changedMeanwhile,
    undecryptable: report.undecryptable.length,
    ...(report.undecryptable.length > 0 ? { undecryptable_rows: report.undecryptable.slice(0, 100) } : {}),
  };
}

if (require.main === module) {
  void runRotation(
    process.argv.slice(2),
    process.env,
    (line) => process.stdout.write(`${line}\n`),
    (line) => process.stderr.write(`${line}\n`),
  ).then((code) => {
    process.exitCode = code;
  });
}
