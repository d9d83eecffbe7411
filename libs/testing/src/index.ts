export * from './test-databases';
export * from './test-infrastructure.module';
export * from './money-invariants';
export * from './socket-writes';
export * from './funds-flow-ledger';
export * from './cli-databases';
export * from './forward-proxy';
