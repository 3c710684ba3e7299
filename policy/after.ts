/**
 * The account as it will be after a stack's change, built from what is already there:
 *
 * - the account as read now (`live`: the objects per kind, API form, as `privnet-access show` reads them);
 * - the stack's state before the change (`prior`: which object each resource holds, by URN);
 * - the stack's planned resources (`planned`: what the stack validation sees, Pulumi names, unknown values as the
 *   engine's marker), each mapped to the API object the provider would write with the provider's own mapping:
 *   the kind's spec, `withDefaults`, `toApi`, its diff (`compareInputs`: does the resource change, is it replaced)
 *   and its update hooks' rules (what an update does not send, rule ids kept by name).
 *
 * What the server does beyond storing a body, where it changes access, is applied as the management server does
 * it: a network resource's `groups` are the groups that list it; deleting a network deletes its resources and
 * routers; a settings resource that goes away puts back the settings it found (`priorSettings`); destroying a
 * Peer resource leaves the peer enrolled; a reverse-proxy service's target gets the host the server fills in (a
 * peer's IP, a host resource's address without its /32, a domain resource's name).
 *
 * Values unknown during preview. An id the engine has not learnt yet stands for an object this change creates:
 * the resource's property dependencies name the candidates. One candidate of the right kind: that object. Several:
 * when none of them holds a peer or a resource (a new group has no peers until an agent enrolls, unless the
 * program lists some), which one it is changes no access, and the first is taken. Otherwise, and for any other
 * unknown value that decides access (a port, an action, a membership), the element is not guessed: it is left
 * out of the account before and after the change, and reported in {@link AfterAccount.undecided} with what it
 * could touch. Unknown names and addresses only change what lines say: they read "(known after apply)". A whole
 * property unknown without any dependency is an output the provider computes (the server's default). A reverse-proxy
 * service whose target id, type, port or switches are unknown is undecided the same way; it concerns only the tests
 * about what is published (services carry no traffic between peers). The secret values of its auth (a password from
 * another resource) decide nothing here: only which checks are enabled does.
 */
import { AGENT_NETWORK_KINDS, type ListedAccount } from "../access/snapshot";
import { ADOPT_INPUT, compareInputs, withDefaults } from "../provider/lifecycle";
import { PROVIDERS } from "../provider/registry";
import { overlay, PRIOR_SETTINGS } from "../provider/settings";
import type { Listed, Props, ResourceSpec } from "../provider/spec";
import { isRecord, toApi, UNKNOWN } from "../model/mapping";
import { camel } from "../model/schema";

/** What unknown names and addresses read as. */
export const KNOWN_AFTER_APPLY = "(known after apply)";

/** The kinds whose objects the network map reads, in dependency order (what a change may refer to first). */
export const MAP_KINDS = [
  "AccountSettings",
  "DnsSettings",
  "User",
  "Peer",
  "Group",
  "PostureCheck",
  "Network",
  "NetworkResource",
  "NetworkRouter",
  "Policy",
  "Route",
  "NameserverGroup",
  "DnsZone",
  "ReverseProxyService",
] as const;

/**
 * The kinds read with the map's: the Agent Network (its objects decide LLM use; access/llm.ts). They are carried
 * from the account now to the account after, and a planned resource of one of them is mapped like any other kind
 * once the provider has a spec for it.
 */
export const READ_KINDS = [...MAP_KINDS, ...AGENT_NETWORK_KINDS] as const;

/** A privnet resource of the stack as the stack validation sees it. */
export interface PlannedResource {
  urn: string;
  kind: string;
  /** Its properties (outputs at the end of the change; Pulumi names; unknown values as {@link UNKNOWN}). */
  props: Props;
  /** URNs each top-level property depends on. */
  deps: Record<string, string[]>;
}

/** A resource of the stack's state before the change. */
export interface PriorResource {
  urn: string;
  kind: string;
  id: string;
  outputs: Props;
  /** The state keeps the object when the resource goes (`retainOnDelete`). */
  retain?: boolean;
}

/** Something the pack cannot decide before apply, and what it could touch. */
export interface Undecided {
  /** The resource it belongs to. */
  urn: string;
  /** One line: what is unknown and why it matters. */
  message: string;
  /** Peers (ids) whose traffic it may carry out, or "all". */
  sources: Set<string> | "all";
  /** Peers and network resources (ids) it may reach, or "all". */
  targets: Set<string> | "all";
  /** Whether it may carry traffic both ways. */
  both: boolean;
  /** It concerns what reverse-proxy services publish (tests about publishing), not traffic between peers. */
  publishes?: boolean;
  /** It concerns LLM use through the Agent Network gateway (LLM tests), not traffic between peers. */
  llm?: boolean;
}

