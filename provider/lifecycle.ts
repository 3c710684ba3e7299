/**
 * The generic dynamic provider: check / diff / create / read / update / delete for any {@link ResourceSpec}.
 *
 * Facts of the dynamic-provider host this relies on (see README, "How the provider works"):
 * - `diff` receives the old OUTPUTS, so outputs keep every input field in input form (id lists as ids).
 * - During preview only check and diff run, and values not known yet arrive as the UNKNOWN marker.
 * - The host sends secrets unwrapped (it does not accept secrets); secret-ness is restored by the engine from
 *   the inputs and from `additionalSecretOutputs`, which the sdk sets.
 * - `read` must return `inputs` too, or the next diff after a refresh shows everything as changed.
 */
import type * as pulumi from "@pulumi/pulumi";
import { validate } from "../api/common";
import { isNotFound, isPrivnetApiError } from "../client";
import { clientFor, resolveCredentials, type Credentials } from "./config";
import {
  containsUnknown,
  fromApi,
  isUnknown,
  propertyPath,
  renameFields,
  snakeNames,
  toApi,
} from "./mapping";
import { project, sameValue } from "./normalize";
import { camel, shapeOf } from "./schema";
import type { LifecycleContext, Props, ResourceSpec } from "./spec";
import { z } from "zod";

const PROVIDER_KEY = "__provider";

/**
 * The input that brings an existing object under management: create reads the object with that id and updates
 * it to match the other inputs instead of creating a new one. (The engine's `import` resource option does not
 * reach dynamic providers: its read comes without the serialized provider.)
 */
export const ADOPT_INPUT = "adoptId";

/** Whether a kind can adopt an existing object through {@link ADOPT_INPUT}. */
export function canAdopt(spec: ResourceSpec): boolean {
  return !spec.singleton && spec.name !== "Peer" && Boolean(spec.ops.update || spec.hooks?.update);
}

/** The Pulumi input names of a spec: body fields (camelCase) and parent ids. */
export function inputNames(spec: ResourceSpec): string[] {
  const ignored = new Set(spec.ignoreInputs ?? []);
  return [...Object.keys(spec.input.shape).map(camel), ...(spec.parents ?? []).map((p) => p.input)].filter(
    (n) => !ignored.has(n),
  );
}

/** The schema a spec's inputs are checked against: the body plus the parent ids. */
export function checkSchema(spec: ResourceSpec): z.ZodObject {
  if (!spec.parents?.length) return spec.input;
  const extra: Record<string, z.ZodType> = {};
  for (const p of spec.parents) {
    extra[p.input.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = z
      .string()
      .min(1, { error: "must not be empty" })
      .describe(p.description);
  }
  return spec.input.extend(extra);
}

function parentParams(spec: ResourceSpec, props: Props): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of spec.parents ?? []) {
    const v = props[p.input];
    if (typeof v !== "string" || v === "") throw new Error(`privnet: ${spec.name}: ${p.input} is required`);
    out[p.param] = v;
  }
  return out;
}

