/** Every timer but Date, for jest.useFakeTimers: only the time of day moves. */
const EVERY_TIMER_BUT_DATE = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

/**
 * Runs `work` with this process's time of day `ms` ahead (Date only: timers and I/O run on), as
 * when real time has passed: the embedded service, its PGlite's now() and anything else in the
 * process see the later time. Real time again afterwards.
 */
export async function withTimeMovedBy<T>(ms: number, work: () => Promise<T>): Promise<T> {
  jest.useFakeTimers({ now: Date.now() + ms, advanceTimers: true, doNotFake: [...EVERY_TIMER_BUT_DATE] });
  try {
    return await work();
  } finally {
    jest.useRealTimers();
  }
}
