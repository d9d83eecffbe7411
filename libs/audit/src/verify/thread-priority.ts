import { setPriority } from 'node:os';

/** The nice value of verify's chain thread (0 is the default, 19 the lowest priority). */
export const CHAIN_THREAD_NICENESS = 10;

/**
 * Lowers the calling thread's scheduling priority, on Linux only, and answers whether it did.
 * verify's chain thread calls it: that thread has slack (it waits for pages about a third of a
 * run), while the main thread, which reads and folds, is the critical path, and on a machine whose
 * cores are all busy (the database's sessions too) the scheduler should favour the main thread
 * (docs/performance.md). On Linux a priority set for pid 0 applies to the calling thread alone;
 * elsewhere it would lower the whole process, so it is left alone there. Lowering one's own
 * priority needs no privilege; if the system refuses anyway, verify runs as before.
 */
export function lowerThisThreadsPriority(
  platform: NodeJS.Platform = process.platform,
  set: (priority: number) => void = setPriority,
): boolean {
  if (platform !== 'linux') return false;
  try {
    set(CHAIN_THREAD_NICENESS);
    return true;
  } catch {
    return false;
  }
}
