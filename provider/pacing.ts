/**
 * Progress while the client-side rate limit paces the provider. A large `pulumi up` or `destroy` under the hosted
 * limit (120 requests per minute once the burst is spent) can wait minutes for its requests; the engine shows
 * resources in progress, and this says why: when a request has to wait longer than {@link NOTE_AFTER_MS} for the
 * client's token bucket, one info line goes to the engine (`pulumi` prints it under the stack), again at most every
 * {@link REPEAT_MS} while the waiting goes on. It names no resource and no secret: the limit, the queue, the wait.
 */
import type { ClientObserver, PrivnetClient, RateLimitWait } from "../client";
import { info } from "./diagnostics";

/** Waits up to this long pass silently. */
export const NOTE_AFTER_MS = 5_000;
/** At most one note per this interval. */
export const REPEAT_MS = 30_000;

/** The note for a wait. */
export function pacingNote(wait: RateLimitWait): string {
  const { perMinute, burst } = wait.limit;
  const queued = Math.max(1, Math.round((wait.waitMs * perMinute) / 60_000));
  const seconds = Math.round(wait.waitMs / 1000);
  return (
    `privnet: waiting for the API rate limit (${perMinute} requests per minute, burst ${burst}): about ` +
    `${queued} requests queued, ${seconds} s for the last one to start. Requests go on at ` +
    `${+(perMinute / 60).toFixed(2)} per second; the limit is set by privnet:rateLimit.`
  );
}

/** Decides when a wait is worth a note: longer than NOTE_AFTER_MS, and not within REPEAT_MS of the last. */
export class PacingReporter {
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly emit: (message: string) => void,
    private readonly clock: { now(): number } = Date,
  ) {}

  readonly observer: ClientObserver = {
    rateLimitWait: (wait) => {
      if (wait.waitMs <= NOTE_AFTER_MS) return;
      const now = this.clock.now();
      if (now - this.last < REPEAT_MS) return;
      this.last = now;
      this.emit(pacingNote(wait));
    },
  };
}

const watched = new WeakSet<PrivnetClient>();
/** One reporter per process: the kinds' providers share the notes as they share the bucket. */
const reporter = new PacingReporter((message) => void info(message));

/** Reports this client's long waits on its rate limit (once per client). */
export function reportPacing(client: PrivnetClient): void {
  if (watched.has(client)) return;
  watched.add(client);
  client.observe(reporter.observer);
}
