export * from './sql-client';
export * from './postgres-sql-client';
export * from './pglite-sql-client';
export * from './migrations';
export * from './open-database';
export { settledInOrder, TransactionEndedError } from './issued-statements';
export * from './grouping-queue';
export * from './grouped-writes';
export * from './row-statements';
