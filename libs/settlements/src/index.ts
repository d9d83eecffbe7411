/** The funds flow's write side: pricing, maturing, retained target, settlements and their rail. */
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
