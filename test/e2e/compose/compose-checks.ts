import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError, CONFIG_VARIABLES, configVariable, loadConfig } from '@payouts/config';
import {
  appServices,
  ComposeFile,
  containerEnvironment,
  interpolate,
  MissingVariableError,
  parseEnvFile,
  referencedVariables,
  REPO,
} from './compose-file';

/**
 * What docker/docker-compose.yml, docker/Dockerfile, .dockerignore and docker/.env.example must
 * hold for the production shape to run. Each check returns its problems, one line each (none:
 * the files are right), so a test can also feed it a broken copy and see it fail.
 */
type Problems = string[];

/** Connections each app process opens besides its pool (README, Configuration: DATABASE_POOL_SIZE). */
export const SHARED_READ_CONNECTIONS = 2;
/** PostgreSQL's default superuser_reserved_connections: not available to the apps. */
const RESERVED_FOR_SUPERUSERS = 3;

/** Every app under apps/ but the embedded start runs as a service of its own name. */
export function entryPointProblems(
  compose: ComposeFile,
  tsconfigBuild = readFileSync(join(REPO, 'tsconfig.build.json'), 'utf8'),
): Problems {
  const problems: Problems = [];
  // Where `npm run build` writes: rootDir ".", outDir "./dist", apps/**/*.ts included.
  const build = JSON.parse(tsconfigBuild) as {
    compilerOptions: { outDir?: string; rootDir?: string };
    include?: string[];
  };
  const { outDir, rootDir } = build.compilerOptions;
  if (outDir !== './dist' || rootDir !== '.' || !build.include?.includes('apps/**/*.ts')) {
    problems.push(
      'tsconfig.build.json no longer builds apps/<app>/src/main.ts to dist/apps/<app>/src/main.js',
    );
  }
  const apps = readdirSync(join(REPO, 'apps')).filter((app) => app !== 'all-in-one');
  const services = appServices(compose);
  const missing = apps.filter((app) => !services.some(([name]) => name === app));
  if (missing.length > 0) problems.push(`no service runs ${missing.join(', ')}`);
  for (const [name, service] of services) {
    const command = service.command ?? [];
    const script = command.at(-1) ?? '';
    const built = /^dist\/(apps\/([^/]+)\/src\/main)\.js$/.exec(script);
    if (command[0] !== 'node' || !built) {
      problems.push(
        `${name}: command ${JSON.stringify(command)} is not node <flags> dist/apps/<app>/src/main.js`,
      );
      continue;
    }
    if (!existsSync(join(REPO, `${built[1]}.ts`))) problems.push(`${name}: ${built[1]}.ts does not exist`);
    if (built[2] !== name) problems.push(`${name}: runs ${built[2]}, not the app of its name`);
  }
  return problems;
}

/** Every variable of every app is one the configuration reads, and every required one is set and valid. */
export function environmentProblems(compose: ComposeFile, vars: Record<string, string>): Problems {
  const problems: Problems = [];
  const required = CONFIG_VARIABLES.filter((entry) => entry.requiredInServer).map((entry) => entry.name);
  for (const [name, service] of appServices(compose)) {
    const declared = Object.keys(service.environment ?? {});
    for (const variable of declared.filter((v) => configVariable(v) === undefined)) {
      problems.push(`${name}: ${variable} is not a configuration variable (CONFIG_VARIABLES)`);
    }
    let env: Record<string, string>;
    try {
      env = containerEnvironment(service, vars);
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
      continue;
    }
    for (const variable of required.filter((v) => (env[v] ?? '') === '')) {
      problems.push(`${name}: ${variable} is required in a server deployment and is not set`);
    }
    try {
      loadConfig(env);
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      problems.push(`${name}: the configuration refuses its environment: ${error.message}`);
    }
  }
  return problems;
}

/** `GET` routes of a Nest controller's source: `@Controller('health')` with `@Get('ready')`. */
export function controllerRoutes(source: string): string[] {
  const base = /@Controller\('([^']*)'\)/.exec(source)?.[1] ?? '';
  return [...source.matchAll(/@Get\((?:'([^']*)')?\)/g)].map((match) =>
    `/${[base, match[1] ?? ''].filter((part) => part !== '').join('/')}`.replace(/\/+$/, ''),
  );
}

/** Each app's health check asks its readiness route (a route the app has). */
export function healthCheckProblems(compose: ComposeFile, routes: string[]): Problems {
  const problems: Problems = [];
  for (const [name, service] of appServices(compose)) {
    const test = service.healthcheck?.test;
    const command = Array.isArray(test) ? test.join(' ') : (test ?? '');
    const path = healthPathOf(command);
    if (path === undefined) problems.push(`${name}: no HTTP health check`);
    else if (!routes.includes(path)) problems.push(`${name}: health check path ${path} is not a route`);
    else if (path !== '/health/ready') problems.push(`${name}: health check asks ${path}, not /health/ready`);
  }
  return problems;
}

