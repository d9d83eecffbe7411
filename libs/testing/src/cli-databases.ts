import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgliteSqlClient, PostgresSqlClient, SqlClient } from '@payouts/database';
import { createServerDatabase } from './test-databases';

/**
 * A database a command-line tool opens by itself from its environment, as the audit tool does: a
 * folder for the embedded database (DATA_DIR), a URL for the server (DATABASE_URL).
 */
export interface CliDatabase {
  env: Record<string, string>;
  /** Opens it here; the embedded one belongs to one client at a time, so close it before the tool runs. */
  open(): Promise<SqlClient>;
  drop(): Promise<void>;
}

export async function cliDatabase(backend: 'pglite' | 'postgres'): Promise<CliDatabase> {
  if (backend === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'audit-'));
    return {
      env: { DATA_DIR: dir },
      open: () => PgliteSqlClient.open(join(dir, 'pglite')),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const server = await createServerDatabase();
  return {
    env: { DATABASE_URL: server.url },
    open: async () => new PostgresSqlClient({ connectionString: server.url, maxConnections: 4 }),
    drop: server.drop,
  };
}

/** Opens the database for `work` and closes it again afterwards. */
export async function usingCliDatabase<T>(
  database: CliDatabase,
  work: (db: SqlClient) => Promise<T>,
): Promise<T> {
  const db = await database.open();
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}
