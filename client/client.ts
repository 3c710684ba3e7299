/**
 * The typed HTTP client of the management API: builds URLs from the route table, sends JSON over a keep-alive
 * undici pool, paces itself with a token bucket, retries what is safe to retry and turns failures into
 * {@link PrivnetApiError} / {@link PrivnetConnectionError}.
 */
import { STATUS_CODES } from "node:http";
import { inspect } from "node:util";
import type { Dispatcher } from "undici";
import { fillPath, operationById } from "../api/operations";
import type { OperationId, ResponseOf } from "../api/routes";
import {
  PrivnetApiError,
  PrivnetConnectionError,
  serverMessageOf,
  BODY_EXCERPT_CHARS,
  isServiceShaped,
} from "./errors";
import { acquirePool, type PoolLease } from "./pool";
import { TokenBucket, type RateLimit } from "./rate-limit";
import {
  backoffDelay,
  classifyTransportError,
  isRetryableFailure,
  isRetryableStatus,
  parseRetryAfter,
  type HttpMethod,
} from "./retry";
import { packageVersion } from "./version";

/** Query parameters; `undefined` values are left out, booleans are sent as `true` / `false`. */
/** Query parameters; a list repeats its parameter once per value (`group_id=a&group_id=b`). */
export type QueryParams = Record<string, string | number | boolean | readonly string[] | undefined>;

/** What {@link PrivnetClient.onRetry} hears before each wait. */
export interface RetryInfo {
  method: string;
  /** Request path without the query string. */
  path: string;
  /** The attempt that just failed, counting from 1; the next one is `attempt + 1`. */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** Why: `429 Too Many Requests`, `503 Service Unavailable`, `ECONNREFUSED`, ... */
  reason: string;
}

/** What {@link ClientObserver.rateLimitWait} hears: a request about to wait for the client-side rate limit. */
export interface RateLimitWait {
  method: HttpMethod;
  /** Request path without the query string. */
  path: string;
  /** How long this request waits for its token, in ms. */
  waitMs: number;
  /** The bucket's rate and burst. */
  limit: RateLimit;
}

/**
 * Listens to a client's requests (see {@link PrivnetClient.observe}). Called synchronously; errors an observer
 * throws are ignored. Nothing it hears carries the credential or a body.
 */
export interface ClientObserver {
  /** A call begins, before any wait or attempt. */
  request?(info: { method: HttpMethod; path: string }): void;
  /** A request is about to wait for a token of the client-side rate limit. */
  rateLimitWait?(info: RateLimitWait): void;
}

/** Client settings. Only `apiUrl` and `token` are required; the rest have production defaults. */
export interface ClientOptions {
  /** Base URL of the service, e.g. `http://127.0.0.1:8080` (without `/api`; a trailing `/api` is ignored). */
  apiUrl: string;
  /**
   * Personal access token, sent as `Authorization: Token <token>`. A value starting with `Bearer ` is sent as
   * an OAuth bearer token instead. Never appears in errors or logs.
   */
  token: string;
  /** Default `pulumi-privnet/<version>`. */
  userAgent?: string;
  /** Retries after the first attempt; default 6. */
  maxRetries?: number;
  /** First backoff ceiling; default 250 ms, doubling per retry, with full jitter. */
  baseDelayMs?: number;
  /** Upper bound of any wait between attempts (backoff and Retry-After); default 30 000 ms. */
  maxDelayMs?: number;
  /** Client-side token bucket; default 120 per minute, burst 1200 (the hosted service's limit); `false` disables. */
  rateLimit?: RateLimit | false;
  /**
   * Per attempt: the longest wait for the response headers and between body chunks; default 60 000 ms. Connecting
   * is bounded separately by min(timeoutMs, 10 000) ms on the default pool.
   */
  timeoutMs?: number;
  /** Test seam: the clock of the token bucket and of Retry-After dates. */
  clock?: { now(): number };
  /** Test seam: how the client waits (backoff, Retry-After, rate limit). */
  sleep?: (ms: number) => Promise<void>;
  /** Test seam: jitter source in [0, 1). */
  random?: () => number;
  /** Transport; default a keep-alive undici Pool per origin, shared by the clients of this process. */
  dispatcher?: Dispatcher;
  /** Called before each wait for a retry (for logging). Errors it throws are ignored. */
  onRetry?: (info: RetryInfo) => void;
}

