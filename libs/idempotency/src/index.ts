export { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_RETENTION_DAYS, requestHash } from './idempotency-key';
export {
  IdempotencyKeyTakenError,
  IdempotencyStore,
  KEY_USE_BESIDE_CREDENTIAL_SQL,
} from './idempotency-store';
export type { IdempotencyDecision, IdempotencyScope, IdempotencyStoreOptions } from './idempotency-store';