function dropUndefined(o: Props): Props {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

export type Phase = "create" | "read" | "update";

/**
 * Outputs from an API object: every response field (camelCase, without `id`, which is the resource id), the
 * input fields in input form, parent ids, write-only inputs and create-only secrets carried forward.
 */
export function buildOutputs(
  spec: ResourceSpec,
  response: Props,
  inputs: Props,
  previous: Props | undefined,
  phase: Phase,
): Props {
  const resp = fromApi(response, spec.output) as Props;
  delete resp.id;
  let out: Props = { ...resp, ...(project(resp, spec.input) as Props) };
  for (const p of spec.parents ?? []) out[p.input] = inputs[p.input] ?? previous?.[p.input];
  for (const f of spec.writeOnly ?? []) out[f] = phase === "read" ? previous?.[f] : inputs[f];
  if (phase !== "create") for (const f of spec.createOnlyOutputs ?? []) out[f] = previous?.[f];
  if (spec.mergeOutputs) out = spec.mergeOutputs(out, inputs, previous);
  delete out[PROVIDER_KEY];
  return dropUndefined(out);
}

/** Inputs with the spec's defaults filled in where absent (what the body and the check see). */
export function withDefaults(spec: ResourceSpec, inputs: Props): Props {
  if (!spec.defaults) return inputs;
  const out: Props = { ...inputs };
  for (const [k, v] of Object.entries(spec.defaults)) if (out[k] === undefined || out[k] === null) out[k] = v;
  return out;
}

/**
 * Server-assigned `id`s inside list items (a policy's rule ids) are not the user's to manage: when the new
 * value leaves an item's id out, the old item's id is ignored.
 */
function alignIds(oldValue: unknown, newValue: unknown): unknown {
  if (Array.isArray(oldValue) && Array.isArray(newValue)) {
    return oldValue.map((o, i) => alignIds(o, newValue[i]));
  }
  if (oldValue && typeof oldValue === "object" && !Array.isArray(oldValue)) {
    const n = (newValue && typeof newValue === "object" ? newValue : {}) as Props;
    const out: Props = {};
    for (const [k, v] of Object.entries(oldValue as Props)) {
      if (k === "id" && n.id === undefined) continue;
      out[k] = alignIds(v, n[k]);
    }
    return out;
  }
  return oldValue;
}

/** The inputs a read reports: the input fields of the outputs (so refresh shows only real drift). */
export function inputsFromOutputs(spec: ResourceSpec, outs: Props): Props {
  const inputs: Props = {};
  for (const name of inputNames(spec)) if (outs[name] !== undefined) inputs[name] = outs[name];
  return inputs;
}

/** Check failures for `news`, with Pulumi property names; unknown values pass. */
export function checkInputs(spec: ResourceSpec, news: Props): pulumi.dynamic.CheckFailure[] {
  const schema = checkSchema(spec);
  const api = toApi(withDefaults(spec, news), schema) as Props;
  const result = validate(schema, api);
  if (result.ok) return [];
  const names = snakeNames(schema);
  const failures: pulumi.dynamic.CheckFailure[] = [];
  for (const issue of result.issues) {
    // Walk to the offending value; anything at or under an unknown value cannot be judged yet.
    let cur: unknown = api;
    let parent: unknown = undefined;
    let unknownOnPath = false;
    for (const seg of issue.path) {
      if (isUnknown(cur)) {
        unknownOnPath = true;
        break;
      }
      parent = cur;
      cur =
        cur && typeof cur === "object"
          ? (cur as Record<PropertyKey, unknown>)[seg as PropertyKey]
          : undefined;
    }
    if (unknownOnPath || isUnknown(cur)) continue;
    // A cross-field rule (custom issue) over an object with an unknown member cannot be judged either.
    const container = issue.path.length ? parent : api;
    if (issue.code === "custom" && containsUnknown(container)) continue;
    const property = propertyPath(issue.path, schema) || "(inputs)";
    failures.push({ property, reason: `${property}: ${renameFields(issue.message, names)}` });
  }
  return failures;
}

/** Diff of old outputs against new inputs. */
export function diffInputs(spec: ResourceSpec, olds: Props, news: Props): pulumi.dynamic.DiffResult {
  const shape = shapeOf(spec.input) ?? {};
  const schemaOf = new Map(Object.entries(shape).map(([k, s]) => [camel(k), s]));
  const sets = new Set(spec.setLists ?? []);
  const replaceOn = new Set(spec.replaceOnChange ?? []);
  const computed = new Set(spec.computedIfAbsent ?? []);
  const changed: string[] = [];
  for (const name of inputNames(spec)) {
    const a = olds[name];
    let b = news[name];
    if ((b === undefined || b === null) && computed.has(name)) continue;
    if (containsUnknown(b)) {
      changed.push(name);
      continue;
    }
    if (b === undefined && spec.defaults && name in spec.defaults) b = spec.defaults[name];
    const oldValue = a === undefined && spec.defaults && name in spec.defaults ? spec.defaults[name] : a;
    if (!sameValue(alignIds(oldValue, b), b, schemaOf.get(name), sets.has(name))) changed.push(name);
  }
  const replaces = changed.filter((n) => replaceOn.has(n));
  return {
    changes: changed.length > 0,
    replaces,
    deleteBeforeReplace: replaces.length > 0 && spec.deleteBeforeReplace === true,
    stables: inputNames(spec).filter((n) => !changed.includes(n)),
  };
}

/** POST the inputs, map the response to outputs. */
export async function defaultCreate(
  spec: ResourceSpec,
  ctx: LifecycleContext,
  inputs: Props,
): Promise<{ id: string; outs: Props }> {
  if (!spec.ops.create) throw new Error(`privnet: ${spec.name} cannot be created through the API`);
  const body = toApi(withDefaults(spec, inputs), spec.input);
  const response = (await ctx.client.call(spec.ops.create, {
    params: parentParams(spec, inputs),
    body,
  })) as Props;
  const { object, extra } = spec.unwrapCreate
    ? spec.unwrapCreate(response)
    : { object: response, extra: undefined };
  const id = spec.idOf ? spec.idOf(object) : String(object.id);
  const outs = buildOutputs(spec, object, inputs, undefined, "create");
  if (extra) Object.assign(outs, fromApi(extra, undefined) as Props);
  return { id, outs };
}

/** PUT the whole object built from the new inputs (the API's PUT replaces), map the response to outputs. */
export async function defaultUpdate(
  spec: ResourceSpec,
  ctx: LifecycleContext,
  id: string,
  olds: Props,
  news: Props,
): Promise<{ outs: Props }> {
  if (!spec.ops.update) throw new Error(`privnet: ${spec.name} cannot be changed in place`);
  let body = toApi(withDefaults(spec, news), spec.updateBody ?? spec.input) as Props;
  // What only a replacement can change is not sent (the update body may not accept it at all).
  for (const name of spec.replaceOnChange ?? [])
    delete body[name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
  if (spec.prepareUpdateBody) body = spec.prepareUpdateBody(body, olds);
  const response = (await ctx.client.call(spec.ops.update, {
    params: { ...parentParams(spec, news), ...(spec.idParam ? { [spec.idParam]: id } : {}) },
    body,
  })) as Props;
  return { outs: buildOutputs(spec, response, news, olds, "update") };
}

/** GET the object; undefined when it is gone. */
export async function defaultGet(
  spec: ResourceSpec,
  ctx: LifecycleContext,
  id: string,
  props: Props,
): Promise<Props | undefined> {
  try {
    return (await ctx.client.call(spec.ops.read, {
      params: { ...parentParams(spec, props), ...(spec.idParam ? { [spec.idParam]: id } : {}) },
    })) as Props;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Rewrites API errors into messages that use Pulumi's property names. */
function translateError(spec: ResourceSpec, err: unknown): Error {
  if (isPrivnetApiError(err)) {
    return new Error(renameFields(err.message, snakeNames(checkSchema(spec))));
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** The dynamic provider of a resource kind; `export =` it from the kind's module (see provider/resources). */
export class PrivnetProvider implements pulumi.dynamic.ResourceProvider {
  private creds: Credentials | undefined;

  constructor(readonly spec: ResourceSpec) {}

  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    this.creds = resolveCredentials((key) => req.config.get(`privnet:${key}`));
  }

  private ctx(): LifecycleContext {
    const creds = this.creds ?? resolveCredentials(() => undefined);
    return { client: clientFor(creds) };
  }

  async check(_olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
    const inputs = { ...news };
    delete inputs[PROVIDER_KEY];
    const failures = checkInputs(this.spec, inputs);
    return { inputs: news, failures };
  }

  async diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
    return diffInputs(this.spec, olds, news);
  }

  async create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
    const spec = this.spec;
    const adoptId = inputs[ADOPT_INPUT];
    if (typeof adoptId === "string" && adoptId !== "" && canAdopt(spec)) return this.adopt(adoptId, inputs);
    try {
      const ctx = this.ctx();
      if (spec.hooks?.create) return await spec.hooks.create(ctx, inputs);
      return await defaultCreate(spec, ctx, inputs);
    } catch (err) {
      throw translateError(spec, err);
    }
  }

  /** Adoption: read the existing object, then make it match the inputs (one GET, one PUT). */
  private async adopt(id: string, inputs: Props): Promise<pulumi.dynamic.CreateResult> {
    const found = await this.read(id, inputs);
    if (!found.id) throw new Error(`privnet: cannot adopt ${this.spec.name} ${id}: it does not exist`);
    const { outs } = await this.update(id, found.props ?? {}, inputs);
    return { id, outs };
  }

  async read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
    const spec = this.spec;
    try {
      const ctx = this.ctx();
      if (spec.hooks?.read) return await spec.hooks.read(ctx, id, props);
      const response = await defaultGet(spec, ctx, id, props);
      // Gone: an empty result tells the engine to drop the resource from state.
      if (!response) return {};
      const outs = buildOutputs(spec, response, props, props, "read");
      return { id, props: outs, inputs: inputsFromOutputs(spec, outs) };
    } catch (err) {
      throw translateError(spec, err);
    }
  }

  async update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
    const spec = this.spec;
    try {
      const ctx = this.ctx();
      if (spec.hooks?.update) return await spec.hooks.update(ctx, id, olds, news);
      return await defaultUpdate(spec, ctx, id, olds, news);
    } catch (err) {
      throw translateError(spec, err);
    }
  }

  async delete(id: string, props: Props): Promise<void> {
    const spec = this.spec;
    try {
      const ctx = this.ctx();
      if (spec.hooks?.delete) return await spec.hooks.delete(ctx, id, props);
      if (!spec.ops.delete) return;
      await ctx.client.call(spec.ops.delete, {
        params: { ...parentParams(spec, props), ...(spec.idParam ? { [spec.idParam]: id } : {}) },
      });
    } catch (err) {
      // Already gone is what delete wants.
      if (isNotFound(err)) return;
      throw translateError(spec, err);
    }
  }
}
