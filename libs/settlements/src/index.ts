/**
 * The funds flow: pricing, maturing, retained target, settlements and their rail, the timed work
 * that drives them (FundsWorker) and the funds reads (FundsQueries).
 */
export * from './settlements.module';
export * from './pricing/account-pricing';
export * from './maturing/mature-proceeds';
export * from './maturing/mature-due';
export * from './retained-target/set-retained-target';
export * from './settlement-run/settlement-commands';
export * from './settlement-run/settlement-ids';
export * from './settlement-run/settlement-runs';
export * from './settlement-rail/settlement-rail.port';
export * from './settlement-rail/simulated-settlement-rail';
export * from './shared/funds-jobs';
export * from './shared/funds-job-rows';
export * from './reads/funds-queries';
export * from './reads/daily-flows';
export { zoneDays } from './reads/zone-days';
export type { ZoneDays } from './reads/zone-days';
export * from './reads/csv/funds-csv';
export * from './reads/csv/csv-text';
export * from './funds-worker';