export interface AfterAccount {
  /** The account now, with what cannot be decided left out (the "before" of the diff). */
  before: Map<string, Listed[]>;
  /** The account after the change, the same left out. */
  after: Map<string, Listed[]>;
  undecided: Undecided[];
  /** Notes that change no line but a reader should know (a deletion the server will refuse, ...). */
  notes: string[];
  /** Placeholder id -> the URN of the resource whose object it stands for. */
  created: Map<string, string>;
  /** The object each planned resource holds after the change (kind and id), by URN. */
  objects: Map<string, { kind: string; id: string }>;
}

const specs = new Map<string, ResourceSpec>(PROVIDERS.map((p) => [p.spec.name, p.spec]));

/** The provider's spec of a kind. */
export function specOf(kind: string): ResourceSpec {
  const spec = specs.get(kind);
  if (!spec) throw new Error(`privnet: no resource kind ${kind}`);
  return spec;
}

export function isMapKind(kind: string): boolean {
  return (READ_KINDS as readonly string[]).includes(kind) && specs.has(kind);
}

/** Where an id inside a kind's API object points (paths by API names; `[]` for a list item). */
interface Ref {
  path: string;
  /** The kind it names, or how to tell from the object (a service's target: by its `target_type`). */
  kind: string | ((object: Props, p: Path) => string);
}

function refKind(ref: Ref, object: Props, p: Path): string {
  return typeof ref.kind === "string" ? ref.kind : ref.kind(object, p);
}

/** The kind a reverse-proxy service's target names: a peer, a network resource, or a cluster (no object). */
function targetKind(object: Props, p: Path): string {
  const targets = Array.isArray(object.targets) ? object.targets : [];
  const t = targets[p[1] as number];
  const type = isRecord(t) ? t.target_type : undefined;
  return type === "peer" ? "Peer" : type === "cluster" ? "" : "NetworkResource";
}

/** The references of each kind that decide access, by API path (`*` = every list item). */
const REFS: Record<string, Ref[]> = {
  Group: [
    { path: "peers.*", kind: "Peer" },
    { path: "resources.*.id", kind: "NetworkResource" },
  ],
  Policy: [
    { path: "source_posture_checks.*", kind: "PostureCheck" },
    { path: "rules.*.sources.*", kind: "Group" },
    { path: "rules.*.destinations.*", kind: "Group" },
    { path: "rules.*.sourceResource.id", kind: "NetworkResource" },
    { path: "rules.*.destinationResource.id", kind: "NetworkResource" },
  ],
  NetworkResource: [{ path: "groups.*", kind: "Group" }],
  NetworkRouter: [
    { path: "peer", kind: "Peer" },
    { path: "peer_groups.*", kind: "Group" },
  ],
  Route: [
    { path: "peer", kind: "Peer" },
    { path: "peer_groups.*", kind: "Group" },
    { path: "groups.*", kind: "Group" },
    { path: "access_control_groups.*", kind: "Group" },
  ],
  NameserverGroup: [{ path: "groups.*", kind: "Group" }],
  DnsZone: [{ path: "distribution_groups.*", kind: "Group" }],
  DnsSettings: [{ path: "disabled_management_groups.*", kind: "Group" }],
  User: [{ path: "auto_groups.*", kind: "Group" }],
  AgentNetworkPolicy: [
    { path: "source_groups.*", kind: "Group" },
    { path: "destination_provider_ids.*", kind: "AgentNetworkProvider" },
    { path: "guardrail_ids.*", kind: "AgentNetworkGuardrail" },
  ],
  AgentNetworkBudgetRule: [
    { path: "target_groups.*", kind: "Group" },
    { path: "target_users.*", kind: "User" },
  ],
  ReverseProxyService: [
    { path: "targets.*.target_id", kind: targetKind },
    { path: "access_groups.*", kind: "Group" },
    { path: "auth.bearer_auth.distribution_groups.*", kind: "Group" },
  ],
};

/** Fields whose unknown value changes only what a line says, not access (a service target's `host` included). */
const TEXT_FIELDS = new Set([
  "name",
  "description",
  "address",
  "dns_label",
  "domain",
  "search_domains",
  "host",
  "header",
]);

/**
 * What decides no access line, by API path (`*` = every list item; a path covers all below it): a user's future
 * peers' groups and the user's names; the secrets of a service's auth checks (only which checks are on decides).
 */
