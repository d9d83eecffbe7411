import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  connectionProblems,
  connectionsUsed,
  controllerRoutes,
  dependsOnProblems,
  dockerfileProblems,
  dockerignoreProblems,
  entryPointProblems,
  envExampleProblems,
  environmentProblems,
  healthCheckProblems,
  maxConnections,
  refusesWithout,
  resourceProblems,
  secretProblems,
} from './compose-checks';
import {
  appServices,
  COMPOSE_FILE,
  ComposeFile,
  containerEnvironment,
  DOCKERFILE,
  DOCKERIGNORE,
  ENV_EXAMPLE,
  interpolate,
  MissingVariableError,
  parseCompose,
  parseEnvFile,
  readText,
  REPO,
} from './compose-file';

/**
 * The production shape (docker/docker-compose.yml, docker/Dockerfile, .dockerignore,
 * docker/.env.example) checked without a Docker engine: the files are parsed as Compose reads
 * them and held against the configuration (libs/config/src/config-variables.ts) and the code.
 * Each check is also fed a broken copy, so it is known to fail when the files go wrong.
 */
const composeText = readText(COMPOSE_FILE);
const compose = parseCompose(composeText);
const example = readText(ENV_EXAMPLE);
const dockerfile = readText(DOCKERFILE);
const healthRoutes = controllerRoutes(readText(join(REPO, 'libs/platform/src/health.controller.ts')));

/** What an SRE fills into docker/.env (test values, not secrets anyone uses). */
const FILLED = {
  PUBLIC_BASE_URL: 'https://pay.example.com',
  POSTGRES_PASSWORD: 'a1b2c3d4e5f6a1b2c3d4e5f6',
  OPERATOR_TOKEN: `op_${'5'.repeat(40)}`,
  ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
};
const vars: Record<string, string> = { ...parseEnvFile(example), ...FILLED };

const copy = (): ComposeFile => structuredClone(compose);
const service = (file: ComposeFile, name: string) => file.services[name]!;

describe('reading the compose file as Compose does', () => {
  it('interpolates ${NAME}, defaults, required values and $$', () => {
    const values = { SET: 'yes', EMPTY: '' };
    expect(interpolate('a${SET}b$SET', values)).toBe('ayesbyes');
    expect(interpolate('${EMPTY:-d} ${EMPTY-d} ${UNSET-d}', values)).toBe('d  d');
    expect(interpolate('$${SET}', values)).toBe('${SET}');
    expect(() => interpolate('${EMPTY:?say why (really)}', values)).toThrow(MissingVariableError);
    expect(interpolate('${EMPTY?fine when set, even empty}', values)).toBe('');
  });

  it('finds the four apps with their merged settings', () => {
    expect(appServices(compose).map(([name]) => name)).toEqual([
      'api-gateway',
      'projector',
      'worker',
      'webhook-dispatcher',
    ]);
    expect(service(compose, 'worker').environment?.KAFKA_BROKERS).toBe('kafka:9092');
    expect(service(compose, 'worker').healthcheck?.test).toBeDefined();
  });
});

