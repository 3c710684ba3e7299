/**
 * From what was read to what the program says: per object, the inputs of its resource (the provider's own
 * mapping: API form -> Pulumi form, projected onto the inputs), with
 *   - values equal to the server's defaults left out (the spec's `defaults`, and empty values of optional
 *     fields, which the provider's diff treats as absent);
 *   - members the server assigns (a policy rule's `id`) and lists managed from elsewhere (`computedIfAbsent`: a
 *     group's peers and resources, a peer's IP) left out;
 *   - secrets the API never returns (`writeOnly` + `secretInputs`, masked credentials of a secret input) turned
 *     into config secrets the user sets;
 *   - ids of other objects kept as ids here; the emitter turns them into references.
 * Then the objects are ordered (kinds in dependency order, by name within a kind), named, and each one's inputs
 * are checked the way the provider will: `check` must pass and the diff against the object as the server holds
 * it must be empty, so that after the adopting `pulumi up` the next preview shows no changes.
 */
import type { z } from "zod";
import { AccountSettingsSchema, defaultAccountSettings } from "../api/account";
import { MASKED_CREDENTIAL } from "../api/event-streaming";
import { MASKED_HEADER_VALUE } from "../api/notifications";
import { buildOutputs, canAdopt, checkInputs, compareInputs, inputNames } from "../provider/lifecycle";
import { fromApi } from "../model/mapping";
import { normalize, project, sameValue } from "../provider/normalize";
import { PROVIDERS } from "../provider/registry";
import { camel, elementOf, isOptional, kindOf, recordValueOf, shapeOf } from "../model/schema";
import type { Props, ResourceSpec } from "../provider/spec";
import { KINDS, kindDef, type Found, type KindDef } from "./kinds";
import { IdentifierAllocator, ResourceNameAllocator, camelWords, identifierWords } from "./naming";

/**
 * A value the program reads from stack config, because the API never returns it: a secret
 * (`config.requireSecret(key)`), or a required write-only value that is not one (`config.require(key)`: an Okta
 * SCIM integration's connection name).
 */
export class SecretValue {
  constructor(
    /** Where it goes, as a Pulumi property path (`clientSecret`, `config.api_key`). */
    readonly field: string,
    readonly secret = true,
  ) {}
}

/** A value with a trailing comment in the program. */
export class Commented {
  constructor(
    readonly value: unknown,
    readonly comment: string,
  ) {}
}

/** Kinds whose ids other objects hold (and that therefore become references). */
export const REFERENCED_KINDS = new Set([
  "Group",
  "PostureCheck",
  "Network",
  "NetworkResource",
  "DnsZone",
  "User",
  "Peer",
  // Agent Network policies name providers and guardrails.
  "AgentNetworkProvider",
  "AgentNetworkGuardrail",
]);

export function specOf(kind: string): ResourceSpec {
  const p = PROVIDERS.find((x) => x.spec.name === kind);
  if (!p) throw new Error(`privnet-import: unknown resource kind ${kind}`);
  return p.spec;
}

/** The input schema of a field (parents are plain strings: no schema). */
function fieldSchema(spec: ResourceSpec, name: string): z.ZodType | undefined {
  const shape = spec.input.shape as Record<string, z.ZodType>;
  for (const [k, s] of Object.entries(shape)) if (camel(k) === name) return s;
  return undefined;
}

/** The object's inputs as the provider reads them back (Pulumi form, ids of other objects as ids). */
export function readInputs(spec: ResourceSpec, f: Found): Props {
  let resp = fromApi(f.object, spec.output) as Props;
  // What the kind derives from the answer (a proxy token's lifetime, a target's host the server sets), as the
  // provider's outputs have it, with no program to keep the spelling of.
  if (spec.mergeOutputs) resp = spec.mergeOutputs(resp, {}, undefined);
  const projected = project(resp, spec.input) as Props;
  const out: Props = {};
  const parents = new Set((spec.parents ?? []).map((p) => p.input));
  for (const name of inputNames(spec)) {
    if (parents.has(name)) {
      // A peer is its own parent: `peerId` names the enrolled peer the resource manages.
      out[name] = f.parents[name] ?? (spec.name === "Peer" ? f.id : undefined);
    } else if (projected[name] !== undefined) out[name] = projected[name];
  }
  return out;
}

