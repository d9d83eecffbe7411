import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPLAY_CONNECTIONS } from '@payouts/audit';
import { ConfigurationError, loadConfig } from '@payouts/config';
import { DatabaseConfigurationError, openDatabase, SqlClient } from '@payouts/database';
import { EventStore, openEventStore } from '@payouts/event-store';
import { UsageError } from './cli';

/**
 * The database the apps use, chosen the same way (libs/config): DATABASE_URL, else the embedded
 * database under DATA_DIR. On a server every session is read-only, so the audit cannot write
 * even by mistake. The embedded database is one process's: stop the service or audit a copy.
 */
export async function openAuditDatabase(env: NodeJS.ProcessEnv = process.env): Promise<SqlClient> {
  const { databaseUrl, dataDir } = location(env);
  if (databaseUrl === undefined && dataDir !== ':memory:' && !existsSync(join(dataDir, 'pglite'))) {
    throw new UsageError(`no embedded database under DATA_DIR=${dataDir} (and DATABASE_URL is not set)`);
  }
  return open({
    databaseUrl: databaseUrl === undefined ? undefined : readOnly(databaseUrl),
    dataDir,
    applicationName: 'audit',
    maxConnections: 2,
  });
}

/**
 * The event store the apps use, chosen the same way: EventStoreDB when EVENTSTORE_CONNECTION_STRING
 * is set (docs/eventstoredb.md), else the audit's database. It never writes: the audit does not take
 * over appends a writer left unwritten (the apps do).
 */
export function openAuditEventStore(env: NodeJS.ProcessEnv, db: SqlClient): EventStore {
  const { eventStoreConnectionString } = location(env);
  return openEventStore(db, { connectionString: eventStoreConnectionString, recovers: false });
}

/**
 * `replay` writes its scratch schemas, and only those (its statements run with the scratch schema
 * alone on the search path). On a server that takes a second session without the read-only
 * setting, with the same login, which must be allowed to CREATE a schema; as many connections as
 * the replay projects on at once, and one for the copy of the live tables beside it. The embedded database has one connection: there the audit's own
 * client is also the scratch one.
 */
export async function openReplayScratch(env: NodeJS.ProcessEnv, audit: SqlClient): Promise<SqlClient> {
  const { databaseUrl, dataDir } = location(env);
  if (databaseUrl === undefined) return audit;
  return open({
    databaseUrl,
    dataDir,
    applicationName: 'audit-replay',
    maxConnections: REPLAY_CONNECTIONS + 1,
  });
}

function location(env: NodeJS.ProcessEnv): {
  databaseUrl: string | undefined;
  dataDir: string;
  eventStoreConnectionString: string | undefined;
} {
  try {
    const { databaseUrl, dataDir, eventStoreConnectionString } = loadConfig(env);
    return { databaseUrl, dataDir, eventStoreConnectionString };
  } catch (error) {
    if (error instanceof ConfigurationError) throw new UsageError(error.message);
    throw error;
  }
}

async function open(where: Parameters<typeof openDatabase>[0]): Promise<SqlClient> {
  try {
    return await openDatabase(where);
  } catch (error) {
    if (error instanceof DatabaseConfigurationError) throw new UsageError(error.message);
    throw error;
  }
}

/** The URL with `default_transaction_read_only` on for every session it opens. */
function readOnly(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const options = url.searchParams.get('options');
  const readOnlyOption = '-c default_transaction_read_only=on';
  url.searchParams.set('options', options ? `${options} ${readOnlyOption}` : readOnlyOption);
  return url.toString();
}
