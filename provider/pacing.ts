/**
 * Progress while the client-side rate limit paces the provider. A large `pulumi up` or `destroy` under the hosted
 * limit (120 requests per minute once the burst is spent) can wait minutes for its requests; the engine shows
 * resources in progress, and this says why. The engine runs a few steps at a time (`--parallel`), so each request
 * may wait only a few seconds while the provider waits for minutes: what counts is how long requests have been
 * waiting without a break. Once that is longer than {@link NOTE_AFTER_MS}, one info line goes to the engine
 * (`pulumi` prints it under the stack), again at most every {@link REPEAT_MS} while the waiting goes on. It names
 * no resource and no secret: the limit, how long, the queue.
 */
import type { ClientObserver, PrivnetClient, RateLimitWait } from "../client";
import { info } from "./diagnostics";

/** Waiting up to this long passes silently. */
export const NOTE_AFTER_MS = 5_000;
/** At most one note per this interval. */
export const REPEAT_MS = 30_000;

/** The note: the limit, how long requests have been waiting, about how many wait now. */
export function pacingNote(limit: RateLimitWait["limit"], waitingMs: number, queued: number): string {
  const { perMinute, burst } = limit;
  return (
    `privnet: pacing requests to the API rate limit (${perMinute} requests per minute, burst ${burst}): ` +
    `waiting for ${Math.round(waitingMs / 1000)} s so far, about ${queued} requests queued. Requests go on at ` +
    `${+(perMinute / 60).toFixed(2)} per second; the limit is set by privnet:rateLimit.`
  );
}

/**
 * Decides when waiting is worth a note. A request that has to wait extends the current stretch of waiting (or,
 * after a break, starts a new one) up to the time its token comes; once the stretch is longer than NOTE_AFTER_MS,
 * a note, and not again within REPEAT_MS.
 */
export class PacingReporter {
  private lastNote = Number.NEGATIVE_INFINITY;
  private since = 0;
  private until = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly emit: (message: string) => void,
    private readonly clock: { now(): number } = Date,
  ) {}

  readonly observer: ClientObserver = {
    rateLimitWait: (wait) => {
      const now = this.clock.now();
      // A break (no request waited since the last token came): a new stretch of waiting.
      if (now > this.until) this.since = now;
      this.until = Math.max(this.until, now + wait.waitMs);
      const waitingMs = this.until - this.since;
      if (waitingMs <= NOTE_AFTER_MS || now - this.lastNote < REPEAT_MS) return;
      this.lastNote = now;
      const queued = Math.max(1, Math.round((wait.waitMs * wait.limit.perMinute) / 60_000));
      this.emit(pacingNote(wait.limit, waitingMs, queued));
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
