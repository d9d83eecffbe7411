// The finance audit (ARCHITECTURE 8, docs/audit.md): the tamper-evidence chain and its keeper's
export * from './chain/canonical-json';
export * from './chain/chain-link';
export * from './chain/chain-store';
export * from './chain/chain-keeper';
export * from './feed/audit-feed';