/** Optional members that hold nothing (by the diff's rules) and ids the server assigns, left out. */
/**
 * A policy rule's sources and destinations: optional lists the service still requires unless a resource stands in
 * for them (it refuses a rule without either, and stores an empty list, answering it as null). Such a list is
 * written as `[]` rather than left out.
 */
const RULE_ENDS: Record<string, string> = { sources: "sourceResource", destinations: "destinationResource" };

function prune(value: unknown, schema: z.ZodType | undefined): unknown {
  if (value === null || value === undefined || !schema) return value;
  const kind = kindOf(schema);
  if (kind === "array" && Array.isArray(value)) {
    const el = elementOf(schema);
    return value.map((v) => prune(v, el));
  }
  if (kind === "record" && typeof value === "object") {
    const vs = recordValueOf(schema);
    return Object.fromEntries(Object.entries(value as Props).map(([k, v]) => [k, prune(v, vs)]));
  }
  if (kind === "object" && typeof value === "object" && !Array.isArray(value)) {
    const shape = shapeOf(schema) ?? {};
    const out: Props = {};
    for (const [key, s] of Object.entries(shape)) {
      const name = camel(key);
      const v = (value as Props)[name];
      const standIn = RULE_ENDS[name];
      if (
        standIn &&
        shapeNames(shape).has(standIn) &&
        isEmptyList(v) &&
        !isSetValue((value as Props)[standIn])
      ) {
        out[name] = [];
        continue;
      }
      if (v === undefined || v === null) continue;
      if (name === "id" && isOptional(s)) continue; // assigned by the service (a policy rule's id)
      const pruned = prune(v, s);
      if (isOptional(s) && normalize(pruned, s) === undefined) continue;
      out[name] = pruned;
    }
    return out;
  }
  return value;
}

function shapeNames(shape: Record<string, unknown>): Set<string> {
  return new Set(Object.keys(shape).map(camel));
}
const isEmptyList = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0);
const isSetValue = (v: unknown) => v !== undefined && v !== null;

const MASKS = new Set([MASKED_CREDENTIAL, MASKED_HEADER_VALUE]);

/**
 * Masked credentials inside a secret input (event-streaming config, a webhook's header values), and the values the
 * API answers empty at the spec's `secretPaths` (a reverse-proxy service's password), become config secrets.
 */
function unmask(value: unknown, path: string, secretPaths: ReadonlySet<string>): unknown {
  if (typeof value === "string" && MASKS.has(value)) return new SecretValue(path);
  if (value === "" && secretPaths.has(path.replace(/\[\d+\]/g, "[]"))) return new SecretValue(path);
  if (Array.isArray(value)) return value.map((v, i) => unmask(v, `${path}[${i}]`, secretPaths));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value as Props).map(([k, v]) => [k, unmask(v, `${path}.${k}`, secretPaths)]),
    );
  return value;
}

const DAY = 86_400;

/**
 * A setup key's lifetime is write-only (the API returns only the expiry time): the remaining lifetime, in whole
 * days, within the documented range (86400 to 31536000 seconds); 0 for a key that never expires. Only
 * `pulumi up` of a new key would use it: adoption keeps the key.
 */
export function setupKeyLifetime(expires: unknown, now: number): Commented {
  // The zero time: a key made with expires_in 0, which never expires. 0 makes such a key again.
  if (String(expires).startsWith("0001-01-01"))
    return new Commented(
      0,
      `write-only: the key never expires (the API returns the expiry ${String(expires)})`,
    );
  const at = Date.parse(String(expires));
  const remaining = Number.isFinite(at) ? Math.round((at - now) / 1000 / DAY) * DAY : 30 * DAY;
  const value = Math.min(365 * DAY, Math.max(DAY, remaining));
  return new Commented(value, `write-only: the API returns only the expiry (${String(expires)})`);
}

