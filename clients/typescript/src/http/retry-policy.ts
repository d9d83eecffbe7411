/** How a call is retried: on no answer, 503 and 429 (transport.ts), with these bounds. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  /** The first backoff's ceiling; each retry doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  /** No wait is longer than this, `Retry-After` included. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 3,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
});

/**
 * `Retry-After` (RFC 9110 section 10.2.3) in milliseconds from `nowMs`: delay-seconds (`1`) or an
 * HTTP-date (`Wed, 21 Oct 2026 07:28:00 GMT`; one in the past is 0). Undefined when absent or
 * unreadable, so the caller falls back to its own backoff rather than guessing.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  // Only the date form: Date.parse reads many other texts (a bare number among them) as dates.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * The wait before retry number `retry` (1 for the first). With `Retry-After`, at least what it asks
 * (plus up to one base delay of jitter, so clients refused together do not come back together),
 * capped at `maxDelayMs`. Without, "full jitter" exponential backoff: anywhere from 0 to
 * `baseDelayMs * 2^(retry-1)`, capped at `maxDelayMs`. `random` is in [0, 1).
 */
export function retryDelayMs(
  retry: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number,
): number {
  if (retryAfterMs !== undefined) {
    return Math.min(policy.maxDelayMs, retryAfterMs + Math.floor(random() * policy.baseDelayMs));
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/** A uniform number in [0, 1) from the platform's Web Crypto (Node 20+, browsers). */
export function cryptoRandom(): number {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32;
}
