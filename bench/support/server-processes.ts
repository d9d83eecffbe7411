import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Starts `node args…` with only PATH and `env`, its stderr prefixed with `[name]`. */
export function startProcess(
  name: string,
  args: string[],
  env: Record<string, string>,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
  child.stdout?.resume();
  return Promise.resolve(child);
}

/**
 * How the image runs the gateway: the NODE_OPTIONS it gives every app, and the node flags and
 * script of its CMD (flags NODE_OPTIONS refuses, such as --initial-old-space-size, go there).
 * `dist` is the build's output folder, whose parent holds docker/Dockerfile.
 */
export function imageGatewaySettings(dist: string): {
  nodeOptions: string;
  nodeFlags: string[];
  script: string;
} {
  const dockerfile = readFileSync(join(dist, '..', 'docker', 'Dockerfile'), 'utf8');
  const nodeOptions = /^ENV NODE_OPTIONS="([^"]*)"$/m.exec(dockerfile)?.[1];
  if (nodeOptions === undefined) throw new Error('docker/Dockerfile sets no NODE_OPTIONS');
  const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
  const words = cmd === undefined ? [] : (JSON.parse(cmd) as string[]);
  if (words[0] !== 'node' || !words.at(-1)?.endsWith('api-gateway/src/main.js')) {
    throw new Error('docker/Dockerfile has no CMD ["node", ...flags, "dist/apps/api-gateway/src/main.js"]');
  }
  // The image's paths are under /app/dist; here the same files are under DIST.
  return { nodeOptions, nodeFlags: words.slice(1, -1), script: words.at(-1)!.replace(/^dist\//, '') };
}

/** A port nothing listens on now: the system's pick for port 0, released at once. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    if (child.exitCode !== null)
      throw new Error(`the server exited (${child.exitCode}) before ${url} was ready`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} not ready after 60 s`);
}

export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}
