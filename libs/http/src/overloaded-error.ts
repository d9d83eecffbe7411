/**
 * A queue was full: more work waits than the process can get through in about a second, so the
 * next is refused at once instead of waiting tens of seconds. Nothing of the refused work was
 * started; the caller may retry it unchanged (a create with the same Idempotency-Key) after
 * `retryAfterSeconds`. Answered 503 `overloaded` with Retry-After (toApiError).
 *
 * Here, beside that answer and beside the admission gate whose refusal the bootstrap raises as
 * one; the write side's queues (Committer, LedgerBatches, WritePath) raise it too, and import it
 * from here, since the write side depends on libs/http and never the reverse.
 */
export class OverloadedError extends Error {
  constructor(
    readonly queue: string,
    readonly retryAfterSeconds = 1,
  ) {
    super(`too much work is waiting (${queue}); retry shortly`);
    this.name = 'OverloadedError';
  }
}