describe('docker/docker-compose.yml', () => {
  it('runs each app from the entry point `npm run build` makes of apps/<app>/src/main.ts', () => {
    expect(entryPointProblems(compose)).toEqual([]);
    for (const [, app] of appServices(compose)) {
      const script = app.command!.at(-1)!;
      expect(existsSync(join(REPO, script.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
    }
    const broken = copy();
    service(broken, 'worker').command = ['node', 'dist/apps/wrker/src/main.js'];
    service(broken, 'projector').command = ['node', 'dist/apps/worker/src/main.js'];
    expect(entryPointProblems(broken)).toEqual([
      'projector: runs worker, not the app of its name',
      'worker: apps/wrker/src/main.ts does not exist',
      'worker: runs wrker, not the app of its name',
    ]);
    const elsewhere = readText(join(REPO, 'tsconfig.build.json')).replace('"./dist"', '"./build"');
    expect(entryPointProblems(compose, elsewhere)).toEqual([
      'tsconfig.build.json no longer builds apps/<app>/src/main.ts to dist/apps/<app>/src/main.js',
    ]);
    delete broken.services['webhook-dispatcher'];
    expect(entryPointProblems(broken)[0]).toBe('no service runs webhook-dispatcher');
  });

  it('gives every app only configuration variables, every required one set, all accepted by the configuration', () => {
    expect(environmentProblems(compose, vars)).toEqual([]);
    const broken = copy();
    service(broken, 'projector').environment!.PROJECTOR_POLL = '50';
    delete service(broken, 'worker').environment!.ENCRYPTION_KEY;
    service(broken, 'webhook-dispatcher').environment!.LOG_LEVEL = 'loud';
    expect(environmentProblems(broken, vars)).toEqual([
      'projector: PROJECTOR_POLL is not a configuration variable (CONFIG_VARIABLES)',
      'worker: ENCRYPTION_KEY is required in a server deployment and is not set',
      expect.stringMatching(/^webhook-dispatcher: the configuration refuses its environment: LOG_LEVEL/),
    ]);
    // An env file left as the example is: Compose stops, naming the value.
    expect(environmentProblems(compose, parseEnvFile(example))[0]).toMatch(
      /^api-gateway: PUBLIC_BASE_URL: set PUBLIC_BASE_URL in docker\/.env/,
    );
  });

  it('refuses to start without each required value of docker/.env, and defaults SMTP to the catcher', () => {
    for (const variable of Object.keys(FILLED)) {
      expect([variable, refusesWithout(compose, vars, variable)]).toEqual([variable, true]);
    }
    expect(refusesWithout(compose, vars, 'SMTP_URL')).toBe(false);
    const env = containerEnvironment(service(compose, 'api-gateway'), vars);
    expect(env.SMTP_URL).toBe('smtp://mailpit:1025');
    expect(env.DATABASE_URL).toBe(`postgres://postgres:${FILLED.POSTGRES_PASSWORD}@postgres:5432/payouts`);
    expect(containerEnvironment(service(compose, 'postgres'), vars).POSTGRES_PASSWORD).toBe(
      FILLED.POSTGRES_PASSWORD,
    );
  });

  it('checks readiness, /health/ready, a route of every app', () => {
    expect(healthRoutes).toEqual(['/health', '/health/ready']);
    expect(healthCheckProblems(compose, healthRoutes)).toEqual([]);
    const broken = copy();
    const swap = (name: string, from: string, to: string) => {
      const test = service(broken, name).healthcheck!.test as string[];
      service(broken, name).healthcheck = { test: test.map((part) => part.replace(from, to)) };
    };
    swap('worker', '/health/ready', '/health');
    swap('projector', '/health/ready', '/healthz');
    service(broken, 'api-gateway').healthcheck = { test: ['CMD', 'true'] };
    expect(healthCheckProblems(broken, healthRoutes)).toEqual([
      'api-gateway: no HTTP health check',
      'projector: health check path /healthz is not a route',
      'worker: health check asks /health, not /health/ready',
    ]);
  });

  it('starts each app once what it depends on is healthy, EventStoreDB only when its profile runs', () => {
    expect(dependsOnProblems(compose)).toEqual([]);
    const broken = copy();
    service(broken, 'worker').depends_on!.postgres = { condition: 'service_started' };
    delete service(broken, 'projector').depends_on!.kafka;
    service(broken, 'webhook-dispatcher').depends_on!.eventstoredb = { condition: 'service_healthy' };
    delete broken.services.mailpit!.healthcheck;
    expect(dependsOnProblems(broken)).toEqual([
      'api-gateway: depends on mailpit, which has no health check',
      'projector: does not depend on kafka',
      'worker: depends on postgres without condition: service_healthy',
      'webhook-dispatcher: depends on eventstoredb (profile eventstoredb) without required: false',
    ]);
  });

  it('limits every app’s CPU and memory and restarts it, with time to stop cleanly', () => {
    expect(resourceProblems(compose)).toEqual([]);
    const broken = copy();
    delete service(broken, 'worker').deploy!.resources!.limits;
    service(broken, 'projector').deploy!.resources!.reservations = { cpus: '4', memory: '64M' };
    service(broken, 'api-gateway').deploy!.resources!.limits!.memory = '256M';
    delete service(broken, 'webhook-dispatcher').stop_grace_period;
    service(broken, 'webhook-dispatcher').restart = 'no';
    expect(resourceProblems(broken)).toEqual([
      'api-gateway: reserves more than its limits',
      'projector: reserves more than its limits',
      'worker: no CPU limit (deploy.resources.limits.cpus)',
      'worker: no memory limit (deploy.resources.limits.memory)',
      'webhook-dispatcher: no restart policy',
      'webhook-dispatcher: no stop_grace_period',
      'api-gateway: memory limit under 512M',
    ]);
  });

  it('keeps the apps’ PostgreSQL connections well under max_connections, and says so', () => {
    expect(connectionProblems(compose, composeText)).toEqual([]);
    expect([connectionsUsed(compose), maxConnections(compose)]).toEqual([88, 200]);
    const broken = copy();
    service(broken, 'api-gateway').environment!.DATABASE_POOL_SIZE = 150;
    delete service(broken, 'worker').environment!.DATABASE_POOL_SIZE;
    expect(connectionProblems(broken, composeText)).toEqual([
      'worker: no DATABASE_POOL_SIZE',
      expect.stringMatching(/^the apps hold NaN connections/),
      expect.stringMatching(/^the comment does not state the sum/),
    ]);
    service(broken, 'worker').environment!.DATABASE_POOL_SIZE = 10;
    expect(connectionProblems(broken, composeText)).toEqual([
      'the apps hold 198 connections, not well under max_connections 200',
      expect.stringMatching(/^the comment does not state the sum/),
    ]);
    service(broken, 'postgres').command = ['postgres'];
    expect(connectionProblems(broken, composeText)[0]).toBe(
      'postgres: max_connections is not set explicitly',
    );
  });

  it('takes every secret from docker/.env, never from the file itself', () => {
    expect(secretProblems(compose)).toEqual([]);
    const broken = copy();
    service(broken, 'worker').environment!.OPERATOR_TOKEN = 'op_literal_token_of_24_chars';
    service(broken, 'projector').environment!.DATABASE_URL =
      'postgres://postgres:payouts@postgres:5432/payouts';
    service(broken, 'api-gateway').environment!.SMTP_URL = '${SMTP_URL:-smtp://user:hunter2@mail:587}';
    service(broken, 'postgres').environment!.POSTGRES_PASSWORD = 'payouts';
    expect(secretProblems(broken)).toEqual([
      'postgres: POSTGRES_PASSWORD is a literal, not from docker/.env',
      'api-gateway: SMTP_URL holds a literal credential',
      'projector: DATABASE_URL is a literal, not from docker/.env',
      'worker: OPERATOR_TOKEN is a literal, not from docker/.env',
    ]);
  });

  it('sends webhooks from the gateway (test webhook) and the dispatcher through the egress proxy only', () => {
    const proxied = appServices(compose)
      .filter(([, app]) => app.environment?.WEBHOOK_PROXY_URL !== undefined)
      .map(([name, app]) => [name, app.environment!.WEBHOOK_PROXY_URL]);
    expect(proxied).toEqual([
      ['api-gateway', 'http://egress-proxy:3128'],
      ['webhook-dispatcher', 'http://egress-proxy:3128'],
    ]);
    const proxy = service(compose, 'egress-proxy');
    expect(proxy.image).toMatch(/^ubuntu\/squid(:|$)/);
    expect(proxy.volumes).toContain('./egress-proxy/squid.conf:/etc/squid/squid.conf:ro');
    // The proxy listens where WEBHOOK_PROXY_URL points.
    expect(readText(join(REPO, 'docker/egress-proxy/squid.conf'))).toMatch(/^http_port 3128$/m);
    // The dispatcher has no network with a way out but through the proxy.
    const internal = (network: string) => compose.networks?.[network]?.internal === true;
    expect(service(compose, 'webhook-dispatcher').networks!.every(internal)).toBe(true);
    expect(proxy.networks!.some((network) => !internal(network))).toBe(true);
  });

  it('runs the data stores it names: PostgreSQL 15, Kafka in KRaft mode, the SMTP catcher', () => {
    const postgres = service(compose, 'postgres');
    expect(postgres.image).toBe('postgres:15');
    expect(postgres.volumes).toEqual(['pgdata:/var/lib/postgresql/data']);
    expect(postgres.healthcheck?.test).toEqual(['CMD', 'pg_isready', '-U', 'postgres', '-d', 'payouts']);
    const kafka = service(compose, 'kafka');
    expect(kafka.image).toBe('apache/kafka:3.9.1');
    expect(kafka.environment).toMatchObject({
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_ADVERTISED_LISTENERS: 'PLAINTEXT://kafka:9092',
    });
    expect(service(compose, 'mailpit').image).toMatch(/^axllent\/mailpit(:|$)/);
  });

  it('runs EventStoreDB only in its profile, insecure on the internal network only, and the apps switch to it', () => {
    const eventstore = service(compose, 'eventstoredb');
    expect(eventstore).toMatchObject({
      image: 'eventstore/eventstore:24.10',
      profiles: ['eventstoredb'],
      environment: { EVENTSTORE_INSECURE: 'true' },
      volumes: ['eventstoredata:/var/lib/eventstore'],
    });
    expect(eventstore.healthcheck?.test).toBeDefined();
    expect(eventstore.networks!.every((network) => compose.networks?.[network]?.internal === true)).toBe(
      true,
    );
    for (const [, app] of appServices(compose)) {
      expect(app.environment!.EVENTSTORE_CONNECTION_STRING).toBe('${EVENTSTORE_CONNECTION_STRING:-}');
      expect(app.depends_on!.eventstoredb).toEqual({ condition: 'service_healthy', required: false });
    }
    // With the two lines of docker/.env.example turned on, every app accepts the connection string.
    const on = parseEnvFile(example.replace(/^#(COMPOSE_PROFILES|EVENTSTORE_CONNECTION_STRING)=/gm, '$1='));
    expect(on.COMPOSE_PROFILES).toBe('eventstoredb');
    expect(environmentProblems(compose, { ...on, ...FILLED })).toEqual([]);
    const env = containerEnvironment(service(compose, 'worker'), { ...on, ...FILLED });
    expect(env.EVENTSTORE_CONNECTION_STRING).toBe('esdb://eventstoredb:2113?tls=false');
  });
});

describe('docker/.env.example', () => {
  it('documents every variable the compose file takes, holds no secret, and shows the EventStoreDB switch', () => {
    expect(envExampleProblems(compose, composeText, example)).toEqual([]);
    const broken = example
      .replace(/^OPERATOR_TOKEN=$/m, 'OPERATOR_TOKEN=op_0123456789abcdef01234567')
      .replace(/^SMTP_URL=$/m, '')
      .replace(/^#COMPOSE_PROFILES=eventstoredb$/m, '');
    expect(envExampleProblems(compose, composeText, broken)).toEqual([
      'docker/.env.example does not document SMTP_URL',
      'docker/.env.example holds a value for the secret OPERATOR_TOKEN',
      'docker/.env.example does not show #COMPOSE_PROFILES=eventstoredb',
    ]);
  });
});

describe('docker/Dockerfile', () => {
  it('builds on Node 24 in stages and runs as a non-root user who owns DATA_DIR, checking readiness', () => {
    expect(dockerfileProblems(dockerfile)).toEqual([]);
    expect(dockerfileProblems(dockerfile.replace('USER node', 'USER root'))).toEqual([
      'the final stage runs as root',
      '/app/.data (DATA_DIR) is not created and owned by root',
    ]);
    expect(dockerfileProblems(dockerfile.replace(/\/health\/ready/g, '/health'))).toEqual([
      'no HEALTHCHECK on /health/ready',
    ]);
    expect(dockerfileProblems(dockerfile.replace(/^FROM node:24-bookworm-slim$/m, 'FROM node:20'))).toEqual([
      'a stage is not FROM node:24: FROM node:20',
    ]);
    expect(dockerfileProblems(dockerfile.replace(' && npm prune --omit=dev', ''))).toEqual([
      'no npm prune --omit=dev',
    ]);
    expect(dockerfileProblems(dockerfile.replace(/^RUN mkdir -p \/app\/.data.*$/m, ''))).toEqual([
      '/app/.data (DATA_DIR) is not created and owned by node',
    ]);
  });
});

describe('.dockerignore', () => {
  it('keeps node_modules, dist, local data and every secret out of the build context', () => {
    const text = readText(DOCKERIGNORE);
    expect(dockerignoreProblems(text)).toEqual([]);
    const broken = text.replace(/^\.env$/m, '').replace(/^\*\.pem$/m, '') + '\n!docker/.env\n';
    expect(dockerignoreProblems(broken)).toEqual([
      'does not exclude .env',
      'does not exclude *.pem',
      'lets an .env file back in',
    ]);
  });
});
