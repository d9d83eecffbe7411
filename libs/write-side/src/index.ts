export * from './write-plan';
export * from './decision';
export * from './committer';
export * from './write-path';
export * from './aggregate-cache';
export * from './aggregate-streams';
export * from './ledger-locks';
export { conflictBackoff, MAX_CONFLICT_ATTEMPTS, MAX_CONFLICT_BACKOFF_MS } from './retry-on-conflict';
export * from './write-side.module';
