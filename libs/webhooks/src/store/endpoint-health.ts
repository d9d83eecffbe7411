/**
 * How long the secret a rotation replaced keeps signing beside the new one (docs/webhooks.md#rotating-the-secret):
 * a day for the merchant to deploy the new secret, on the environment clock.
 */
export const SECRET_OVERLAP_MS = 24 * 60 * 60_000;

/**
 * An endpoint whose every attempt has failed for this long is disabled (docs/webhooks.md#disabled-endpoints):
 * an attempt that fails more than this long after the first failure since the last delivered attempt.
 */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60_000;

/** One finished attempt to a payout endpoint, as endpointHealth reads it. */
export interface EndpointAttempt {
  endpointId: string;
  attemptedAt: Date;
  delivered: boolean;
  error: string | null;
}

/** What a batch of attempts says of one endpoint; the statement in delivery-queue.ts applies it. */
export interface EndpointHealth {
  endpointId: string;
  /** The latest delivered attempt of the batch; null when none delivered. */
  deliveredAt: Date | null;
  /** The earliest failed attempt after deliveredAt (after anything, when none delivered). */
  firstFailureAt: Date | null;
  /** The latest failed attempt after deliveredAt, and its error, for the disabling notice. */
  lastFailureAt: Date | null;
  lastError: string | null;
}

/**
 * Folds a batch of attempts into one line per endpoint, in attempt time order, so that the
 * database applies a whole batch in one statement: a delivered attempt ends the run of failures
 * before it, and only failures after the last delivered attempt count towards disabling.
 */
export function endpointHealth(attempts: readonly EndpointAttempt[]): EndpointHealth[] {
  const byEndpoint = new Map<string, EndpointHealth>();
  const ordered = [...attempts].sort((a, b) => a.attemptedAt.getTime() - b.attemptedAt.getTime());
  for (const attempt of ordered) {
    const health = byEndpoint.get(attempt.endpointId) ?? {
      endpointId: attempt.endpointId,
      deliveredAt: null,
      firstFailureAt: null,
      lastFailureAt: null,
      lastError: null,
    };
    if (attempt.delivered) {
      health.deliveredAt = attempt.attemptedAt;
      health.firstFailureAt = null;
      health.lastFailureAt = null;
      health.lastError = null;
    } else {
      health.firstFailureAt ??= attempt.attemptedAt;
      health.lastFailureAt = attempt.attemptedAt;
      health.lastError = attempt.error;
    }
    byEndpoint.set(attempt.endpointId, health);
  }
  // Sorted by id: every writer locks endpoint rows in one order, so two never deadlock.
  return [...byEndpoint.values()].sort((a, b) => (a.endpointId < b.endpointId ? -1 : 1));
}
