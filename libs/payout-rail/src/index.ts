/**
 * The payout rail port and its built-in simulator, and the payout process manager that sends
 * payouts through it (PayoutWorker: float queue, sending, expiry).
 */
export * from './payout-rail.port';
export * from './simulated-payout-rail';
export * from './payout-rail.module';
export * from './payout-processing/payout-worker';
