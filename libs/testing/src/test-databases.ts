import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrate, migratedTemplate, PgliteSqlClient, PostgresSqlClient, SqlClient } from '@payouts/database';

/**
 * Integration tests run on every reachable backend: embedded PGlite always, and the PostgreSQL
 * server when DATABASE_URL is set (each test file gets a fresh database, dropped afterwards).
 */
export interface TestBackend {
  name: 'pglite' | 'postgres';
  /** A new, migrated database; `drop` removes it. */
  open(options?: { migrated?: boolean; poolSize?: number }): Promise<TestDatabase>;
}

export interface TestDatabase {
  db: SqlClient;
  /** The connection URL of a server database (for child processes); undefined on PGlite. */
  url: string | undefined;
  drop(): Promise<void>;
}

export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [{ name: 'pglite', open: openPglite }];
  if (process.env.DATABASE_URL) backends.push({ name: 'postgres', open: openServerDatabase });
  // TEST_BACKENDS=postgres lets the server run (`npm run test:pg`) skip what `npm test` covered.
  const only = process.env.TEST_BACKENDS?.split(',');
  return only ? backends.filter((b) => only.includes(b.name)) : backends;
}

async function openPglite(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const db =
    options.migrated === false
      ? await PgliteSqlClient.open()
      : await PgliteSqlClient.open(undefined, { from: await migratedTemplate() });
  return { db, url: undefined, drop: () => db.close() };
}

/** Creates `test_<random>` on the server named by DATABASE_URL. */
export async function createServerDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL is not set');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleaner = new Client({ connectionString: base });
      await cleaner.connect();
      try {
        await cleaner.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleaner.end();
      }
    },
  };
}

async function openServerDatabase(
  options: { migrated?: boolean; poolSize?: number } = {},
): Promise<TestDatabase> {
  const created = await createServerDatabase();
  const db = new PostgresSqlClient({ connectionString: created.url, maxConnections: options.poolSize ?? 24 });
  if (options.migrated !== false) await migrate(db);
  return {
    db,
    url: created.url,
    drop: async () => {
      await db.close();
      await created.drop();
    },
  };
}
