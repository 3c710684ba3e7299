/**
 * Reading an account through the management API: every object of the kinds asked for, read by the provider's
 * own readers (provider/list.ts: one list per kind, one per parent for nested kinds; singletons and settings
 * through their hooks), a few requests in flight at a time.
 *
 * Failures that make the whole run pointless are thrown as {@link ImportError} with a one-line message: the
 * server cannot be reached, the token is rejected (401), the token may not read a kind (403). Answers that only
 * mean "this server has no such thing" are not errors: a kind whose list answers 404 on this server (cloud-only
 * kinds on a self-hosted server), an embedded-IdP-only kind answering 412. An integration singleton that is not
 * configured (the service's own 404) simply has no object (provider/singleton.ts).
 */
import type { CallArgs, PrivnetClient } from "../client";
import { isPrivnetApiError, isPrivnetConnectionError } from "../client";
import { routeById } from "../api/routes";
import { listObjects } from "../provider/list";
import { PROVIDERS } from "../provider/registry";
import type { LifecycleContext, Listed, ResourceSpec } from "../provider/spec";
import { KINDS, kindDef, type Found } from "./kinds";
import type { Snapshot } from "./plan";

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

/**
 * The API as the provider's readers see it while the importer reads an account ({@link ctx}): calls memoised
 * per operation and parameters (the networks listed for the networks and again for their resources and routers
 * are one request), a bound on concurrent requests, and a count of the requests sent. Failures pass through as
 * the client raised them (the provider's readers judge a 404 themselves); {@link operationOf} says which
 * operation raised one, for {@link translate}.
 */
export class Reader {
  private readonly cache = new Map<string, Promise<unknown>>();
  private readonly failures = new WeakMap<object, string>();
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** Requests sent so far. */
  requests = 0;
  /** What the provider's readers are given: this reader's calls, and no batching (every list is read once). */
  readonly ctx: LifecycleContext = {
    client: { call: ((op: string, args?: CallArgs) => this.call(op, args)) as PrivnetClient["call"] },
    batchReads: false,
  };

  constructor(
    private readonly client: PrivnetClient,
    /** For messages: the URL as the user gave it. */
    readonly apiUrl: string,
    /** For a rejected token: where the user set it (the command's own settings). */
    readonly tokenHint: string = TOKEN_HINT,
  ) {}

  /** Calls an operation (memoised per operation and arguments). */
  call<T = unknown>(op: string, args: CallArgs = {}): Promise<T> {
    const key = `${op} ${JSON.stringify(args)}`;
    let p = this.cache.get(key);
    if (!p) {
      p = this.limited(() => this.client.call(op, args)).catch((err: unknown) => {
        if (typeof err === "object" && err !== null) this.failures.set(err, op);
        throw err;
      });
      this.cache.set(key, p);
    }
    return p as Promise<T>;
  }

  /** The operation whose call raised `err`, if one of this reader's did. */
  operationOf(err: unknown): string | undefined {
    return typeof err === "object" && err !== null ? this.failures.get(err) : undefined;
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

/** What to check when the server rejects the token, for the commands that take `--token-file`. */
export const TOKEN_HINT = "check --token-file or PRIVNET_TOKEN";

/** What a failed call of `op` means for the import; `tokenHint` says where the token was set (see {@link TOKEN_HINT}). */
export function translate(
  err: unknown,
  op: string | undefined,
  apiUrl: string,
  tokenHint: string = TOKEN_HINT,
): Error {
  // Not an answer of the API (a list answered with something else than a list): as it is.
  if (op === undefined) return err instanceof Error ? err : new Error(String(err));
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
        `the server at ${apiUrl} rejected the token (401: ${err.serverMessage}); ${tokenHint}`,
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

/** A URL as it may be shown: without any user name or password in it. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString().replace(/\/+$/, "");
  } catch {
    return url.replace(/\/\/[^/@]*@/, "//");
  }
}

/** The provider's spec of a kind. */
function specOf(kind: string): ResourceSpec {
  const p = PROVIDERS.find((x) => x.spec.name === kind);
  if (!p) throw new Error(`privnet: unknown resource kind ${kind}`);
  return p.spec;
}

/**
 * Reads every kind needed through the provider's readers (provider/list.ts), reporting progress; kinds this
 * server does not serve are noted, not fatal.
 */
export async function readAccount(
  reader: Reader,
  kinds: string[],
  progress: (line: string) => void,
): Promise<Snapshot> {
  const listed = new Map<string, Listed[]>();
  const unavailable = new Map<string, string>();
  await Promise.all(
    kinds.map(async (kind) => {
      let objects: Listed[];
      try {
        objects = await listObjects(specOf(kind), reader.ctx);
        const probe = kindDef(kind).servedIf;
        if (objects.length === 0 && probe) await reader.call(probe);
      } catch (err) {
        const failure = translate(err, reader.operationOf(err), reader.apiUrl, reader.tokenHint);
        if (!(failure instanceof KindUnavailable)) throw failure;
        unavailable.set(kind, failure.reason);
        progress(`${kind}: skipped (${failure.reason})`);
        return;
      }
      listed.set(kind, objects);
      progress(`${kind}: ${objects.length}`);
    }),
  );
  // Labels may name a related object (a router's network): given once everything is read.
  const related = (kind: string, id: string) => listed.get(kind)?.find((o) => o.id === id)?.object;
  // Kinds in their canonical order, whatever order the reads finished in.
  const objects = new Map<string, Found[]>();
  for (const def of KINDS) {
    const list = listed.get(def.kind);
    if (!list) continue;
    objects.set(
      def.kind,
      list.map((o) => ({ kind: def.kind, ...o, label: def.label(o, related) })),
    );
  }
  return { objects, unavailable };
}
