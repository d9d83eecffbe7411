// The built command line (`npm run build` first): environment, the connection string as the
// last line of stdout, the real client against it, a clean stop on SIGTERM and SIGINT.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { EventStoreDBClient } from '@eventstore/db-client';
import { event, gather, removeTemporaryDataDirs, temporaryDataDir, typesOf } from './testing/stand-in-client';

const MAIN = join(__dirname, '../../dist/tools/eventstoredb/main.js');

interface RunningCli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function runCli(env: Record<string, string>): RunningCli {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function connectionStringOf(cli: RunningCli): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const last = cli.stdout().trimEnd().split('\n').pop() ?? '';
    if (last.startsWith('esdb://')) return last;
    if (cli.child.exitCode !== null) throw new Error(`stand-in exited:\n${cli.stdout()}${cli.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no connection string:\n${cli.stdout()}${cli.stderr()}`);
}

describe('npm run eventstoredb:stand-in (dist/tools/eventstoredb/main.js)', () => {
  afterAll(removeTemporaryDataDirs);
  it('prints its connection string last, serves the real client, and keeps the events in its data directory', async () => {
    const dataDir = temporaryDataDir();
    const first = runCli({ EVENTSTOREDB_STAND_IN_PORT: '0', EVENTSTOREDB_STAND_IN_DATA: dataDir });
    const connectionString = await connectionStringOf(first);
    expect(connectionString).toMatch(/^esdb:\/\/127\.0\.0\.1:\d+\?tls=false$/);
    expect(first.stdout().trimEnd().split('\n').length).toBeGreaterThan(1);

    const client = EventStoreDBClient.connectionString(connectionString);
    await client.appendToStream('cli', event('ThroughTheCli'));
    await client.dispose();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.stdout().trimEnd().split('\n').pop()).toBe(connectionString);

    const port = connectionString.match(/:(\d+)\?/)![1]!;
    const second = runCli({ EVENTSTOREDB_STAND_IN_PORT: port, EVENTSTOREDB_STAND_IN_DATA: dataDir });
    expect(await connectionStringOf(second)).toBe(connectionString);
    const again = EventStoreDBClient.connectionString(connectionString);
    expect(typesOf(await gather(again.readStream('cli')))).toEqual(['ThroughTheCli']);
    await again.dispose();
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });

  it('refuses a port that is not a number, with exit code 2', async () => {
    const cli = runCli({ EVENTSTOREDB_STAND_IN_PORT: 'eleven' });
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain('EVENTSTOREDB_STAND_IN_PORT');
    expect(cli.stdout()).not.toContain('esdb://');
  });
});
