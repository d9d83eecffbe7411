import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SqlClient } from './sql-client';

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
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
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/**
 * Applies every migration not yet applied, each in its own transaction, under an advisory lock
 * so that several processes starting together apply each migration once. A migration that was
 * applied and has since been edited stops the run: history is never rewritten silently.
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
          throw new Error(`migration ${migration.name} was edited after it was applied (checksum differs)`);
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
