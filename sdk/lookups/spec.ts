/**
 * What a lookup is: its name and description, the arguments it takes (a zod schema in camelCase), the operations
 * it calls and the API object it returns. The table (./table.ts) lists every lookup, the runner (./runner.ts)
 * executes one, and `npm run gen` (scripts/lookupgen.ts) writes the typed functions (./functions.ts), their
 * argument and result types (./types.ts) and docs/reference/lookups.md from the same entries.
 */
import type { z } from "../../api/common";
import { operationById } from "../../api/operations";
import type { OperationId, ResponseOf } from "../../api/routes";
import type { QueryParams } from "../../client";
import { enumValues, isOptional, kindOf, shapeOf } from "../../model/schema";
import type { LookupFailureReason } from "./errors";
import type { LookupInfo } from "./info";

export type { LookupFailureReason, LookupInfo };

/** What a lookup's `run` may call: the client's `call`, by operationId. */
export interface LookupApi {
  call<Id extends OperationId>(
    operationId: Id,
    args?: { params?: Record<string, string | number>; query?: QueryParams },
  ): Promise<ResponseOf<Id>>;
}

/** A named result type: the API object as the lookup returns it (camelCase), declared in ./types.ts. */
export interface ResultType {
  /** TypeScript name, e.g. `PeerResult`. */
  name: string;
  /** The API's schema of the object (snake_case); keys are camel-cased on the way out. */
  schema: z.ZodType;
}

/** One lookup. */
export interface LookupSpec<A extends z.ZodType = z.ZodType> {
  /** Function name, the public API: `getPeer`. */
  name: string;
  /** First sentence: what it returns; the rest: filters, errors, API quirks. Markdown. */
  description: string;
  /** Operations it calls, in order (docs, and the cloud / embedded IdP notes). */
  operationIds: string[];
  /** Arguments as one camelCase object; absent: the function takes none. */
  args?: A;
  /** The function takes this single argument field as a plain positional value (`getPeerByName(name)`). */
  positional?: string;
  result: ResultType;
  /** Returns an array of `result`. */
  many?: boolean;
  /**
   * Calls the API with the checked arguments (`{}` when the lookup takes none); returns the API's value
   * (snake_case) for `result`, or an array of it.
   */
  run(api: LookupApi, args: z.output<A>): Promise<unknown>;
  /**
   * Message for a 404 answer (`no peer with id "x"`); the client's message follows in parentheses. Absent:
   * a 404 passes through like any other API error.
   */
  notFound?(args: z.output<A>): string;
}

/** Declares a lookup with `run` typed by its argument schema. */
export function lookup<A extends z.ZodType>(spec: LookupSpec<A>): LookupSpec {
  return spec;
}

/**
 * Thrown inside `run` when the API answered but the answer does not identify one object (nothing matched, or more
 * than one did). The runner turns it into a {@link PrivnetLookupError} that names the lookup.
 */
export class LookupProblem extends Error {
  constructor(
    readonly reason: LookupFailureReason,
    message: string,
  ) {
    super(message);
    this.name = "LookupProblem";
  }
}

function isOne<T>(items: readonly T[]): items is readonly [T] {
  return items.length === 1;
}

/**
 * The one element of `items`, else a {@link LookupProblem} that says how many matched: `no peer named "web"`,
 * `2 peers named "web"; expected exactly one`.
 */
export function exactlyOne<T>(
  items: readonly T[],
  noun: { one: string; many: string },
  criterion: string,
  hint = "",
): T {
  if (isOne(items)) return items[0];
  if (items.length === 0) throw new LookupProblem("not-found", `no ${noun.one} ${criterion}`);
  throw new LookupProblem(
    "ambiguous",
    `${items.length} ${noun.many} ${criterion}; expected exactly one${hint ? ` (${hint})` : ""}`,
  );
}

/** `getPeer` -> `GetPeerArgs`. */
export function argsTypeName(name: string): string {
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}Args`;
}

/** True when every argument may be left out (the function then defaults its arguments to `{}`). */
export function argsOptional(spec: LookupSpec): boolean {
  const shape = spec.args ? shapeOf(spec.args) : undefined;
  if (!shape) return false;
  return Object.values(shape).every(isOptional);
}

/** TypeScript type of a positional argument (a scalar). */
function scalarType(s: z.ZodType): string {
  const values = enumValues(s);
  if (values) return values.map((v) => JSON.stringify(v)).join(" | ");
  const kind = kindOf(s);
  return kind === "number" || kind === "boolean" || kind === "string" ? kind : "unknown";
}

/** The parameter list of the generated function, without `opts`. */
export function parameterList(spec: LookupSpec): string {
  if (!spec.args) return "";
  if (spec.positional) {
    const field = shapeOf(spec.args)?.[spec.positional];
    if (!field) throw new Error(`${spec.name}: positional ${spec.positional} is not an argument`);
    return `${spec.positional}: ${scalarType(field)}`;
  }
  return `args${argsOptional(spec) ? "?" : ""}: ${argsTypeName(spec.name)}`;
}

/** The return type of the generated function. */
export function returnType(spec: LookupSpec): string {
  return `Promise<${spec.result.name}${spec.many ? "[]" : ""}>`;
}

/** The registry entry of a spec. */
export function infoOf(spec: LookupSpec): LookupInfo {
  const routes = spec.operationIds.map(operationById);
  const params = parameterList(spec);
  return {
    name: spec.name,
    description: spec.description,
    signature: `${spec.name}(${params ? `${params}, ` : ""}opts?: LookupOptions): ${returnType(spec)}`,
    ...(spec.args && !spec.positional ? { argsType: argsTypeName(spec.name) } : {}),
    resultType: spec.result.name,
    many: spec.many === true,
    operations: routes.map((r) => `${r.method} ${r.path}`),
    cloudOnly: routes.some((r) => r.cloudOnly === true),
    embeddedIdpOnly: routes.some((r) => r.embeddedIdpOnly === true),
  };
}
