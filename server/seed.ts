/**
 * Seeding a new database with an account read from another server: the offline twin of `privnet-access diff`.
 * Off by default: only `privnet-server --seed FILE` (or `startServer({ seed })`) loads one, and only into a
 * database that was just created (never over existing data).
 *
 * The seed is the account as its API answers it, per kind: `{"version": 1, "objects": {"Group": [{"id", "object",
 * "parents"}], ...}}` (the provider's names for the kinds; `object` in API form, `parents` the parent ids by
 * Pulumi input name, e.g. `networkId`). Objects keep their ids, so a Pulumi stack's state written against the
 * original account reads and updates the same objects here. Kinds: AccountSettings, DnsSettings, User, Peer
 * (with its agent metadata when the seed has it in `meta`), Group (the seed's `All` replaces the built-in one),
 * PostureCheck, Policy, Network, NetworkResource, NetworkRouter, Route, NameserverGroup, DnsZone, DnsRecord,
 * ReverseProxyDomain (custom domains) and ReverseProxyService. Other kinds are refused, naming them: a twin that
 * silently lacks objects would compute a wrong map. The proxy clusters services are published on are not objects of
 * the account: the twin is started with them as shared clusters (`proxyClusters`).
 *
 * The twin's own owner (and its token) stays: seeded users are added beside it. No secret is seeded: the API
 * shows none of these kinds' secrets (a service's passwords are answered empty).
 */
import type { Clock } from "./clock";
import { iso } from "./clock";
import type { GroupDoc, PeerDoc, UserDoc } from "./model";
import type { Doc, Store, Tx } from "./store";
import type { AccountDoc } from "./model";
import { domainDocFromAnswer, serviceDocFromAnswer } from "./handlers/reverse-proxies";

export interface SeedObject {
  id: string;
  object: Record<string, unknown>;
  parents?: Record<string, string>;
}

export interface Seed {
  version: 1;
  objects: Record<string, SeedObject[]>;
}

/** The kinds a seed may hold. */
export const SEED_KINDS = [
  "AccountSettings",
  "DnsSettings",
  "User",
  "Peer",
  "Group",
  "PostureCheck",
  "Policy",
  "Network",
  "NetworkResource",
  "NetworkRouter",
  "Route",
  "NameserverGroup",
  "DnsZone",
  "DnsRecord",
  "ReverseProxyDomain",
  "ReverseProxyService",
] as const;

type Obj = Record<string, unknown>;

const str = (v: unknown, d = ""): string => (v === undefined || v === null ? d : String(v));
const bool = (v: unknown, d = false): boolean => (typeof v === "boolean" ? v : d);
const ids = (v: unknown): string[] =>
  (Array.isArray(v) ? v : [])
    .map((x) => (typeof x === "object" && x !== null ? str((x as Obj).id) : str(x)))
    .filter(Boolean);
/** The object without `id` and the members `drop` names, keeping only members that are set. */
function rest(o: Obj, ...drop: string[]): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o))
    if (k !== "id" && !drop.includes(k) && v !== null && v !== undefined) out[k] = v;
  return out;
}

/** Checks a parsed seed's shape; the message names what is wrong. */
export function validateSeed(raw: unknown): Seed {
  const s = raw as Partial<Seed> | null;
  if (!s || typeof s !== "object" || s.version !== 1 || typeof s.objects !== "object" || s.objects === null)
    throw new Error('seed: expected {"version": 1, "objects": {KIND: [{id, object, parents}]}}');
  for (const [kind, list] of Object.entries(s.objects)) {
    if (!(SEED_KINDS as readonly string[]).includes(kind))
      throw new Error(
        `seed: kind ${JSON.stringify(kind)} cannot be seeded (kinds: ${SEED_KINDS.join(", ")})`,
      );
    if (!Array.isArray(list)) throw new Error(`seed: objects.${kind} must be a list`);
    list.forEach((o, i) => {
      if (!o || typeof o !== "object" || typeof o.id !== "string" || !o.id || typeof o.object !== "object")
        throw new Error(`seed: objects.${kind}[${i}] needs an id and an object`);
    });
  }
  return s as Seed;
}

function peerDoc(o: Obj, now: string): PeerDoc {
  const meta = o.meta as PeerDoc["meta"] | undefined;
  const doc: PeerDoc = {
    id: str(o.id),
    name: str(o.name),
    created_at: str(o.created_at, now),
    ip: str(o.ip),
    connection_ip: str(o.connection_ip),
    connected: bool(o.connected),
    last_seen: str(o.last_seen, now),
    os: str(o.os),
    kernel_version: str(o.kernel_version),
    geoname_id: Number(o.geoname_id ?? 0),
    version: str(o.version),
    ssh_enabled: bool(o.ssh_enabled),
    user_id: str(o.user_id),
    hostname: str(o.hostname, str(o.name)),
    ui_version: str(o.ui_version),
    dns_label: str(o.dns_label, str(o.name)),
    login_expiration_enabled: bool(o.login_expiration_enabled),
    login_expired: bool(o.login_expired),
    last_login: str(o.last_login, now),
    inactivity_expiration_enabled: bool(o.inactivity_expiration_enabled),
    approval_required: bool(o.approval_required),
    country_code: str(o.country_code),
    city_name: str(o.city_name),
    serial_number: str(o.serial_number),
    extra_dns_labels: Array.isArray(o.extra_dns_labels) ? o.extra_dns_labels.map((x) => str(x)) : [],
    ephemeral: bool(o.ephemeral),
    local_flags: (o.local_flags as Record<string, boolean> | undefined) ?? {},
    wg_pub_key: "",
  };
  if (meta) doc.meta = meta;
  return doc;
}

