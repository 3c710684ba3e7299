/**
 * Reading an account through the management API: every object of the kinds asked for, with the list operations
 * (one call per kind, one per parent for nested kinds), a few requests in flight at a time.
 *
 * Failures that make the whole run pointless are thrown as {@link ImportError} with a one-line message: the
 * server cannot be reached, the token is rejected (401), the token may not read a kind (403). Answers that only
 * mean "this server has no such thing" are not errors: a cloud-only kind answering 404 on a self-hosted server,
 * an embedded-IdP-only kind answering 412, an integration singleton that is not configured (404).
 */
import type { PrivnetClient } from "../client";
import { isPrivnetApiError, isPrivnetConnectionError } from "../client";
import { routeById } from "../api/routes";

/** An error the command reports as one line (and exits non-zero). */
export class ImportError extends Error {
  constructor(
    message: string,
    /** 2 for usage errors, 1 otherwise. */
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "ImportError";
  }
}

/** A kind this server does not serve (cloud-only, embedded-IdP-only). */
export class KindUnavailable extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "KindUnavailable";
  }
}

export type ApiObject = Record<string, unknown>;

/** Requests in flight at a time: enough to hide latency, few enough to be gentle with a hosted service. */
export const CONCURRENCY = 8;

/** Shared, memoised list calls and a bound on concurrent requests. */
export class Reader {
  private readonly cache = new Map<string, Promise<unknown>>();
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** Requests sent so far. */
  requests = 0;

  constructor(
    private readonly client: PrivnetClient,
    /** For messages: the URL as the user gave it. */
    readonly apiUrl: string,
  ) {}

  /** Calls an operation (memoised per operation and parameters), translating failures (see the file comment). */
  call<T = unknown>(op: string, params?: Record<string, string>): Promise<T> {
    const key = `${op} ${JSON.stringify(params ?? {})}`;
    let p = this.cache.get(key);
    if (!p) {
      p = this.limited(() => this.client.call(op, params ? { params } : {})).catch((err: unknown) => {
        throw translate(err, op, this.apiUrl);
      });
      this.cache.set(key, p);
    }
    return p as Promise<T>;
  }

  /** A list operation: its array, or [] when the parent disappeared meanwhile (404 on a nested list). */
  async list(op: string, params?: Record<string, string>): Promise<ApiObject[]> {
    try {
      return await this.call<ApiObject[]>(op, params);
    } catch (err) {
      if (params && err instanceof KindUnavailable && !routeById(op).cloudOnly) return [];
      throw err;
    }
  }

  private async limited<T>(f: () => Promise<T>): Promise<T> {
    while (this.active >= CONCURRENCY) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    this.requests++;
    try {
      return await f();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** What a failed call means for the import. */
export function translate(err: unknown, op: string, apiUrl: string): Error {
  const route = routeById(op);
  const what = `${route.method} ${route.path}`;
  if (isPrivnetConnectionError(err)) {
    const detail = err.message.replace(/^privnet: \S+ \S+: /, "");
    return new ImportError(`cannot reach the management API at ${apiUrl}: ${detail}`);
  }
  if (!isPrivnetApiError(err)) return err instanceof Error ? err : new Error(String(err));
  switch (err.status) {
    case 401:
      return new ImportError(
        `the server at ${apiUrl} rejected the token (401: ${err.serverMessage}); check --token-file or PRIVNET_TOKEN`,
      );
    case 403:
      return new ImportError(
        `the token may not read ${route.family} (${what} answered 403: ${err.serverMessage}); use a token of a ` +
          `user who may, or leave the kind out with --kinds`,
      );
    case 404:
      if (route.cloudOnly)
        return new KindUnavailable(
          `cloud-only: this server answered 404 (a self-hosted server has no ${route.family})`,
        );
      return new KindUnavailable(`this server answered 404 for ${what}`);
    case 412:
      return new KindUnavailable(
        `needs the embedded identity provider: this server answered 412 (${err.serverMessage})`,
      );
    default:
      return new ImportError(`${what} failed: ${err.status} ${err.serverMessage}`);
  }
}
