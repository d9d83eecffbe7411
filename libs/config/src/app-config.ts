import { isIP } from 'node:net';
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
  /**
   * EVENTSTORE_CONNECTION_STRING (`esdb://…`): events live in EventStoreDB, everything else stays
   * in the database above (docs/eventstoredb.md). Unset: events live in that database too.
   */
  eventStoreConnectionString: string | undefined;
  dataDir: string;
  /** Unset: the operator API answers 401 to everyone. */
  operatorToken: string | undefined;
  /**
   * OPERATOR_TOKEN_PREVIOUS: during a rotation only, the token OPERATOR_TOKEN replaced, still
   * accepted (docs/operations.md#rotate-the-operator-token).
   */
  operatorTokenPrevious: string | undefined;
  logLevel: LogLevel;
  /** How often an idle subscriber looks for new events. */
  projectorPollMs: number;
  /**
   * GET /health/ready answers 503 while the read-model projector is more than this many events
   * behind the feed (docs/design.md#metrics).
   */
  readinessMaxLagEvents: number;
  /** Connections per process to a PostgreSQL server. */
  databasePoolSize: number;
  /** How often the worker looks for payouts to send, rail answers and expiry timers that are due. */
  workerPollMs: number;
  /** The hour (UTC, 0-23) of the daily automatic settlement run, on each environment's clock. */
  settlementHourUtc: number;
  /** How long the built-in payout rail simulator takes to settle a transfer. */
  railSimulatorDelayMs: number;
  /** The sandbox float's first top-up, written once when the sandbox float is new; "0.00": none. */
  sandboxFloatOpeningBalance: string;
  /** Base of the URLs given to recipients (`payout_url`), without a trailing slash. */
  publicBaseUrl: string;
  /**
   * TRUSTED_PROXIES: the addresses (IPs or CIDR ranges) of the reverse proxies in front of the
   * apps. A request from one of them is taken to come from the address its `X-Forwarded-For`
   * names (the dashboard's sign-in lockout counts per client address). Empty: the TCP peer is the
   * client, and X-Forwarded-For is ignored, so nobody can choose their own address.
   */
  trustedProxies: string[];
  /** Fee and limits a new account's ledgers start with (the operator changes them per account). */
  defaultLimits: LedgerLimits;
  /** 32-byte key for secrets kept encrypted at rest; unset: a key file generated under DATA_DIR. */
  encryptionKey: Buffer | undefined;
  /**
   * During a rotation only, the key ENCRYPTION_KEY replaced: still accepted to decrypt and verify,
   * never used for anything new (docs/operations.md#rotate-encryption_key).
   */
  encryptionKeyPrevious: Buffer | undefined;
  /** Requests per second per credential, sustained, and at once (per gateway process). */
  rateLimit: { perSecond: number; burst: number };
  /**
   * Bounds of the process's commands in flight (the admission gate): where the limit starts and
   * returns to, the least it shrinks to while answers are slow, the most it grows to, and the
   * least let in while pressure is young (a burst) whatever the measured limit (at most `max`).
   */
  commandsInFlight: { initial: number; min: number; max: number; burst: number };
  /** Checkout orders (docs/design.md#checkout): lifetime, amount bounds and the card method's regions. */
  checkout: { orderTtlMs: number; minAmount: string; maxAmount: string; cardRegions: readonly string[] };
  /**
   * How long the events feed (GET /api/events) keeps an event, in days: older events are left
   * out and a cursor on one is refused with 410 cursor_expired (docs/integration.md#events-feed).
   */
  eventsRetentionDays: number;
  /** SMTP server for e-mail (`smtp://` or `smtps://`, credentials in the URL); unset: the development mailbox folder. */
  smtpUrl: string | undefined;
  /** Sender of every e-mail: an address, or `Name <address>`. */
  mailFrom: string;
  /**
   * DEV_MAILBOX: serve the development mailbox folder (e-mailed verification codes) at
   * /dev/mailbox to the operator token. Off by default; only in the embedded start without SMTP.
   */
  devMailbox: boolean;
  /** Kafka for the relay and the webhook dispatcher; unset (no KAFKA_BROKERS): the in-process transport. */
  kafka: KafkaConfig | undefined;
  /** Payout webhook delivery (docs/design.md#payout-webhooks). */
  webhooks: WebhookConfig;
}

