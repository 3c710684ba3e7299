/**
 * Runs a lookup: checks its arguments, finds credentials the way the provider does, calls the API and returns the
 * answer in camelCase. Lookups are plain async functions: they work in `pulumi preview` and outside Pulumi.
 */
import * as pulumi from "@pulumi/pulumi";
import { validate, z } from "../../api/common";
import { isNotFound } from "../../client";
import { clientFor, resolveCredentials, type Credentials } from "../../provider/config";
import { fromApi } from "../../provider/mapping";
import { LookupProblem, type LookupFailureReason, type LookupSpec } from "./spec";
import { lookupSpec } from "./table";

/**
 * Where a lookup sends its request. Each value left out is resolved like the provider's: the environment
 * (`PRIVNET_API_URL`, `PRIVNET_TOKEN`) over stack config (`privnet:apiUrl`, `privnet:token`), and the URL falls
 * back to a local `privnet-server` (`http://127.0.0.1:8080`).
 */
export interface LookupOptions {
  /** Base URL of the service, such as `http://127.0.0.1:8080`. */
  apiUrl?: string;
  /** Personal access token (or `Bearer <token>`). */
  token?: string;
}

// A registered symbol, so the guard works across two copies of this module (as the client's errors do).
const LOOKUP_ERROR_BRAND = Symbol.for("pulumi-privnet.PrivnetLookupError");

/**
 * A lookup found nothing, found more than one object where it needs one, or was called with invalid arguments.
 * The message names the lookup and what was looked up: `privnet: getGroup: no group named "db"`. (Errors of the
 * API itself, such as a 401 or a 403, are the client's `PrivnetApiError` and pass through unchanged.)
 */
export class PrivnetLookupError extends Error {
  /** The lookup that failed, such as `getGroup`. */
  readonly lookup: string;
  readonly reason: LookupFailureReason;
  declare readonly [LOOKUP_ERROR_BRAND]: true;

  constructor(lookup: string, reason: LookupFailureReason, detail: string, options?: { cause?: unknown }) {
    super(`privnet: ${lookup}: ${detail}`, options);
    this.name = "PrivnetLookupError";
    this.lookup = lookup;
    this.reason = reason;
    Object.defineProperty(this, LOOKUP_ERROR_BRAND, { value: true });
  }
}

/** Guard for {@link PrivnetLookupError}; also true for an instance from another copy of this module. */
export function isPrivnetLookupError(e: unknown): e is PrivnetLookupError {
  return (
    e instanceof PrivnetLookupError ||
    (typeof e === "object" && e !== null && (e as Record<symbol, unknown>)[LOOKUP_ERROR_BRAND] === true)
  );
}

/**
 * The credentials of a lookup: `opts` first, then the environment, then stack config, read in the program's own
 * process with `pulumi.runtime.getConfig` (a plain read: no warning for a secret `privnet:token`).
 */
export function lookupCredentials(opts: LookupOptions = {}): Credentials {
  const resolved = resolveCredentials((key) => pulumi.runtime.getConfig(`privnet:${key}`));
  return {
    ...resolved,
    apiUrl: opts.apiUrl ? opts.apiUrl.replace(/\/+$/, "") : resolved.apiUrl,
    token: opts.token || resolved.token,
  };
}

function parseArgs(spec: LookupSpec, args: unknown): unknown {
  if (!spec.args) return {};
  const v = validate(spec.args, args === undefined ? {} : args);
  if (v.ok) return v.value;
  throw new PrivnetLookupError(spec.name, "invalid-arguments", v.message);
}

/**
 * Runs the lookup `name` (see ./table.ts) with `args`, as the generated functions do. Returns the API's answer
 * with camelCase keys (record keys, which are data, stay as they are).
 */
export async function runLookup<T>(name: string, args: unknown, opts?: LookupOptions): Promise<T> {
  const spec = lookupSpec(name);
  const input = parseArgs(spec, args);
  const client = clientFor(lookupCredentials(opts));
  let raw: unknown;
  try {
    raw = await spec.run(client, input);
  } catch (err) {
    if (err instanceof LookupProblem) throw new PrivnetLookupError(spec.name, err.reason, err.message);
    if (spec.notFound && isNotFound(err)) {
      // The client's message says which path answered 404 (the object, or a parent of it, is missing).
      const detail = (err as Error).message.replace(/^privnet: /, "");
      throw new PrivnetLookupError(spec.name, "not-found", `${spec.notFound(input)} (${detail})`, {
        cause: err,
      });
    }
    throw err;
  }
  return fromApi(raw, spec.many ? z.array(spec.result.schema) : spec.result.schema) as T;
}
