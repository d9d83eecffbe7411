import { randomInt } from 'node:crypto';
import { DomainError } from '@payouts/domain';
import { StreamVersionConflictError } from '@payouts/event-store';

/**
 * Bounded, like every retry here: after this many conflicts the caller gets the conflict. With
 * four processes contending for one ledger a writer wins about one round in four, so sixty rounds
 * make starving practically impossible while keeping the worst case near a second.
 */
export const MAX_CONFLICT_ATTEMPTS = 60;
/** Upper bound of one backoff; the whole budget stays around a second in the worst case. */
export const MAX_CONFLICT_BACKOFF_MS = 32;

export interface RetryOptions {
  maxAttempts?: number;
  /**
   * The first attempt decided on state it did not read (a cached ledger): its refusal may be stale,
   * since a cancel, an expiry or a limit change can have been written since, here or in another
   * process. Such a refusal is decided again on fresh state before it reaches the caller; only a
   * refusal of a fresh attempt is final.
   */
  firstAttemptOptimistic?: boolean;
}

/**
 * Re-runs load → decide → append when another writer got there first. Safe because each attempt
 * decides again on fresh state: a refusal that becomes true meanwhile (funds gone, reference
 * taken) is then reported instead of a conflict. `tries` (from 1) lets a first attempt be
 * optimistic and every later one read everything afresh.
 */
export async function retryOnConflict<T>(
  attempt: (tries: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? MAX_CONFLICT_ATTEMPTS;
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt(tries);
    } catch (error) {
      if (tries === 1 && options.firstAttemptOptimistic && error instanceof DomainError) continue;
      if (!(error instanceof StreamVersionConflictError) || tries >= maxAttempts) throw error;
      // Capped exponential backoff with full jitter spreads writers in other processes apart.
      const ceiling = Math.min(MAX_CONFLICT_BACKOFF_MS, 2 ** tries);
      await new Promise((resolve) => setTimeout(resolve, randomInt(0, ceiling + 1)));
    }
  }
}
