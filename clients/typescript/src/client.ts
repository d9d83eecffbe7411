import { DEFAULT_RETRY_POLICY } from './http/retry-policy';
import { FetchFunction, Transport } from './http/transport';
import { BalanceTransactions } from './resources/balance-transactions';
import { Events } from './resources/events';
import { Orders } from './resources/orders';
import { Payouts } from './resources/payouts';
import { Settlements } from './resources/settlements';

export interface PayoutsClientOptions {
  /**
   * The environment's base address exactly as the service gives it: production at the root
   * (`https://host`), the sandbox under it (`https://host/sandbox`). The client adds no environment
   * of its own; one trailing slash is ignored.
   */
  baseUrl: string;
  /**
   * A payout credential (`pk_…`) for `payouts`, `balanceTransactions`, `settlements` and `events`,
   * or a checkout API key (`ck_…`) for `orders`: one client per credential.
   */
  token: string;
  /** Default: the platform's `fetch`. */
  fetch?: FetchFunction;
  /** Retries after the first attempt (no answer, 503, 429); default 3, 0 disables. */
  maxRetries?: number;
  /** The first retry's backoff ceiling, doubled on each retry; default 250 ms. */
  retryBaseDelayMs?: number;
  /** No wait between attempts is longer, `Retry-After` included; default 8000 ms. */
  retryMaxDelayMs?: number;
  /** An attempt with no answer by then is abandoned (and retried); default 60000 ms. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The service's API, typed from the OpenAPI document it serves:
 * `new PayoutsClient({ baseUrl: 'https://host/sandbox', token: 'pk_test_…' })`.
 */
export class PayoutsClient {
  readonly payouts: Payouts;
  readonly orders: Orders;
  readonly balanceTransactions: BalanceTransactions;
  readonly settlements: Settlements;
  readonly events: Events;

  constructor(options: PayoutsClientOptions) {
    const http = new Transport({
      baseUrl: checkedBaseUrl(options.baseUrl),
      token: checkedToken(options.token),
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      retry: {
        maxRetries: wholeNumber('maxRetries', options.maxRetries, DEFAULT_RETRY_POLICY.maxRetries),
        baseDelayMs: wholeNumber(
          'retryBaseDelayMs',
          options.retryBaseDelayMs,
          DEFAULT_RETRY_POLICY.baseDelayMs,
        ),
        maxDelayMs: wholeNumber('retryMaxDelayMs', options.retryMaxDelayMs, DEFAULT_RETRY_POLICY.maxDelayMs),
      },
      timeoutMs: wholeNumber('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS),
    });
    this.payouts = new Payouts(http);
    this.orders = new Orders(http);
    this.balanceTransactions = new BalanceTransactions(http);
    this.settlements = new Settlements(http);
    this.events = new Events(http);
  }
}

function checkedBaseUrl(baseUrl: string): string {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) address, not ${JSON.stringify(baseUrl)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new TypeError(`baseUrl must be an http(s) address, not ${JSON.stringify(baseUrl)}`);
  }
  // The paths are appended to it: a query or fragment would end up in front of them.
  if (parsed.search !== '' || parsed.hash !== '') {
    throw new TypeError('baseUrl must have no query or fragment');
  }
  return baseUrl;
}

function checkedToken(token: string): string {
  if (typeof token !== 'string' || token.trim() === '')
    throw new TypeError('token must be a non-empty string');
  return token;
}

function wholeNumber(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name} must be a whole number ≥ 0`);
  return value;
}
