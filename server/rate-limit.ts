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

/** A token bucket per key: refills at `perMinute` per minute up to `burst`; each request takes one token. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly opts: RateLimitOptions,
    private readonly clock: Clock,
  ) {}

  /** Takes one token for `key` or throws 429 (nothing is taken from a refused request). */
  take(key: string): void {
    const now = this.clock.now();
    const b = this.buckets.get(key) ?? { tokens: this.opts.burst, updated: now };
    // Multiply before dividing so whole refills stay exact (1000 ms at 60/min is exactly 1 token), and never
    // refill backwards when a (manual) clock is set back.
    const elapsed = Math.max(0, now - b.updated);
    b.tokens = Math.min(this.opts.burst, b.tokens + (elapsed * this.opts.perMinute) / 60_000);
    b.updated = Math.max(b.updated, now);
    this.buckets.set(key, b);
    if (b.tokens < 1) {
      const waitMs = ((1 - b.tokens) * 60_000) / this.opts.perMinute;
      throw new ApiError(429, "too many requests", {
        "Retry-After": String(Math.max(1, Math.ceil(waitMs / 1000))),
      });
    }
    b.tokens -= 1;
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
