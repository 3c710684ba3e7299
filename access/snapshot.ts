/**
 * An account read through the management API, as the network map's snapshot (netmap/types.ts). The objects are
 * read by the provider's own readers (provider/list.ts, one list per kind: the readers privnet-import uses);
 * this file only turns what they answered into the snapshot. It is the one path every tool and test takes from
 * an account to its map: `privnet-access`, the twin of `privnet-access diff`, the acceptance test against a
 * live server.
 *
 * What the API does not show: the operating-system family and version, local network addresses and running
 * processes of a peer (only its agent reports them). They stay unknown unless `agentMeta` gives them, and the
 * map says which grants depend on them (`depends_on`).
 */
import type {
  AccountSnapshot,
  PeerMeta,
  SnapshotAgentNetwork,
  SnapshotGroup,
  SnapshotLlmLimits,
  SnapshotLlmModel,
  SnapshotPeer,
  SnapshotProxyService,
} from "../netmap";
import { isNotFound } from "../client";
import { listObjects } from "../provider/list";
import { PROVIDERS } from "../provider/registry";
import type { LifecycleContext, Listed } from "../provider/spec";

/** The kinds the map depends on, by provider name. */
export const SNAPSHOT_KINDS = [
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
  "ReverseProxyService",
] as const;

export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];

/** Objects as listed, per kind (absent kinds read as empty). */
export type ListedAccount = ReadonlyMap<string, readonly Pick<Listed, "id" | "object" | "parents">[]>;

type Obj = Record<string, unknown>;

const str = (v: unknown): string =>
  typeof v === "string" ? v : v === undefined || v === null ? "" : String(v);
const bool = (v: unknown): boolean => v === true;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** Ids of a list of references: `[{id, name}]` as the API answers them, or plain ids. */
const ids = (v: unknown): string[] =>
  arr(v)
    .map((x) => (typeof x === "object" && x !== null ? str((x as Obj).id) : str(x)))
    .filter(Boolean);
const optIds = (v: unknown): string[] | undefined => (v === undefined || v === null ? undefined : ids(v));
const ref = (v: unknown): { id: string; type: string } | undefined =>
  typeof v === "object" && v !== null && (v as Obj).id !== undefined
    ? { id: str((v as Obj).id), type: str((v as Obj).type) }
    : undefined;

function peerOf(o: Obj, meta: PeerMeta | undefined): SnapshotPeer {
  const m: PeerMeta = {};
  for (const k of ["version", "kernel_version", "country_code", "city_name"] as const)
    if (typeof o[k] === "string") m[k] = o[k];
  const p: SnapshotPeer = {
    id: str(o.id),
    name: str(o.name),
    ip: str(o.ip),
    dns_label: str(o.dns_label),
    user_id: str(o.user_id),
    connected: bool(o.connected),
    last_seen: str(o.last_seen),
    last_login: str(o.last_login),
    login_expiration_enabled: bool(o.login_expiration_enabled),
    inactivity_expiration_enabled: bool(o.inactivity_expiration_enabled),
    approval_required: bool(o.approval_required),
    meta: { ...m, ...meta },
  };
  if (typeof o.login_expired === "boolean") p.login_expired = o.login_expired;
  return p;
}

const obj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const on = (v: unknown): boolean => obj(v).enabled === true;
const strs = (v: unknown): string[] | undefined => (Array.isArray(v) && v.length ? v.map(str) : undefined);

/** A reverse-proxy service as the API answers it, read liberally (its secrets answered empty are not read). */
function proxyServiceOf(o: Obj): SnapshotProxyService {
  const auth = obj(o.auth);
  const bearer = obj(auth.bearer_auth);
  const restrictions = obj(o.access_restrictions);
  const r = {
    allowed_cidrs: strs(restrictions.allowed_cidrs),
    blocked_cidrs: strs(restrictions.blocked_cidrs),
    allowed_countries: strs(restrictions.allowed_countries),
    blocked_countries: strs(restrictions.blocked_countries),
    crowdsec_mode: typeof restrictions.crowdsec_mode === "string" ? restrictions.crowdsec_mode : undefined,
  };
  const set = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));
  return {
    id: str(o.id),
    name: str(o.name),
    domain: str(o.domain),
    enabled: bool(o.enabled),
    mode: str(o.mode) || "http",
    ...(typeof o.listen_port === "number" ? { listen_port: o.listen_port } : {}),
    ...(o.proxy_cluster ? { proxy_cluster: str(o.proxy_cluster) } : {}),
    private: bool(o.private),
    access_groups: ids(o.access_groups),
    auth: {
      password: on(auth.password_auth),
      pin: on(auth.pin_auth),
      bearer: on(bearer),
      bearer_groups: ids(bearer.distribution_groups),
      link: on(auth.link_auth),
      headers: arr(auth.header_auths)
        .map(obj)
        .filter((h) => h.enabled === true)
        .map((h) => str(h.header)),
    },
    ...(Object.keys(set).length ? { access_restrictions: set } : {}),
    targets: arr(o.targets).map((x) => {
      const t = obj(x);
      return {
        target_id: str(t.target_id),
        target_type: str(t.target_type),
        host: str(t.host),
        port: Number(t.port ?? 0),
        protocol: str(t.protocol),
        ...(t.path ? { path: str(t.path) } : {}),
        enabled: bool(t.enabled),
      };
    }),
  };
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : Number(v ?? 0) || 0);
const strList = (v: unknown): string[] => arr(v).map(str).filter(Boolean);

