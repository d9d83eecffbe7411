export { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_RETENTION_DAYS, requestHash } from './idempotency-key';
export { IdempotencyStore } from './idempotency-store';
export { IdempotencyKeyTakenError } from './idempotency-values';
export type { IdempotencyDecision, IdempotencyScope, IdempotencyStoreOptions } from './idempotency-values';
export { answerRow } from './idempotency-hold';
export type { IdempotencyHold } from './idempotency-hold';
export * from './idempotent-requests';
export { IDEMPOTENCY_STORE } from './idempotency.tokens';
export { IdempotencyModule } from './idempotency.module';
