/**
 * The generic dynamic provider: check / diff / create / read / update / delete for any {@link ResourceSpec}.
 *
 * Facts of the dynamic-provider host this relies on (see docs/architecture.md):
 * - `diff` receives the old OUTPUTS, so outputs keep every input field in input form (id lists as ids).
 * - During preview only check and diff run, and values not known yet arrive as the UNKNOWN marker.
 * - The host sends secrets unwrapped (it does not accept secrets); secret-ness is restored by the engine from
 *   the inputs and from `additionalSecretOutputs`, which the sdk sets.
 * - `read` must return `inputs` too, or the next diff after a refresh shows everything as changed.
 */
import type * as pulumi from "@pulumi/pulumi";
import { OPEN_ENUMS, isAdvisory, isLocalAdvisory, validate } from "../api/common";
import { isNotFound, isPrivnetApiError } from "../client";
import { clientFor, resolveCredentials, type Credentials } from "../model/credentials";
import {
  containsUnknown,
  decimalText,
  fromApi,
  isUnknown,
  numbersAsText,
  propertyPath,
  renameFields,
  snakeNames,
  toApi,
} from "../model/mapping";
import { warn } from "./diagnostics";
import { reportPacing } from "./pacing";
import { batchedGet, readBatching, trackWrites } from "./read-batch";
import { normalize, project, sameValue } from "./normalize";
import type { Owner } from "../model/hidden-inputs";
import {
  carryOwner,
  explainConflict,
  ownerOf,
  prepareRecovery,
  prepareReplacement,
  recoverInterruptedCreate,
  reportRefused,
  type RecoveryHost,
} from "./recovery";
import { camel, elementOf, isOptional, kindOf, schemaAt, shapeOf, unwrap } from "../model/schema";
import { expectRecord, isRecord, type LifecycleContext, type Props, type ResourceSpec } from "./spec";
import isEqual from "lodash/isEqual";
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
  return (
    !spec.singleton &&
    spec.name !== "Peer" &&
    Boolean(spec.ops.update || spec.hooks?.update || spec.adoptAsIs)
  );
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
    extra[snake(p.input)] = z.string().min(1, { error: "must not be empty" }).describe(p.description);
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

