/**
 * A component's children as Pulumi resources: what both hostings run, the `ComponentResource` classes of
 * `pulumi-privnet` (children of the dynamic providers) and the resource plugin's `Construct` (children of type
 * `privnet:index:<Kind>`, through `pulumi-privnet/plugin`'s classes). Only the classes differ.
 *
 * 1. The inputs as the program gave them (plain values, Outputs, nested Outputs) are read to plain values, with the
 *    unknown marker where a value is not known yet (a preview).
 * 2. Those values are checked (./check.ts); a failure stops here, before any child exists, naming the component,
 *    the entry and the field.
 * 3. The plan (./spec.ts) is declared: each child with the component as its parent (so it inherits the
 *    component's providers and shows under it), its inputs taken from the inputs AS GIVEN, so their dependencies
 *    and secrets reach the child unchanged.
 * 4. The outputs are the children's outputs the plan names.
 */
import * as pulumi from "@pulumi/pulumi";
import { containsUnknown } from "../model/mapping";
import { checkComponent, failureMessage } from "./check";
import {
  At,
  Computed,
  Pending,
  pathSegments,
  Ref,
  UNKNOWN,
  valueAt,
  type ComponentSpec,
  type PlanValue,
  type Props,
} from "./spec";

/** A resource class a child is declared with (a kind's class of `pulumi-privnet` or of `pulumi-privnet/plugin`). */
export type ChildClass = new (
  name: string,
  args: never,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.CustomResource;

/** The class of each kind a component uses. */
export type ChildClasses = Record<string, ChildClass>;

/** The kinds the components declare. */
export const CHILD_KINDS = [
  "Group",
  "SetupKey",
  "Policy",
  "Network",
  "NetworkRouter",
  "NetworkResource",
  "DnsZone",
  "DnsRecord",
] as const;

/** What the plan's failures are thrown as: the message names the component, the entries and the fields. */
export class ComponentInputError extends Error {
  override readonly name = "ComponentInputError";
}

function isPromiseLike(v: unknown): v is PromiseLike<unknown> {
  return typeof v === "object" && v !== null && typeof (v as { then?: unknown }).then === "function";
}

/**
 * The SDK's Output members this reads, which its public type leaves out: whether it is known, its value with the
 * unknown parts marked (`promise(true)`), the resources it depends on, whether it is secret.
 */
interface OutputInternals {
  isKnown: Promise<boolean>;
  isSecret: Promise<boolean>;
  promise(withUnknowns?: boolean): Promise<unknown>;
  resources(): Set<pulumi.Resource>;
  allResources?: () => Promise<Set<pulumi.Resource>>;
}

const internals = (o: pulumi.Output<unknown>) => o as unknown as OutputInternals;

/**
 * Plain values of inputs as given, with the unknown marker where a value is not known yet. An Output only partly
 * known (a list of entries one of whose ids is to come: the engine sends such a list whole, so the SDK makes it one
 * Output) is read with its unknown parts marked, so the entries and their keys are known.
 */
export async function plainValues(v: unknown): Promise<unknown> {
  if (pulumi.Output.isInstance(v)) {
    const inner = await internals(v).promise(true);
    if (inner === undefined && !(await internals(v).isKnown)) return UNKNOWN;
    return plainValues(inner);
  }
  if (isPromiseLike(v)) return plainValues(await v);
  if (pulumi.isUnknown(v)) return UNKNOWN;
  if (pulumi.Resource.isInstance(v)) return v;
  if (Array.isArray(v)) return Promise.all(v.map(plainValues));
  if (v && typeof v === "object") {
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) out[k] = await plainValues(x);
    return out;
  }
  return v;
}

/**
 * The part at `rest` of an Output: known where that part is known (`plain`, read by {@link plainValues}) even when
 * another part of the Output is not, with the Output's dependencies and secrecy; else an Output as unknown as the
 * part (`apply` runs on known Outputs only).
 */
function project(o: pulumi.Output<unknown>, rest: (string | number)[], plain: unknown): unknown {
  if (plain === undefined || containsUnknown(plain)) {
    return o.apply((v: unknown) => valueAt(v, rest));
  }
  const i = internals(o);
  const Output = pulumi.Output as unknown as new (
    resources: Set<pulumi.Resource>,
    promise: Promise<unknown>,
    isKnown: Promise<boolean>,
    isSecret: Promise<boolean>,
    allResources: Promise<Set<pulumi.Resource>> | undefined,
  ) => pulumi.Output<unknown>;
  return new Output(
    i.resources(),
    Promise.resolve(plain),
    Promise.resolve(true),
    i.isSecret,
    i.allResources?.(),
  );
}

