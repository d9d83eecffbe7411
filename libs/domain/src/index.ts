// The pure domain: deciders, events, commands and money. No Nest, no Prisma, no I/O, no clock.
export * from './shared/decider';
export * from './shared/domain-error';
export * from './shared/time';
export * from './money/money';
export * from './payout/payout.events';
export * from './payout/payout.commands';
export * from './payout/payout.state';
export * from './payout/payout.limits';
export * from './payout/payout.decide';
export * from './ledger/ledger.events';
export * from './ledger/ledger.commands';
export * from './ledger/ledger.state';
export * from './ledger/ledger.decide';
export * from './ledger/ledger.view';
export * from './ledger/closed-reservations';
export * from './merchant-reference/merchant-reference';