function limitsOf(v: unknown): SnapshotLlmLimits {
  const t = obj(obj(v).token_limit);
  const b = obj(obj(v).budget_limit);
  return {
    token_limit: {
      enabled: bool(t.enabled),
      group_cap: num(t.group_cap),
      user_cap: num(t.user_cap),
      window_seconds: num(t.window_seconds),
    },
    budget_limit: {
      enabled: bool(b.enabled),
      group_cap_usd: num(b.group_cap_usd),
      user_cap_usd: num(b.user_cap_usd),
      window_seconds: num(b.window_seconds),
    },
  };
}

const modelsOf = (v: unknown): SnapshotLlmModel[] =>
  arr(v)
    .map(obj)
    .filter((m) => str(m.id) !== "")
    .map((m) => ({ id: str(m.id), input_per_1k: num(m.input_per_1k), output_per_1k: num(m.output_per_1k) }));

const created = (o: Obj) => (typeof o.created_at === "string" ? { created_at: o.created_at } : {});

/** The Agent Network objects as the API answers them (each list may be `null`), read liberally. */
export interface AgentNetworkObjects {
  settings?: unknown;
  providers?: readonly unknown[] | null;
  policies?: readonly unknown[] | null;
  guardrails?: readonly unknown[] | null;
  budget_rules?: readonly unknown[] | null;
  catalog?: readonly unknown[] | null;
}

/** The snapshot's Agent Network from the API's objects (netmap/types.ts). */
export function agentNetworkOf(o: AgentNetworkObjects): SnapshotAgentNetwork {
  const list = (v: readonly unknown[] | null | undefined) => (v ?? []).map(obj);
  return {
    endpoint: str(obj(o.settings).endpoint),
    providers: list(o.providers).map((p) => ({
      id: str(p.id),
      name: str(p.name),
      provider_id: str(p.provider_id),
      enabled: bool(p.enabled),
      models: modelsOf(p.models),
      ...created(p),
    })),
    policies: list(o.policies).map((p) => ({
      id: str(p.id),
      name: str(p.name),
      enabled: bool(p.enabled),
      source_groups: ids(p.source_groups),
      destination_provider_ids: ids(p.destination_provider_ids),
      guardrail_ids: ids(p.guardrail_ids),
      limits: limitsOf(p.limits),
      ...created(p),
    })),
    guardrails: list(o.guardrails).map((g) => {
      const allow = obj(obj(g.checks).model_allowlist);
      return {
        id: str(g.id),
        name: str(g.name),
        model_allowlist: { enabled: bool(allow.enabled), models: strList(allow.models) },
      };
    }),
    budget_rules: list(o.budget_rules).map((r) => ({
      id: str(r.id),
      name: str(r.name),
      enabled: bool(r.enabled),
      target_groups: ids(r.target_groups),
      target_users: ids(r.target_users),
      limits: limitsOf(r.limits),
      ...created(r),
    })),
    ...(o.catalog
      ? { catalog: list(o.catalog).map((c) => ({ id: str(c.id), models: modelsOf(c.models) })) }
      : {}),
  };
}

/**
 * The Agent Network's objects as listed kinds (read directly, not through a kind's provider: the catalog is no
 * object of the account). Present only when the server serves the family.
 */
export const AGENT_NETWORK_KINDS = [
  "AgentNetworkSettings",
  "AgentNetworkProvider",
  "AgentNetworkPolicy",
  "AgentNetworkGuardrail",
  "AgentNetworkBudgetRule",
  "AgentNetworkCatalog",
] as const;