/**
 * Defaults of kinds whose resource has none because it manages only what the program names: account settings
 * equal to a new account's are left out of the program (the settings someone changed are what it states).
 */
const NEW_ACCOUNT: Record<string, Props> = {
  AccountSettings: fromApi(defaultAccountSettings(), AccountSettingsSchema) as Props,
};

/** The inputs the program states for an object (see the file comment). */
export function programInputs(spec: ResourceSpec, f: Found, now = Date.now()): Props {
  const defaults = spec.defaults ?? NEW_ACCOUNT[spec.name];
  const read = readInputs(spec, f);
  const computed = new Set(spec.computedIfAbsent ?? []);
  const writeOnly = new Set(spec.writeOnly ?? []);
  const secret = new Set(spec.secretInputs ?? []);
  const sets = new Set(spec.setLists ?? []);
  const parents = new Set((spec.parents ?? []).map((p) => p.input));
  const out: Props = {};
  for (const name of inputNames(spec)) {
    if (computed.has(name)) continue;
    if (writeOnly.has(name)) {
      const schema = fieldSchema(spec, name);
      if (secret.has(name)) out[name] = new SecretValue(name);
      else if (spec.name === "SetupKey" && name === "expiresIn")
        out[name] = setupKeyLifetime(f.object.expires, now);
      // A required write-only value the API never shows (an Okta connection name): the user states it.
      else if (schema && !isOptional(schema) && !(defaults && name in defaults))
        out[name] = new SecretValue(name, false);
      continue;
    }
    const v = read[name];
    if (v === undefined || v === null) continue;
    if (parents.has(name)) {
      out[name] = v;
      continue;
    }
    const schema = fieldSchema(spec, name);
    const hasDefault = defaults !== undefined && name in defaults;
    if (
      (hasDefault || (schema && isOptional(schema))) &&
      sameValue(v, defaults?.[name], schema, sets.has(name))
    )
      continue;
    const pruned = prune(v, schema);
    out[name] = secret.has(name) ? unmask(pruned, name, new Set(spec.secretPaths ?? [])) : pruned;
  }
  return out;
}

/** A value with secrets replaced by `placeholder` and comments dropped: what the provider will see. */
export function literal(value: unknown, placeholder: string): unknown {
  if (value instanceof SecretValue) return placeholder;
  if (value instanceof Commented) return literal(value.value, placeholder);
  if (Array.isArray(value)) return value.map((v) => literal(v, placeholder));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value as Props).map(([k, v]) => [k, literal(v, placeholder)]));
  return value;
}

/** A secret placeholder every secret field accepts (non-empty, base64). */
const PLACEHOLDER = "cGxhY2Vob2xkZXI=";

/**
 * What would differ between the program and the server, the way the provider judges it: check failures, and
 * the inputs the diff after adoption would report as changed. Empty when the object adopts cleanly.
 */
export function verify(spec: ResourceSpec, f: Found, inputs: Props): string[] {
  const values = literal(inputs, PLACEHOLDER) as Props;
  const problems = checkInputs(spec, values).map((c) => c.reason);
  const outs = buildOutputs(spec, f.object, values, undefined, "update");
  const { changed } = compareInputs(spec, outs, values);
  if (changed.length) problems.push(`would change on the next preview: ${changed.join(", ")}`);
  return problems;
}

// ---------------------------------------------------------------------------------------------------------

/** Every string in a value (the candidates for references). */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (value instanceof Commented) stringsIn(value.value, out);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === "object" && !(value instanceof SecretValue)) {
    for (const [k, v] of Object.entries(value as Props)) {
      out.push(k); // record keys may be ids (a rule's authorizedGroups)
      stringsIn(v, out);
    }
  }
  return out;
}

