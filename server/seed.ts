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
 * ReverseProxyDomain (custom domains), ReverseProxyService and the Agent Network's settings (when bootstrapped),
 * providers (without their API keys, which the API never answers), policies, guardrails and budget rules (the
 * provider catalog is the server's own). Other kinds are refused, naming them: a twin that
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
import { SETTINGS_ID as AGENT_NETWORK_SETTINGS_ID } from "./handlers/agent-network";

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
  "AgentNetworkSettings",
  "AgentNetworkProvider",
  "AgentNetworkPolicy",
  "AgentNetworkGuardrail",
  "AgentNetworkBudgetRule",
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
    // The Agent Network, as answered: what decides who may use which model (access/llm.ts).
    const stamps = (o: Obj) => ({ created_at: str(o.created_at, now), updated_at: str(o.updated_at, now) });
    const limits = (v: unknown) => {
      const l = (v ?? {}) as Obj;
      const t = (l.token_limit ?? {}) as Obj;
      const b = (l.budget_limit ?? {}) as Obj;
      return {
        token_limit: {
          enabled: bool(t.enabled),
          group_cap: Number(t.group_cap ?? 0),
          user_cap: Number(t.user_cap ?? 0),
          window_seconds: Number(t.window_seconds ?? 0),
        },
        budget_limit: {
          enabled: bool(b.enabled),
          group_cap_usd: Number(b.group_cap_usd ?? 0),
          user_cap_usd: Number(b.user_cap_usd ?? 0),
          window_seconds: Number(b.window_seconds ?? 0),
        },
      };
    };
    const gateway = of("AgentNetworkSettings")[0]?.object;
    if (gateway && str(gateway.endpoint))
      tx.put(
        "agent_network_settings" as never,
        {
          id: AGENT_NETWORK_SETTINGS_ID,
          endpoint: str(gateway.endpoint),
          proxy_address: str(gateway.proxy_address),
          dedicated: bool(gateway.dedicated),
          enable_log_collection: bool(gateway.enable_log_collection),
          enable_prompt_collection: bool(gateway.enable_prompt_collection),
          redact_pii: bool(gateway.redact_pii),
          access_log_retention_days: Number(gateway.access_log_retention_days ?? 0),
          ...stamps(gateway),
        } as Doc,
      );
    for (const { object: o } of of("AgentNetworkProvider"))
      tx.put(
        "agent_network_provider" as never,
        {
          id: str(o.id),
          provider_id: str(o.provider_id),
          name: str(o.name),
          upstream_url: str(o.upstream_url),
          api_key: "",
          models: Array.isArray(o.models) ? o.models : [],
          extra_values: (o.extra_values ?? {}) as Obj,
          identity_header_user_id: str(o.identity_header_user_id),
          identity_header_groups: str(o.identity_header_groups),
          enabled: bool(o.enabled),
          skip_tls_verification: bool(o.skip_tls_verification),
          metadata_disabled: bool(o.metadata_disabled),
          ...stamps(o),
        } as Doc,
      );
    for (const { object: o } of of("AgentNetworkPolicy"))
      tx.put(
        "agent_network_policy" as never,
        {
          id: str(o.id),
          name: str(o.name),
          description: str(o.description),
          enabled: bool(o.enabled),
          source_groups: ids(o.source_groups),
          destination_provider_ids: ids(o.destination_provider_ids),
          guardrail_ids: ids(o.guardrail_ids),
          limits: limits(o.limits),
          ...stamps(o),
        } as Doc,
      );
    for (const { object: o } of of("AgentNetworkGuardrail")) {
      const checks = (o.checks ?? {}) as Obj;
      const allow = (checks.model_allowlist ?? {}) as Obj;
      const capture = (checks.prompt_capture ?? {}) as Obj;
      tx.put(
        "agent_network_guardrail" as never,
        {
          id: str(o.id),
          name: str(o.name),
          description: str(o.description),
          checks: {
            model_allowlist: { enabled: bool(allow.enabled), models: ids(allow.models) },
            prompt_capture: { enabled: bool(capture.enabled), redact_pii: bool(capture.redact_pii) },
          },
          ...stamps(o),
        } as Doc,
      );
    }
    for (const { object: o } of of("AgentNetworkBudgetRule"))
      tx.put(
        "agent_network_budget_rule" as never,
        {
          id: str(o.id),
          name: str(o.name),
          enabled: bool(o.enabled),
          target_groups: ids(o.target_groups),
          target_users: ids(o.target_users),
          limits: limits(o.limits),
          ...stamps(o),
        } as Doc,
      );
  });
}
