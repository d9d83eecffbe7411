/**
 * Every environment variable the configuration reads (loadConfig, app-config.ts), for the people
 * and files that set them: the README's Configuration table, docker/docker-compose.yml and
 * docker/.env.example. config-variables.unit.spec.ts proves the list matches what loadConfig
 * reads and what the README documents, so a new variable cannot be left out of either.
 */
export interface ConfigVariable {
  name: string;
  /**
   * A server deployment (DATABASE_URL set, each app its own process) does not work as intended
   * without it, even where loadConfig has a default (a default that only suits the embedded start).
   */
  requiredInServer: boolean;
  /** Holds a credential or a key: set from a secret store or env file, never written in a file kept in git. */
  secret: boolean;
  description: string;
}

const variable = (
  name: string,
  description: string,
  flags: { requiredInServer?: boolean; secret?: boolean } = {},
): ConfigVariable => ({
  name,
  requiredInServer: flags.requiredInServer ?? false,
  secret: flags.secret ?? false,
  description,
});

export const CONFIG_VARIABLES: readonly ConfigVariable[] = Object.freeze([
  variable('PORT', 'HTTP port of the app (default 3000)'),
  variable('HOST', 'Interface to listen on (default 0.0.0.0)'),
  variable(
    'PUBLIC_BASE_URL',
    "Absolute http(s) base of recipients' and payers' URLs; the default is localhost",
    {
      requiredInServer: true,
    },
  ),
  variable(
    'DATABASE_URL',
    'The PostgreSQL server (postgres://user:password@host:port/db); unset: embedded PGlite',
    {
      requiredInServer: true,
      secret: true,
    },
  ),
  variable(
    'EVENTSTORE_CONNECTION_STRING',
    'EventStoreDB for the events (esdb://host:2113?tls=false); unset: events in the database',
  ),
  variable('DATA_DIR', 'Folder of the embedded database, the generated key and the development mailbox'),
  variable(
    'OPERATOR_TOKEN',
    "The service operator's bearer token (24+ characters); unset: operator API refuses all",
    {
      requiredInServer: true,
      secret: true,
    },
  ),
  variable('OPERATOR_TOKEN_PREVIOUS', 'During a rotation only: the replaced OPERATOR_TOKEN, still accepted', {
    secret: true,
  }),
  variable('DEFAULT_FEE_PER_PAYOUT', "Fee per payout of a new account's ledgers"),
  variable('DEFAULT_MIN_PAYOUT', 'Smallest payout amount of a new account'),
  variable('DEFAULT_MAX_PAYOUT', 'Largest payout amount of a new account'),
  variable('DEFAULT_MAX_OPEN_EXPOSURE', "Cap on what a new account's open payouts hold, per environment"),
  variable('DEFAULT_MAX_PENDING_PER_CUSTOMER', "Cap on a new account's pending payouts per customer"),
  variable(
    'RATE_LIMIT_PER_SECOND',
    'Sustained requests per second per payout credential, per gateway process',
  ),
  variable('RATE_LIMIT_BURST', 'Requests at once per payout credential before the sustained rate applies'),
  variable('COMMANDS_IN_FLIGHT_INITIAL', 'Commands a process lets in at once to start with'),
  variable('COMMANDS_IN_FLIGHT_MIN', 'The least the admission limit shrinks to under slow answers'),
  variable('COMMANDS_IN_FLIGHT_MAX', 'The most the admission limit grows to'),
  variable('COMMANDS_IN_FLIGHT_BURST', 'Commands let in at once while pressure is young'),
  variable('CHECKOUT_ORDER_TTL_SECONDS', 'How long an unpaid checkout order stays payable'),
  variable('CHECKOUT_MIN_AMOUNT', 'Smallest checkout order amount'),
  variable('CHECKOUT_MAX_AMOUNT', 'Largest checkout order amount'),
  variable('CHECKOUT_CARD_REGIONS', 'Account regions where the card method is offered'),
  variable('EVENTS_RETENTION_DAYS', 'Days the events feed keeps an event (at least 30)'),
  variable('LOG_LEVEL', 'fatal, error, warn, info, debug, trace or silent'),
  variable('PROJECTOR_POLL_MS', 'How often an idle projector looks for new events'),
  variable('READINESS_MAX_LAG_EVENTS', '/health/ready answers 503 past this projector lag'),
  variable(
    'DATABASE_POOL_SIZE',
    'Pooled PostgreSQL connections per process (plus 2 shared read connections)',
  ),
  variable('ENCRYPTION_KEY', 'The 32-byte base64 key every app shares for secrets at rest and claim links', {
    requiredInServer: true,
    secret: true,
  }),
  variable(
    'ENCRYPTION_KEY_PREVIOUS',
    'During a key rotation only: the replaced ENCRYPTION_KEY, still accepted to decrypt and verify',
    { secret: true },
  ),
  variable('WORKER_POLL_MS', 'How often the worker looks for work that is due'),
  variable('SETTLEMENT_HOUR_UTC', 'Hour (UTC) of the daily automatic settlement run'),
  variable('RAIL_SIMULATOR_DELAY_MS', 'How long the built-in payout rail simulator takes to settle'),
  variable('SANDBOX_FLOAT_OPENING_BALANCE', "The sandbox payout float's first top-up"),
  variable(
    'SMTP_URL',
    'SMTP server for e-mail (credentials in the URL); unset: e-mails go to a local folder',
    {
      requiredInServer: true,
      secret: true,
    },
  ),
  variable('TRUSTED_PROXIES', 'Reverse proxies (IPs, CIDR) whose X-Forwarded-For names the client'),
  variable('MAIL_FROM', "E-mails' sender; default no-reply at PUBLIC_BASE_URL's host"),
  variable('DEV_MAILBOX', 'Serve the development mailbox to the operator; embedded start only'),
  variable('KAFKA_BROKERS', 'Kafka for the relay and the webhook dispatcher; unset: in-process'),
  variable('KAFKA_TOPIC_PREFIX', "Prefix of each stream type's topic"),
  variable('KAFKA_TOPIC_PARTITIONS', 'Partitions of the topics the relay creates'),
  variable('KAFKA_RELAY_POLL_MS', 'How often an idle Kafka relay looks for new events'),
  variable(
    'WEBHOOK_ALLOW_INSECURE_TARGETS',
    'Let webhooks go to http and loopback URLs: development and tests only',
  ),
  variable('WEBHOOK_POLL_MS', 'How often an idle webhook dispatcher looks for due deliveries'),
  variable('WEBHOOK_MAX_IN_FLIGHT', 'Webhook attempts on the wire at once per dispatcher process'),
  variable('WEBHOOK_PROXY_URL', 'Forward proxy (http://host:port) every webhook attempt leaves through'),
]);

/** The entry of `name`, or undefined when the configuration does not know it. */
export function configVariable(name: string): ConfigVariable | undefined {
  return CONFIG_VARIABLES.find((entry) => entry.name === name);
}
