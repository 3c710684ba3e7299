/**
 * When to send a request again, and how long to wait first.
 *
 * The one rule that matters: a POST is never repeated once it may have reached the server, because a POST
 * creates an object and a second one would create a duplicate (two groups with the same name, two setup keys).
 * PUT replaces an object with the same body and DELETE of a gone object is harmless, so GET, PUT and DELETE are
 * treated as idempotent.
 */

/** HTTP methods the client sends. */
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** Statuses worth retrying: rate limited, and the gateway/availability errors of a proxy or a restart. */
const TRANSIENT_STATUSES = new Set([429, 502, 503, 504]);

/**
 * True when a response with `status` should be retried for `method`.
 *
 * A POST is retried on 429 only: the service's rate limiter runs before the request is processed (it rejects
 * on the credential alone, before the body is read), so a 429 proves nothing was created. A 502/503/504 may
 * come from a proxy after the service applied the request, so a POST answered that way is not repeated.
 */
export function isRetryableStatus(method: HttpMethod, status: number): boolean {
  if (!TRANSIENT_STATUSES.has(status)) return false;
  return status === 429 || method !== "POST";
}

/**
 * Error codes that can only arise before a single byte of the request was written: the name did not resolve
 * or the TCP connection was never established. A request failing this way did not reach the server, so even a
 * POST may be sent again.
 */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  // connect(2) failures: no route to the host or the network.
  "EHOSTUNREACH",
  "ENETUNREACH",
  // undici's connect timeout fires only while the socket is still connecting.
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * Transport failures where the request may have been sent: the connection broke or the answer did not come
 * in time. Retried for idempotent methods only.
 */
const MAYBE_SENT_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNABORTED",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);

/**
 * Failures the client itself raised before sending anything: a bad argument or a closed dispatcher. Not
 * transient, so not retried.
 */
const LOCAL_CODES = new Set([
  "UND_ERR_INVALID_ARG",
  "UND_ERR_CLOSED",
  "UND_ERR_DESTROYED",
  "UND_ERR_NOT_SUPPORTED",
]);

/** How a thrown transport error is treated. */
export interface TransportFailure {
  /** The most specific error code found (on the error, its cause, or an AggregateError's members). */
  code?: string;
  /** Human-readable cause, e.g. `connect ECONNREFUSED 127.0.0.1:8080`. */
  detail: string;
  /** False only when the request provably never reached the server. */
  maybeSent: boolean;
  /** True when trying again later could succeed. */
  transient: boolean;
}

/**
 * Classifies an error thrown while sending a request or reading its answer. Node reports a failed
 * happy-eyeballs connect as an AggregateError of one error per address; it counts as not sent only when every
 * member does. Unknown errors count as possibly sent and not transient: the safe reading for a POST.
 */
export function classifyTransportError(err: unknown): TransportFailure {
  const leaves = leafErrors(err);
  const codes = leaves.map(codeOf);
  const detail = detailOf(err, leaves);
  const known = codes.filter((c): c is string => c !== undefined);
  const all = (set: Set<string>) =>
    known.length > 0 && known.length === leaves.length && known.every((c) => set.has(c));
  if (all(NOT_SENT_CODES)) return { code: known[0], detail, maybeSent: false, transient: true };
  const own = codeOf(err);
  if (own !== undefined && LOCAL_CODES.has(own))
    return { code: own, detail, maybeSent: false, transient: false };
  const transient = known.find((c) => MAYBE_SENT_CODES.has(c)) ?? known.find((c) => NOT_SENT_CODES.has(c));
  if (transient !== undefined) return { code: transient, detail, maybeSent: true, transient: true };
  return { code: own ?? known[0], detail, maybeSent: true, transient: false };
}

/** True when a transport failure should be retried for `method` (see the module comment). */
export function isRetryableFailure(method: HttpMethod, failure: TransportFailure): boolean {
  return failure.transient && (!failure.maybeSent || method !== "POST");
}

function codeOf(e: unknown): string | undefined {
  const code = typeof e === "object" && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof code === "string" && code !== "" ? code : undefined;
}

/** The errors at the bottom of `cause` chains and AggregateError lists (bounded, causes can be cyclic). */
function leafErrors(err: unknown, depth = 0): unknown[] {
  if (depth > 5 || typeof err !== "object" || err === null) return [err];
  const members = (err as { errors?: unknown }).errors;
  if (Array.isArray(members) && members.length > 0) return members.flatMap((m) => leafErrors(m, depth + 1));
  const cause = (err as { cause?: unknown }).cause;
  // A wrapper with its own code (undici's) is the useful level; a bare wrapper (fetch's TypeError) is not.
  if (cause !== undefined && codeOf(err) === undefined) return leafErrors(cause, depth + 1);
  return [err];
}

function detailOf(err: unknown, leaves: unknown[]): string {
  const own = err instanceof Error ? err.message : String(err);
  if (own.trim() !== "" && own !== "fetch failed") return own;
  const first = leaves[0];
  return first instanceof Error && first.message !== ""
    ? first.message
    : String(codeOf(first) ?? "network error");
}

/** Backoff settings. */
export interface BackoffOptions {
  baseDelayMs: number;
  maxDelayMs: number;
  random: () => number;
}

/**
 * Exponential backoff with full jitter: a uniform delay in [0, min(maxDelayMs, baseDelayMs * 2^(retry-1))].
 * Full jitter spreads the retries of many clients that failed together (a restart) instead of sending them
 * back in lockstep. `retry` counts from 1.
 */
export function backoffDelay(retry: number, o: BackoffOptions): number {
  const ceiling = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const r = Math.min(1, Math.max(0, o.random()));
  return Math.round(r * ceiling);
}

/**
 * Milliseconds a `Retry-After` value asks to wait: delta-seconds (`120`) or an HTTP date. Undefined when the
 * value is missing or unreadable; a date in the past means no wait.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // Only a date that looks like one: Date.parse also accepts bare numbers such as "1.5" or "-1".
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