/** Arguments of {@link PrivnetClient.call}. */
export interface CallArgs {
  /** Values for the `{param}` placeholders of the route's path; URL-encoded. */
  params?: Record<string, string | number>;
  query?: QueryParams;
  /** JSON request body. */
  body?: unknown;
}

/** Arguments of {@link PrivnetClient.request}. */
export interface RequestArgs {
  query?: QueryParams;
  body?: unknown;
}

const DEFAULTS = {
  maxRetries: 6,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  rateLimit: { perMinute: 120, burst: 1200 },
  timeoutMs: 60_000,
  connectTimeoutCapMs: 10_000,
} as const;

const REDACTED = "[redacted]";

/** Options after defaults; private so that nothing prints them. */
interface Settings {
  origin: string;
  basePath: string;
  userAgent: string;
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  timeoutMs: number;
  clock: { now(): number };
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  onRetry?: (info: RetryInfo) => void;
}

/**
 * Client of the management API.
 *
 * ```ts
 * const client = new PrivnetClient({ apiUrl: "http://127.0.0.1:8080", token });
 * const group = await client.call("getGroup", { params: { groupId } }); // a Group
 * ```
 */
export class PrivnetClient {
  // ECMAScript private fields: not enumerable and not shown by util.inspect or JSON.stringify, so logging the
  // client object cannot print the credential.
  readonly #settings: Settings;
  readonly #authorization: string;
  readonly #secret: string;
  readonly #bucket: TokenBucket | undefined;
  readonly #dispatcher: Dispatcher;
  readonly #lease: PoolLease | undefined;
  readonly #observers = new Set<ClientObserver>();
  #closed = false;

  constructor(opts: ClientOptions) {
    const { origin, basePath } = parseApiUrl(opts.apiUrl);
    const { authorization, secret } = authorizationOf(opts.token);
    this.#authorization = authorization;
    this.#secret = secret;
    const timeoutMs = positive("timeoutMs", opts.timeoutMs ?? DEFAULTS.timeoutMs);
    this.#settings = {
      origin,
      basePath,
      userAgent: opts.userAgent ?? `pulumi-privnet/${packageVersion()}`,
      maxRetries: nonNegativeInt("maxRetries", opts.maxRetries ?? DEFAULTS.maxRetries),
      baseDelayMs: nonNegative("baseDelayMs", opts.baseDelayMs ?? DEFAULTS.baseDelayMs),
      maxDelayMs: nonNegative("maxDelayMs", opts.maxDelayMs ?? DEFAULTS.maxDelayMs),
      timeoutMs,
      clock: opts.clock ?? Date,
      sleep: opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      random: opts.random ?? Math.random,
      onRetry: opts.onRetry,
    };
    const limit = opts.rateLimit === undefined ? DEFAULTS.rateLimit : opts.rateLimit;
    this.#bucket =
      limit === false ? undefined : new TokenBucket(limit, this.#settings.clock, this.#settings.sleep);
    if (opts.dispatcher) {
      this.#dispatcher = opts.dispatcher;
    } else {
      this.#lease = acquirePool(origin, Math.min(timeoutMs, DEFAULTS.connectTimeoutCapMs));
      this.#dispatcher = this.#lease.dispatcher;
    }
  }

  /** The service's base URL as requests use it (origin plus any path prefix, without `/api`). */
  get apiUrl(): string {
    return this.#settings.origin + this.#settings.basePath;
  }

  /**
   * Calls an operation of the route table (api/routes.ts) by operationId. Returns the parsed JSON body, or
   * undefined when the answer has none (the vendor-c EDR delete). Response bodies are not validated: the real
   * service may add fields.
   */
  call<Id extends OperationId>(operationId: Id, args?: CallArgs): Promise<ResponseOf<Id>>;
  /**
   * An operation named by a string only known at run time (a loop over list operations), with the caller naming
   * the answer's type. A literal id must still be one of the table's: `S` is inferred from it, and then only an
   * {@link OperationId} is accepted.
   */
  call<T = unknown, S extends string = string>(
    operationId: string extends S ? S : OperationId,
    args?: CallArgs,
  ): Promise<T>;
  async call(operationId: string, args: CallArgs = {}): Promise<unknown> {
    const route = operationById(operationId);
    const path = fillPath(route.path, args.params ?? {});
    // The invite-link routes are public: no reason to hand the credential to them.
    return this.#send(route.method, path, args.query, args.body, route.auth === "token");
  }