function userDoc(o: Obj, now: string): UserDoc {
  return {
    id: str(o.id),
    email: str(o.email),
    name: str(o.name),
    role: str(o.role, "user"),
    status: (["active", "invited", "blocked"].includes(str(o.status))
      ? o.status
      : "active") as UserDoc["status"],
    last_login: str(o.last_login, now),
    auto_groups: ids(o.auto_groups),
    is_service_user: bool(o.is_service_user),
    is_blocked: bool(o.is_blocked),
    pending_approval: bool(o.pending_approval),
    issued: (["api", "integration", "jwt"].includes(str(o.issued)) ? o.issued : "api") as UserDoc["issued"],
    idp_id: str(o.id),
    created_at: now,
  };
}

function ruleDoc(r: Obj): Obj {
  const out = rest(r);
  out.id = str(r.id);
  out.description = str(r.description);
  out.sources = ids(r.sources);
  out.destinations = ids(r.destinations);
  return out;
}

/** Puts the seed's objects into a store that holds only the bootstrap account. */
export function applySeed(store: Store, clock: Clock, seed: Seed): void {
  const now = iso(clock.now());
  const of = (kind: (typeof SEED_KINDS)[number]) => seed.objects[kind] ?? [];
  store.tx((tx: Tx) => {
    const account = tx.all<AccountDoc>("account")[0] as AccountDoc;
    const settings = of("AccountSettings")[0]?.object;
    const dns = of("DnsSettings")[0]?.object;
    tx.put<AccountDoc>("account", {
      ...account,
      settings: { ...account.settings, ...(settings ?? {}) },
      dns: dns ? { disabled_management_groups: ids(dns.disabled_management_groups) } : account.dns,
    });
    for (const { object: o } of of("User")) tx.put("user", userDoc(o, now));
    for (const { object: o } of of("Peer")) tx.put("peer", peerDoc(o, now));
    const builtin = tx.all<GroupDoc>("group").find((g) => g.builtin);
    for (const { object: o } of of("Group")) {
      const all = o.name === "All";
      if (all && builtin) tx.delete("group", builtin.id);
      const doc: GroupDoc = {
        id: str(o.id),
        name: str(o.name),
        issued: (["api", "integration", "jwt"].includes(str(o.issued))
          ? o.issued
          : "api") as GroupDoc["issued"],
        peers: all ? [] : ids(o.peers),
        resources: (Array.isArray(o.resources) ? o.resources : []).map((x) => ({
          id: str((x as Obj).id),
          type: str((x as Obj).type),
        })),
      };
      if (all) doc.builtin = true;
      tx.put("group", doc);
    }
    const put = (kind: string, o: Obj, extra: Obj = {}, ...drop: string[]) =>
      tx.put(kind as never, { id: str(o.id), ...rest(o, ...drop), ...extra } as Doc);
    for (const { object: o } of of("PostureCheck"))
      put("posture_check", o, { description: str(o.description), checks: o.checks ?? {} });
    for (const { object: o } of of("Policy"))
      put("policy", o, {
        description: str(o.description),
        source_posture_checks: ids(o.source_posture_checks),
        rules: (Array.isArray(o.rules) ? o.rules : []).map((r) => ruleDoc(r as Obj)),
      });
    for (const { object: o } of of("Network"))
      put(
        "network",
        o,
        { description: str(o.description) },
        "routers",
        "resources",
        "policies",
        "routing_peers_count",
      );
    for (const { object: o, parents } of of("NetworkResource"))
      put(
        "network_resource",
        o,
        { parent: str(parents?.networkId), description: str(o.description) },
        "groups",
      );
    for (const { object: o, parents } of of("NetworkRouter"))
      put("network_router", o, { parent: str(parents?.networkId) });
    for (const { object: o } of of("Route")) put("route", o, { groups: ids(o.groups) });
    for (const { object: o } of of("NameserverGroup")) put("nameserver_group", o, { groups: ids(o.groups) });
    for (const { object: o } of of("DnsZone"))
      put("dns_zone", o, { distribution_groups: ids(o.distribution_groups) }, "records");
    for (const { object: o, parents } of of("DnsRecord"))
      put("dns_record", o, { parent: str(parents?.zoneId) });
    for (const { object: o } of of("ReverseProxyDomain")) {
      const doc = domainDocFromAnswer(o, now);
      if (doc) tx.put("proxy_domain", doc);
    }
    for (const { object: o } of of("ReverseProxyService"))
      tx.put("proxy_service", serviceDocFromAnswer(o, now));
  });
}
