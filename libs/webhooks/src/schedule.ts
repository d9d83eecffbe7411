/**
 * The payout webhook (docs/design.md#schedule): the first attempt, then retries 30 seconds, 5
 * minutes, 1 hour and 23 hours after the attempt before. Then the service stops and keeps the
 * event. The schedule is data (svix's lesson): each delivery row stores the time of its next
 * attempt.
 */
export const RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  30_000,
  5 * 60_000,
  60 * 60_000,
  23 * 60 * 60_000,
]);
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * The checkout webhook (docs/design.md#checkout-webhook): up to 3 retries, 1, 4 and 16 minutes after the
 * attempt before (4 attempts in all), on the same delivery rows and attempt log as payouts.
 */
export const CHECKOUT_RETRY_DELAYS_MS: readonly number[] = Object.freeze([60_000, 4 * 60_000, 16 * 60_000]);
export const CHECKOUT_MAX_ATTEMPTS = CHECKOUT_RETRY_DELAYS_MS.length + 1;

/**
 * When the next attempt is due after `attemptsMade` failed attempts, the last of them finished at
 * `finishedAt` (the environment's clock); null when no attempt is left. `delaysMs` is the event's
 * schedule: the payout webhook's unless another is given.
 */
export function nextAttemptAfter(
  attemptsMade: number,
  maxAttempts: number,
  finishedAt: Date,
  delaysMs: readonly number[] = RETRY_DELAYS_MS,
): Date | null {
  if (!Number.isSafeInteger(attemptsMade) || attemptsMade < 1) {
    throw new RangeError('attemptsMade counts the attempts made, at least 1');
  }
  if (attemptsMade >= Math.min(maxAttempts, delaysMs.length + 1)) return null;
  const delay = delaysMs[attemptsMade - 1]!;
  return new Date(finishedAt.getTime() + delay);
}
