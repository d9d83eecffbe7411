import { RateLimiter } from './rate-limiter';

describe('the per-credential rate limiter', () => {
  it('allows a burst, then refuses with the seconds to wait, then refills at the sustained rate', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 3, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBe(1);
    now += 500; // half a second refills one token at 2/s
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBeGreaterThan(0);
  });

  it('keeps each credential in its own bucket', () => {
    const limiter = new RateLimiter(1, 1, () => 0);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(1);
    expect(limiter.take('b')).toBe(0);
  });
});