/** One object of the program. */
export interface PlannedResource {
  found: Found;
  spec: ResourceSpec;
  def: KindDef;
  /** The variable. */
  varName: string;
  /** The Pulumi resource name. */
  resourceName: string;
  /** `adoptId`, for kinds that adopt by id (not singletons, not peers). */
  adoptId?: string;
  inputs: Props;
  /** Written because objects of the kinds asked for refer to it (not asked for itself). */
  referencedOnly: boolean;
}

/** An object the program looks up instead of managing. */
export interface Lookup {
  varName: string;
  /** The expression: `privnet.getGroup({ name: "All" }).then((g) => g.id)`. */
  expression: string;
  /** A comment for the line. */
  comment: string;
}

/** A config value the user sets: a secret, or a write-only value that is not one. */
export interface SecretEntry {
  key: string;
  /** `IdentityProvider okta: clientSecret`. */
  what: string;
  secret: boolean;
}

/** Per kind, for the summary: objects written, and objects read but not written with the reason. */
export interface KindSummary {
  kind: string;
  written: number;
  referencedOnly: number;
  notWritten: { reason: string; count: number }[];
  /** The kind could not be read here (cloud-only, embedded IdP only). */
  unavailable?: string;
}

export interface Plan {
  /** Kinds in program order, each with its resources in order. */
  sections: { def: KindDef; resources: PlannedResource[] }[];
  lookups: Lookup[];
  secrets: SecretEntry[];
  /** Secret key per `${id} ${field}` of an object. */
  secretKeys: Map<string, string>;
  /** Expression per id of every object the program refers to. */
  refs: Map<string, string>;
  summary: KindSummary[];
  /** Objects whose inputs would not adopt cleanly, and ids that name no object read (kept as they are). */
  warnings: string[];
}

export interface PlanOptions {
  /** The kinds asked for (`--kinds`), or all. */
  kinds: string[];
  /** Manage enrolled peers as `Peer` resources (`--peers`). */
  peers: boolean;
  now?: number;
}

/** What was read: objects per kind, and kinds that this server does not serve. */
export interface Snapshot {
  objects: Map<string, Found[]>;
  unavailable: Map<string, string>;
}

/** The canonical order of kinds: KINDS' order (dependencies first). */
const ORDER = new Map(KINDS.map((k, i) => [k.kind, i]));