  /** Sends `method path` (a path starting with `/api/`), with the same retries, pacing and errors as {@link call}. */
  async request<T = unknown>(method: HttpMethod, path: string, args: RequestArgs = {}): Promise<T> {
    if (!path.startsWith("/"))
      throw new Error(`privnet: request path must start with "/", got ${JSON.stringify(path)}`);
    return this.#send<T>(method, path, args.query, args.body, true);
  }

  /**
   * Adds an observer of this client's requests (the provider uses it to see its own writes and its waits on
   * the rate limit). Returns the function that removes it.
   */
  observe(observer: ClientObserver): () => void {
    this.#observers.add(observer);
    return () => {
      this.#observers.delete(observer);
    };
  }

  #notify<K extends keyof ClientObserver>(
    event: K,
    info: Parameters<NonNullable<ClientObserver[K]>>[0],
  ): void {
    for (const o of this.#observers) {
      try {
        (o[event] as ((i: typeof info) => void) | undefined)?.(info);
      } catch {
        // an observer must not change what the request does
      }
    }
  }

  /** Releases the connection pool (the shared pool closes when its last client is closed). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#lease?.release();
  }

  async #send<T>(
    method: HttpMethod,
    path: string,
    query: QueryParams | undefined,
    body: unknown,
    withAuth: boolean,
  ): Promise<T> {
    const s = this.#settings;
    const target = s.basePath + path + queryString(path, query);
    // The error path is the request path without the query string: short, and free of filter values.
    const errPath = s.basePath + path.split("?")[0];
    const headers: Record<string, string> = { accept: "application/json", "user-agent": s.userAgent };
    if (withAuth && this.#authorization !== "") headers.authorization = this.#authorization;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers["content-type"] = "application/json";
    }
    if (this.#observers.size) this.#notify("request", { method, path: errPath });

    for (let attempt = 1; ; attempt++) {
      if (this.#closed) throw new Error(`privnet: ${method} ${errPath}: the client is closed`);
      const bucketWaitMs = this.#bucket?.reserve() ?? 0;
      if (bucketWaitMs > 0) {
        if (this.#observers.size && this.#bucket)
          this.#notify("rateLimitWait", {
            method,
            path: errPath,
            waitMs: bucketWaitMs,
            limit: this.#bucket.settings,
          });
        await s.sleep(bucketWaitMs);
      }

      let status: number;
      let responseHeaders: Record<string, string | string[] | undefined>;
      let text: string;
      try {
        const res = await this.#dispatcher.request({
          origin: s.origin,
          path: target,
          method,
          headers,
          body: payload,
          headersTimeout: s.timeoutMs,
          bodyTimeout: s.timeoutMs,
        });
        status = res.statusCode;
        responseHeaders = res.headers;
        text = await res.body.text();
        // undici hands a connection back to its pool one event-loop turn after the response ends (a
        // setImmediate in its HTTP/1 client). Without this yield, a caller's next request would be dispatched
        // before that and make the pool open a second connection; with it, back-to-back requests share one.
        await new Promise<void>((resolve) => setImmediate(resolve));
      } catch (err) {
        const failure = classifyTransportError(err);
        const detail = this.#redact(failure.detail);
        if (isRetryableFailure(method, failure) && attempt <= s.maxRetries) {
          const delayMs = backoffDelay(attempt, s);
          await this.#wait({ method, path: errPath, attempt, delayMs, reason: failure.code ?? detail });
          continue;
        }
        throw new PrivnetConnectionError({
          method,
          path: errPath,
          code: failure.code,
          detail,
          attempts: attempt,
          mayHaveReachedServer: failure.maybeSent,
          retryable: isRetryableFailure(method, failure),
          cause: this.#safeCause(err),
        });
      }

      const requestId = header(responseHeaders, "x-request-id");
      if (status >= 200 && status < 300) {
        if (text.trim() === "") return undefined as T;
        try {
          return JSON.parse(text) as T;
        } catch {
          throw new PrivnetApiError({
            method,
            path: errPath,
            status,
            serverMessage: this.#redact(`response body is not valid JSON: ${excerpt(text)}`),
            requestId,
            retryable: false,
          });
        }
      }

      // The server is out of tokens for this credential, whatever our bucket believed (another process or an
      // earlier run used them): from now on, pace at the refill rate instead of spending a burst it does not have.
      if (status === 429) this.#bucket?.drain();
      const retryable = isRetryableStatus(method, status);
      if (retryable && attempt <= s.maxRetries) {
        const retryAfter = parseRetryAfter(responseHeaders["retry-after"], s.clock.now());
        // Retry-After is honoured but capped like any wait; the real service never sends it (then: backoff).
        const delayMs =
          retryAfter === undefined ? backoffDelay(attempt, s) : Math.min(retryAfter, s.maxDelayMs);
        const reason = `${status} ${STATUS_CODES[status] ?? ""}`.trim();
        await this.#wait({ method, path: errPath, attempt, delayMs, reason });
        continue;
      }
      throw new PrivnetApiError({
        method,
        path: errPath,
        status,
        serverMessage: this.#redact(serverMessageOf(status, text)),
        requestId,
        retryable,
        serviceShaped: isServiceShaped(text),
      });
    }
  }

  async #wait(info: RetryInfo): Promise<void> {
    try {
      this.#settings.onRetry?.(info);
    } catch {
      // a logging hook must not change what the request does
    }
    await this.#settings.sleep(info.delayMs);
  }

  /** Removes the credential from text that came from the server or the transport (a server may echo it). */
  #redact(text: string): string {
    return this.#secret === "" ? text : text.split(this.#secret).join(REDACTED);
  }

  /** The transport error as `cause`, unless anything in it mentions the credential. */
  #safeCause(err: unknown): unknown {
    if (this.#secret === "") return err;
    return inspect(err, { depth: 5, showHidden: true }).includes(this.#secret) ? undefined : err;
  }
}