const AGENT_NETWORK_READS: [kind: (typeof AGENT_NETWORK_KINDS)[number], operation: string][] = [
  ["AgentNetworkSettings", "getAgentNetworkSettings"],
  ["AgentNetworkProvider", "listAgentNetworkProviders"],
  ["AgentNetworkPolicy", "listAgentNetworkPolicies"],
  ["AgentNetworkGuardrail", "listAgentNetworkGuardrails"],
  ["AgentNetworkBudgetRule", "listAgentNetworkBudgetRules"],
  ["AgentNetworkCatalog", "listAgentNetworkCatalogProviders"],
];

/** The id the settings (one per account) are listed under. */
export const AGENT_NETWORK_SETTINGS_ID = "agent-network-settings";

/**
 * Lists the Agent Network (reads only): none of its kinds when the server does not serve the family (404 for its
 * settings), which the map reads as "no gateway".
 */
export async function listAgentNetwork(
  client: Pick<LifecycleContext["client"], "call">,
): Promise<Map<string, Listed[]>> {
  const out = new Map<string, Listed[]>();
  try {
    await client.call("getAgentNetworkSettings");
  } catch (err) {
    if (isNotFound(err)) return out;
    throw err;
  }
  await Promise.all(
    AGENT_NETWORK_READS.map(async ([kind, op]) => {
      const answer = await client.call<unknown>(op);
      const list = kind === "AgentNetworkSettings" ? [answer ?? {}] : arr(answer);
      out.set(
        kind,
        list.map((o) => ({
          id: kind === "AgentNetworkSettings" ? AGENT_NETWORK_SETTINGS_ID : str(obj(o).id),
          object: obj(o),
          parents: {},
        })) as Listed[],
      );
    }),
  );
  return out;
}

/**
 * The snapshot of listed objects. `now` is the moment expirations are evaluated at; `agentMeta` adds, per peer
 * id, what only the agent reports.
 */
