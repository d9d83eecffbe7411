/**
 * A token bucket per credential: `ratePerSecond` sustained, `burst` at once. Kept in this
 * process's memory, so with N gateway processes a credential gets up to N times the rate; that
 * is the documented trade-off for not paying a database round trip per request.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedMs: number }>();
  /** Bounded like everything else: idle buckets are dropped when the map grows past this. */
  private static readonly MAX_BUCKETS = 100_000;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly nowMs: () => number = () => Date.now(),
  ) {}

  /** Takes one token; returns 0 when allowed, else the seconds until a token is available. */
  take(key: string): number {
    const now = this.nowMs();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedMs: now };
    bucket.tokens = Math.min(
      this.burst,
      bucket.tokens + ((now - bucket.updatedMs) / 1000) * this.ratePerSecond,
    );
    bucket.updatedMs = now;
    if (this.buckets.size >= RateLimiter.MAX_BUCKETS && !this.buckets.has(key)) this.dropFullBuckets();
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerSecond));
  }

  private dropFullBuckets(): void {
    const now = this.nowMs();
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.updatedMs) / 1000) * this.ratePerSecond >= this.burst)
        this.buckets.delete(key);
    }
  }
}
