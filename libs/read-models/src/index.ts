export * from './read-model-client';
export * from './read-model.projection';
export * from './projectable-event';
export * from './payout-list.projection';
export * from './balance.projection';
export { applyLedgerEvent } from './balance-row';
export type { BalanceDeltas, BalanceRow } from './balance-row';
export * from './payout-views';
export * from './payout-view.query';
