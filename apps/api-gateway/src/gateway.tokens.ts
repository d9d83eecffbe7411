/** Injection tokens of the gateway's own services. */
export const ACCOUNTS = Symbol('ACCOUNTS');
