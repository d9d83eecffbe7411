import { parseDatabaseUrl } from '@payouts/database';

/**
 * Configuration comes from environment variables only (README, "Configuration"). Every variable
 * has a documented default; a bad value stops start-up with a message naming the variable.
 */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface AppConfig {
  port: number;
  host: string;
  /** Unset: the embedded PGlite database under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Unset: the operator API answers 401 to everyone. */
  operatorToken: string | undefined;
  logLevel: LogLevel;
  /** How often an idle subscriber looks for new events. */
  projectorPollMs: number;
  /** Connections per process to a PostgreSQL server. */
  databasePoolSize: number;
}

export class ConfigurationError extends Error {}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const databaseUrl = nonEmpty(env.DATABASE_URL);
  if (databaseUrl) {
    try {
      parseDatabaseUrl(databaseUrl);
    } catch (error) {
      throw new ConfigurationError(error instanceof Error ? error.message : String(error));
    }
  }
  const operatorToken = nonEmpty(env.OPERATOR_TOKEN);
  if (operatorToken !== undefined && operatorToken.length < 24) {
    throw new ConfigurationError('OPERATOR_TOKEN must be at least 24 characters (use a random secret)');
  }
  const logLevel = (nonEmpty(env.LOG_LEVEL) ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigurationError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return {
    port: integer(env, 'PORT', 3000, 0, 65_535),
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    databaseUrl,
    dataDir: nonEmpty(env.DATA_DIR) ?? './.data',
    operatorToken,
    logLevel,
    projectorPollMs: integer(env, 'PROJECTOR_POLL_MS', 50, 5, 60_000),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 20, 1, 500),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigurationError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigurationError(`${name} must be between ${min} and ${max}`);
  return value;
}