/** The path a health check command asks for: a quoted path (`+'/health/ready'`) or a URL's. */
export function healthPathOf(command: string): string | undefined {
  return (
    /['"](\/[A-Za-z0-9/_-]+)['"]/.exec(command)?.[1] ??
    /https?:\/\/[^/\s'"]+(\/[A-Za-z0-9/_-]*)/.exec(command)?.[1]
  );
}

/** Every dependency waits for a health check that exists; the apps wait for their data stores. */
export function dependsOnProblems(compose: ComposeFile): Problems {
  const problems: Problems = [];
  for (const [name, service] of appServices(compose)) {
    const dependsOn = service.depends_on ?? {};
    for (const store of ['postgres', 'kafka', 'eventstoredb']) {
      if (!(store in dependsOn)) problems.push(`${name}: does not depend on ${store}`);
    }
    for (const [other, dependency] of Object.entries(dependsOn)) {
      if (dependency.condition !== 'service_healthy') {
        problems.push(`${name}: depends on ${other} without condition: service_healthy`);
      }
      const target = compose.services[other];
      if (!target) problems.push(`${name}: depends on ${other}, which is not a service`);
      else if (!target.healthcheck?.test)
        problems.push(`${name}: depends on ${other}, which has no health check`);
      // A dependency on a service of a profile must not stop the default profile from starting.
      if (target?.profiles && dependency.required !== false) {
        problems.push(
          `${name}: depends on ${other} (profile ${target.profiles.join(',')}) without required: false`,
        );
      }
    }
  }
  return problems;
}

/** Bytes of a Compose memory value (`512M`, `1G`, `1.5g`, `268435456`). */
export function memoryBytes(value: string | undefined): number {
  const match = /^(\d+(?:\.\d+)?)([bkmg]?)b?$/i.exec(value ?? '');
  if (!match) return NaN;
  const unit = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2]!.toLowerCase() as 'k'];
  return Number(match[1]) * unit;
}

/** Each app: CPU and memory limits (reservations within them), a restart policy and a stop grace period. */
export function resourceProblems(compose: ComposeFile): Problems {
  const problems: Problems = [];
  for (const [name, service] of appServices(compose)) {
    const { limits, reservations } = service.deploy?.resources ?? {};
    const cpus = Number(limits?.cpus);
    const memory = memoryBytes(limits?.memory);
    if (!(cpus > 0)) problems.push(`${name}: no CPU limit (deploy.resources.limits.cpus)`);
    if (!(memory > 0)) problems.push(`${name}: no memory limit (deploy.resources.limits.memory)`);
    if (reservations && (Number(reservations.cpus) > cpus || memoryBytes(reservations.memory) > memory)) {
      problems.push(`${name}: reserves more than its limits`);
    }
    if (!service.restart || service.restart === 'no') problems.push(`${name}: no restart policy`);
    if (!service.stop_grace_period) problems.push(`${name}: no stop_grace_period`);
  }
  const gateway = compose.services['api-gateway']?.deploy?.resources?.limits?.memory;
  // README, Configuration: the gateway's 256 MB old generation floor needs 512 MB or more.
  if (memoryBytes(gateway) < 512 * 1024 ** 2) problems.push('api-gateway: memory limit under 512M');
  return problems;
}

/** PostgreSQL's max_connections as the postgres service's command sets it. */
export function maxConnections(compose: ComposeFile): number {
  const command = (compose.services.postgres?.command ?? []).join(' ');
  return Number(/max_connections=(\d+)/.exec(command)?.[1] ?? NaN);
}

/** Connections every app container holds at most: (pool + shared reads) × replicas. */
export function connectionsUsed(compose: ComposeFile): number {
  return appServices(compose).reduce((sum, [, service]) => {
    const pool = Number(service.environment?.DATABASE_POOL_SIZE ?? NaN);
    return sum + (pool + SHARED_READ_CONNECTIONS) * (service.deploy?.replicas ?? 1);
  }, 0);
}

/**
 * Each app sets its pool; the sum stays well under max_connections (three quarters of what the
 * apps may use, for a second gateway, the tools and psql), and the file's comment states it.
 */
export function connectionProblems(compose: ComposeFile, text: string): Problems {
  const problems: Problems = [];
  for (const [name, service] of appServices(compose)) {
    if (!/^\d+$/.test(String(service.environment?.DATABASE_POOL_SIZE ?? ''))) {
      problems.push(`${name}: no DATABASE_POOL_SIZE`);
    }
  }
  const max = maxConnections(compose);
  const used = connectionsUsed(compose);
  if (!(max > 0)) problems.push('postgres: max_connections is not set explicitly');
  else if (!(used <= 0.75 * (max - RESERVED_FOR_SUPERUSERS))) {
    problems.push(`the apps hold ${used} connections, not well under max_connections ${max}`);
  }
  const stated = /= (\d+)\n# of max_connections (\d+)/.exec(text);
  if (!stated || Number(stated[1]) !== used || Number(stated[2]) !== max) {
    problems.push(`the comment does not state the sum: "= ${used}" then "# of max_connections ${max}"`);
  }
  return problems;
}

const SECRET_NAME = /PASSWORD|TOKEN|SECRET|(^|_)KEY$/;