export interface KafkaConfig {
  /** Bootstrap brokers, `host:port` each. */
  brokers: string[];
  /** Topic of a stream (aggregate) type: `<prefix><type>`, e.g. `payouts.events.payout`. */
  topicPrefix: string;
  /** Partitions of the topics the relay creates. */
  topicPartitions: number;
  /** How often an idle Kafka relay looks for new events (a relay in another process is not woken by appends). */
  relayPollMs: number;
}

export interface WebhookConfig {
  /** http and loopback targets, for local development and tests only; false by default. */
  allowInsecureTargets: boolean;
  /** How often an idle dispatcher looks for due deliveries. */
  pollMs: number;
  /** Attempts on the wire at once per dispatcher process. */
  maxInFlight: number;
  /**
   * WEBHOOK_PROXY_URL (`http://host:port`): every attempt leaves through this forward proxy, one
   * egress address for merchants' allowlists. Unset: attempts connect directly.
   */
  proxyUrl: URL | undefined;
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
  const smtp = smtpUrl(env);
  return {
    port,
    publicBaseUrl,
    trustedProxies: trustedProxies(env),
    defaultLimits: {
      feePerPayout: money(env, 'DEFAULT_FEE_PER_PAYOUT', '0.50'),
      minPayout: money(env, 'DEFAULT_MIN_PAYOUT', '1.00'),
      maxPayout: money(env, 'DEFAULT_MAX_PAYOUT', '5000.00'),
      maxOpenExposure: money(env, 'DEFAULT_MAX_OPEN_EXPOSURE', '50000.00'),
      maxPendingPerCustomer: integer(env, 'DEFAULT_MAX_PENDING_PER_CUSTOMER', 5, 1, 1_000_000),
    },
    encryptionKey: encryptionKey(env),
    encryptionKeyPrevious: encryptionKeyPrevious(env),
    smtpUrl: smtp,
    mailFrom: mailFrom(env, publicBaseUrl),
    devMailbox: devMailbox(env, { databaseUrl, smtpUrl: smtp, operatorToken }),
    rateLimit: {
      perSecond: integer(env, 'RATE_LIMIT_PER_SECOND', 500, 1, 1_000_000),
      burst: integer(env, 'RATE_LIMIT_BURST', 1000, 1, 10_000_000),
    },
    commandsInFlight: commandsInFlight(env),
    checkout: {
      orderTtlMs: integer(env, 'CHECKOUT_ORDER_TTL_SECONDS', 86_400, 60, 31_536_000) * 1000,
      minAmount: money(env, 'CHECKOUT_MIN_AMOUNT', '0.50'),
      maxAmount: money(env, 'CHECKOUT_MAX_AMOUNT', '100000.00'),
      cardRegions: regions(env, 'CHECKOUT_CARD_REGIONS', 'US,CA,GB,EU,AU,NZ,JP,SG'),
    },
    eventsRetentionDays: integer(env, 'EVENTS_RETENTION_DAYS', 30, 30, 3650),
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    databaseUrl,
    eventStoreConnectionString: eventStoreConnectionString(env),
    dataDir: nonEmpty(env.DATA_DIR) ?? './.data',
    operatorToken,
    operatorTokenPrevious: operatorTokenPrevious(env, operatorToken),
    logLevel,
    projectorPollMs: integer(env, 'PROJECTOR_POLL_MS', 50, 5, 60_000),
    // At most one less than the most a lag is counted to (EVENT_STORE_LIMITS.maxFeedPage).
    readinessMaxLagEvents: integer(env, 'READINESS_MAX_LAG_EVENTS', 1000, 0, 9_999),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 20, 1, 500),
    workerPollMs: integer(env, 'WORKER_POLL_MS', 250, 5, 60_000),
    settlementHourUtc: integer(env, 'SETTLEMENT_HOUR_UTC', 0, 0, 23),
    railSimulatorDelayMs: integer(env, 'RAIL_SIMULATOR_DELAY_MS', 1000, 0, 600_000),
    sandboxFloatOpeningBalance: money(env, 'SANDBOX_FLOAT_OPENING_BALANCE', '100000.00'),
    kafka: kafka(env),
    webhooks: {
      allowInsecureTargets: flag(env, 'WEBHOOK_ALLOW_INSECURE_TARGETS', false),
      pollMs: integer(env, 'WEBHOOK_POLL_MS', 250, 5, 60_000),
      maxInFlight: integer(env, 'WEBHOOK_MAX_IN_FLIGHT', 100, 1, 1_000),
      proxyUrl: webhookProxyUrl(env),
    },
  };
}

