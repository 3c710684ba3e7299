/**
 * The lookups' own error, apart from what runs them: a program catching it (`isPrivnetLookupError`) loads this
 * module alone, not the table of lookups and the API's schemas (./execute.ts).
 */

/** Why a lookup failed, when it is not an API error passed through. */
export type LookupFailureReason = "not-found" | "ambiguous" | "invalid-arguments";

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