/** camelCase -> snake_case (`peerGroups` -> `peer_groups`). */
function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function dropUndefined(o: Props): Props {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

export type Phase = "create" | "read" | "update";

/** The input schemas of a spec by Pulumi name (body fields only). */
function inputSchemas(spec: ResourceSpec): Map<string, z.ZodType> {
  return new Map(Object.entries(shapeOf(spec.input) ?? {}).map(([k, s]) => [camel(k), s]));
}

/** Whether values of this schema are strings or lists of strings (kept in the program's spelling when equal). */
function isTextual(schema: z.ZodType | undefined): boolean {
  if (!schema) return false;
  if (kindOf(schema) === "string") return true;
  const el = elementOf(schema);
  return el !== undefined && kindOf(el) === "string";
}

/**
 * Outputs from an API object: every response field (camelCase, without `id`, which is the resource id), the
 * input fields in input form, parent ids, write-only inputs and create-only secrets carried forward.
 *
 * Where the server answers a text field or a list of ids with a value that means the same as the program's (the
 * same ids in another order, a host in its /32 form, a domain in lower case), the program's spelling is kept (on
 * read: the spelling in state), so state stays what the program says and nothing shows as drift.
 */
export function buildOutputs(
  spec: ResourceSpec,
  response: Props,
  inputs: Props,
  previous: Props | undefined,
  phase: Phase,
): Props {
  const resp = expectRecord(fromApi(response, spec.output), `${spec.name}: the object read liberally`);
  delete resp.id;
  const projected = expectRecord(project(resp, spec.input), `${spec.name}: the object as inputs`);
  const reference = phase === "read" ? (previous ?? {}) : inputs;
  for (const name of spec.serverDerived?.(reference) ?? []) {
    delete projected[name];
    delete resp[name];
  }
  const schemas = inputSchemas(spec);
  const sets = new Set(spec.setLists ?? []);
  for (const [name, schema] of schemas) {
    const mine = reference[name];
    if (mine === undefined || projected[name] === undefined || !isTextual(schema)) continue;
    if (sameValue(mine, projected[name], schema, sets.has(name), spec.normalForms?.[name]))
      projected[name] = mine;
  }
  let out: Props = { ...resp, ...projected };
  for (const p of spec.parents ?? []) out[p.input] = inputs[p.input] ?? previous?.[p.input];
  for (const f of spec.writeOnly ?? []) out[f] = phase === "read" ? previous?.[f] : inputs[f];
  if (phase !== "create") for (const f of spec.createOnlyOutputs ?? []) out[f] = previous?.[f];
  if (spec.mergeOutputs) out = spec.mergeOutputs(out, inputs, previous);
  delete out[PROVIDER_KEY];
  carryOwner(out, phase === "read" ? previous : inputs);
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
  if (isRecord(oldValue)) {
    const n = isRecord(newValue) ? newValue : {};
    const out: Props = {};
    for (const [k, v] of Object.entries(oldValue)) {
      if (k === "id" && n.id === undefined) continue;
      out[k] = alignIds(v, n[k]);
    }
    return out;
  }
  return oldValue;
}

/** Write-only inputs every create sends (required): absent from a state only when the object was imported. */
function requiredWriteOnly(spec: ResourceSpec, schemas: Map<string, z.ZodType>): Set<string> {
  return new Set(
    (spec.writeOnly ?? []).filter((n) => {
      const s = schemas.get(n);
      return s !== undefined && !isOptional(s) && !(spec.defaults && n in spec.defaults);
    }),
  );
}

/** The inputs a read reports: the input fields of the outputs (so refresh shows only real drift). */
export function inputsFromOutputs(spec: ResourceSpec, outs: Props): Props {
  const inputs: Props = {};
  for (const name of inputNames(spec)) if (outs[name] !== undefined) inputs[name] = outs[name];
  return carryOwner(inputs, outs);
}

function isOpenEnum(schema: z.ZodType | undefined): boolean {
  return schema !== undefined && OPEN_ENUMS.has(unwrap(schema));
}

/** The write-only inputs the program gives (kept in state: the API never shows them). */
function withWriteOnly(spec: ResourceSpec, inputs: Props): Props {
  const out: Props = {};
  for (const f of spec.writeOnly ?? []) if (inputs[f] !== undefined) out[f] = inputs[f];
  return out;
}

/** What the check found: failures (the preview stops) and advisories (a warning each; see api/common `advise`). */
export interface CheckReport {
  failures: pulumi.dynamic.CheckFailure[];
  /** `property: message`, with Pulumi property names. */
  warnings: string[];
}

/**
 * The inputs with every number where the kind's schema (or `adoptId`) has a string as its decimal text
 * (model/mapping.ts `numbersAsText`: Pulumi YAML's digits-only config values).
 */
export function textInputs(spec: ResourceSpec, news: Props): Props {
  const out = numbersAsText(news, checkSchema(spec)) as Props;
  const adopt = out[ADOPT_INPUT];
  if (typeof adopt === "number") out[ADOPT_INPUT] = decimalText(adopt) ?? adopt;
  return out;
}

/** Check failures and advisories for `news`, with Pulumi property names; unknown values pass. */
export function checkReport(spec: ResourceSpec, news: Props): CheckReport {
  return checkValues(checkSchema(spec), withDefaults(spec, news));
}

/**
 * Check failures and advisories for Pulumi-named values `news` against an API-named object schema (a kind's, or a
 * component's inputs'); unknown values pass.
 */
export function checkValues(schema: z.ZodObject, news: Props): CheckReport {
  const api = toApi(news, schema);
  const result = validate(schema, api);
  const names = snakeNames(schema);
  const report: CheckReport = { failures: [], warnings: [] };
  const issues = [...(result.ok ? [] : result.issues), ...result.advice];
  for (const issue of issues) {
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
      cur = cur && typeof cur === "object" ? Reflect.get(cur, seg) : undefined;
    }
    if (unknownOnPath || isUnknown(cur)) continue;
    // A value the spec does not list for an open set (a protocol, a role): the server it talks to decides.
    if (issue.code === "invalid_value" && isOpenEnum(schemaAt(schema, issue.path))) continue;
    // A cross-field rule (custom issue) over an object with an unknown member cannot be judged either; an
    // advisory about one value alone (a setup key's lifetime) can, whatever its neighbours are.
    const container = issue.path.length ? parent : api;
    if (issue.code === "custom" && !isLocalAdvisory(issue) && containsUnknown(container)) continue;
    const property = propertyPath(issue.path, schema) || "(inputs)";
    // A number left where a string is expected is one whose digits are lost (numbersAsText takes the others).
    const lost =
      typeof cur === "number" && kindOf(schemaAt(schema, issue.path) ?? schema) === "string"
        ? ` (got the number ${cur}: a number this large no longer holds the digits it was written with)`
        : "";
    const reason = `${property}: ${renameFields(issue.message, names)}${lost}`;
    if (isAdvisory(issue)) report.warnings.push(reason);
    else report.failures.push({ property, reason });
  }
  return report;
}