function kafka(env: NodeJS.ProcessEnv): KafkaConfig | undefined {
  const raw = nonEmpty(env.KAFKA_BROKERS);
  if (raw === undefined) return undefined;
  const brokers = raw.split(',').map((broker) => broker.trim());
  if (
    brokers.some(
      (broker) => !/^[A-Za-z0-9.-]+:\d{1,5}$/.test(broker) && !/^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(broker),
    )
  ) {
    throw new ConfigurationError('KAFKA_BROKERS must be host:port, comma-separated (e.g. 127.0.0.1:19092)');
  }
  const topicPrefix = nonEmpty(env.KAFKA_TOPIC_PREFIX) ?? 'payouts.events.';
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(topicPrefix)) {
    throw new ConfigurationError(
      'KAFKA_TOPIC_PREFIX may hold letters, digits, ".", "_" and "-" (at most 100)',
    );
  }
  return {
    brokers,
    topicPrefix,
    topicPartitions: integer(env, 'KAFKA_TOPIC_PARTITIONS', 6, 1, 1_000),
    relayPollMs: integer(env, 'KAFKA_RELAY_POLL_MS', 10, 1, 60_000),
  };
}

/**
 * The mailbox holds every verification code e-mailed, and the embedded start listens on every
 * interface: it is served only when asked for, only to the operator, and only where it can hold
 * anything. A switch that cannot take effect is refused rather than ignored, so nobody believes
 * a mailbox is there (or safely absent) when it is not.
 */
function devMailbox(
  env: NodeJS.ProcessEnv,
  others: { databaseUrl: string | undefined; smtpUrl: string | undefined; operatorToken: string | undefined },
): boolean {
  if (!flag(env, 'DEV_MAILBOX', false)) return false;
  if (others.databaseUrl !== undefined) {
    throw new ConfigurationError(
      'DEV_MAILBOX=true is for the embedded start only: unset it, or unset DATABASE_URL',
    );
  }
  if (others.smtpUrl !== undefined) {
    throw new ConfigurationError(
      'DEV_MAILBOX=true shows e-mails that are not sent: unset it, or unset SMTP_URL',
    );
  }
  if (others.operatorToken === undefined) {
    throw new ConfigurationError(
      'DEV_MAILBOX=true needs OPERATOR_TOKEN: the development mailbox answers only the operator',
    );
  }
  return true;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false')
    throw new ConfigurationError(`${name} must be true or false, got "${raw}"`);
  return raw === 'true';
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

/** Only beside ENCRYPTION_KEY, and another key than it: a rotation has two keys. */
function encryptionKeyPrevious(env: NodeJS.ProcessEnv): Buffer | undefined {
  const raw = nonEmpty(env.ENCRYPTION_KEY_PREVIOUS);
  if (raw === undefined) return undefined;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) {
    throw new ConfigurationError(
      'ENCRYPTION_KEY_PREVIOUS must be 32 bytes, base64-encoded, as ENCRYPTION_KEY',
    );
  }
  const current = encryptionKey(env);
  if (current === undefined) {
    throw new ConfigurationError(
      'ENCRYPTION_KEY_PREVIOUS needs ENCRYPTION_KEY: the new key, which encrypts from now on',
    );
  }
  if (current.equals(key)) {
    throw new ConfigurationError(
      'ENCRYPTION_KEY_PREVIOUS is the same key as ENCRYPTION_KEY: set it to the key being replaced',
    );
  }
  return key;
}

function smtpUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = nonEmpty(env.SMTP_URL);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Never the value: it may hold the SMTP password.
    throw new ConfigurationError(
      'SMTP_URL is not a valid URL (smtp://user:password@host:587 or smtps://…:465)',
    );
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new ConfigurationError('SMTP_URL must be an smtp:// or smtps:// URL with a host');
  }
  return raw;
}

