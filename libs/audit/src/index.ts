// The finance audit (docs/audit.md): the tamper-evidence chain and its keeper's
// batch, the verify pass over the whole log, the public export envelope, and the replay of every
// read model compared with the live ones.
export * from './chain/chain-link';
export * from './chain/chain-store';
export * from './chain/chain-keeper';
export * from './chain/chain-alongside';
export * from './feed/audit-feed';
export * from './verify/findings';
export * from './verify/verify-log';
export * from './export/export-envelope';
export * from './statement/statement-line';
export * from './statement/statement-fold';
export * from './statement/statement-format';
export * from './statement/ledger-statement';
export * from './statement/statement-time';
export * from './replay/replay-differences';
export * from './replay/replay-read-models';
export { REPLAY_CONNECTIONS } from './replay/projection-batches';
export { replaySchemasPresent } from './replay/scratch-schemas';
