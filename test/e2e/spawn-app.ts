import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const DIST = join(__dirname, '../../dist');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface RunningApp {
  url: string;
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts a built app (`npm run build` first) as its own process, as a container would. */
/** 32 bytes, base64: the key every spawned app of a test run shares. */
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

export async function startApp(app: string, env: Record<string, string>): Promise<RunningApp> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(DIST, 'apps', app, 'src', 'main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      // One key for every app of a test, as a deployment shares one (required with DATABASE_URL).
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { url: `http://127.0.0.1:${port}`, process: child, output: () => output, exited };
}

/** Polls until the URL answers 200; fails with the app's output if it exits or takes too long. */
export async function waitFor200(app: RunningApp, path: string, timeoutMs = 60_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.process.exitCode !== null || app.process.signalCode !== null) {
      throw new Error(`app exited (${app.process.exitCode ?? app.process.signalCode}):\n${app.output()}`);
    }
    try {
      const response = await fetch(app.url + path);
      if (response.status === 200) return response;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${path} did not answer 200 in ${timeoutMs} ms:\n${app.output()}`);
}

export async function stop(app: RunningApp): Promise<number | null> {
  if (app.process.exitCode === null) app.process.kill('SIGTERM');
  return app.exited;
}
