import { performance } from 'node:perf_hooks';
import { StreamVersionConflictError } from './errors';

/** What a store reports of each append, for the app's metrics (docs/design.md#metrics). */
export interface AppendObserver {
  /** `conflict`: a StreamVersionConflictError; `error`: any other failure. */
  appended(seconds: number, outcome: 'ok' | 'conflict' | 'error'): void;
}

/** Runs one append and reports how long it took and how it ended; without an observer, just runs it. */
export async function observeAppend<T>(
  observer: AppendObserver | undefined,
  append: () => Promise<T>,
): Promise<T> {
  if (!observer) return append();
  const started = performance.now();
  try {
    const result = await append();
    observer.appended((performance.now() - started) / 1000, 'ok');
    return result;
  } catch (error) {
    const outcome = error instanceof StreamVersionConflictError ? 'conflict' : 'error';
    observer.appended((performance.now() - started) / 1000, outcome);
    throw error;
  }
}
