/** The process's IdempotencyStore (one per process: its claims commit in groups). */
export const IDEMPOTENCY_STORE = Symbol('IDEMPOTENCY_STORE');
