import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * docker/docker-compose.yml as Compose reads it, for the tests that check it without a Docker
 * engine: YAML with merge keys (`<<: *app`), and Compose's variable interpolation from the env file.
 */
export const REPO = join(__dirname, '../../..');
export const COMPOSE_FILE = join(REPO, 'docker/docker-compose.yml');
export const ENV_EXAMPLE = join(REPO, 'docker/.env.example');
export const DOCKERFILE = join(REPO, 'docker/Dockerfile');
export const DOCKERIGNORE = join(REPO, '.dockerignore');

export type EnvironmentValue = string | number | boolean | null;

export interface DependsOn {
  condition?: string;
  required?: boolean;
}

export interface Resources {
  cpus?: string | number;
  memory?: string;
}

export interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string };
  command?: string[];
  environment?: Record<string, EnvironmentValue>;
  healthcheck?: { test?: string[] | string };
  depends_on?: Record<string, DependsOn>;
  deploy?: { replicas?: number; resources?: { limits?: Resources; reservations?: Resources } };
  restart?: string;
  stop_grace_period?: string;
  profiles?: string[];
  volumes?: string[];
  networks?: string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  networks?: Record<string, { internal?: boolean } | null>;
  volumes?: Record<string, unknown>;
}

export function parseCompose(text: string): ComposeFile {
  return parse(text, { merge: true }) as ComposeFile;
}

export const readText = (path: string): string => readFileSync(path, 'utf8');

/** The services built from docker/Dockerfile: the apps. */
export function appServices(compose: ComposeFile): [string, ComposeService][] {
  return Object.entries(compose.services).filter(
    ([, service]) => service.build?.dockerfile === 'docker/Dockerfile',
  );
}

/** KEY=value lines of an env file; `#KEY=value` lines (documented, off) are left out. */
export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) values[match[1]!] = match[2]!;
  }
  return values;
}

export class MissingVariableError extends Error {}

/**
 * Compose's interpolation of one value: `${NAME}`, `${NAME:-default}`, `${NAME-default}`,
 * `${NAME:?message}`, `${NAME?message}`, `$NAME`, and `$$` for a literal `$`. A `?` form with the
 * variable unset (or empty, for `:?`) throws, as Compose refuses to start.
 */
export function interpolate(value: string, vars: Record<string, string | undefined>): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, name?: string, colon?: string, operator?: string, argument?: string, bare?: string) => {
      if (whole === '$$') return '$';
      if (bare !== undefined) return vars[bare] ?? '';
      const current = vars[name!];
      const missing = colon === ':' ? current === undefined || current === '' : current === undefined;
      if (operator === '-') return missing ? argument! : current!;
      if (operator === '?') {
        if (missing) throw new MissingVariableError(`${name}: ${argument}`);
        return current!;
      }
      return current ?? '';
    },
  );
}

/** Every variable a value takes from the env file. */
export function referencedVariables(value: string): string[] {
  return [...value.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)|\$([A-Za-z_][A-Za-z0-9_]*)/g)].map(
    (match) => match[1] ?? match[2]!,
  );
}

/** A service's environment as its container gets it: interpolated, every value a string. */
export function containerEnvironment(
  service: ComposeService,
  vars: Record<string, string | undefined>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [
      name,
      interpolate(value === null ? '' : String(value), vars),
    ]),
  );
}
