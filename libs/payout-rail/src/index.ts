/** The payout rail port and its built-in simulator. */
export * from './payout-rail.port';
export * from './simulated-payout-rail';
export * from './payout-rail.module';
