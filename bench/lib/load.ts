/**
 * A bounded HTTP load generator on undici (no autocannon or wrk needed): a keep-alive Pool with `concurrency`
 * connections and as many request loops, each sending its next request when the previous answer is read.
 * Stops at `durationMs` or `maxRequests`, whichever comes first. Loopback only.
 */
import { Pool } from "undici";
import { median, p99, quantile } from "./stats";

export interface LoadRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  body?: string;
}

export interface LoadResult {
  requests: number;
  /** Answers outside 2xx, and transport errors. */
  errors: number;
  firstError?: string;
  durationMs: number;
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
}

export interface LoadOptions {
  url: string;
  token: string;
  concurrency: number;
  durationMs: number;
  /** Upper bound of requests (default: unbounded within the duration). */
  maxRequests?: number;
  /** The i-th request (i counts from 0 over all loops). */
  request: (i: number) => LoadRequest;
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const pool = new Pool(opts.url, { connections: opts.concurrency, pipelining: 1 });
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
  const max = opts.maxRequests ?? Number.POSITIVE_INFINITY;
  const started = performance.now();
  const deadline = started + opts.durationMs;
  const headers = {
    authorization: `Token ${opts.token}`,
    accept: "application/json",
    "content-type": "application/json",
  };
  const loop = async () => {
    while (next < max && performance.now() < deadline) {
      const req = opts.request(next++);
      const t = performance.now();
      try {
        const res = await pool.request({ method: req.method, path: req.path, body: req.body, headers });
        const text = await res.body.text();
        if (res.statusCode < 200 || res.statusCode >= 300) {
          errors++;
          firstError ??= `${req.method} ${req.path}: ${res.statusCode} ${text.slice(0, 200)}`;
        }
      } catch (err) {
        errors++;
        firstError ??= `${req.method} ${req.path}: ${(err as Error).message}`;
      }
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, loop));
  const durationMs = performance.now() - started;
  await pool.close();
  return {
    requests: latencies.length,
    errors,
    firstError,
    durationMs,
    rps: (latencies.length / durationMs) * 1000,
    p50Ms: median(latencies),
    p90Ms: quantile(latencies, 0.9),
    p99Ms: p99(latencies),
  };
}
