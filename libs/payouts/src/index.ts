export * from './payouts.module';
export * from './commands/create-payout.command';
export * from './commands/cancel-payout.command';
export * from './commands/ledger-commands';
export * from './support/identifiers';
export * from './commands/payout-access.commands';
export * from './commands/payout-lifecycle.commands';
export * from './commands/float.commands';
