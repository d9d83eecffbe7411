import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes a run's figures to bench/results/<name>-<time>.json and says where. */
export function saveResults(name: string, results: unknown): void {
  const dir = join(process.cwd(), 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(results, null, 2));
  process.stdout.write(`results saved to ${file}\n`);
}