const NO_ACCESS: Record<string, string[]> = {
  User: ["auto_groups", "name", "email", "is_service_user", "password"],
  // What the gateway forwards and how, not who may use which model.
  AgentNetworkProvider: [
    "api_key",
    "upstream_url",
    "extra_values",
    "identity_header_user_id",
    "identity_header_groups",
    "skip_tls_verification",
    "metadata_disabled",
  ],
  AgentNetworkGuardrail: ["checks.prompt_capture"],
  AgentNetworkSettings: [
    "enable_log_collection",
    "enable_prompt_collection",
    "redact_pii",
    "access_log_retention_days",
    "proxy_address",
  ],
  ReverseProxyService: ["auth.password_auth.password", "auth.pin_auth.pin", "auth.header_auths.*.value"],
};

/** Kinds that decide DNS and routes, which no access line or test reads: their unknown values change nothing here. */
const NO_ACCESS_KINDS = new Set(["NameserverGroup", "DnsZone", "DnsSettings", "Route"]);

/** A value path inside an object: `rules[0].sources[1]`. */
type Path = (string | number)[];

function pathText(p: Path): string {
  if (p[0] === "@parent") return String(p[1]);
  return p.map((s, i) => (typeof s === "number" ? `[${s}]` : i ? `.${camel(s)}` : camel(s))).join("");
}

function matches(pattern: string, p: Path): boolean {
  const parts = pattern.split(".");
  if (parts.length !== p.length) return false;
  return parts.every((x, i) => (x === "*" ? typeof p[i] === "number" : x === p[i]));
}

/** Every path of `value` that holds the unknown marker. */
function unknownPaths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (value === UNKNOWN) out.push(at);
  else if (Array.isArray(value)) value.forEach((v, i) => unknownPaths(v, [...at, i], out));
  else if (isRecord(value)) for (const [k, v] of Object.entries(value)) unknownPaths(v, [...at, k], out);
  return out;
}

function setAt(obj: Props, p: Path, value: unknown): void {
  let cur: unknown = obj;
  for (const seg of p.slice(0, -1)) cur = (cur as Record<string | number, unknown>)[seg];
  (cur as Record<string | number, unknown>)[p[p.length - 1] as string | number] = value;
}

const str = (v: unknown): string =>
  typeof v === "string" ? v : v === undefined || v === null ? "" : String(v);
const ids = (v: unknown): string[] =>
  (Array.isArray(v) ? v : []).map((x) => (isRecord(x) ? str(x.id) : str(x))).filter(Boolean);

/** A deep copy of JSON-like data. */
function copy<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** One object being built: where it lives in the account after the change, and where it came from. */
interface Work {
  kind: string;
  id: string;
  object: Props;
  parents: Record<string, string>;
  /** The resource that writes it (absent for objects the change leaves alone). */
  planned?: PlannedResource;
  /** The body the provider would send (API form), when it writes. */
  body?: Props;
  created: boolean;
}

export interface AfterInput {
  live: ListedAccount;
  prior: ReadonlyMap<string, PriorResource>;
  planned: readonly PlannedResource[];
}