/**
 * The input at `path` as the program gave it: a plain value, or an Output of it where an Output is on the way
 * (`values` are the plain values of the same inputs as the check took them, `given` as they were read).
 */
function givenAt(args: Props, values: Props, path: string, given: Props): unknown {
  const segs = pathSegments(path);
  let cur: unknown = args;
  for (let i = 0; i < segs.length; i++) {
    if (pulumi.Output.isInstance(cur)) return project(cur, segs.slice(i), valueAt(values, path));
    if (isPromiseLike(cur)) {
      const rest = segs.slice(i);
      return pulumi.output(cur as pulumi.Input<Props>).apply((v: unknown) => valueAt(v, rest));
    }
    if (cur === undefined || cur === null || typeof cur !== "object") return undefined;
    cur = Reflect.get(cur, segs[i]!);
  }
  // A number the check took as its text (a string input) is that text from here on: a plan's computed value
  // (a record's full name) must see what a child's check will; an Output keeps its dependencies and secrecy.
  const taken = valueAt(values, path);
  if (typeof taken === "string" && typeof valueAt(given, path) === "number")
    return pulumi.Output.isInstance(cur) ? project(cur, [], taken) : taken;
  return cur;
}

/** A plan value as a child's input (or the component's output). */
function inputOf(
  v: PlanValue,
  args: Props,
  values: Props,
  children: Map<string, pulumi.CustomResource>,
  given: Props,
): unknown {
  const recurse = (x: PlanValue) => inputOf(x, args, values, children, given);
  if (v instanceof At) {
    const plain = valueAt(values, v.path);
    if ((plain === undefined || plain === null) && v.fallback !== undefined) return recurse(v.fallback);
    return plain === undefined ? undefined : givenAt(args, values, v.path, given);
  }
  if (v instanceof Ref) {
    const child = children.get(v.child);
    if (!child) throw new Error(`components: ${v.child} is referred to before it is declared`);
    return v.attr === "id" ? child.id : (child as unknown as Record<string, unknown>)[v.attr];
  }
  if (v instanceof Pending) {
    // Not known in a preview, so neither are the ids of what it makes: an Output as unknown as the list.
    return pulumi
      .output(givenAt(args, values, v.path, given) as pulumi.Input<unknown[]>)
      .apply(() => [] as string[]);
  }
  if (v instanceof Computed) {
    const parts = v.args.map(recurse);
    if (!parts.some((p) => pulumi.Output.isInstance(p) || isPromiseLike(p))) return v.fn(...parts);
    return pulumi.all(parts as pulumi.Input<unknown>[]).apply((xs) => v.fn(...xs));
  }
  if (Array.isArray(v)) return v.map(recurse);
  if (v && typeof v === "object") {
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) {
      const r = recurse(x);
      if (r !== undefined) out[k] = r;
    }
    return out;
  }
  return v;
}

/**
 * Declares the children of the component `parent` named `name` for the inputs `args` as the program gave them, with
 * `classes`; `childOptions` are added to each child's options. Answers the component's outputs. A check failure
 * throws a {@link ComponentInputError} before any child is declared.
 */
export async function buildComponent(
  spec: ComponentSpec,
  parent: pulumi.ComponentResource,
  name: string,
  args: Props,
  classes: ChildClasses,
  childOptions: pulumi.CustomResourceOptions = {},
): Promise<Props> {
  const given = (await plainValues(args)) as Props;
  const { plan, failures, values } = checkComponent(spec, name, given, pulumi.runtime.isDryRun());
  if (failures.length) throw new ComponentInputError(failureMessage(spec, name, failures));
  const made = new Map<string, pulumi.CustomResource>();
  for (const child of plan.children) {
    const Class = classes[child.kind];
    if (!Class) throw new Error(`components: no class for ${child.kind}`);
    const inputs = inputOf(child.inputs, args, values, made, given) as never;
    const aliases = child.aliases?.map((n) => ({ name: n }));
    made.set(
      child.id,
      new Class(child.name, inputs, { ...childOptions, parent, ...(aliases ? { aliases } : {}) }),
    );
  }
  const outputs: Props = {};
  for (const [k, v] of Object.entries(plan.outputs)) outputs[k] = inputOf(v, args, values, made, given);
  return outputs;
}
