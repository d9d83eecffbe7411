import { parseDatabaseUrl } from '@payouts/database';
import type { LedgerLimits } from '@payouts/domain';

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
  /** Base of the URLs given to recipients (`payout_url`), without a trailing slash. */
  publicBaseUrl: string;
  /** Fee and limits a new account's ledgers start with (the operator changes them per account). */
  defaultLimits: LedgerLimits;
  /** 32-byte key for secrets kept encrypted at rest; unset: a key file generated under DATA_DIR. */
  encryptionKey: Buffer | undefined;
  /** Requests per second per credential, sustained, and at once (per gateway process). */
  rateLimit: { perSecond: number; burst: number };
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
  const port = integer(env, 'PORT', 3000, 0, 65_535);
  const publicBaseUrl = (nonEmpty(env.PUBLIC_BASE_URL) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(publicBaseUrl)) {
    throw new ConfigurationError(
      'PUBLIC_BASE_URL must be an absolute http(s) URL such as https://pay.example.com',
    );
  }
  return {
    port,
    publicBaseUrl,
    defaultLimits: {
      feePerPayout: money(env, 'DEFAULT_FEE_PER_PAYOUT', '0.50'),
      minPayout: money(env, 'DEFAULT_MIN_PAYOUT', '1.00'),
      maxPayout: money(env, 'DEFAULT_MAX_PAYOUT', '5000.00'),
      maxOpenExposure: money(env, 'DEFAULT_MAX_OPEN_EXPOSURE', '50000.00'),
      maxPendingPerCustomer: integer(env, 'DEFAULT_MAX_PENDING_PER_CUSTOMER', 5, 1, 1_000_000),
    },
    encryptionKey: encryptionKey(env),
    rateLimit: {
      perSecond: integer(env, 'RATE_LIMIT_PER_SECOND', 500, 1, 1_000_000),
      burst: integer(env, 'RATE_LIMIT_BURST', 1000, 1, 10_000_000),
    },
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    databaseUrl,
    dataDir: nonEmpty(env.DATA_DIR) ?? './.data',
    operatorToken,
    logLevel,
    projectorPollMs: integer(env, 'PROJECTOR_POLL_MS', 50, 5, 60_000),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 20, 1, 500),
  };
}

function money(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = nonEmpty(env[name]) ?? fallback;
  if (!/^(0|[1-9]\d{0,14})(\.\d{1,2})?$/.test(raw)) {
    throw new ConfigurationError(`${name} must be a decimal amount such as 12.50, got "${raw}"`);
  }
  return raw;
}

function encryptionKey(env: NodeJS.ProcessEnv): Buffer | undefined {
  const raw = nonEmpty(env.ENCRYPTION_KEY);
  if (raw === undefined) return undefined;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32)
    throw new ConfigurationError('ENCRYPTION_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  return key;
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