/** Check failures for `news`, with Pulumi property names; unknown values pass. */
export function checkInputs(spec: ResourceSpec, news: Props): pulumi.dynamic.CheckFailure[] {
  return checkReport(spec, news).failures;
}

/** `value` restricted to the members `named` sets, at any depth of plain objects (for partial resources). */
function restrictTo(value: unknown, named: unknown): unknown {
  if (!isRecord(named) || !isRecord(value)) return value;
  const out: Props = {};
  for (const [k, v] of Object.entries(named)) {
    if (v === undefined || v === null) continue;
    out[k] = restrictTo(value[k], v);
  }
  return out;
}

/** What a diff found: inputs that changed, those that need a new object, and create-only changes not applied. */
export interface Comparison {
  changed: string[];
  replaces: string[];
  /** Create-only inputs whose change is ignored (the API cannot apply it; a replacement was not asked for). */
  ignored: string[];
}

/** Compares old outputs with new inputs, field by field. */
export function compareInputs(spec: ResourceSpec, olds: Props, news: Props): Comparison {
  const schemas = inputSchemas(spec);
  const sets = new Set(spec.setLists ?? []);
  const replaceOn = new Set([...(spec.replaceOnChange ?? []), ...(spec.replaceWhen?.(olds, news) ?? [])]);
  const computed = new Set(spec.computedIfAbsent ?? []);
  const createOnly = new Set(spec.createOnly ?? []);
  const unseen = requiredWriteOnly(spec, schemas);
  const changed: string[] = [];
  const ignored: string[] = [];
  for (const name of inputNames(spec)) {
    const a = olds[name];
    let b = news[name];
    if ((b === undefined || b === null) && (computed.has(name) || spec.partial)) continue;
    // A required write-only input missing from the state: the object was imported (the API never shows the
    // value), so there is nothing to compare; the program's value is kept from the next write on.
    if (a === undefined && unseen.has(name)) continue;
    if (containsUnknown(b)) {
      if (!createOnly.has(name)) changed.push(name);
      continue;
    }
    if (b === undefined && spec.defaults && name in spec.defaults) b = spec.defaults[name];
    let oldValue = a === undefined && spec.defaults && name in spec.defaults ? spec.defaults[name] : a;
    if (spec.partial) oldValue = restrictTo(oldValue, b);
    const same = sameValue(
      alignIds(oldValue, b),
      b,
      schemas.get(name),
      sets.has(name),
      spec.normalForms?.[name],
    );
    if (same) continue;
    if (createOnly.has(name)) ignored.push(name);
    else changed.push(name);
  }
  return { changed, replaces: changed.filter((n) => replaceOn.has(n)), ignored };
}

