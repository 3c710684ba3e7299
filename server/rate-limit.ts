/**
 * Token buckets. `--rate-limit 120:1200` reproduces the hosted limit (120 requests per minute, burst 1200) per
 * user: every credential of a user (each of its personal access tokens, its bearer logins) draws from the same
 * bucket, so minting tokens buys no extra requests. Public routes are limited per client address.
 * `--auth-fail-limit` is a second limiter: failed authentications per client address. Over a limit: 429 in the
 * usual error shape with a Retry-After header (the real service sends none; clients must not rely on it).
 */
import type { Clock } from "./clock";
import type { RateLimitOptions } from "./context";
import { ApiError } from "./errors";

interface Bucket {
  tokens: number;
  updated: number;
}

/** Buckets kept before full ones (which hold nothing worth remembering) are dropped. */
const PRUNE_AT = 10_000;

/** A token bucket per key: refills at `perMinute` per minute up to `burst`; each request takes one token. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly opts: RateLimitOptions,
    private readonly clock: Clock,
    private readonly message = "too many requests",
  ) {}

  /** The bucket of `key`, refilled up to now. */
  private refilled(key: string): Bucket {
    const now = this.clock.now();
    const b = this.buckets.get(key) ?? { tokens: this.opts.burst, updated: now };
    // Multiply before dividing so whole refills stay exact (1000 ms at 60/min is exactly 1 token), and never
    // refill backwards when a (manual) clock is set back.
    const elapsed = Math.max(0, now - b.updated);
    b.tokens = Math.min(this.opts.burst, b.tokens + (elapsed * this.opts.perMinute) / 60_000);
    b.updated = Math.max(b.updated, now);
    if (!this.buckets.has(key)) {
      if (this.buckets.size >= PRUNE_AT) this.prune();
      this.buckets.set(key, b);
    }
    return b;
  }

  private prune(): void {
    const now = this.clock.now();
    for (const [k, b] of this.buckets) {
      const tokens = b.tokens + (Math.max(0, now - b.updated) * this.opts.perMinute) / 60_000;
      if (tokens >= this.opts.burst) this.buckets.delete(k);
    }
  }

  /** Throws 429 when `key` has no token left; takes nothing. */
  check(key: string): void {
    const b = this.refilled(key);
    if (b.tokens < 1) {
      const waitMs = ((1 - b.tokens) * 60_000) / this.opts.perMinute;
      throw new ApiError(429, this.message, {
        "Retry-After": String(Math.max(1, Math.ceil(waitMs / 1000))),
      });
    }
  }

  /** Takes one token for `key` if there is one; never throws (records what already happened). */
  spend(key: string): void {
    const b = this.refilled(key);
    b.tokens = Math.max(0, b.tokens - 1);
  }

  /** Takes one token for `key` or throws 429 (nothing is taken from a refused request). */
  take(key: string): void {
    this.check(key);
    this.refilled(key).tokens -= 1;
  }
}

/** Parses `PER_MIN:BURST` or `off` (`flag` names the option in messages). */
export function parseRateLimit(text: string, flag = "--rate-limit"): RateLimitOptions | undefined {
  if (text === "off") return undefined;
  const m = /^(\d+):(\d+)$/.exec(text);
  if (!m) throw new Error(`${flag}: expected PER_MIN:BURST or off, got ${JSON.stringify(text)}`);
  const perMinute = Number(m[1]);
  const burst = Number(m[2]);
  if (perMinute < 1 || burst < 1) throw new Error(`${flag}: both numbers must be at least 1`);
  return { perMinute, burst };
}
