import { randomInt } from 'node:crypto';
import { StreamVersionConflictError } from '@payouts/event-store';

/** Bounded, like every retry here: after this many conflicts the caller gets the conflict. */
export const MAX_CONFLICT_ATTEMPTS = 12;

/**
 * Re-runs load → decide → append when another writer got there first. Safe because each attempt
 * decides again on fresh state: a refusal that becomes true meanwhile (funds gone, reference
 * taken) is then reported instead of a conflict.
 */
export async function retryOnConflict<T>(
  attempt: () => Promise<T>,
  maxAttempts = MAX_CONFLICT_ATTEMPTS,
): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof StreamVersionConflictError) || tries >= maxAttempts) throw error;
      // Jittered backoff spreads competing writers from other processes apart.
      await new Promise((resolve) => setTimeout(resolve, randomInt(1, 2 + tries * 3)));
    }
  }
}
