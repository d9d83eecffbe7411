import { loadConfig } from '@payouts/config';
import { migrate, openDatabase } from '@payouts/database';

/** `npm run db:migrate`: applies the SQL migrations to the configured database and says what it did. */
async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    applicationName: 'migrate',
  });
  try {
    const report = await migrate(db);
    process.stdout.write(
      `${JSON.stringify({ msg: 'migrations done', applied: report.applied, already_applied: report.alreadyApplied.length })}\n`,
    );
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