/** The account after the change (see the module comment). */
export function afterAccount(input: AfterInput): AfterAccount {
  const notes: string[] = [];
  const undecided: Undecided[] = [];
  const created = new Map<string, string>();
  // The account after, kind by kind, starting from a copy of what is there now.
  const after = new Map<string, Map<string, Work>>();
  for (const kind of READ_KINDS) {
    const m = new Map<string, Work>();
    for (const l of input.live.get(kind) ?? [])
      m.set(l.id, { kind, id: l.id, object: copy(l.object), parents: { ...l.parents }, created: false });
    after.set(kind, m);
  }
  const kindMap = (kind: string) => after.get(kind) as Map<string, Work>;

  const planned = input.planned.filter((r) => isMapKind(r.kind)).map(withoutComputed);
  const plannedUrns = new Set(input.planned.map((r) => r.urn));
  /** Placeholder id of the object a resource creates, by URN. */
  const newIds = new Map<string, { kind: string; id: string }>();
  /** Objects a resource's old object stops being (replaced or deleted): kind and id. */
  const removed: { kind: string; id: string; prior: PriorResource }[] = [];
  const objects = new Map<string, { kind: string; id: string }>();

  // 1. Which object each planned resource writes: an existing one (by the state, `adoptId`, a singleton, a peer's
  //    id), or a new one.
  const writes: { r: PlannedResource; spec: ResourceSpec; id: string | undefined; created: boolean }[] = [];
  for (const r of planned) {
    const spec = specOf(r.kind);
    const prior = input.prior.get(r.urn);
    let id: string | undefined;
    let isNew = false;
    if (spec.singleton) {
      id = [...kindMap(r.kind).keys()][0];
    } else if (r.kind === "Peer") {
      const peerId = r.props.peerId;
      id = typeof peerId === "string" && peerId !== UNKNOWN ? peerId : undefined;
      if (id === undefined) {
        undecided.push({
          urn: r.urn,
          message: `${label(r)}: the peer it manages (peerId) is unknown until apply`,
          sources: "all",
          targets: "all",
          both: true,
        });
        continue;
      }
    } else if (prior) {
      const cmp = compareInputs(spec, prior.outputs, r.props);
      if (cmp.replaces.length) {
        removed.push({ kind: r.kind, id: prior.id, prior });
        isNew = true;
      } else id = prior.id;
    } else {
      const adopt = r.props[ADOPT_INPUT];
      if (typeof adopt === "string" && adopt !== UNKNOWN && adopt !== "") id = adopt;
      else isNew = true;
    }
    if (isNew) {
      id = `new:${r.urn}`;
      newIds.set(r.urn, { kind: r.kind, id });
      created.set(id, r.urn);
    }
    writes.push({ r, spec, id, created: isNew });
    if (id !== undefined) objects.set(r.urn, { kind: r.kind, id });
  }

  // 2. Deletions: resources of the state the program no longer has.
  for (const prior of input.prior.values()) {
    if (!isMapKind(prior.kind) || plannedUrns.has(prior.urn) || prior.retain) continue;
    removed.push({ kind: prior.kind, id: prior.id, prior });
  }

  // 3. The objects the resources write, their unknown ids resolved where the dependencies say which new object
  //    they are.
  const pending: {
    w: Work;
    r: PlannedResource;
    slots: { path: Path; kind: string; candidates: string[] }[];
  }[] = [];
  for (const { r, spec, id, created: isNew } of writes) {
    if (id === undefined) continue;
    const map = kindMap(r.kind);
    const current = map.get(id);
    if (!isNew && !current) {
      notes.push(
        `${label(r)}: object ${id} is not in the account: the change will fail (it is left out here)`,
      );
      continue;
    }
    const prior = input.prior.get(r.urn);
    // Unchanged resources write nothing (the provider's diff says so): the object stays as the server has it.
    if (!isNew && current && prior) {
      const cmp = compareInputs(spec, prior.outputs, r.props);
      if (!cmp.changed.length) continue;
    }
    const body = bodyOf(spec, r.props, isNew, prior?.outputs);
    const w: Work = current ?? {
      kind: r.kind,
      id,
      object: {},
      parents: {},
      created: true,
    };
    w.planned = r;
    w.body = body;
    for (const p of spec.parents ?? []) {
      const v = r.props[p.input];
      if (typeof v === "string") w.parents[p.input] = v;
    }
    w.object = objectAfter(spec, current?.object, body, r.props, isNew, id);
    if (r.kind === "AgentNetworkSettings") gatewayAfter(w.object, current?.object, prior, r, spec);
    if (!current) map.set(id, w);
    // Unknown values: ids to resolve, the rest judged below.
    const slots: { path: Path; kind: string; candidates: string[] }[] = [];
    const refs = REFS[r.kind] ?? [];
    for (const p of unknownPaths(w.object)) {
      const ref = refs.find((x) => matches(x.path, p));
      if (!ref) continue;
      const top = camel(String(p[0]));
      const kind = refKind(ref, w.object, p);
      if (!kind) continue; // a cluster target names no object
      const candidates = (r.deps[top] ?? []).flatMap((urn) => {
        const n = newIds.get(urn);
        return n && n.kind === kind ? [n.id] : [];
      });
      slots.push({ path: p, kind, candidates });
    }
    for (const p of spec.parents ?? []) {
      if (w.parents[p.input] !== UNKNOWN) continue;
      const parentKind = p.input === "networkId" ? "Network" : undefined;
      const candidates = (r.deps[p.input] ?? []).flatMap((urn) => {
        const n = newIds.get(urn);
        return n && n.kind === parentKind ? [n.id] : [];
      });
      slots.push({ path: ["@parent", p.input], kind: parentKind ?? "", candidates });
    }
    if (slots.length) pending.push({ w, r, slots });
  }
  const setSlot = (w: Work, path: Path, value: string) => {
    if (path[0] === "@parent") w.parents[path[1] as string] = value;
    else setAt(w.object, path, value);
  };
  const ambiguous: typeof pending = [];
  for (const item of pending) {
    const rest = item.slots.filter((s) => {
      if (s.candidates.length !== 1) return true;
      setSlot(item.w, s.path, s.candidates[0] as string);
      return false;
    });
    if (rest.length) ambiguous.push({ ...item, slots: rest });
  }

  // 4. Deletions and what the server does with them.
  const leftOut = new Map<string, Set<string>>(); // kind -> ids left out of both accounts
  const leaveOut = (kind: string, id: string) => {
    if (kind === "Rule") {
      maskedRules.add(id);
      return;
    }
    const s = leftOut.get(kind) ?? new Set<string>();
    s.add(id);
    leftOut.set(kind, s);
  };
  /** Policy rules (ids) left out of both accounts. */
  const maskedRules = new Set<string>();
  for (const d of removed) {
    const map = kindMap(d.kind);
    const current = map.get(d.id);
    if (!current) continue;
    if (d.kind === "Peer") continue; // destroying a Peer resource stops managing the peer only
    if (d.kind === "AgentNetworkSettings" && d.prior.outputs[BOOTSTRAPPED] === true) {
      // Released: the account has no gateway any more (the service refuses while providers exist).
      current.object = { ...current.object, endpoint: "", proxy_address: "" };
      continue;
    }
    if (specOf(d.kind).singleton) {
      const prior = d.prior.outputs[PRIOR_SETTINGS];
      if (isRecord(prior)) current.object = overlay(current.object, prior);
      continue;
    }
    map.delete(d.id);
    if (d.kind === "Network") {
      for (const child of ["NetworkResource", "NetworkRouter"]) {
        const m = kindMap(child);
        for (const [cid, c] of m) if (c.parents.networkId === d.id) m.delete(cid);
      }
    }
  }

  // 5. Memberships a network resource's `groups` decide (the groups that list it after the change).
  const membership = () => {
    const groups = kindMap("Group");
    for (const w of kindMap("NetworkResource").values()) {
      if (!w.body || !Array.isArray(w.body.groups)) continue;
      const want = new Set(ids(w.object.groups));
      const type = str(w.object.type) || "host";
      for (const g of groups.values()) {
        const list = Array.isArray(g.object.resources) ? (g.object.resources as unknown[]) : [];
        const has = list.some((x) => isRecord(x) && str(x.id) === w.id);
        if (want.has(g.id) && !has) g.object.resources = [...list, { id: w.id, type }];
        if (!want.has(g.id) && has)
          g.object.resources = list.filter((x) => !(isRecord(x) && str(x.id) === w.id));
      }
    }
    // Resources that are gone leave their groups.
    const resources = new Set(kindMap("NetworkResource").keys());
    const before = new Set((input.live.get("NetworkResource") ?? []).map((l) => l.id));
    for (const g of groups.values()) {
      const list = Array.isArray(g.object.resources) ? (g.object.resources as unknown[]) : [];
      g.object.resources = list.filter((x) => {
        const rid = isRecord(x) ? str(x.id) : "";
        return resources.has(rid) || !before.has(rid);
      });
    }
  };
  membership();

  // 6. Ambiguous ids: interchangeable when no candidate holds a peer or a resource.
  const inert = (kind: string, id: string): boolean => {
    if (kind !== "Group") return false;
    const g = kindMap("Group").get(id);
    return !g || (ids(g.object.peers).length === 0 && ids(g.object.resources).length === 0);
  };
  for (const item of ambiguous) {
    const open: Path[] = [];
    for (const s of item.slots) {
      if (s.candidates.length > 1 && s.candidates.every((c) => inert(s.kind, c)))
        setSlot(item.w, s.path, s.candidates[0] as string);
      else open.push(s.path);
    }
    if (!open.length || NO_ACCESS_KINDS.has(item.w.kind)) continue;
    const r = item.r;
    const why = item.slots
      .filter((s) => open.includes(s.path))
      .map((s) =>
        s.candidates.length > 1
          ? `${pathText(s.path)} is one of ${s.candidates.length} objects this change creates (${s.candidates
              .map((c) => describeNew(created.get(c) ?? c))
              .join(", ")})`
          : `${pathText(s.path)} is an id unknown until apply that names no object this change creates`,
      );
    for (const p of open) setSlot(item.w, p, UNKNOWN);
    const possible = new Map(
      item.slots.filter((s) => open.includes(s.path)).map((s) => [JSON.stringify(s.path), s.candidates]),
    );
    undecidedOf(item.w, r, open, why, undecided, leaveOut, possible);
  }
  membership();

  // 6b. The host the server fills in for each target of a service it writes (the address a published line shows).
  for (const w of kindMap("ReverseProxyService").values()) {
    if (!w.body || !Array.isArray(w.object.targets)) continue;
    w.object.targets = w.object.targets.map((t) => (isRecord(t) ? withHost(t, kindMap) : t));
  }

  // 7. Other unknown values: text reads "(known after apply)"; anything else that decides access is undecided.
  for (const kind of READ_KINDS) {
    if (NO_ACCESS_KINDS.has(kind)) continue;
    for (const w of kindMap(kind).values()) {
      if (!w.planned) continue;
      const paths = unknownPaths(w.object).filter(
        (p) => !(NO_ACCESS[kind] ?? []).some((x) => matches(x, p.slice(0, x.split(".").length))),
      );
      const open: Path[] = [];
      for (const p of paths) {
        const last = p[p.length - 1];
        const ref = (REFS[kind] ?? []).find((x) => matches(x.path, p));
        const refSlot = ref !== undefined;
        // A service's cluster target names an address, no object: what the line says.
        if (ref && refKind(ref, w.object, p) === "") setAt(w.object, p, KNOWN_AFTER_APPLY);
        else if (!refSlot && typeof last === "string" && TEXT_FIELDS.has(last))
          setAt(w.object, p, KNOWN_AFTER_APPLY);
        else if (!refSlot) open.push(p);
      }
      if (open.length && !undecided.some((u) => u.urn === w.planned?.urn))
        undecidedOf(
          w,
          w.planned,
          open,
          open.map((p) => `${pathText(p)} is unknown until apply`),
          undecided,
          leaveOut,
        );
    }
  }

  // 8. Groups that go while something still names them: the server refuses such a delete.
  for (const d of removed) {
    if (d.kind !== "Group" || kindMap("Group").has(d.id)) continue;
    const users = whoNames(after, d.id);
    if (users.length)
      notes.push(
        `group ${JSON.stringify(str(d.prior.outputs.name) || d.id)} is deleted while ${users.join(", ")} still ` +
          "name it: the server refuses that delete, and the update fails",
      );
  }

  const toListed = (source: Map<string, Map<string, Work>>): Map<string, Listed[]> => {
    const out = new Map<string, Listed[]>();
    for (const [kind, m] of source) {
      const skip = leftOut.get(kind);
      out.set(
        kind,
        [...m.values()]
          .filter((w) => !skip?.has(w.id))
          .map((w) => ({
            id: w.id,
            object: kind === "Policy" ? withoutRules(w.object) : w.object,
            parents: w.parents,
          })),
      );
    }
    return out;
  };
  // A rule left out is switched off, in both accounts (the live objects are not touched).
  const withoutRules = (policy: Props): Props =>
    Array.isArray(policy.rules) && policy.rules.some((r) => isRecord(r) && maskedRules.has(str(r.id)))
      ? {
          ...policy,
          rules: policy.rules.map((r) =>
            isRecord(r) && maskedRules.has(str(r.id)) ? { ...r, enabled: false } : r,
          ),
        }
      : policy;
  const beforeMap = new Map<string, Map<string, Work>>();
  for (const kind of READ_KINDS) {
    const m = new Map<string, Work>();
    for (const l of input.live.get(kind) ?? [])
      m.set(l.id, { kind, id: l.id, object: l.object, parents: l.parents, created: false });
    beforeMap.set(kind, m);
  }
  return { before: toListed(beforeMap), after: toListed(after), undecided, notes, created, objects };
}

