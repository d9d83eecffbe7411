import { PayoutsApiError, PayoutsConnectionError } from '../errors';
import { cryptoRandom, parseRetryAfter, RetryPolicy, retryDelayMs } from './retry-policy';

export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportConfig {
  /** The environment's base address as the service gives it (the sandbox's ends in `/sandbox`). */
  baseUrl: string;
  token: string;
  fetch: FetchFunction;
  retry: RetryPolicy;
  /** Per attempt: an attempt with no answer by then counts as a network error (and is retried). */
  timeoutMs: number;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequest {
  method: 'GET' | 'POST';
  /** The service's path from the environment's base, e.g. `/api/payout/create`. */
  path: string;
  query?: Readonly<Record<string, QueryValue>>;
  /** Sent as JSON; none when undefined. */
  body?: unknown;
  /** POST only; one is generated when not given. */
  idempotencyKey?: string;
}

/**
 * One call to the service: JSON in and out, the Bearer token, and the retries. Every POST carries
 * an `Idempotency-Key`, the same on every attempt of the call, so an attempt whose answer was lost
 * and a retry after an overload refusal can only be done once by the service.
 *
 * Retried: no answer (the connection refused or broken, or the attempt timed out), 503 (`overloaded`,
 * `service_unavailable`, `attempt_unresolved`: the service says retrying the same request is safe)
 * and 429, waiting `Retry-After` when the answer gives one; and 409 `idempotency_key_in_progress`
 * once an earlier attempt of this call went unanswered or unresolved (that attempt of ours may still
 * hold the key). Nothing else is.
 */
export class Transport {
  private readonly baseUrl: string;

  constructor(private readonly config: TransportConfig) {
    // The base address exactly as given, less one trailing slash: paths start with one.
    this.baseUrl = config.baseUrl.endsWith('/') ? config.baseUrl.slice(0, -1) : config.baseUrl;
  }

  async request<T>(request: ApiRequest): Promise<T> {
    const url = this.url(request);
    const idempotencyKey =
      request.method === 'POST' ? (request.idempotencyKey ?? globalThis.crypto.randomUUID()) : undefined;
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${this.config.token}`,
    };
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    if (body !== undefined) headers['content-type'] = 'application/json';

    const { retry } = this.config;
    // Whether an attempt of this call may still hold its key at the service.
    let ownAttemptMayHoldKey = false;
    for (let attempt = 1; ; attempt += 1) {
      const canRetry = attempt <= retry.maxRetries;
      let answer: { response: Response; text: string };
      try {
        answer = await this.send(url, { method: request.method, headers, body });
      } catch (cause) {
        ownAttemptMayHoldKey = true;
        if (!canRetry) throw new PayoutsConnectionError({ cause, attempts: attempt, idempotencyKey });
        await sleep(retryDelayMs(attempt, undefined, retry, cryptoRandom));
        continue;
      }
      const { response, text } = answer;
      if (response.ok) return parseSuccess<T>(response, text, idempotencyKey);
      const error = apiError(response, text, idempotencyKey);
      if (!canRetry || !retriable(error, ownAttemptMayHoldKey)) throw error;
      if (error.code === 'attempt_unresolved') ownAttemptMayHoldKey = true;
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
      await sleep(retryDelayMs(attempt, retryAfterMs, retry, cryptoRandom));
    }
  }

  /** One attempt, its body read whole: a connection broken mid-answer is no answer either. */
  private async send(url: string, init: RequestInit): Promise<{ response: Response; text: string }> {
    const fetchFn = this.config.fetch;
    const response = await fetchFn(url, { ...init, signal: AbortSignal.timeout(this.config.timeoutMs) });
    return { response, text: await response.text() };
  }

  private url(request: ApiRequest): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined && value !== null) search.append(name, String(value));
    }
    const query = search.toString();
    return `${this.baseUrl}${request.path}${query === '' ? '' : `?${query}`}`;
  }
}

function parseSuccess<T>(response: Response, text: string, idempotencyKey: string | undefined): T {
  if (text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    // A 2xx that is not JSON is not the service's (a captive portal, a misrouted base address).
    throw apiError(response, text, idempotencyKey);
  }
}

function retriable(error: PayoutsApiError, ownAttemptMayHoldKey: boolean): boolean {
  if (error.status === 503 || error.status === 429) return true;
  // The key is held by our own earlier attempt (its answer lost, or its outcome unresolved), not
  // by someone else's request: wait for it, then the service answers that attempt's outcome.
  return error.status === 409 && error.code === 'idempotency_key_in_progress' && ownAttemptMayHoldKey;
}

/** The service's error body, or, for an answer not from it (a proxy's page), the status alone. */
function apiError(response: Response, text: string, idempotencyKey: string | undefined): PayoutsApiError {
  const requestId = response.headers.get('request-id') ?? response.headers.get('x-request-id') ?? undefined;
  const detail = errorDetail(text);
  return new PayoutsApiError({
    status: response.status,
    code: detail?.code ?? 'unexpected_response',
    message: detail?.message ?? `HTTP ${response.status}: ${text.slice(0, 200) || response.statusText}`,
    ...(detail?.param === undefined ? {} : { param: detail.param }),
    ...(requestId === undefined ? {} : { requestId }),
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  });
}

function errorDetail(text: string): { code: string; message: string; param?: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = (parsed as { error?: unknown } | null)?.error as Record<string, unknown> | undefined;
  if (typeof error !== 'object' || error === null) return undefined;
  if (typeof error.code !== 'string' || typeof error.message !== 'string') return undefined;
  return {
    code: error.code,
    message: error.message,
    ...(typeof error.param === 'string' ? { param: error.param } : {}),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
