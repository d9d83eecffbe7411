import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { migratedTemplate } from './migrated-template';
import { PgliteSqlClient } from './pglite-sql-client';
import { PostgresSqlClient } from './postgres-sql-client';
import { SqlClient } from './sql-client';

export interface DatabaseLocation {
  /** A `postgres://` or `postgresql://` URL; unset means the embedded database. */
  databaseUrl?: string;
  /** Folder of the embedded database; `:memory:` keeps it in memory. */
  dataDir: string;
  applicationName?: string;
  maxConnections?: number;
  /** Told of each server connection that was dropped or refused (a server only). */
  onConnectionLost?: (error: Error) => void;
}

export class DatabaseConfigurationError extends Error {}

/** Validates `DATABASE_URL` up front so a typo is a clear message rather than a driver stack trace. */
export function parseDatabaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DatabaseConfigurationError(
      'DATABASE_URL is not a valid URL (expected postgres://user@host:port/db)',
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new DatabaseConfigurationError(
      `DATABASE_URL must use postgres:// or postgresql://, not ${url.protocol}//`,
    );
  }
  if (!url.hostname) throw new DatabaseConfigurationError('DATABASE_URL names no host');
  if (url.pathname.length <= 1) throw new DatabaseConfigurationError('DATABASE_URL names no database');
  return url;
}

/** Opens the database and proves it answers, so an unreachable server stops start-up with one clear line. */
export async function openDatabase(location: DatabaseLocation): Promise<SqlClient> {
  let client: SqlClient;
  if (location.databaseUrl) {
    const url = parseDatabaseUrl(location.databaseUrl);
    client = new PostgresSqlClient({
      connectionString: location.databaseUrl,
      applicationName: location.applicationName,
      maxConnections: location.maxConnections,
      onConnectionLost: location.onConnectionLost,
    });
    try {
      await client.query('SELECT 1');
    } catch (error) {
      await client.close().catch(() => undefined);
      const reason = error instanceof Error ? error.message : String(error);
      throw new DatabaseConfigurationError(
        `cannot reach the PostgreSQL server at ${url.hostname}:${url.port || '5432'}${url.pathname}: ${reason}`,
      );
    }
    return client;
  }
  // In memory: a copy of the migrated empty database (migrated-template.ts), not initdb again.
  if (location.dataDir === ':memory:')
    return PgliteSqlClient.open(undefined, { from: await migratedTemplate() });
  const dir = resolve(join(location.dataDir, 'pglite'));
  mkdirSync(dir, { recursive: true });
  return PgliteSqlClient.open(dir);
}
