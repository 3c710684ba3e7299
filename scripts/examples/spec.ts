/**
 * The examples of the package's resources and functions, in our own terms: what a program declares (resources
 * with their inputs, function calls with their arguments, stack outputs), not how a language spells it.
 * ./render.ts writes each one in TypeScript, Python, Go, Java and YAML from the package schema; the schema's
 * descriptions carry them as Pulumi's per-language example blocks (`{{% examples %}}`), from which each SDK's
 * doc comments and the API docs (docs/api/) take their language.
 *
 * Names (of resources, calls, outputs and config keys) are lowerCamelCase identifiers: each language writes them
 * in its own case.
 */

/** A value of an input or an argument. */
export type Value = string | number | boolean | Value[] | { [key: string]: Value } | Ref | ConfigValue;

/** An output of a resource or a call of the same example: `ref("ops")` is the `ops` group's id. */
export interface Ref {
  readonly $ref: string;
  /** The output (default `id`); of a function that lists, `items`. */
  readonly attr: string;
}

/** A value of the stack's config, `secret` if it is one. */
export interface ConfigValue {
  readonly $config: string;
  readonly secret: boolean;
}

export const ref = (name: string, attr = "id"): Ref => ({ $ref: name, attr });
export const config = (key: string): ConfigValue => ({ $config: key, secret: false });
export const secret = (key: string): ConfigValue => ({ $config: key, secret: true });

export const isRef = (v: Value): v is Ref => typeof v === "object" && v !== null && "$ref" in v;
export const isConfig = (v: Value): v is ConfigValue => typeof v === "object" && v !== null && "$config" in v;

/** A resource the example declares: its kind (`Group`) and its inputs (Pulumi names). */
export interface ResourceDecl {
  name: string;
  kind: string;
  inputs: Record<string, Value>;
}

/** A function the example calls (`getGroup`) with its arguments. */
export interface CallDecl {
  name: string;
  fn: string;
  args?: Record<string, Value>;
}

/** One example: resources and calls in order (one may use the outputs of those before it), then stack outputs. */
export interface Example {
  /** What it shows, one line. */
  title: string;
  resources?: ResourceDecl[];
  calls?: CallDecl[];
  outputs?: Record<string, Ref>;
  /**
   * It reads objects that must exist already (a new account has no such peer); an id from the stack's config
   * says so by itself.
   */
  readsExisting?: boolean;
}

export const resource = (name: string, kind: string, inputs: Record<string, Value>): ResourceDecl => ({
  name,
  kind,
  inputs,
});
export const call = (name: string, fn: string, args?: Record<string, Value>): CallDecl => ({
  name,
  fn,
  ...(args ? { args } : {}),
});
