/**
 * An answer other than 2xx: the service's error body `{"error":{"code","message","param?"}}` and
 * the answer's `Request-Id`, which the service's logs are searched by.
 */
export class PayoutsApiError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** Machine-readable, e.g. `invalid_amount`, `insufficient_scope`, `overloaded`. */
  readonly code: string;
  /** The request field the error is about, when there is one. */
  readonly param: string | undefined;
  /** The answer's `Request-Id` header. */
  readonly requestId: string | undefined;
  /**
   * The `Idempotency-Key` the request was sent with (POST only): retrying later with the same key
   * can never do the work twice, whatever happened to this attempt.
   */
  readonly idempotencyKey: string | undefined;

  constructor(fields: {
    status: number;
    code: string;
    message: string;
    param?: string;
    requestId?: string;
    idempotencyKey?: string;
  }) {
    super(fields.message);
    this.name = 'PayoutsApiError';
    this.status = fields.status;
    this.code = fields.code;
    this.param = fields.param;
    this.requestId = fields.requestId;
    this.idempotencyKey = fields.idempotencyKey;
  }
}

/**
 * No answer came (the connection was refused or broken, or the attempt timed out), on the first
 * attempt and on every retry. A POST may still have been done: retry it with `idempotencyKey`.
 */
export class PayoutsConnectionError extends Error {
  readonly attempts: number;
  readonly idempotencyKey: string | undefined;

  constructor(fields: { cause: unknown; attempts: number; idempotencyKey?: string }) {
    const reason = fields.cause instanceof Error ? fields.cause.message : String(fields.cause);
    super(`no answer from the service after ${fields.attempts} attempt(s): ${reason}`, {
      cause: fields.cause,
    });
    this.name = 'PayoutsConnectionError';
    this.attempts = fields.attempts;
    this.idempotencyKey = fields.idempotencyKey;
  }
}
