/**
 * The client's errors: one class for "the service answered with an error status", one for "no usable answer
 * came back" (connection refused, reset, timed out). Both carry the method and path, never the credential.
 */
import { STATUS_CODES } from "node:http";

/** Longest excerpt of a non-JSON (or message-less) error body that goes into an error message. */
export const BODY_EXCERPT_CHARS = 200;

/** Longest server `message` that is quoted in full; longer ones are cut (a validation list can be long). */
const MAX_SERVER_MESSAGE_CHARS = 2000;

// Registered symbols survive two copies of this module in one process (a bundled provider next to the
// package), which `instanceof` does not.
const API_ERROR_BRAND = Symbol.for("pulumi-privnet.PrivnetApiError");
const CONNECTION_ERROR_BRAND = Symbol.for("pulumi-privnet.PrivnetConnectionError");

/** What {@link PrivnetApiError} is built from. */
export interface PrivnetApiErrorInit {
  method: string;
  path: string;
  status: number;
  serverMessage: string;
  requestId?: string;
  retryable: boolean;
  /** Whether the body was the service's error shape, `{"message": ...}` (default false). */
  serviceShaped?: boolean;
}

/**
 * The service answered with a non-2xx status (or a 2xx body that is not JSON). The message reads
 * `privnet: PUT /api/routes/abc 422: metric: must be between 1 and 9999`.
 */
export class PrivnetApiError extends Error {
  readonly method: string;
  /** Request path without the query string. */
  readonly path: string;
  readonly status: number;
  /** The `message` of the service's error body, or an excerpt of a body that has none. */
  readonly serverMessage: string;
  /** The `X-Request-Id` response header, for matching a failure to the server's log. */
  readonly requestId?: string;
  /**
   * True when the same request could succeed later *and* sending it again is safe: a 429 for any method,
   * 502/503/504 for GET, PUT and DELETE. A POST answered by 502/503/504 is not retryable: it may have been
   * applied.
   */
  readonly retryable: boolean;
  /**
   * Whether the body was the service's error shape (`{"message": ...}`). A 404 without it is an unknown path (a
   * server that has no such route answers it in plain text), not an object the service says is missing.
   */
  readonly serviceShaped: boolean;
  declare readonly [API_ERROR_BRAND]: true;

  constructor(init: PrivnetApiErrorInit) {
    super(`privnet: ${init.method} ${init.path} ${init.status}: ${init.serverMessage}`);
    this.name = "PrivnetApiError";
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.serverMessage = init.serverMessage;
    if (init.requestId !== undefined) this.requestId = init.requestId;
    this.retryable = init.retryable;
    this.serviceShaped = init.serviceShaped === true;
    Object.defineProperty(this, API_ERROR_BRAND, { value: true });
  }
}

/** What {@link PrivnetConnectionError} is built from. */
export interface PrivnetConnectionErrorInit {
  method: string;
  path: string;
  /** The transport's error code (`ECONNREFUSED`, `UND_ERR_SOCKET`, ...), when there is one. */
  code?: string;
  /** The transport's message, already stripped of the credential. */
  detail: string;
  attempts: number;
  /** True when the request may have reached the server (it was sent, no answer came back). */
  mayHaveReachedServer: boolean;
  /** True when the failure was transient and repeating this request is safe (see {@link PrivnetApiError}). */
  retryable: boolean;
  cause?: unknown;
}

/**
 * No usable answer: the connection could not be made, or broke, or timed out. The message names the method,
 * the path and the cause, and says whether a POST was left unrepeated because it may have been applied.
 */
export class PrivnetConnectionError extends Error {
  readonly method: string;
  readonly path: string;
  readonly code?: string;
  readonly attempts: number;
  readonly mayHaveReachedServer: boolean;
  readonly retryable: boolean;
  declare readonly [CONNECTION_ERROR_BRAND]: true;

  constructor(init: PrivnetConnectionErrorInit) {
    const code = init.code && !init.detail.includes(init.code) ? ` (${init.code})` : "";
    const tries = init.attempts > 1 ? `; gave up after ${init.attempts} attempts` : "";
    const unsafe =
      init.mayHaveReachedServer && !init.retryable && init.method === "POST"
        ? "; not repeated because the server may already have applied it"
        : "";
    super(`privnet: ${init.method} ${init.path}: ${init.detail}${code}${tries}${unsafe}`, {
      cause: init.cause,
    });
    this.name = "PrivnetConnectionError";
    this.method = init.method;
    this.path = init.path;
    if (init.code !== undefined) this.code = init.code;
    this.attempts = init.attempts;
    this.mayHaveReachedServer = init.mayHaveReachedServer;
    this.retryable = init.retryable;
    Object.defineProperty(this, CONNECTION_ERROR_BRAND, { value: true });
  }
}

function hasBrand(e: unknown, brand: symbol): boolean {
  return typeof e === "object" && e !== null && (e as Record<symbol, unknown>)[brand] === true;
}

/** Guard for {@link PrivnetApiError}; also true for an instance from another copy of this module. */
export function isPrivnetApiError(e: unknown): e is PrivnetApiError {
  return (
    e instanceof PrivnetApiError ||
    (hasBrand(e, API_ERROR_BRAND) && typeof (e as { status?: unknown }).status === "number")
  );
}

/** Guard for {@link PrivnetConnectionError}; also true for an instance from another copy of this module. */
export function isPrivnetConnectionError(e: unknown): e is PrivnetConnectionError {
  return e instanceof PrivnetConnectionError || hasBrand(e, CONNECTION_ERROR_BRAND);
}

/** True for a 404 answer: read treats the object as gone, delete treats it as done. */
export function isNotFound(e: unknown): boolean {
  return isPrivnetApiError(e) && e.status === 404;
}

/** Whether an error body is the service's error shape: a JSON object with a `message`. */
export function isServiceShaped(body: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body);
    return (
      typeof parsed === "object" && parsed !== null && typeof Reflect.get(parsed, "message") === "string"
    );
  } catch {
    return false;
  }
}

/**
 * The server's message from an error body: the `message` of a JSON object when it has one, otherwise a short
 * readable excerpt of whatever came back (HTML from a proxy, plain text, truncated or empty bodies).
 */
export function serverMessageOf(status: number, body: string): string {
  const text = body.trim();
  if (text === "") return `${STATUS_CODES[status] ?? "error"} (empty response body)`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
    const message = (parsed as { message?: unknown }).message;
    if (typeof message === "string" && message.trim() !== "")
      return cut(message.trim(), MAX_SERVER_MESSAGE_CHARS);
  }
  const readable = text.startsWith("<") ? stripTags(text) : text;
  const excerpt = cut(readable.replace(/\s+/g, " ").trim(), BODY_EXCERPT_CHARS);
  const label = STATUS_CODES[status] ?? "error";
  return excerpt === "" ? `${label} (no readable text in the response body)` : `${label}: ${excerpt}`;
}

/** Removes HTML markup (a proxy's error page) so the excerpt shows its words, not its tags. */
function stripTags(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?(<\/\1>|$)/gi, " ")
    .replace(/<[^>]*>?/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}…`;
}