/** TRUSTED_PROXIES: comma-separated IPs or CIDR ranges (`10.0.0.0/8`), each checked. */
function trustedProxies(env: NodeJS.ProcessEnv): string[] {
  const raw = nonEmpty(env.TRUSTED_PROXIES);
  if (raw === undefined) return [];
  return raw.split(',').map((entry) => {
    const value = entry.trim();
    const [address, prefix, ...rest] = value.split('/');
    const version = isIP(address ?? '');
    const bits = version === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (version === 0 || !prefixOk || rest.length > 0) {
      throw new ConfigurationError(
        `TRUSTED_PROXIES must be comma-separated IP addresses or CIDR ranges such as 10.0.0.0/8; ${JSON.stringify(value)} is neither`,
      );
    }
    return value;
  });
}

/** Default: no-reply at the host of PUBLIC_BASE_URL, the name recipients already see in the links. */
function mailFrom(env: NodeJS.ProcessEnv, publicBaseUrl: string): string {
  const raw = nonEmpty(env.MAIL_FROM) ?? `Payouts <no-reply@${hostOf(publicBaseUrl)}>`;
  const address = /^(?:[^<>\r\n]*<([^<>\s]+)>|([^<>\s]+))$/.exec(raw);
  const email = address?.[1] ?? address?.[2];
  if (email === undefined || !/^[^@\s]+@[^@\s]+$/.test(email)) {
    throw new ConfigurationError('MAIL_FROM must be an e-mail address or "Name <address>"');
  }
  return raw;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
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

function commandsInFlight(env: NodeJS.ProcessEnv): AppConfig['commandsInFlight'] {
  const bounds = {
    initial: integer(env, 'COMMANDS_IN_FLIGHT_INITIAL', 512, 1, 1_000_000),
    min: integer(env, 'COMMANDS_IN_FLIGHT_MIN', 128, 1, 1_000_000),
    max: integer(env, 'COMMANDS_IN_FLIGHT_MAX', 16_384, 1, 1_000_000),
    burst: integer(env, 'COMMANDS_IN_FLIGHT_BURST', 512, 1, 1_000_000),
  };
  if (!(bounds.min <= bounds.initial && bounds.initial <= bounds.max)) {
    throw new ConfigurationError(
      'COMMANDS_IN_FLIGHT_MIN <= COMMANDS_IN_FLIGHT_INITIAL <= COMMANDS_IN_FLIGHT_MAX must hold',
    );
  }
  return bounds;
}

function regions(env: NodeJS.ProcessEnv, name: string, fallback: string): readonly string[] {
  const list = (nonEmpty(env[name]) ?? fallback).split(',').map((region) => region.trim());
  if (list.some((region) => !/^[A-Z]{2}$/.test(region))) {
    throw new ConfigurationError(
      `${name} must be a comma-separated list of two-letter regions, such as US,GB`,
    );
  }
  return Object.freeze(list);
}

function eventStoreConnectionString(env: NodeJS.ProcessEnv): string | undefined {
  const raw = nonEmpty(env.EVENTSTORE_CONNECTION_STRING);
  if (raw !== undefined && !/^esdb(\+discover)?:\/\/[^/]+/.test(raw)) {
    throw new ConfigurationError(
      'EVENTSTORE_CONNECTION_STRING must be an EventStoreDB connection string such as esdb://eventstoredb:2113?tls=false',
    );
  }
  return raw;
}

function webhookProxyUrl(env: NodeJS.ProcessEnv): URL | undefined {
  const raw = nonEmpty(env.WEBHOOK_PROXY_URL);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigurationError('WEBHOOK_PROXY_URL must be a URL such as http://egress-proxy:3128');
  }
  if (url.protocol !== 'http:' || url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw new ConfigurationError(
      'WEBHOOK_PROXY_URL must be an http:// forward proxy address such as http://egress-proxy:3128',
    );
  }
  return url;
}

function operatorTokenPrevious(env: NodeJS.ProcessEnv, current: string | undefined): string | undefined {
  const previous = nonEmpty(env.OPERATOR_TOKEN_PREVIOUS);
  if (previous === undefined) return undefined;
  if (current === undefined) {
    throw new ConfigurationError('OPERATOR_TOKEN_PREVIOUS needs OPERATOR_TOKEN: the new token');
  }
  if (previous.length < 24) {
    throw new ConfigurationError('OPERATOR_TOKEN_PREVIOUS must be at least 24 characters, as OPERATOR_TOKEN');
  }
  if (previous === current) {
    throw new ConfigurationError(
      'OPERATOR_TOKEN_PREVIOUS is the same as OPERATOR_TOKEN: set it to the token being replaced',
    );
  }
  return previous;
}
