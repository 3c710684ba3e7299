/**
 * Runs a lookup: checks its arguments, finds credentials the way the provider does, calls the API and returns the
 * answer in camelCase. Lookups are plain async functions: they work in `pulumi preview` and outside Pulumi.
 */
import * as pulumi from "@pulumi/pulumi";
import { validate, z } from "../../api/common";
import { isNotFound, isPrivnetApiError } from "../../client";
import { clientFor, resolveCredentials, type Credentials } from "../../model/credentials";
import { fromApi } from "../../model/mapping";
import { providerOf, type ProviderCredentials } from "../provider";
import { LookupProblem, type LookupFailureReason, type LookupSpec } from "./spec";
import { lookupSpec } from "./table";

/**
 * Where a lookup sends its request, with Pulumi's invoke options: `provider` (a {@link Provider}) or a `parent`
 * that passes one down. Each value left out is resolved like the provider's: that provider's arguments, then stack
 * config (`privnet:apiUrl`, `privnet:token`), then the environment (`PRIVNET_API_URL`, `PRIVNET_TOKEN`), and the
 * URL falls back to a local `privnet-server` (`http://127.0.0.1:8080`). `apiUrl` and `token` here override all.
 */
export interface LookupOptions extends pulumi.InvokeOptions {
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
    (typeof e === "object" && e !== null && Reflect.get(e, LOOKUP_ERROR_BRAND) === true)
  );
}

/**
 * The credentials of a lookup: `opts.apiUrl` / `opts.token` first, then the arguments of the lookup's provider
 * (`fromProvider`, resolved by the caller), then stack config read in the program's own process with
 * `pulumi.runtime.getConfig` (a plain read: no warning for a secret `privnet:token`), then the environment.
 */
export function lookupCredentials(opts: LookupOptions = {}, fromProvider?: ProviderCredentials): Credentials {
  const resolved = resolveCredentials((key) =>
    fromProvider ? fromProvider[key] : pulumi.runtime.getConfig(`privnet:${key}`),
  );
  return {
    ...resolved,
    apiUrl: opts.apiUrl ? opts.apiUrl.replace(/\/+$/, "") : resolved.apiUrl,
    token: opts.token || resolved.token,
  };
}

/** The value of an output, or an error naming the lookup when it is not known yet (a preview). */
async function knownValue<T>(name: string, o: pulumi.Output<T>): Promise<T> {
  // The SDK's outputs carry these (not in its typings): the value and whether it is known.
  const impl = o as unknown as { promise(): Promise<T>; isKnown: Promise<boolean> };
  if (!(await impl.isKnown)) {
    throw new PrivnetLookupError(
      name,
      "invalid-arguments",
      `the provider's arguments are not known yet (they come from another resource); use ${name}Output, ` +
        "which waits for them",
    );
  }
  return impl.promise();
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
  const explicit = providerOf(opts);
  return runResolved<T>(name, args, opts, explicit ? await knownValue(name, explicit) : undefined);
}

/**
 * The lookup as an output: it runs once `args` (whose members may be outputs) and the provider's arguments are
 * known; while they are not (a preview), the result is unknown, not an error.
 */
export function runLookupOutput<T>(name: string, args: unknown, opts?: LookupOptions): pulumi.Output<T> {
  const explicit = providerOf(opts);
  return pulumi
    .all([pulumi.output(args), explicit ?? pulumi.output(undefined)])
    .apply(([a, creds]) => runResolved<T>(name, a, opts, creds));
}

async function runResolved<T>(
  name: string,
  args: unknown,
  opts: LookupOptions | undefined,
  fromProvider: ProviderCredentials | undefined,
): Promise<T> {
  const spec = lookupSpec(name);
  const input = parseArgs(spec, args);
  const client = clientFor(lookupCredentials(opts, fromProvider));
  let raw: unknown;
  try {
    raw = await spec.run(client, input);
  } catch (err) {
    if (err instanceof LookupProblem) throw new PrivnetLookupError(spec.name, err.reason, err.message);
    if (spec.notFound && isNotFound(err)) {
      // The client's message says which path answered 404 (the object, or a parent of it, is missing).
      const detail = String(isPrivnetApiError(err) ? err.message : err).replace(/^privnet: /, "");
      throw new PrivnetLookupError(spec.name, "not-found", `${spec.notFound(input)} (${detail})`, {
        cause: err,
      });
    }
    throw err;
  }
  // Cast: the generated function names the result type T; the answer is mapped, not validated (a newer server
  // may add fields), as the client's answers are.
  return fromApi(raw, spec.many ? z.array(spec.result.schema) : spec.result.schema) as T;
}
