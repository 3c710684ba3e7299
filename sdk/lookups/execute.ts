/**
 * Executes a lookup with credentials already resolved: checks its arguments, calls the API and returns the answer
 * in camelCase. It needs no Pulumi runtime, so the program's lookups (./runner.ts) and the resource plugin's
 * Invoke (plugin/) run the same code.
 */
import { validate, z } from "../../api/common";
import { isNotFound, isPrivnetApiError } from "../../client";
import { clientFor, type Credentials } from "../../model/credentials";
import { fromApi, numbersAsText } from "../../model/mapping";
import { LookupProblem, type LookupFailureReason, type LookupSpec } from "./spec";
import { lookupSpec } from "./table";

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

export function parseArgs(spec: LookupSpec, args: unknown): unknown {
  if (!spec.args) return {};
  // A number where an argument is a string is its text (Pulumi YAML's digits-only config values).
  const v = validate(spec.args, numbersAsText(args === undefined ? {} : args, spec.args));
  if (v.ok) return v.value;
  throw new PrivnetLookupError(spec.name, "invalid-arguments", v.message);
}

/**
 * Runs the lookup `name` (see ./table.ts) with `args` against the server of `credentials`. Returns the API's answer
 * with camelCase keys (record keys, which are data, stay as they are).
 */
export async function executeLookup(name: string, args: unknown, credentials: Credentials): Promise<unknown> {
  const spec = lookupSpec(name);
  const input = parseArgs(spec, args);
  const client = clientFor(credentials);
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
  // Mapped, not validated: a newer server may add fields, as the client's answers may.
  return fromApi(raw, spec.many ? z.array(spec.result.schema) : spec.result.schema);
}