/** Diff of old outputs against new inputs. */
export function diffInputs(spec: ResourceSpec, olds: Props, news: Props): pulumi.dynamic.DiffResult {
  const { changed, replaces } = compareInputs(spec, olds, news);
  return {
    changes: changed.length > 0,
    replaces,
    deleteBeforeReplace: replaces.length > 0 && spec.deleteBeforeReplace === true,
  };
}

/**
 * Why a deprecated kind is (the schema's deprecation message; the SDKs say "<Kind> is deprecated: " before it, and
 * so does a check of the kind).
 */
export function deprecationOf(spec: ResourceSpec): string {
  return (
    `use ${spec.deprecatedBy ?? "?"}, the same object under the service's name: a resource moved from ` +
    `${spec.name} to ${spec.deprecatedBy ?? "?"} keeps its object (no replacement).`
  );
}

/** How a warning names an object: its kind, its name (or email) where it has one, and its id. */
function describeObject(spec: ResourceSpec, id: string | undefined, props: Props): string {
  const label = props.name ?? props.email;
  const named = typeof label === "string" && label !== "" ? ` ${JSON.stringify(label)}` : "";
  return `${spec.name}${named}${id ? ` (id ${id})` : ""}`;
}

/**
 * Paths (Pulumi names) where two normalised values differ, at most `limit`. Lists are compared item by item
 * (an item one side lacks is a difference at its index); objects member by member.
 */
