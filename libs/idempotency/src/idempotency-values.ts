import { OneWriterRefusal } from '@payouts/write-side';
import { IDEMPOTENCY_KEY_PATTERN } from './idempotency-key';
import { MAX_RESPONSE_BODY_BYTES, NOT_STORABLE_IN_JSONB } from './idempotency-statements';
import { Environment } from '@payouts/domain';

/**
 * A key means one thing only within its account, environment, method and path
 * (docs/design.md#idempotency).
 */
export interface IdempotencyScope {
  accountId: string;
  environment: Environment;
  method: string;
  path: string;
}

export type IdempotencyDecision =
  /** The caller runs the work with this resource id (stored by an earlier unresolved attempt, or the one it proposed). */
  | { kind: 'proceed'; resourceId: string; retryOfUnresolved: boolean }
  /** A completed attempt: answer this status and body, with the header Idempotent-Replayed: true. */
  | { kind: 'replay'; status: number; body: unknown }
  /** 409 idempotency_key_in_progress: another attempt holds the lease. */
  | { kind: 'in_progress' }
  /** 422 idempotency_key_reused: the key was first sent with another request. */
  | { kind: 'mismatch' };

export interface IdempotencyStoreOptions {
  /** How long an attempt holds its key before a retry may take it over (the process is presumed dead). */
  leaseMs?: number;
  /** The clock, for tests. Unset: the database's clock, one clock for every gateway process. */
  now?: () => Date;
}

/**
 * The key was claimed by another request after it was read unused: the unclaimed attempt's
 * transaction rolled back (nothing of it was written), and the request goes through `begin`.
 */
export class IdempotencyKeyTakenError extends OneWriterRefusal {
  constructor() {
    super('the idempotency key was claimed by another request meanwhile');
    this.name = 'IdempotencyKeyTakenError';
  }
}

export interface KeyRow {
  request_hash: string;
  state: 'in_flight' | 'completed';
  resource_id: string;
  response_status: number | null;
  /** As text: both drivers parse jsonb, and would turn a stored JSON null and SQL NULL into the same null. */
  response_body: string | null;
  lease_ended: boolean;
  /** Past retention now: it aged after the claim looked (which would have replaced it). */
  expired: boolean;
}

export function checkedKeyParams(scope: IdempotencyScope, key: string): string[] {
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new RangeError('idempotency key must be 1 to 255 visible ASCII characters');
  }
  if (scope.environment !== 'production' && scope.environment !== 'sandbox') {
    throw new RangeError(`environment must be production or sandbox, not ${String(scope.environment)}`);
  }
  for (const [name, value] of [
    ['accountId', scope.accountId],
    ['method', scope.method],
    ['path', scope.path],
  ] as const) {
    if (typeof value !== 'string' || value.length === 0)
      throw new RangeError(`${name} must be a non-empty string`);
  }
  return [scope.accountId, scope.environment, scope.method, scope.path, key];
}

export function checkedStatus(status: number): number {
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new RangeError(`status must be an HTTP status (100-599), not ${String(status)}`);
  }
  return status;
}

/** JSON text for the jsonb column, or null (SQL NULL) for no body at all. */
export function storableBody(body: unknown): string | null {
  if (body === undefined) return null;
  let json: string | undefined;
  try {
    json = JSON.stringify(body);
  } catch (error) {
    throw new TypeError('the response body cannot be stored as JSON', { cause: error });
  }
  if (json === undefined) throw new TypeError('the response body cannot be stored as JSON (a function?)');
  if (NOT_STORABLE_IN_JSONB.test(json)) {
    throw new TypeError('the response body holds \\u0000 or a lone surrogate, which jsonb cannot store');
  }
  if (Buffer.byteLength(json, 'utf8') > MAX_RESPONSE_BODY_BYTES) {
    throw new RangeError(`the response body is larger than ${MAX_RESPONSE_BODY_BYTES} bytes`);
  }
  return json;
}

export function parseStoredBody(text: string | null): unknown {
  return text === null ? undefined : JSON.parse(text);
}
