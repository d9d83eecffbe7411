export * from './read-model-client';
export * from './read-model.projection';
export * from './projectable-event';
export * from './payout-list.projection';
export * from './balance.projection';
export { toLedgerEvent } from './ledger-batch';
export * from './payout-views';
export * from './payout-view.query';
export * from './funds-views';
export * from './status-totals';
export {
  addRunning,
  fillReleasesFromBatch,
  NO_RUNNING,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  transactionId,
  transactionsOf,
} from './balance-transactions';
export type {
  RunningDeltas,
  TransactionDraft,
  TransactionStatus,
  TransactionType,
} from './balance-transactions';
export * from './charts';