/** Secrets come from the env file: each value takes a variable, and without it holds no credential. */
export function secretProblems(compose: ComposeFile): Problems {
  const problems: Problems = [];
  for (const [name, service] of Object.entries(compose.services)) {
    for (const [variable, raw] of Object.entries(service.environment ?? {})) {
      if (!(configVariable(variable)?.secret ?? SECRET_NAME.test(variable))) continue;
      const value = raw === null ? '' : String(raw);
      if (referencedVariables(value).length === 0) {
        problems.push(`${name}: ${variable} is a literal, not from docker/.env`);
        continue;
      }
      // Every variable empty: what is left is what the file itself holds.
      const literal = interpolate(value.replace(/\$\{([A-Za-z0-9_]+):?\?[^}]*\}/g, '${$1}'), {});
      const password = /^[a-z]+:\/\//.test(literal) ? new URL(literal).password : literal;
      if (password !== '') problems.push(`${name}: ${variable} holds a literal credential`);
    }
  }
  return problems;
}

/** The final stage: Node 24, a non-root user, a readiness health check; the build prunes dev dependencies. */
export function dockerfileProblems(text: string): Problems {
  const problems: Problems = [];
  const stages = text.split(/^(?=FROM )/m).filter((stage) => stage.startsWith('FROM '));
  const final = stages.at(-1) ?? '';
  if (stages.length < 2) problems.push('not multi-stage');
  for (const stage of stages) {
    if (!/^FROM node:24[-.\w]*(\s|$)/.test(stage))
      problems.push(`a stage is not FROM node:24: ${stage.split('\n')[0]}`);
  }
  if (!/^RUN npm ci\b/m.test(text)) problems.push('no npm ci');
  if (!/npm prune --omit=dev/.test(text)) problems.push('no npm prune --omit=dev');
  const user = /^USER (\S+)/m.exec(final)?.[1];
  if (user === undefined || user === 'root' || /^0(:|$)/.test(user))
    problems.push('the final stage runs as root');
  const data = /^RUN mkdir -p (\S+) && chown (\S+?)(?::\S+)? (\S+)$/m.exec(final);
  if (!data || data[1] !== '/app/.data' || data[3] !== '/app/.data' || data[2] !== user) {
    problems.push(`/app/.data (DATA_DIR) is not created and owned by ${user}`);
  }
  const healthcheck = /^HEALTHCHECK .*CMD (.*)$/m.exec(final)?.[1] ?? '';
  if (healthPathOf(healthcheck) !== '/health/ready') problems.push('no HEALTHCHECK on /health/ready');
  return problems;
}

/** The build context leaves out what the image builds itself and every secret. */
export function dockerignoreProblems(text: string): Problems {
  const lines = new Set(text.split('\n').map((line) => line.trim()));
  const needed = [
    'node_modules',
    'dist',
    '.git',
    '.data',
    '.cache',
    'coverage',
    '.env',
    '**/.env',
    'docker/.env',
  ];
  const problems = needed
    .filter((pattern) => !lines.has(pattern))
    .map((pattern) => `does not exclude ${pattern}`);
  if (![...lines].some((line) => line === '*.pem')) problems.push('does not exclude *.pem');
  if (![...lines].some((line) => line === '*.key')) problems.push('does not exclude *.key');
  if ([...lines].some((line) => /^!.*\.env$/.test(line))) problems.push('lets an .env file back in');
  return problems;
}

/** The env file documents every variable the compose file takes, holds no secret, and shows the profile switch. */
export function envExampleProblems(compose: ComposeFile, composeText: string, example: string): Problems {
  const problems: Problems = [];
  const documented = new Set([...example.matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!));
  for (const variable of new Set(referencedVariables(composeText.replace(/^\s*#.*$/gm, '')))) {
    if (!documented.has(variable)) problems.push(`docker/.env.example does not document ${variable}`);
  }
  for (const [variable, value] of Object.entries(parseEnvFile(example))) {
    if (value !== '' && (configVariable(variable)?.secret || SECRET_NAME.test(variable))) {
      problems.push(`docker/.env.example holds a value for the secret ${variable}`);
    }
  }
  for (const line of [
    '#COMPOSE_PROFILES=eventstoredb',
    '#EVENTSTORE_CONNECTION_STRING=esdb://eventstoredb:2113?tls=false',
  ]) {
    if (!example.split('\n').includes(line)) problems.push(`docker/.env.example does not show ${line}`);
  }
  const eventstore = compose.services.eventstoredb;
  if (!eventstore?.profiles?.includes('eventstoredb'))
    problems.push('eventstoredb is not in the eventstoredb profile');
  return problems;
}

/** Compose refuses to start while a required value is missing from the env file (`${NAME:?…}`). */
export function refusesWithout(
  compose: ComposeFile,
  vars: Record<string, string>,
  variable: string,
): boolean {
  const without = { ...vars, [variable]: '' };
  try {
    for (const [, service] of Object.entries(compose.services)) containerEnvironment(service, without);
    return false;
  } catch (error) {
    if (error instanceof MissingVariableError) return true;
    throw error;
  }
}
