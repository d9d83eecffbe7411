import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SqlClient } from './sql-client';

export interface Migration {
  name: string;
  sql: string;
  /** Of the statements only (comments and blank lines left out), so a comment can be corrected. */
  checksum: string;
  /**
   * Checksums a database may have recorded for this very migration before: of the whole text, as
   * they were taken before comments were left out, and of the texts whose comments were since
   * reworded (LEGACY_CHECKSUMS). One of these is taken as this migration and recorded anew.
   */
  earlierChecksums?: readonly string[];
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
}

/**
 * Whole-text checksums of migrations applied before their comments were reworded (to cite this
 * repository's own docs rather than documents outside it); their statements did not change.
 */
const LEGACY_CHECKSUMS: Readonly<Record<string, readonly string[]>> = {
  '0003_accounts': ['9efd00c8b452dbd45d9133ed7e6f061763d7a3ac50660f610e47b8c1b242373b'],
  '0004_idempotency': ['f386853ad8ba0e80cac29f7f0cc43c340c028b1a7204dfabe0bacbf22aef3d8d'],
  '0008_webhooks': ['a7a69847ef8eda058db1a4be8676bb194401e9e6cbcfc5150021b6a861c5e989'],
  '0009_claim_link_copies': ['e17019f8e3dee35df4efdd26050a411a02b9046a0b380120064d32d1b25c3905'],
  '0018_claim_links_derived': ['765f402b9f652fb06de1912747b2f0006d1a15ef7516684f6273e9fe7722a826'],
  '0019_checkout_orders': ['8ec9e37506416c77d06c74d388bd2f95712c2f589255db34a1674aa4ad57844d'],
  '0020_checkout_webhooks': ['397f51059a310c54536fb74dcbc458ddcd0c98b91388d5e427e9fe2bee6e1c6a'],
  '0021_funds_flow': ['5a2c90bf02d8245abcb94ddf36775867d461a737328ebc5070c2b3444c656969'],
  '0022_funds_jobs': ['930c52d1262472b368c4665287e302f28342792e44b734c41264017af4862157'],
  '0023_event_chain': ['d91b2fa6f55ae3cd32ede7424cf237943332ad9d054a3ee19b43844c99c5da6c'],
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The checksum of what a migration runs: its statements, not its comments. */
export function statementsChecksum(sql: string): string {
  return sha256(splitStatements(sql).join('\n'));
}

/** Any fixed number: the advisory lock that serialises migration runs of several processes. */
const MIGRATION_LOCK_KEY = 7_316_204_551;

/** Finds `prisma/migrations` above this file, so it works from the sources and from `dist/`. */
export function defaultMigrationsDir(): string {
  let dir = __dirname;
  for (let depth = 0; depth < 8; depth += 1) {
    const candidate = join(dir, 'prisma', 'migrations');
    if (existsSync(candidate)) return candidate;
    dir = resolve(dir, '..');
  }
  throw new Error(`prisma/migrations not found above ${__dirname}`);
}

export function loadMigrations(dir: string = defaultMigrationsDir()): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return {
        name,
        sql,
        checksum: statementsChecksum(sql),
        earlierChecksums: [sha256(sql), ...(LEGACY_CHECKSUMS[name] ?? [])],
      };
    });
}

/**
 * Applies every migration not yet applied, each in its own transaction, under an advisory lock
 * so that several processes starting together apply each migration once. A migration whose
 * statements were edited after it was applied stops the run: history is never rewritten
 * silently. Its comments may change.
 */
export async function migrate(
  db: SqlClient,
  migrations: Migration[] = loadMigrations(),
): Promise<MigrationReport> {
  // Under the lock too: two processes running CREATE TABLE IF NOT EXISTS at once can still
  // collide in the catalog (a duplicate pg_type row).
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const report: MigrationReport = { applied: [], alreadyApplied: [] };
  for (const migration of migrations) {
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const existing = await tx.query<{ checksum: string }>(
        'SELECT checksum FROM schema_migrations WHERE name = $1',
        [migration.name],
      );
      const applied = existing.rows[0];
      if (applied) {
        if (applied.checksum !== migration.checksum) {
          if (!migration.earlierChecksums?.includes(applied.checksum)) {
            throw new Error(`migration ${migration.name} was edited after it was applied (checksum differs)`);
          }
          // Applied under an earlier checksum of the same statements: recorded as it is taken now.
          await tx.query('UPDATE schema_migrations SET checksum = $2 WHERE name = $1', [
            migration.name,
            migration.checksum,
          ]);
        }
        report.alreadyApplied.push(migration.name);
        return;
      }
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [
        migration.name,
        migration.checksum,
      ]);
      report.applied.push(migration.name);
    });
  }
  return report;
}

/**
 * Splits a migration into statements so each runs through the parameterised query path (which
 * both drivers run inside the surrounding transaction). Dollar-quoted bodies ($$ ... $$) are kept
 * whole; comments are dropped.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let inDollarQuote = false;
  for (const line of sql.split('\n')) {
    const trimmed = line.trim();
    if (!inDollarQuote && (trimmed.startsWith('--') || trimmed === '')) continue;
    const dollarCount = (line.match(/\$\$/g) ?? []).length;
    if (dollarCount % 2 === 1) inDollarQuote = !inDollarQuote;
    current += `${line}\n`;
    if (!inDollarQuote && trimmed.endsWith(';')) {
      statements.push(current.trim());
      current = '';
    }
  }
  if (current.trim() !== '') statements.push(current.trim());
  return statements;
}