export function snapshotOf(
  listed: ListedAccount,
  now: number,
  agentMeta: ReadonlyMap<string, PeerMeta> = new Map(),
): AccountSnapshot {
  const of = (kind: SnapshotKind): Obj[] => (listed.get(kind) ?? []).map((l) => l.object as Obj);
  const settings = of("AccountSettings")[0] ?? {};
  const dns = of("DnsSettings")[0] ?? {};
  const resources = new Map<string, Obj[]>();
  for (const l of listed.get("NetworkResource") ?? [])
    push(resources, str(l.parents.networkId), l.object as Obj);
  const routers = new Map<string, Obj[]>();
  for (const l of listed.get("NetworkRouter") ?? []) push(routers, str(l.parents.networkId), l.object as Obj);
  return {
    now,
    settings: {
      ...(settings as object),
      peer_login_expiration_enabled: bool(settings.peer_login_expiration_enabled),
      peer_login_expiration: Number(settings.peer_login_expiration ?? 0),
      peer_inactivity_expiration_enabled: bool(settings.peer_inactivity_expiration_enabled),
      peer_inactivity_expiration: Number(settings.peer_inactivity_expiration ?? 0),
    },
    peers: of("Peer").map((o) => peerOf(o, agentMeta.get(str(o.id)))),
    users: of("User").map((u) => ({
      id: str(u.id),
      role: str(u.role),
      status: str(u.status),
      is_blocked: bool(u.is_blocked),
      pending_approval: bool(u.pending_approval),
    })),
    groups: of("Group").map((g): SnapshotGroup => ({
      id: str(g.id),
      name: str(g.name),
      peers: ids(g.peers),
      resources: arr(g.resources).flatMap((r) => ref(r) ?? []),
      all: g.name === "All",
    })),
    policies: of("Policy").map((p) => ({
      id: str(p.id),
      name: str(p.name),
      enabled: bool(p.enabled),
      source_posture_checks: ids(p.source_posture_checks),
      rules: arr(p.rules).map((x) => {
        const r = x as Obj;
        const sourceResource = ref(r.sourceResource);
        const destinationResource = ref(r.destinationResource);
        return {
          id: str(r.id),
          name: str(r.name),
          enabled: bool(r.enabled),
          action: str(r.action),
          bidirectional: bool(r.bidirectional),
          protocol: str(r.protocol),
          ...(Array.isArray(r.ports) ? { ports: r.ports.map(str) } : {}),
          ...(Array.isArray(r.port_ranges)
            ? { port_ranges: r.port_ranges as { start: number; end: number }[] }
            : {}),
          sources: ids(r.sources),
          destinations: ids(r.destinations),
          ...(sourceResource ? { sourceResource } : {}),
          ...(destinationResource ? { destinationResource } : {}),
        };
      }),
    })),
    posture_checks: of("PostureCheck").map((c) => ({
      id: str(c.id),
      name: str(c.name),
      checks: (c.checks ?? {}) as AccountSnapshot["posture_checks"][number]["checks"],
    })),
    routes: of("Route").map((r) => ({
      ...(r as object),
      id: str(r.id),
      network_id: str(r.network_id),
      enabled: bool(r.enabled),
      metric: Number(r.metric ?? 9999),
      masquerade: bool(r.masquerade),
      groups: ids(r.groups),
      peer_groups: optIds(r.peer_groups),
      access_control_groups: optIds(r.access_control_groups),
    })),
    networks: of("Network").map((n) => ({
      id: str(n.id),
      name: str(n.name),
      resources: (resources.get(str(n.id)) ?? []).map((r) => ({
        id: str(r.id),
        name: str(r.name),
        address: str(r.address),
        type: str(r.type),
        enabled: bool(r.enabled),
      })),
      routers: (routers.get(str(n.id)) ?? []).map((r) => ({
        id: str(r.id),
        ...(r.peer ? { peer: str(r.peer) } : {}),
        peer_groups: optIds(r.peer_groups),
        metric: Number(r.metric ?? 9999),
        masquerade: bool(r.masquerade),
        enabled: bool(r.enabled),
      })),
    })),
    nameserver_groups: of("NameserverGroup").map((g) => ({
      id: str(g.id),
      name: str(g.name),
      enabled: bool(g.enabled),
      groups: ids(g.groups),
      primary: bool(g.primary),
      domains: arr(g.domains).map(str),
      search_domains_enabled: bool(g.search_domains_enabled),
      nameservers: arr(g.nameservers) as { ip: string; ns_type: string; port: number }[],
    })),
    dns_zones: of("DnsZone").map((z) => ({
      id: str(z.id),
      name: str(z.name),
      domain: str(z.domain),
      enabled: bool(z.enabled),
      enable_search_domain: bool(z.enable_search_domain),
      distribution_groups: ids(z.distribution_groups),
    })),
    dns_settings: { disabled_management_groups: ids(dns.disabled_management_groups) },
    proxy_services: of("ReverseProxyService").map(proxyServiceOf),
    ...(listed.has("AgentNetworkSettings")
      ? {
          agent_network: agentNetworkOf({
            settings: (listed.get("AgentNetworkSettings") ?? [])[0]?.object,
            providers: (listed.get("AgentNetworkProvider") ?? []).map((l) => l.object),
            policies: (listed.get("AgentNetworkPolicy") ?? []).map((l) => l.object),
            guardrails: (listed.get("AgentNetworkGuardrail") ?? []).map((l) => l.object),
            budget_rules: (listed.get("AgentNetworkBudgetRule") ?? []).map((l) => l.object),
            ...(listed.has("AgentNetworkCatalog")
              ? { catalog: (listed.get("AgentNetworkCatalog") ?? []).map((l) => l.object) }
              : {}),
          }),
        }
      : {}),
  };
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** The provider's spec of a kind. */
function specOf(kind: string) {
  const p = PROVIDERS.find((x) => x.spec.name === kind);
  if (!p) throw new Error(`privnet-access: no provider for ${kind}`);
  return p.spec;
}

/** Lists every kind of {@link SNAPSHOT_KINDS} with the provider's readers (one list per kind, per parent). */
export async function listAccount(ctx: LifecycleContext): Promise<Map<string, Listed[]>> {
  const lists = await Promise.all(SNAPSHOT_KINDS.map(async (k) => [k, await listed(k, ctx)] as const));
  return new Map(lists);
}

/** One kind's objects; reverse-proxy services are none on a server that does not serve them (404). */
async function listed(kind: SnapshotKind, ctx: LifecycleContext): Promise<Listed[]> {
  try {
    return await listObjects(specOf(kind), ctx);
  } catch (err) {
    if (kind === "ReverseProxyService" && isNotFound(err)) return [];
    throw err;
  }
}

/** The snapshot of an account, read through a client (anything with the client's `call`). */
export async function readSnapshot(
  client: LifecycleContext["client"],
  now: number,
  agentMeta?: ReadonlyMap<string, PeerMeta>,
): Promise<AccountSnapshot> {
  const [listed, agentNetwork] = await Promise.all([
    listAccount({ client, batchReads: false }),
    listAgentNetwork(client),
  ]);
  return snapshotOf(new Map([...listed, ...agentNetwork]), now, agentMeta);
}