/**
 * A planned resource without the unknown values no other resource decides: at preview the resource plugin answers
 * the outputs the server computes (a new group's members, a policy's description when the program leaves it out)
 * as unknown, where the dynamic providers leave them out. A value the program sets from another resource's output
 * has a property dependency; one without is the provider's own, and the server's default is what it stands for.
 */
function withoutComputed(r: PlannedResource): PlannedResource {
  const props: Props = {};
  for (const [k, v] of Object.entries(r.props))
    if (!(v === UNKNOWN && !(r.deps[k]?.length ?? 0))) props[k] = v;
  return { ...r, props };
}

/** `Kind "name"` of a resource, for messages (the URN's name when the object's is unknown). */
function label(r: PlannedResource): string {
  const name = r.props.name;
  return `${r.kind} ${JSON.stringify(typeof name === "string" && name !== UNKNOWN ? name : r.urn.split("::").pop())}`;
}

function describeNew(urn: string): string {
  const parts = urn.split("::");
  const type = (parts[parts.length - 2] ?? "").split(":").pop() ?? "";
  return `${type} ${JSON.stringify(parts[parts.length - 1] ?? urn)}`;
}

/**
 * The body the provider would send for these properties: what its create sends (with the inputs only an update
 * sets), or what its update sends (without what only a replacement or a create changes, rule ids kept by name).
 */
