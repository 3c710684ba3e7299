/**
 * What a component declares: one definition per component, from which everything about it comes — the package
 * schema's entry (scripts/schemagen.ts), the TypeScript classes of both hostings (scripts/sdkgen.ts: a
 * `ComponentResource` over the dynamic providers in `pulumi-privnet`, a remote component in `pulumi-privnet/plugin`),
 * the SDKs of the other languages (generated from the schema), the resource plugin's `Construct` (plugin/construct.ts)
 * and the checks at preview (./check.ts).
 *
 * A definition is data and one pure function: its inputs' schema (zod, in the API's snake_case like api/, so the
 * same generators write its types), its outputs, and `plan`, which says what children the component has for given
 * input values. A plan names each child, gives its kind (a resource kind of provider/registry.ts) and its inputs,
 * where each input is a constant, the component's input at a path ({@link At}) or another child's output
 * ({@link Ref}). ./build.ts turns a plan into resources: the component's inputs as the program gave them (Outputs
 * with their dependencies and secrets) go to the children unchanged.
 *
 * Children are named by their entry's own name or key, never by position (see each definition), so reordering a list
 * changes nothing, and changing, adding or removing one entry touches that child only.
 */
import type { z } from "zod";
import { UNKNOWN } from "../model/unknown";

export type Props = Record<string, unknown>;

/** The component's input at `path` (`allow[1].ports`), as the program gave it; `fallback` when it is absent. */
export class At {
  constructor(
    readonly path: string,
    readonly fallback?: PlanValue,
  ) {}
}

/**
 * A value computed from others (a policy's name from its entry's description and ports): `fn` gets their plain
 * values once all are known; an Output of them where the program gave Outputs (their secrets and dependencies kept).
 */
export class Computed {
  constructor(
    readonly args: PlanValue[],
    readonly fn: (...values: unknown[]) => unknown,
  ) {}
}

/** An output of another child of the same component (`id` by default). */
export class Ref {
  constructor(
    readonly child: string,
    readonly attr = "id",
  ) {}
}

/** An output that is not known yet: the component's input at `path` is not (a preview). */
export class Pending {
  constructor(readonly path: string) {}
}

export const at = (path: string, fallback?: PlanValue): At => new At(path, fallback);
export const computed = (args: PlanValue[], fn: (...values: unknown[]) => unknown): Computed =>
  new Computed(args, fn);
export const ref = (child: string, attr = "id"): Ref => new Ref(child, attr);

/** A value in a plan: a constant, an input of the component, another child's output, or lists and objects of them. */
export type PlanValue =
  At | Ref | Pending | Computed | string | number | boolean | null | PlanValue[] | { [k: string]: PlanValue };

/** One child of a component. */
export interface PlannedChild {
  /** Unique within the component; what outputs and other children refer to (`group`, `policy:web`). */
  id: string;
  /** Its resource kind (`Group`): the same `privnet:index:<Kind>` a program declares itself. */
  kind: string;
  /** Its resource name: the component's name and the entry's key, so it does not depend on the entry's position. */
  name: string;
  inputs: Record<string, PlanValue>;
  /**
   * Where its inputs come from, for messages: the entry (`allow[1]`, or `""` for the component's top level) and
   * which of the child's properties is which field of it (`rules[0].ports` -> `ports`).
   */
  origin: { path: string; fields: Record<string, string> };
  /**
   * Names an earlier version of the component gave this child (a stack it made holds it under that name): the
   * child is declared with them as aliases, so the engine takes that resource as this one instead of deleting it
   * and creating this. Each must be the name of at most one child of the plan.
   */
  aliases?: string[];
}

/** A problem with the component's inputs, by property path (`allow[1].ports[0]`). */
export interface ComponentFailure {
  property: string;
  reason: string;
}

export interface Plan {
  children: PlannedChild[];
  /** The component's outputs, in declaration order where they are lists. */
  outputs: Record<string, PlanValue>;
  /** What the plan itself finds wrong (two entries with one key, a key not known at an update). */
  failures: ComponentFailure[];
}

/** One output of a component, for its schema and its classes. */
export interface ComponentOutput {
  type: "string" | "string[]";
  description: string;
  optional?: boolean;
  secret?: boolean;
}

