/** Injection tokens of the gateway's own services. */
export const ACCOUNTS = Symbol('ACCOUNTS');
export const IDEMPOTENCY = Symbol('IDEMPOTENCY');
