/**
 * Seeded fault injection (`--faults seed=1,429=0.2,503=0.1,latency=50`): before any processing, a share of
 * /api requests is delayed, or answered 429 or 503. Faults never hit a request that already changed state, so
 * a client that retries correctly converges without duplicates.
 */
import type { FaultOptions } from "./context";
import { ApiError } from "./errors";

/** mulberry32: small, fast, deterministic for a seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private readonly random: () => number;
  /** Counts of injected faults, for reports. */
  readonly counts = { r429: 0, r503: 0, delayed: 0 };

  constructor(private readonly opts: FaultOptions) {
    this.random = prng(opts.seed);
  }

  async maybeFail(url: string): Promise<void> {
    if (!url.startsWith("/api/")) return;
    if (this.opts.latencyMs > 0) {
      const ms = Math.floor(this.random() * this.opts.latencyMs);
      if (ms > 0) {
        this.counts.delayed++;
        await new Promise((r) => setTimeout(r, ms));
      }
    }
    const roll = this.random();
    if (roll < this.opts.rate429) {
      this.counts.r429++;
      throw new ApiError(429, "too many requests (injected fault)");
    }
    if (roll < this.opts.rate429 + this.opts.rate503) {
      this.counts.r503++;
      throw new ApiError(503, "service unavailable (injected fault)");
    }
  }
}

/** Parses `seed=N,429=R,503=R,latency=MS`. */
export function parseFaults(text: string): FaultOptions {
  const opts: FaultOptions = { seed: 1, rate429: 0, rate503: 0, latencyMs: 0 };
  for (const part of text.split(",")) {
    const [k, v] = part.split("=");
    const n = Number(v);
    if (v === undefined || Number.isNaN(n)) throw new Error(`--faults: bad item ${JSON.stringify(part)}`);
    if (k === "seed") opts.seed = n;
    else if (k === "429") opts.rate429 = n;
    else if (k === "503") opts.rate503 = n;
    else if (k === "latency") opts.latencyMs = n;
    else throw new Error(`--faults: unknown item ${JSON.stringify(k)} (use seed, 429, 503, latency)`);
  }
  if (opts.rate429 < 0 || opts.rate503 < 0 || opts.rate429 + opts.rate503 > 1)
    throw new Error("--faults: rates must be within 0..1");
  return opts;
}
