import { randomInt } from 'node:crypto';

/**
 * Bounded, like every retry here: after this many conflicts the caller gets the conflict. With
 * four processes contending for one ledger a writer wins about one round in four, so sixty rounds
 * make starving practically impossible while keeping the worst case near a second.
 */
export const MAX_CONFLICT_ATTEMPTS = 60;
/** Upper bound of one backoff; the whole budget stays around a second in the worst case. */
export const MAX_CONFLICT_BACKOFF_MS = 32;

/** Capped exponential backoff with full jitter: spreads writers in other processes apart. */
export function conflictBackoff(attempt: number): Promise<void> {
  const ceiling = Math.min(MAX_CONFLICT_BACKOFF_MS, 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, randomInt(0, ceiling + 1)));
}
