/**
 * Spec 6.2 delivery rule 2: the first attempt, then retries 30 seconds, 5 minutes, 1 hour and 23
 * hours after the attempt before. Then the service stops and keeps the event. The schedule is data
 * (svix's lesson): each delivery row stores the time of its next attempt.
 */
export const RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  30_000,
  5 * 60_000,
  60 * 60_000,
  23 * 60 * 60_000,
]);
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * When the next attempt is due after `attemptsMade` failed attempts, the last of them finished at
 * `finishedAt` (the environment's clock); null when no attempt is left.
 */
export function nextAttemptAfter(attemptsMade: number, maxAttempts: number, finishedAt: Date): Date | null {
  if (!Number.isSafeInteger(attemptsMade) || attemptsMade < 1) {
    throw new RangeError('attemptsMade counts the attempts made, at least 1');
  }
  if (attemptsMade >= Math.min(maxAttempts, MAX_ATTEMPTS)) return null;
  const delay = RETRY_DELAYS_MS[attemptsMade - 1]!;
  return new Date(finishedAt.getTime() + delay);
}
