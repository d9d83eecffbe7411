import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DIST } from '../spawn-app';

export interface AuditRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The built audit CLI (`npm run audit -- <verb>`) as its own process, as an auditor runs it, with
 * only the service's locations in its environment (DATABASE_URL, EVENTSTORE_CONNECTION_STRING).
 */
export function runAudit(args: readonly string[], env: Record<string, string>): Promise<AuditRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(DIST, 'tools', 'audit', 'main.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `verify` found nothing: exit 0, no finding or info line, a summary with 0 findings. */
export function expectCleanVerify(run: AuditRun): void {
  expect({
    code: run.code,
    findings: run.stdout.match(/^(finding|info).*$/gm) ?? [],
    stderr: run.stderr,
  }).toEqual({
    code: 0,
    findings: [],
    stderr: expect.any(String),
  });
  expect(run.stdout).toMatch(
    /^summary: [1-9]\d* events in \d+ streams checked .*; 0 finding\(s\); chain head [0-9a-f]{64}/m,
  );
}

/** `replay` found nothing: exit 0, no difference line, a summary with 0 differences. */
export function expectCleanReplay(run: AuditRun): void {
  expect({
    code: run.code,
    lines: run.stdout.split('\n').filter((line) => line !== '' && !line.startsWith('summary:')),
  }).toEqual({
    code: 0,
    lines: [],
  });
  expect(run.stdout).toMatch(
    /^summary: [1-9]\d* events replayed .*; [1-9]\d* rows compared in \d+ tables; 0 difference\(s\);/m,
  );
}
