import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelayMs } from './retry-policy';

describe('Retry-After', () => {
  const now = Date.parse('2026-10-21T07:28:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
  });

  it('reads an HTTP-date as the time left until it, 0 once it has passed', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:27:00 GMT', now)).toBe(0);
  });

  it('is undefined when absent or unreadable, so the backoff applies', () => {
    for (const value of [
      null,
      undefined,
      '',
      'soon',
      '-1',
      '1.5',
      '2026-10-21T07:28:03Z',
      'Wed, 99 Oct 2026 07:28:03 GMT',
    ]) {
      expect(parseRetryAfter(value, now)).toBeUndefined();
    }
  });
});

describe('the wait before a retry', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };

  it('without Retry-After: full jitter under a ceiling that doubles each retry, capped', () => {
    const highest = (retry: number) => retryDelayMs(retry, undefined, policy, () => 0.999_999);
    expect([1, 2, 3, 4, 5, 10].map(highest)).toEqual([99, 199, 399, 799, 999, 999]);
    expect(retryDelayMs(3, undefined, policy, () => 0)).toBe(0);
    expect(retryDelayMs(3, undefined, policy, () => 0.5)).toBe(200);
  });

  it('with Retry-After: never sooner than it asks, at most one base delay later, capped', () => {
    expect(retryDelayMs(1, 300, policy, () => 0)).toBe(300);
    expect(retryDelayMs(1, 300, policy, () => 0.999_999)).toBe(399);
    expect(retryDelayMs(1, 60_000, policy, () => 0)).toBe(1000);
  });

  it('defaults: 3 retries, 250 ms base, 8 s cap', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({ maxRetries: 3, baseDelayMs: 250, maxDelayMs: 8000 });
  });
});