export interface ComponentSpec {
  /** PascalCase; the type token is `privnet:index:<name>`. */
  name: string;
  /** kebab-case, for the generated files. */
  file: string;
  /** What it creates and what an update of each input does (markdown; the schema's description). */
  description: string;
  /** Its inputs, in the API's snake_case (the schema's types and the SDKs' `Args` come from it). */
  inputs: z.ZodObject;
  outputs: Record<string, ComponentOutput>;
  /**
   * The children for these inputs (Pulumi's camelCase names). Values are plain, with {@link UNKNOWN} where not
   * known yet (a preview); `preview` says whether this is one.
   */
  plan(name: string, inputs: Props, preview: boolean): Plan;
}

export { UNKNOWN };

export const isUnknown = (v: unknown): boolean => v === UNKNOWN;

/** The value at a property path (`allow[1].ports`) of plain values; UNKNOWN when an unknown value is on the way. */
export function valueAt(root: unknown, path: string | readonly (string | number)[]): unknown {
  let cur: unknown = root;
  for (const seg of typeof path === "string" ? pathSegments(path) : path) {
    if (cur === UNKNOWN) return UNKNOWN;
    if (cur === undefined || cur === null) return undefined;
    cur = typeof cur === "object" ? Reflect.get(cur, seg) : undefined;
  }
  return cur;
}

/** `allow[1].ports` -> `["allow", 1, "ports"]`. */
export function pathSegments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of path.split(".")) {
    if (!part) continue;
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) throw new Error(`components: bad path ${path}`);
    if (m[1]) out.push(m[1]);
    for (const i of m[2]!.matchAll(/\[(\d+)\]/g)) out.push(Number(i[1]));
  }
  return out;
}

/**
 * The entries of a list input as plain values, or UNKNOWN when the list itself is not known (a preview); absent is
 * empty. An entry that is not an object counts as an empty one (the structural check names it).
 */
export function entriesOf(inputs: Props, name: string): Props[] | typeof UNKNOWN {
  const v = inputs[name];
  if (v === UNKNOWN) return UNKNOWN;
  if (!Array.isArray(v)) return [];
  return v.map((e) => (e && typeof e === "object" && !Array.isArray(e) ? (e as Props) : {}));
}

/** Text of a plain value for a key: strings as they are, lists sorted and joined by `,` (UNKNOWN if any is). */
export function keyText(v: unknown): string | typeof UNKNOWN | undefined {
  if (v === UNKNOWN) return UNKNOWN;
  if (typeof v === "string") return v === "" ? undefined : v;
  if (typeof v === "number") return String(v);
  if (Array.isArray(v)) {
    if (v.some((x) => x === UNKNOWN)) return UNKNOWN;
    const parts = v.filter((x) => typeof x === "string" || typeof x === "number").map(String);
    return parts.length ? [...new Set(parts)].sort().join(",") : undefined;
  }
  return undefined;
}

/**
 * Gives each entry of a list its child's key, from `keyOf`, and finds what is wrong with the keys: two entries with
 * one key (`describe` says how to tell them apart, for that key), an entry without one. A key not known yet (a preview whose
 * entry names an object still to be made) gets a placeholder, `(unknown 1)`, `(unknown 2)`, ...: the preview shows
 * a child to create, as the update will (a new object has a new id, so a new key). At an update every key is known;
 * one that is not is a failure.
 */
export function keyEntries(
  list: string,
  entries: Props[],
  keyOf: (e: Props) => string | typeof UNKNOWN | undefined,
  preview: boolean,
  missing: ComponentFailure,
  describe: string | ((key: string) => string),
): { keys: (string | undefined)[]; failures: ComponentFailure[] } {
  const failures: ComponentFailure[] = [];
  const seen = new Map<string, number>();
  let unknowns = 0;
  const keys = entries.map((e, i) => {
    const k = keyOf(e);
    if (k === undefined) {
      failures.push({ property: `${list}[${i}].${missing.property}`, reason: missing.reason });
      return undefined;
    }
    if (k === UNKNOWN) {
      if (!preview)
        failures.push({
          property: `${list}[${i}]`,
          reason: "its key is not known: the component cannot name its child",
        });
      return `(unknown ${++unknowns})`;
    }
    const first = seen.get(k);
    if (first !== undefined) {
      failures.push({
        property: `${list}[${i}]`,
        reason: `has the same key as ${list}[${first}] (${JSON.stringify(k)}): ${typeof describe === "string" ? describe : describe(k)}`,
      });
      return undefined;
    }
    seen.set(k, i);
    return k;
  });
  return { keys, failures };
}