function differences(a: unknown, b: unknown, path: string, out: string[], limit = 5): void {
  if (out.length >= limit || isEqual(a, b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++)
      differences(a[i], b[i], `${path}[${i}]`, out, limit);
    return;
  }
  if (isRecord(a) && isRecord(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
      differences(a[k], b[k], `${path}.${k}`, out, limit);
    return;
  }
  out.push(path);
}

/** The values along a path (`rules[1].sources`) in a normalised value, from the top. */
function walk(value: unknown, path: string): unknown[] {
  const seen = [value];
  let cur: unknown = value;
  for (const m of path.matchAll(/\.?([^.[\]]+)|\[(\d+)\]/g)) {
    const key = m[1] ?? Number(m[2]);
    cur = cur && typeof cur === "object" ? Reflect.get(cur, key) : undefined;
    seen.push(cur);
  }
  return seen;
}

/** The value at a path, as short JSON for a message. */
function valueAt(value: unknown, path: string): string {
  const cur = walk(value, path).at(-1);
  const text = cur === undefined ? "nothing" : JSON.stringify(cur);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** A path with the names of the list items it goes through: `rules[1] ("web").sources`. */
function labelled(value: unknown, path: string): string {
  const parts = path.split(/(?=\.)|(?<=\])/);
  let prefix = "";
  let out = "";
  for (const part of parts) {
    prefix += part;
    out += part;
    const item = walk(value, prefix).at(-1);
    if (/\[\d+\]$/.test(part) && isRecord(item) && typeof item.name === "string")
      out += ` (${JSON.stringify(item.name)})`;
  }
  return out;
}

/**
 * After a create or update: where the server stored something other than what was sent (in a way that is not
 * one of its known normal forms), warn, naming the object, the field, what was sent and what is stored. The
 * outputs keep the server's value, so the next preview shows the difference instead of hiding it.
 */
export async function reportStoredDifferences(
  spec: ResourceSpec,
  id: string,
  sent: Props,
  outs: Props,
  phase: "create" | "update",
): Promise<void> {
  const schemas = inputSchemas(spec);
  const sets = new Set(spec.setLists ?? []);
  const skip = new Set([
    ...(spec.writeOnly ?? []),
    ...(spec.parents ?? []).map((p) => p.input),
    ...(phase === "update" ? (spec.createOnly ?? []) : []),
  ]);
  // Secret inputs the API answers (in part) are compared too, but the message shows only where they differ.
  const secret = new Set(spec.secretInputs ?? []);
  const full = withDefaults(spec, sent);
  const found: string[] = [];
  for (const [name, schema] of schemas) {
    if (skip.has(name) || spec.ignoreInputs?.includes(name)) continue;
    const mine = full[name];
    if ((mine === undefined || mine === null) && (spec.partial || spec.computedIfAbsent?.includes(name)))
      continue;
    if (containsUnknown(mine)) continue;
    let stored = outs[name];
    if (spec.partial) stored = restrictTo(stored, mine);
    const form = spec.normalForms?.[name];
    const a = normalize(mine, schema, sets.has(name), form);
    const b = normalize(alignIds(stored, mine), schema, sets.has(name), form);
    const paths: string[] = [];
    differences(a, b, name, paths);
    for (const p of paths)
      found.push(
        secret.has(name)
          ? `${p}: stored otherwise than sent (values not shown: ${name} is secret)`
          : `${labelled({ [name]: a }, p)}: sent ${valueAt({ [name]: a }, p)}, stored ${valueAt({ [name]: b }, p)}`,
      );
  }
  if (found.length === 0) return;
  await warn(
    `privnet: ${describeObject(spec, id, full)}: the server stored other values than the program sent ` +
      `(${found.join("; ")}). The next preview will show this as a change; check the server's documentation ` +
      "for what it accepts.",
  );
}

/** POST the inputs, map the response to outputs. */
export async function defaultCreate(
  spec: ResourceSpec,
  ctx: LifecycleContext,
  inputs: Props,
): Promise<{ id: string; outs: Props }> {
  if (!spec.ops.create) throw new Error(`privnet: ${spec.name} cannot be created through the API`);
  const createBody = spec.createBody ?? spec.input;
  const body = toApi(withDefaults(spec, inputs), createBody);
  const response = expectRecord(
    await ctx.client.call(spec.ops.create, { params: parentParams(spec, inputs), body }),
    `the answer to ${spec.ops.create}`,
  );
  const { object, extra } = spec.unwrapCreate
    ? spec.unwrapCreate(response)
    : { object: response, extra: undefined };
  const id = String(object.id);
  let outs = buildOutputs(spec, object, inputs, undefined, "create");
  const extraOuts = extra
    ? expectRecord(fromApi(extra, undefined), `${spec.name}: the create's extra outputs`)
    : {};
  Object.assign(outs, extraOuts);
  // Inputs only an update can set (a key created revoked, a user created blocked): set them now, so that one
  // create step ends in the state the program asks for.
  const late = inputNames(spec).filter((n) => !(snake(n) in createBody.shape) && spec.input.shape[snake(n)]);
  const full = withDefaults(spec, inputs);
  const schemas = inputSchemas(spec);
  if (late.some((n) => full[n] !== undefined && !sameValue(full[n], outs[n], schemas.get(n)))) {
    const updated = await defaultUpdate(spec, ctx, id, outs, inputs);
    outs = { ...updated.outs, ...extraOuts };
  }
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
  let body = expectRecord(
    toApi(withDefaults(spec, news), spec.updateBody ?? spec.input),
    `${spec.name}: the update body`,
  );
  // What only a replacement can change, or only a create sets, is not sent (the update body may not take it).
  for (const name of [...(spec.replaceOnChange ?? []), ...(spec.createOnly ?? [])]) delete body[snake(name)];
  if (spec.prepareUpdateBody) body = spec.prepareUpdateBody(body, olds);
  const response = expectRecord(
    await ctx.client.call(spec.ops.update, {
      params: { ...parentParams(spec, news), ...(spec.idParam ? { [spec.idParam]: id } : {}) },
      body,
    }),
    `the answer to ${spec.ops.update}`,
  );
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
    const answer = await ctx.client.call(spec.ops.read, {
      params: { ...parentParams(spec, props), ...(spec.idParam ? { [spec.idParam]: id } : {}) },
    });
    // No body (or null) is what a gone object looks like to the caller.
    return answer === undefined || answer === null
      ? undefined
      : expectRecord(answer, `the answer to ${spec.ops.read}`);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * An object under a parent, read by a composite id (`<zoneId>/<recordId>`, what `DnsRecord.get` accepts when the
 * state does not name the parent): the object's own id, and the properties with the parent ids filled in.
 */
function splitCompositeId(spec: ResourceSpec, id: string, props: Props): { objectId: string; known: Props } {
  const parents = spec.parents ?? [];
  const parts = id.split("/");
  if (!parents.length || parts.length !== parents.length + 1 || parts.some((x) => x === "")) {
    return { objectId: id, known: props };
  }
  // A parent the properties name must be the id's own (the id of an object imported by its composite id).
  if (
    parents.some(
      (p, i) => typeof props[p.input] === "string" && props[p.input] !== "" && props[p.input] !== parts[i],
    )
  ) {
    return { objectId: id, known: props };
  }
  const known = { ...props };
  parents.forEach((p, i) => (known[p.input] = parts[i]));
  return { objectId: parts[parents.length] ?? id, known };
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
  private batchReads: boolean | undefined;

  constructor(readonly spec: ResourceSpec) {}

  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    this.configureFrom((key) => req.config.get(`privnet:${key}`));
  }

  /** Takes the provider's settings from `get` (keys without the `privnet:` prefix), then the environment. */
  configureFrom(get: (key: "apiUrl" | "token" | "rateLimit" | "batchReads") => string | undefined): void {
    this.creds = resolveCredentials(get);
    this.batchReads = readBatching(get);
  }

  private ctx(): LifecycleContext {
    const creds = this.creds ?? resolveCredentials(() => undefined);
    const client = clientFor(creds);
    // Before the client's first request: batched reads must see every write, and long waits are reported.
    trackWrites(client);
    reportPacing(client);
    return { client, batchReads: this.batchReads ?? readBatching(() => undefined) };
  }

  /**
   * `owner`: the stack and URN of the resource (see provider/recovery.ts). The resource plugin passes what the
   * request's URN says; the dynamic host passes only inputs, so there it is the sdk's hidden owner input.
   */
  async check(
    olds: Props,
    news: Props,
    owner: Owner | undefined = ownerOf(news),
  ): Promise<pulumi.dynamic.CheckResult> {
    // A number where a string is expected is its text from here on (diff, create and update see a string).
    const checked = textInputs(this.spec, news);
    const inputs = { ...checked };
    delete inputs[PROVIDER_KEY];
    const { failures, warnings } = checkReport(this.spec, inputs);
    if (this.spec.deprecatedBy)
      warnings.unshift(`${this.spec.name} is deprecated: ${deprecationOf(this.spec)}`);
    // Values the service accepts although a document or good sense says otherwise: said at preview, not refused.
    for (const w of warnings) await warn(`privnet: ${describeObject(this.spec, undefined, inputs)}: ${w}`);
    // Before any create of this run starts: read what the state says about creates an earlier run left.
    await prepareRecovery(owner, olds, () => this.ctx());
    return { inputs: checked, failures };
  }

  async diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
    const { changed, replaces, deleteBeforeReplace } = await this.compare(id, olds, news);
    return { changes: changed.length > 0, replaces, deleteBeforeReplace };
  }

  /**
   * The diff with its detail: which inputs changed and which of them ask for a replacement. The dynamic host
   * needs only the verdict ({@link diff}); the resource plugin reports each property (`detailedDiff`). `owner`: as
   * for {@link check}.
   */
  async compare(
    id: string,
    olds: Props,
    news: Props,
    owner: Owner | undefined = ownerOf(news),
  ): Promise<Comparison & { deleteBeforeReplace: boolean }> {
    const spec = this.spec;
    const comparison = compareInputs(spec, olds, news);
    // A replacement creates: the stack's notes are read before it can start (see provider/recovery.ts).
    if (comparison.replaces.length > 0) await prepareReplacement(owner, () => this.ctx());
    for (const name of comparison.ignored) {
      await warn(
        `privnet: ${describeObject(spec, id, olds)}: ${name} is set when the object is created and the API ` +
          `cannot change it, so the new value ${JSON.stringify(news[name])} is not applied (the object keeps ` +
          `${JSON.stringify(olds[name])}). To make a new object with it, replace this one explicitly ` +
          "(pulumi up --replace <urn>), knowing what deleting it deletes.",
      );
    }
    return {
      ...comparison,
      deleteBeforeReplace: comparison.replaces.length > 0 && spec.deleteBeforeReplace === true,
    };
  }

  /** `owner`: as for {@link check}. */
  async create(
    inputs: Props,
    owner: Owner | undefined = ownerOf(inputs),
  ): Promise<pulumi.dynamic.CreateResult> {
    const spec = this.spec;
    const adoptId = inputs[ADOPT_INPUT];
    if (typeof adoptId === "string" && adoptId !== "" && canAdopt(spec)) return this.adopt(adoptId, inputs);
    // An object an interrupted run of this stack created for this resource is taken over, not made twice.
    const host = this.recoveryHost();
    const recovery = await recoverInterruptedCreate(host, inputs, owner);
    if (recovery.result) return recovery.result;
    let created: { id: string; outs: Props };
    try {
      const ctx = this.ctx();
      created = spec.hooks?.create
        ? await spec.hooks.create(ctx, inputs)
        : await defaultCreate(spec, ctx, inputs);
    } catch (err) {
      throw (await explainConflict(host, inputs, err, recovery)) ?? translateError(spec, err);
    }
    if (spec.readBack) created = { id: created.id, outs: await this.readBack(created.id, created.outs) };
    await reportStoredDifferences(spec, created.id, inputs, created.outs, "create");
    await reportRefused(spec, inputs, created.id, recovery);
    return created;
  }

  private recoveryHost(): RecoveryHost {
    const spec = this.spec;
    return {
      spec,
      ctx: () => this.ctx(),
      read: (id, props) => this.read(id, props),
      update: (id, olds, news) => this.update(id, olds, news),
      delete: (id, props) => this.delete(id, props),
      compare: (olds, news) => compareInputs(spec, olds, news),
      outputsOf: (object, inputs) => buildOutputs(spec, object, inputs, undefined, "create"),
    };
  }

  /**
   * Adoption: read the existing object, then make it match the inputs (one GET, one PUT). A kind without an update
   * (`adoptAsIs`) is taken as it is, when nothing the program names differs from it.
   */
  private async adopt(id: string, inputs: Props): Promise<pulumi.dynamic.CreateResult> {
    const spec = this.spec;
    const found = await this.read(id, inputs);
    if (!found.id) throw new Error(`privnet: cannot adopt ${spec.name} ${id}: it does not exist`);
    if (!spec.ops.update && !spec.hooks?.update) {
      // Write-only inputs cannot be compared (the API never shows them): the program's are kept.
      const writeOnly = new Set(spec.writeOnly ?? []);
      const changed = compareInputs(spec, found.props ?? {}, inputs).changed.filter((n) => !writeOnly.has(n));
      if (changed.length)
        throw new Error(
          `privnet: cannot adopt ${describeObject(spec, id, found.props ?? {})}: ${changed.join(", ")} ` +
            "differ from the program's and the API cannot change them; make the program say what the object " +
            "holds, or leave adoptId out to create a new one",
        );
      return { id, outs: { ...(found.props ?? {}), ...withWriteOnly(spec, inputs) } };
    }
    const { outs } = await this.update(id, found.props ?? {}, inputs);
    return { id, outs };
  }

  async read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
    const spec = this.spec;
    const { objectId, known } = splitCompositeId(spec, id, props);
    try {
      const ctx = this.ctx();
      if (spec.hooks?.read) {
        const found = await spec.hooks.read(ctx, objectId, known);
        return found.id ? { ...found, id } : found;
      }
      // Reads of one kind share one list request where that is safe (provider/read-batch.ts); the GET decides.
      const response = await batchedGet(spec, ctx, objectId, known, () =>
        defaultGet(spec, ctx, objectId, known),
      );
      // Gone: an empty result tells the engine to drop the resource from state.
      if (!response) return {};
      const outs = buildOutputs(spec, response, known, known, "read");
      return { id, props: outs, inputs: inputsFromOutputs(spec, outs) };
    } catch (err) {
      throw translateError(spec, err);
    }
  }

  /**
   * A read for `pulumi refresh` where the state's inputs are known (the resource plugin has them; the dynamic
   * host's read does not): {@link read}, its inputs kept to the names the state's inputs have, with the server's
   * values. The inputs stay what the program names: a group's `peers` the program leaves to others does not enter
   * its inputs at the first refresh. Drift shows as before: the engine's refresh diff compares the new outputs with
   * the inputs the state had. And the engine writes every input of every resource at each checkpoint save.
   */
  async refresh(id: string, props: Props, stateInputs: Props): Promise<pulumi.dynamic.ReadResult> {
    const found = await this.read(id, props);
    if (!found.id || !found.inputs) return found;
    const inputs: Props = {};
    for (const [name, v] of Object.entries(found.inputs)) if (name in stateInputs) inputs[name] = v;
    return { ...found, inputs };
  }

  /**
   * A read for `pulumi import`: only the id is known. The inputs are every input field the server shows (of a
   * partial kind too, whose refresh reports only what the program names), empty values left out as the diff
   * treats them as absent. Write-only inputs cannot be read: the program adds them (see {@link compareInputs}).
   */
  async importRead(id: string): Promise<pulumi.dynamic.ReadResult> {
    const found = await this.read(id, {});
    if (!found.id || !found.props) return found;
    const inputs: Props = {};
    for (const name of inputNames(this.spec)) {
      const v = found.props[name];
      if (v !== undefined && v !== null && v !== "") inputs[name] = v;
    }
    return { ...found, inputs: this.spec.importInputs?.(inputs, found.props) ?? inputs };
  }

  async update(resourceId: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
    const spec = this.spec;
    // An object imported by its composite id (`<parentId>/<id>`) is written by its own id.
    const id = splitCompositeId(spec, resourceId, { ...olds, ...news }).objectId;
    let updated: { outs: Props };
    try {
      const ctx = this.ctx();
      updated = spec.hooks?.update
        ? await spec.hooks.update(ctx, id, olds, news)
        : await defaultUpdate(spec, ctx, id, olds, news);
    } catch (err) {
      throw translateError(spec, err);
    }
    if (spec.readBack === "always") updated = { outs: await this.readBack(id, updated.outs) };
    await reportStoredDifferences(spec, id, news, updated.outs, "update");
    return updated;
  }

  /** The outputs as a read sees them right after a write (see `readBack`); the write's if the read finds none. */
  private async readBack(id: string, outs: Props): Promise<Props> {
    const stored = await this.read(id, outs);
    return stored.id ? (stored.props ?? outs) : outs;
  }

  async delete(resourceId: string, props: Props): Promise<void> {
    const spec = this.spec;
    const id = splitCompositeId(spec, resourceId, props).objectId;
    try {
      const ctx = this.ctx();
      if (spec.hooks?.delete) return await spec.hooks.delete(ctx, id, props);
      if (!spec.ops.delete) return;
      await ctx.client.call(spec.ops.delete, {
        params: { ...parentParams(spec, props), ...(spec.idParam ? { [spec.idParam]: id } : {}) },
      });
    } catch (err) {
      // Already gone is what delete wants. Some servers answer a delete of a missing object with another
      // status (400 "not found"): a read that finds nothing confirms it is gone.
      if (isNotFound(err)) return;
      if (isPrivnetApiError(err) && (err.status === 400 || err.status === 422)) {
        const found = await this.read(id, props).catch(() => ({ id: "unknown" }));
        if (!found.id) return;
      }
      throw translateError(spec, err);
    }
  }
}