function byLabel(a: Found, b: Found): number {
  const x = a.label.toLowerCase();
  const y = b.label.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Kinds ordered so that every kind comes after the kinds it refers to (ties: canonical order). */
export function orderKinds(kinds: string[], deps: Map<string, Set<string>>): string[] {
  const left = new Set(kinds);
  const out: string[] = [];
  while (left.size) {
    const ready = [...left]
      .filter((k) => [...(deps.get(k) ?? [])].every((d) => d === k || !left.has(d)))
      .sort((a, b) => (ORDER.get(a) ?? 0) - (ORDER.get(b) ?? 0));
    const next = ready[0];
    if (next === undefined)
      throw new Error(`privnet-import: the kinds ${[...left].join(", ")} refer to each other`);
    out.push(next);
    left.delete(next);
  }
  return out;
}

/** The kinds to read for a selection: the selection, and what it may refer to (transitively). */
export function kindsToRead(selected: string[]): string[] {
  const out = new Set<string>();
  const visit = (k: string): void => {
    if (out.has(k)) return;
    out.add(k);
    for (const d of kindDef(k).refersTo) visit(d);
  };
  for (const k of selected) visit(k);
  // Peers are read for the lookups of the peers the program refers to, whether or not they are managed.
  if ([...out].some((k) => kindDef(k).refersTo.includes("Peer"))) out.add("Peer");
  return KINDS.map((k) => k.kind).filter((k) => out.has(k));
}

function pascalField(field: string): string {
  return camelWords(["x", ...identifierWords(field)]).slice(1);
}

/** Builds the plan (see the file comment). */
export function buildPlan(snapshot: Snapshot, opts: PlanOptions): Plan {
  const now = opts.now ?? Date.now();
  const selected = new Set(opts.kinds);
  const summary = new Map<string, KindSummary>();
  const sum = (kind: string): KindSummary => {
    let s = summary.get(kind);
    if (!s) summary.set(kind, (s = { kind, written: 0, referencedOnly: 0, notWritten: [] }));
    return s;
  };
  for (const k of opts.kinds) sum(k);
  const note = (kind: string, reason: string, count = 1): void => {
    const s = sum(kind);
    const n = s.notWritten.find((x) => x.reason === reason);
    if (n) n.count += count;
    else s.notWritten.push({ reason, count });
  };

  // Every object read, by id (for references), and the candidates to write.
  const byId = new Map<string, Found>();
  for (const [kind, list] of snapshot.objects) {
    if (!REFERENCED_KINDS.has(kind)) continue;
    for (const f of list) byId.set(f.id, f);
  }
  const candidates = new Map<string, { f: Found; inputs: Props }>();
  const excluded = new Map<string, string>();
  for (const [kind, list] of snapshot.objects) {
    const def = kindDef(kind);
    const asked = selected.has(kind);
    for (const f of list) {
      const why = def.exclude?.(f);
      if (why) {
        excluded.set(f.id, why);
        if (asked) note(kind, why);
        continue;
      }
      if (def.notAdoptable) {
        if (asked) note(kind, def.notAdoptable);
        continue;
      }
      if (def.optIn && !opts.peers) continue;
      candidates.set(`${kind} ${f.id}`, { f, inputs: programInputs(specOf(kind), f, now) });
    }
    if (asked && def.optIn && !opts.peers && list.length)
      note(
        kind,
        "not managed without --peers; the program looks up the peers it refers to by name or IP",
        list.length,
      );
  }
  for (const [kind, reason] of snapshot.unavailable) {
    if (selected.has(kind)) sum(kind).unavailable = reason;
  }

  // What is written: the kinds asked for, and (transitively) the objects they refer to.
  const written = new Map<string, { f: Found; inputs: Props; referencedOnly: boolean }>();
  const queue: string[] = [];
  for (const [key, c] of candidates) {
    if (selected.has(c.f.kind)) {
      written.set(key, { ...c, referencedOnly: false });
      queue.push(key);
    }
  }
  const lookupPeers = new Set<string>();
  let needAll = false;
  const warnings: string[] = [];
  const deps = new Map<string, Set<string>>();
  while (queue.length) {
    const key = queue.shift() as string;
    const w = written.get(key) as { f: Found; inputs: Props };
    const own = w.f.kind === "Peer" ? w.f.id : undefined;
    for (const s of new Set(stringsIn(w.inputs))) {
      const target = byId.get(s);
      if (!target || s === own) continue;
      if (target.kind === "Group" && target.object.name === "All") {
        needAll = true;
        continue;
      }
      if (target.kind === "Peer" && !opts.peers) {
        lookupPeers.add(target.id);
        continue;
      }
      const tkey = `${target.kind} ${target.id}`;
      const c = candidates.get(tkey);
      if (!c) {
        warnings.push(
          `${w.f.kind} ${JSON.stringify(w.f.label)} refers to ${target.kind} ${JSON.stringify(target.label)}, ` +
            `which is not written (${excluded.get(target.id) ?? "not adoptable"}): its id is kept as it is`,
        );
        continue;
      }
      let d = deps.get(w.f.kind);
      if (!d) deps.set(w.f.kind, (d = new Set()));
      d.add(target.kind);
      if (!written.has(tkey)) {
        written.set(tkey, { ...c, referencedOnly: true });
        queue.push(tkey);
      }
    }
  }

  // Order and names.
  const kinds = orderKinds([...new Set([...written.values()].map((w) => w.f.kind))], deps);
  const names = new IdentifierAllocator();
  const resourceNames = new ResourceNameAllocator();
  const refs = new Map<string, string>();
  const lookups: Lookup[] = [];
  if (needAll) {
    const v = names.allocate("all group id", "Group");
    refs.set([...byId.values()].find((f) => f.kind === "Group" && f.object.name === "All")?.id ?? "", v);
    lookups.push({
      varName: v,
      expression: `privnet.getGroup({ name: "All" }).then((g) => g.id)`,
      comment: "",
    });
  }
  const peers = snapshot.objects.get("Peer") ?? [];
  for (const p of [...peers].filter((x) => lookupPeers.has(x.id)).sort(byLabel)) {
    const name = String(p.object.name ?? "");
    const unique = name !== "" && peers.filter((x) => x.object.name === name).length === 1;
    const v = names.allocate(`${p.label} peer id`, "Peer");
    refs.set(p.id, v);
    lookups.push({
      varName: v,
      expression: unique
        ? `privnet.getPeerByName(${JSON.stringify(name)}).then((p) => p.id)`
        : `privnet.getPeerByIp(${JSON.stringify(String(p.object.ip))}).then((p) => p.id)`,
      comment: unique ? "" : `its name ${JSON.stringify(name)} is not unique`,
    });
  }

  const sections: Plan["sections"] = [];
  const secrets: SecretEntry[] = [];
  const secretKeys = new Map<string, string>();
  const secretNames = new Set<string>();
  for (const kind of kinds) {
    const def = kindDef(kind);
    const spec = specOf(kind);
    const resources: PlannedResource[] = [];
    const list = [...written.values()].filter((w) => w.f.kind === kind).sort((a, b) => byLabel(a.f, b.f));
    for (const w of list) {
      const varName = names.allocate(w.f.label, kind);
      const resourceName = resourceNames.allocate(kind, w.f.label, varName);
      if (REFERENCED_KINDS.has(kind)) refs.set(w.f.id, `${varName}.id`);
      const r: PlannedResource = {
        found: w.f,
        spec,
        def,
        varName,
        resourceName,
        inputs: w.inputs,
        referencedOnly: w.referencedOnly,
      };
      if (canAdopt(spec)) r.adoptId = w.f.id;
      resources.push(r);
      const s = sum(kind);
      s.written++;
      if (w.referencedOnly) s.referencedOnly++;
      for (const { field, secret } of configValues(w.inputs)) {
        let key = `${varName}${pascalField(field)}`;
        for (let n = 2; secretNames.has(key); n++) key = `${varName}${pascalField(field)}${n}`;
        secretNames.add(key);
        secretKeys.set(`${w.f.id} ${field}`, key);
        secrets.push({ key, what: `${kind} ${JSON.stringify(w.f.label)}: ${field}`, secret });
      }
      for (const p of verify(spec, w.f, w.inputs))
        warnings.push(`${kind} ${JSON.stringify(w.f.label)}: ${p}`);
    }
    sections.push({ def, resources });
  }

  const order = (k: string) => ORDER.get(k) ?? 0;
  return {
    sections,
    lookups,
    secrets,
    secretKeys,
    refs,
    summary: [...summary.values()].sort((a, b) => order(a.kind) - order(b.kind)),
    warnings,
  };
}

/** The config values inside inputs (secrets and the other write-only values), in order. */
function configValues(value: unknown, out: SecretValue[] = []): SecretValue[] {
  if (value instanceof SecretValue) out.push(value);
  else if (value instanceof Commented) configValues(value.value, out);
  else if (Array.isArray(value)) for (const v of value) configValues(v, out);
  else if (value && typeof value === "object")
    for (const v of Object.values(value as Props)) configValues(v, out);
  return out;
}

/** The fields of the config values (secrets and write-only values) inside inputs, in order. */
export function secretFields(value: unknown): string[] {
  return configValues(value).map((v) => v.field);
}