function bodyOf(spec: ResourceSpec, props: Props, isNew: boolean, priorOutputs: Props | undefined): Props {
  const schema = isNew ? spec.input : (spec.updateBody ?? spec.input);
  let body = (toApi(withDefaults(spec, props), schema) ?? {}) as Props;
  if (!isNew) {
    for (const name of [...(spec.replaceOnChange ?? []), ...(spec.createOnly ?? [])])
      delete body[name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
    if (spec.prepareUpdateBody && priorOutputs) body = spec.prepareUpdateBody(body, priorOutputs);
  }
  return body;
}

/**
 * The object after a write: a partial kind (settings, a peer) lays the named values over what the server holds;
 * another kind is what the body says, with what only the server sets kept, and the lists a program may leave to
 * others (a group's members) kept when it leaves them out. A new object gets its placeholder id, and new rules
 * ids of their own.
 */
function objectAfter(
  spec: ResourceSpec,
  current: Props | undefined,
  body: Props,
  props: Props,
  isNew: boolean,
  id: string,
): Props {
  if (spec.partial) return overlay(current ?? {}, body);
  const inputFields = new Set(Object.keys(spec.input.shape));
  const out: Props = {};
  for (const [k, v] of Object.entries(current ?? {})) if (!inputFields.has(k)) out[k] = v;
  Object.assign(out, copy(body));
  for (const name of spec.computedIfAbsent ?? []) {
    const key = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (props[name] === undefined || props[name] === null || (isNew && props[name] === UNKNOWN))
      out[key] = isNew ? [] : current?.[key];
  }
  // What only a replacement or a create changes stays as the server has it on an update.
  if (!isNew && current)
    for (const name of [...(spec.replaceOnChange ?? []), ...(spec.createOnly ?? [])]) {
      const key = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      if (key in current) out[key] = current[key];
    }
  out.id = id;
  if (Array.isArray(out.rules))
    out.rules = out.rules.map((r, i) =>
      isRecord(r) && (r.id === undefined || r.id === "") ? { ...r, id: `${id}/rules/${i}` } : r,
    );
  return out;
}

/** Whether the Agent Network settings resource bootstrapped the settings (its output). */
const BOOTSTRAPPED = "bootstrappedByResource";

/**
 * The gateway's endpoint after a settings resource writes: bootstrapping (the account had none) or a new address
 * (the settings are replaced) allocates one the server names: known after apply, but there is a gateway. An
 * endpoint the program claims as it is, is that.
 */
function gatewayAfter(
  object: Props,
  current: Props | undefined,
  prior: PriorResource | undefined,
  r: PlannedResource,
  spec: ResourceSpec,
): void {
  const claimed =
    typeof r.props.endpoint === "string" && r.props.endpoint !== UNKNOWN ? r.props.endpoint : "";
  const had = typeof current?.endpoint === "string" ? current.endpoint : "";
  const readdressed = prior ? compareInputs(spec, prior.outputs, r.props).replaces.length > 0 : false;
  if (claimed) object.endpoint = claimed;
  else if (!had || readdressed) object.endpoint = KNOWN_AFTER_APPLY;
}

/**
 * A service's target with the host the management server stores (server/handlers/reverse-proxies.ts): a peer's
 * IP, a host resource's address without its /32 (/128), a domain resource's name; a subnet's or a cluster's as
 * given. An id not resolved yet keeps what the program gave.
 */
function withHost(t: Props, kindMap: (kind: string) => Map<string, Work>): Props {
  const id = str(t.target_id);
  if (t.target_type === "peer") {
    const ip = kindMap("Peer").get(id)?.object.ip;
    return ip === undefined ? t : { ...t, host: ip };
  }
  if (t.target_type === "host" || t.target_type === "domain") {
    const address = kindMap("NetworkResource").get(id)?.object.address;
    if (address === undefined) return t;
    return {
      ...t,
      host:
        t.target_type === "host" && typeof address === "string" && address !== UNKNOWN
          ? address.replace(/\/(32|128)$/, "")
          : address,
    };
  }
  return t;
}

/** Records an element that cannot be decided and what it could touch; the element is left out of both accounts. */
function undecidedOf(
  w: Work,
  r: PlannedResource,
  open: Path[],
  why: string[],
  out: Undecided[],
  leaveOut: (kind: string, id: string) => void,
  /** Candidate ids of unknown id slots (by JSON path), where the dependencies name some. */
  possible: ReadonlyMap<string, string[]> = new Map(),
): void {
  const message = `${label(r)}: ${why.join("; ")}`;
  if (w.kind === "Policy") {
    // A rule with unknown values is left out on its own; anything else of the policy leaves the whole policy out.
    const ruleIdx = new Set(
      open.filter((p) => p[0] === "rules" && typeof p[1] === "number").map((p) => p[1]),
    );
    const whole = open.some((p) => !(p[0] === "rules" && typeof p[1] === "number"));
    const rules = Array.isArray(w.object.rules) ? (w.object.rules as Props[]) : [];
    const touched = whole ? rules : rules.filter((_, i) => ruleIdx.has(i));
    let sources: Set<string> | "all" = new Set<string>();
    let targets: Set<string> | "all" = new Set<string>();
    let both = false;
    /** The tokens one side of a rule may name: its ids, an unknown one standing for any of its candidates. */
    const side = (rule: Props, i: number, list: string, resource: string, acc: Set<string> | "all") => {
      if (acc === "all") return acc;
      const v = rule[list];
      if (v === UNKNOWN) return "all";
      let all = false;
      (Array.isArray(v) ? v : []).forEach((x, j) => {
        const id = isRecord(x) ? str(x.id) : str(x);
        if (id !== UNKNOWN) acc.add(`group:${id}`);
        else {
          const c = possible.get(JSON.stringify(["rules", i, list, j]));
          if (c?.length) c.forEach((g) => acc.add(`group:${g}`));
          else all = true;
        }
      });
      const ref = rule[resource];
      if (ref === UNKNOWN) all = true;
      else if (isRecord(ref)) {
        if (ref.id !== UNKNOWN) acc.add(`resource:${str(ref.id)}`);
        else {
          const c = possible.get(JSON.stringify(["rules", i, resource, "id"]));
          if (c?.length) c.forEach((x) => acc.add(`resource:${x}`));
          else all = true;
        }
      }
      return all ? "all" : acc;
    };
    if (w.object.rules === UNKNOWN) {
      sources = "all";
      targets = "all";
      both = true;
    }
    touched.forEach((rule) => {
      const i = rules.indexOf(rule);
      sources = side(rule, i, "sources", "sourceResource", sources);
      targets = side(rule, i, "destinations", "destinationResource", targets);
      if (rule.bidirectional !== false) both = true;
    });
    if (whole) leaveOut("Policy", w.id);
    else for (const i of ruleIdx) leaveOut("Rule", str(rules[i as number]?.id));
    out.push({ urn: r.urn, message, sources, targets, both });
    return;
  }
  if (w.kind === "Group") {
    out.push({
      urn: r.urn,
      message,
      sources: new Set([`group:${w.id}`]),
      targets: new Set([`group:${w.id}`]),
      both: true,
    });
    // Its members are not known: it is left with those it has now (none when new).
    leaveOut("Group", w.id);
    return;
  }
  if (w.kind === "ReverseProxyService") {
    // What it publishes: its targets (ids, or the candidates an unknown id stands for; any when none is known).
    const tokens = new Set<string>();
    let any = w.object.targets === UNKNOWN;
    const list = Array.isArray(w.object.targets) ? w.object.targets : [];
    list.forEach((t, i) => {
      if (!isRecord(t) || t.target_type === "cluster") return;
      // A `resource:` token stands for a peer of that id too (checks.ts).
      if (t.target_id !== UNKNOWN) tokens.add(`resource:${str(t.target_id)}`);
      else {
        const c = possible.get(JSON.stringify(["targets", i, "target_id"]));
        if (c?.length) for (const x of c) tokens.add(`resource:${x}`);
        else any = true;
      }
    });
    out.push({
      urn: r.urn,
      message,
      sources: "all",
      targets: any ? "all" : tokens,
      both: false,
      publishes: true,
    });
    leaveOut(w.kind, w.id);
    return;
  }
  if (w.kind === "NetworkResource" || w.kind === "NetworkRouter" || w.kind === "Network") {
    const network = w.kind === "Network" ? w.id : (w.parents.networkId ?? "");
    out.push({ urn: r.urn, message, sources: "all", targets: new Set([`network:${network}`]), both: false });
    leaveOut(w.kind, w.id);
    return;
  }
  if (w.kind.startsWith("AgentNetwork")) {
    // Who may use which model is decided by it: every LLM test may be touched, no reach test.
    out.push({ urn: r.urn, message, sources: "all", targets: "all", both: false, llm: true });
    leaveOut(w.kind, w.id);
    return;
  }
  out.push({ urn: r.urn, message, sources: "all", targets: "all", both: true });
  leaveOut(w.kind, w.id);
}

/** What still names a group in an account (for a delete the server would refuse). */
function whoNames(after: Map<string, Map<string, Work>>, groupId: string): string[] {
  const out: string[] = [];
  for (const [kind, m] of after) {
    for (const w of m.values()) {
      const refs = REFS[kind] ?? [];
      const hit = refs.some(
        (ref) =>
          typeof ref.kind === "string" &&
          ref.kind === "Group" &&
          valuesAt(w.object, ref.path.split(".")).includes(groupId),
      );
      if (hit) out.push(`${kind.toLowerCase()} ${JSON.stringify(str(w.object.name) || w.id)}`);
    }
  }
  return out;
}

function valuesAt(v: unknown, parts: string[]): string[] {
  if (!parts.length) return typeof v === "string" ? [v] : [];
  const [head, ...rest] = parts;
  if (head === "*") return Array.isArray(v) ? v.flatMap((x) => valuesAt(x, rest)) : [];
  return isRecord(v) ? valuesAt(v[head as string], rest) : [];
}
