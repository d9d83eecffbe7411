export * from './write-plan';
export * from './planned-row';
export * from './decision';
export * from './committer';
export * from './write-path';
export * from './aggregate-cache';
export * from './aggregate-streams';
export * from './one-stream-decision';
export * from './ledger-locks';
export { conflictBackoff, MAX_CONFLICT_ATTEMPTS, MAX_CONFLICT_BACKOFF_MS } from './retry-on-conflict';
export * from './write-side.module';
export * from './ledger-batches';
export * from './ledger-command.handler';
export * from './ledger-decision';
// The group commit's scheduling: what the Committer, and the idempotency claims, group.
export * from './grouping-queue';
export * from './grouped-writes';
export { batchingRows, writeRow } from './row-batches';
export * from './one-writer-refusal';
