/**
 * A token bucket per credential. `--rate-limit 120:1200` reproduces the hosted limit (120 requests per minute,
 * burst 1200). Over the limit: 429 in the usual error shape with a Retry-After header (the real service sends
 * none; clients must not rely on it).
 */
import type { Clock } from "./clock";
import type { RateLimitOptions } from "./context";
import { ApiError } from "./errors";

interface Bucket {
  tokens: number;
  updated: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    private readonly opts: RateLimitOptions,
    private readonly clock: Clock,
  ) {
    this.perMs = opts.perMinute / 60_000;
  }

  /** Takes one token for `key` or throws 429. */
  take(key: string): void {
    const now = this.clock.now();
    const b = this.buckets.get(key) ?? { tokens: this.opts.burst, updated: now };
    b.tokens = Math.min(this.opts.burst, b.tokens + (now - b.updated) * this.perMs);
    b.updated = now;
    if (b.tokens < 1) {
      this.buckets.set(key, b);
      const waitMs = (1 - b.tokens) / this.perMs;
      throw new ApiError(429, "too many requests", {
        "Retry-After": String(Math.max(1, Math.ceil(waitMs / 1000))),
      });
    }
    b.tokens -= 1;
    this.buckets.set(key, b);
  }
}

/** Parses `PER_MIN:BURST` or `off`. */
export function parseRateLimit(text: string): RateLimitOptions | undefined {
  if (text === "off") return undefined;
  const m = /^(\d+):(\d+)$/.exec(text);
  if (!m) throw new Error(`--rate-limit: expected PER_MIN:BURST or off, got ${JSON.stringify(text)}`);
  const perMinute = Number(m[1]);
  const burst = Number(m[2]);
  if (perMinute < 1 || burst < 1) throw new Error("--rate-limit: both numbers must be at least 1");
  return { perMinute, burst };
}