function parseApiUrl(apiUrl: string): { origin: string; basePath: string } {
  let u: URL;
  try {
    u = new URL(apiUrl);
  } catch {
    throw new Error(`privnet: apiUrl must be an absolute http(s) URL such as http://127.0.0.1:8080`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new Error(`privnet: apiUrl must use http or https, got ${u.protocol}`);
  }
  // Credentials in the URL would be sent on every request and could end up in error messages.
  if (u.username !== "" || u.password !== "") {
    throw new Error("privnet: apiUrl must not contain credentials; pass the token separately");
  }
  if (u.search !== "" || u.hash !== "")
    throw new Error("privnet: apiUrl must not have a query or a fragment");
  // Paths in the route table start with /api, so a base URL given with it would double it.
  const basePath = u.pathname.replace(/\/+$/, "").replace(/\/api$/, "");
  return { origin: u.origin, basePath };
}

function authorizationOf(token: string): { authorization: string; secret: string } {
  if (typeof token !== "string") throw new Error("privnet: token must be a string");
  const trimmed = token.trim();
  // Header injection guard; the message must not quote the value.
  if (/[\r\n\0]/.test(trimmed)) throw new Error("privnet: token contains control characters");
  if (trimmed === "") return { authorization: "", secret: "" };
  const bearer = /^Bearer\s+(.+)$/i.exec(trimmed);
  if (bearer) return { authorization: `Bearer ${bearer[1]}`, secret: bearer[1] as string };
  const pat = /^Token\s+(.+)$/i.exec(trimmed);
  const secret = pat ? (pat[1] as string) : trimmed;
  return { authorization: `Token ${secret}`, secret };
}

function queryString(path: string, query: QueryParams | undefined): string {
  if (!query) return "";
  const pairs = Object.entries(query).flatMap(([k, v]): [string, string][] =>
    v === undefined
      ? []
      : Array.isArray(v)
        ? v.map((x): [string, string] => [k, String(x)])
        : [[k, String(v)]],
  );
  if (pairs.length === 0) return "";
  const qs = new URLSearchParams(pairs).toString();
  return (path.includes("?") ? "&" : "?") + qs;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function excerpt(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length <= BODY_EXCERPT_CHARS ? t : `${t.slice(0, BODY_EXCERPT_CHARS)}…`;
}

function positive(name: string, v: number): number {
  if (!(v > 0) || !Number.isFinite(v))
    throw new Error(`privnet: ${name} must be a positive number, got ${v}`);
  return v;
}

function nonNegative(name: string, v: number): number {
  if (!(v >= 0) || !Number.isFinite(v)) throw new Error(`privnet: ${name} must be a number >= 0, got ${v}`);
  return v;
}

function nonNegativeInt(name: string, v: number): number {
  if (!Number.isInteger(v) || v < 0) throw new Error(`privnet: ${name} must be an integer >= 0, got ${v}`);
  return v;
}
