/**
 * Client-side token bucket, so that a large `pulumi up` paces itself below the service's limit (120 requests
 * per minute, burst 1200 on the hosted offering) instead of collecting 429s.
 */

/** Rate limit settings: tokens refill at `perMinute`, at most `burst` are stored. */
export interface RateLimit {
  perMinute: number;
  burst: number;
}

/**
 * A token bucket that waits instead of failing. Each {@link TokenBucket.take} reserves a token at once, even
 * when the balance goes negative, and then waits for the debt to refill: concurrent callers queue up in order
 * without polling, and the waits add up to exactly the configured rate.
 */
export class TokenBucket {
  private tokens: number;
  private updated: number;
  private readonly perMs: number;

  constructor(
    private readonly limit: RateLimit,
    private readonly clock: { now(): number },
    private readonly sleep: (ms: number) => Promise<void>,
  ) {
    if (!(limit.perMinute > 0) || !Number.isFinite(limit.perMinute)) {
      throw new Error(`privnet: rateLimit.perMinute must be a positive number, got ${limit.perMinute}`);
    }
    if (!(limit.burst >= 1) || !Number.isFinite(limit.burst)) {
      throw new Error(`privnet: rateLimit.burst must be at least 1, got ${limit.burst}`);
    }
    this.perMs = limit.perMinute / 60_000;
    this.tokens = limit.burst;
    this.updated = clock.now();
  }

  /** The configured rate and burst. */
  get settings(): RateLimit {
    return { ...this.limit };
  }

  /** Takes one token, waiting (through the injected sleep) when none is left. Resolves to the wait in ms. */
  async take(): Promise<number> {
    const waitMs = this.reserve();
    if (waitMs > 0) await this.sleep(waitMs);
    return waitMs;
  }

  /**
   * Reserves one token now and returns how long its taker must wait before using it (0: at once). The caller
   * does the waiting; {@link take} is reserve-and-wait.
   */
  reserve(): number {
    this.refill();
    this.tokens -= 1;
    if (this.tokens >= 0) return 0;
    // The epsilon keeps float noise (499.9999999 or 500.0000001) from adding a millisecond.
    return Math.ceil(-this.tokens / this.perMs - 1e-6);
  }

  /**
   * The server said it has no token left for us (a 429): whatever this bucket believed, nothing is stored now,
   * so the requests that follow are paced at the refill rate instead of spending a burst the server does not
   * have (another process, or a run a minute ago, used it). A debt already queued stays as it is.
   */
  drain(): void {
    this.refill();
    this.tokens = Math.min(this.tokens, 0);
  }

  private refill(): void {
    const now = this.clock.now();
    // A clock that goes backwards (a test, an NTP step) must not drain the bucket.
    const elapsed = Math.max(0, now - this.updated);
    this.tokens = Math.min(this.limit.burst, this.tokens + elapsed * this.perMs);
    this.updated = Math.max(this.updated, now);
  }
}
