import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_VARIABLES, configVariable } from './config-variables';

const ROOT = join(__dirname, '../../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Names loadConfig reads: `env.NAME`, and names passed to its helpers (`integer(env, 'NAME', …)`). */
function namesReadBy(source: string): Set<string> {
  const names = new Set<string>();
  for (const match of source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)) names.add(match[1]!);
  for (const match of source.matchAll(/\(\s*env\s*,\s*'([A-Z][A-Z0-9_]*)'/g)) names.add(match[1]!);
  return names;
}

/** The first column of the README's Configuration table. */
function readmeConfigurationRows(readme: string): Set<string> {
  const section = /^## Configuration\n([\s\S]*?)^## /m.exec(readme)?.[1];
  if (section === undefined) throw new Error('README.md has no "## Configuration" section');
  return new Set([...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)`\s*\|/gm)].map((match) => match[1]!));
}

/** Product source under apps/ and libs/: no tests, no test helpers, no generated code. */
function productSources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !/[/\\](testing|generated)[/\\]/.test(path));
}

/** `process.env.NAME` and `process.env['NAME']` outside the configuration. */
function processEnvNames(files: string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of files) {
    if (file.endsWith(join('libs', 'config', 'src', 'app-config.ts'))) continue;
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*'([A-Z][A-Z0-9_]*)'\s*\])/g))
      found.set(match[1] ?? match[2]!, file);
  }
  return found;
}

const listed = new Set(CONFIG_VARIABLES.map((entry) => entry.name));
const sorted = (names: Iterable<string>) => [...names].sort();

describe('CONFIG_VARIABLES, the list of every configuration variable', () => {
  const readByConfig = namesReadBy(read('libs/config/src/app-config.ts'));

  it('finds the names app-config.ts reads, both ways it reads them', () => {
    expect(readByConfig.has('DATABASE_URL')).toBe(true);
    expect(readByConfig.has('WEBHOOK_POLL_MS')).toBe(true);
    expect(
      sorted(namesReadBy("const a = env.FOO; integer(env, 'BAR', 1, 0, 2); money(env,'BAZ', '1')")),
    ).toEqual(['BAR', 'BAZ', 'FOO']);
  });

  it('holds every variable loadConfig reads, and none it does not', () => {
    expect(sorted([...readByConfig].filter((name) => !listed.has(name)))).toEqual([]);
    expect(sorted([...listed].filter((name) => !readByConfig.has(name)))).toEqual([]);
  });

  it("holds every row of the README's Configuration table, and the table documents every variable", () => {
    const rows = readmeConfigurationRows(read('README.md'));
    expect(rows.size).toBeGreaterThan(30);
    expect(sorted([...rows].filter((name) => !listed.has(name)))).toEqual([]);
    expect(sorted([...listed].filter((name) => !rows.has(name)))).toEqual([]);
  });

  it('holds every variable the apps and libraries read from process.env outside the configuration', () => {
    const files = [...productSources('apps'), ...productSources('libs')];
    expect(files.length).toBeGreaterThan(100);
    const unlisted = [...processEnvNames(files)].filter(([name]) => !listed.has(name));
    expect(unlisted).toEqual([]);
    // The scan sees both spellings.
    const dir = mkdtempSync(join(tmpdir(), 'config-variables-'));
    const sample = join(dir, 'reads-env.ts');
    writeFileSync(sample, "const a = process.env.NEW_SETTING; const b = process.env['OTHER_ONE'];");
    try {
      expect(sorted(processEnvNames([sample]).keys())).toEqual(['NEW_SETTING', 'OTHER_ONE']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names each variable once, with a one-line description', () => {
    expect(listed.size).toBe(CONFIG_VARIABLES.length);
    for (const entry of CONFIG_VARIABLES) {
      expect([entry.name, /^[A-Z][A-Z0-9_]*$/.test(entry.name)]).toEqual([entry.name, true]);
      expect([entry.name, entry.description.length > 0 && !entry.description.includes('\n')]).toEqual([
        entry.name,
        true,
      ]);
    }
  });

  it('marks what a server deployment must set, and the secrets among them', () => {
    const required = CONFIG_VARIABLES.filter((entry) => entry.requiredInServer).map((entry) => entry.name);
    expect(sorted(required)).toEqual([
      'DATABASE_URL',
      'ENCRYPTION_KEY',
      'OPERATOR_TOKEN',
      'PUBLIC_BASE_URL',
      'SMTP_URL',
    ]);
    const secrets = CONFIG_VARIABLES.filter((entry) => entry.secret).map((entry) => entry.name);
    expect(sorted(secrets)).toEqual([
      'DATABASE_URL',
      'ENCRYPTION_KEY',
      'ENCRYPTION_KEY_PREVIOUS',
      'OPERATOR_TOKEN',
      'OPERATOR_TOKEN_PREVIOUS',
      'SMTP_URL',
    ]);
    expect(configVariable('KAFKA_BROKERS')?.requiredInServer).toBe(false);
    expect(configVariable('NOT_A_VARIABLE')).toBeUndefined();
  });
});
