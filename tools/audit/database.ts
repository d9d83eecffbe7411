import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError, loadConfig } from '@payouts/config';
import { DatabaseConfigurationError, openDatabase, SqlClient } from '@payouts/database';
import { UsageError } from './cli';

/**
 * The database the apps use, chosen the same way (libs/config): DATABASE_URL, else the embedded
 * database under DATA_DIR. On a server every session is read-only, so the audit cannot write
 * even by mistake. The embedded database is one process's: stop the service or audit a copy.
 */
export async function openAuditDatabase(env: NodeJS.ProcessEnv = process.env): Promise<SqlClient> {
  let databaseUrl: string | undefined;
  let dataDir: string;
  try {
    ({ databaseUrl, dataDir } = loadConfig(env));
  } catch (error) {
    if (error instanceof ConfigurationError) throw new UsageError(error.message);
    throw error;
  }
  if (databaseUrl === undefined && dataDir !== ':memory:' && !existsSync(join(dataDir, 'pglite'))) {
    throw new UsageError(`no embedded database under DATA_DIR=${dataDir} (and DATABASE_URL is not set)`);
  }
  try {
    return await openDatabase({
      databaseUrl: databaseUrl === undefined ? undefined : readOnly(databaseUrl),
      dataDir,
      applicationName: 'audit',
      maxConnections: 2,
    });
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
