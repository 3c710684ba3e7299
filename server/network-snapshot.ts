/**
 * The store's account as a network-map snapshot (netmap/), so that accessible peers, their counts and the
 * network-map routes all answer from the one module.
 *
 * How stored fields become the snapshot's:
 * - a peer's `version`, `kernel_version`, `country_code` and `city_name` are what the agent reported; its
 *   operating-system family is `meta.goos`, else read from `os` (linux, darwin or macos, windows, android, ios);
 *   `os_version`, network addresses and processes come from `meta` only, so a peer stored without them has
 *   them unknown and the map says "depends on" for the checks that need them;
 * - the built-in group `All` holds every peer; group members are the group's `peers` (its `resources` are
 *   network resources);
 * - the DNS settings are the account's `dns` member;
 * - the Agent Network ({@link agentNetworkSnapshot}, netmap/llm.ts) is what its API answers: the settings'
 *   endpoint (empty before the bootstrap), the providers with their models' input and output prices, the policies,
 *   the guardrails' model allowlists, the budget rules, each with its `created_at`, and the catalog's prices.
 */
import { AGENT_NETWORK_CATALOG } from "../api/agent-network-catalog";
import {
  NetworkMap,
  type AccountSnapshot,
  type PeerMeta,
  type SnapshotAgentNetwork,
  type SnapshotLlmModel,
  type SnapshotPeer,
} from "../netmap";
import { accountOf } from "./context";
import type { Reader } from "./domain";
import {
  agentNetworkSettings,
  type AgentNetworkBudgetRuleDoc,
  type AgentNetworkGuardrailDoc,
  type AgentNetworkPolicyDoc,
  type AgentNetworkProviderDoc,
  type LimitsDoc,
} from "./handlers/agent-network";
import type { DnsZoneDoc } from "./handlers/dns";
import type { NameserverGroupDoc } from "./handlers/nameservers";
import type { NetworkDoc, NetworkResourceDoc, NetworkRouterDoc } from "./handlers/networks";
import type { PolicyDoc } from "./handlers/policies";
import type { PostureCheckDoc } from "./handlers/posture-checks";
import type { RouteDoc } from "./handlers/routes";
import type { GroupDoc, PeerDoc, UserDoc } from "./model";
import { familyOf } from "./peer-factory";

/** The operating-system family of a peer: `meta.goos`, else the family `os` names. */
export function goosOf(p: Pick<PeerDoc, "os" | "meta">): string | undefined {
  return p.meta?.goos ?? familyOf(p.os);
}

function metaOf(p: PeerDoc): PeerMeta {
  const m: PeerMeta = {
    version: p.version,
    kernel_version: p.kernel_version,
    country_code: p.country_code,
    city_name: p.city_name,
  };
  const goos = goosOf(p);
  if (goos !== undefined) m.goos = goos;
  if (p.meta?.os_version !== undefined) m.os_version = p.meta.os_version;
  if (p.meta?.network_addresses !== undefined) m.network_addresses = [...p.meta.network_addresses];
  if (p.meta?.processes !== undefined) m.processes = [...p.meta.processes];
  return m;
}

function peerOf(p: PeerDoc): SnapshotPeer {
  return {
    id: p.id,
    name: p.name,
    ip: p.ip,
    dns_label: p.dns_label,
    user_id: p.user_id,
    connected: p.connected,
    last_seen: p.last_seen,
    last_login: p.last_login,
    login_expiration_enabled: p.login_expiration_enabled,
    inactivity_expiration_enabled: p.inactivity_expiration_enabled,
    login_expired: p.login_expired,
    approval_required: p.approval_required,
    meta: metaOf(p),
  };
}

/** The account in `r` at time `now` (ms) as a snapshot. */
export function accountSnapshot(r: Reader, now: number): AccountSnapshot {
  const account = accountOf(r);
  const s = account.settings;
  return {
    now,
    settings: {
      peer_login_expiration_enabled: s.peer_login_expiration_enabled === true,
      peer_login_expiration: Number(s.peer_login_expiration ?? 86400),
      peer_inactivity_expiration_enabled: s.peer_inactivity_expiration_enabled === true,
      peer_inactivity_expiration: Number(s.peer_inactivity_expiration ?? 600),
      regular_users_view_blocked: s.regular_users_view_blocked === true,
      dns_domain: typeof s.dns_domain === "string" ? s.dns_domain : "",
    },
    peers: r.all<PeerDoc>("peer").map(peerOf),
    users: r.all<UserDoc>("user").map((u) => ({
      id: u.id,
      role: u.role,
      status: u.status,
      is_blocked: u.is_blocked,
      pending_approval: u.pending_approval,
    })),
    groups: r.all<GroupDoc>("group").map((g) => ({
      id: g.id,
      name: g.name,
      peers: g.peers,
      resources: g.resources,
      all: g.builtin === true,
    })),
    policies: r.all<PolicyDoc>("policy").map((p) => ({
      id: p.id,
      name: p.name,
      enabled: p.enabled,
      source_posture_checks: p.source_posture_checks ?? [],
      rules: Array.isArray(p.rules) ? p.rules : [],
    })),
    posture_checks: r
      .all<PostureCheckDoc>("posture_check")
      .map((c) => ({ id: c.id, name: c.name, checks: c.checks })),
    routes: r.all<RouteDoc>("route").map((x) => ({ ...x, groups: x.groups ?? [] })),
    networks: r.all<NetworkDoc>("network").map((n) => ({
      id: n.id,
      name: n.name,
      resources: r.all<NetworkResourceDoc>("network_resource", n.id),
      routers: r.all<NetworkRouterDoc>("network_router", n.id),
    })),
    nameserver_groups: r.all<NameserverGroupDoc>("nameserver_group"),
    dns_zones: r.all<DnsZoneDoc>("dns_zone"),
    dns_settings: { disabled_management_groups: account.dns?.disabled_management_groups ?? [] },
  };
}

/** The network map of the account in `r` at time `now`. */
export function networkMapOf(r: Reader, now: number): NetworkMap {
  return new NetworkMap(accountSnapshot(r, now));
}

const pricesOf = (models: readonly SnapshotLlmModel[]): SnapshotLlmModel[] =>
  models.map((m) => ({ id: m.id, input_per_1k: m.input_per_1k, output_per_1k: m.output_per_1k }));

const limitsOf = (l: LimitsDoc) => ({
  token_limit: { ...l.token_limit },
  budget_limit: { ...l.budget_limit },
});

/** The account's Agent Network in `r` as the snapshot holds it (what netmap/llm.ts decides LLM requests on). */
export function agentNetworkSnapshot(r: Reader): SnapshotAgentNetwork {
  return {
    endpoint: agentNetworkSettings(r)?.endpoint ?? "",
    providers: r.all<AgentNetworkProviderDoc>("agent_network_provider").map((p) => ({
      id: p.id,
      name: p.name,
      provider_id: p.provider_id,
      enabled: p.enabled,
      models: pricesOf(p.models),
      created_at: p.created_at,
    })),
    policies: r.all<AgentNetworkPolicyDoc>("agent_network_policy").map((p) => ({
      id: p.id,
      name: p.name,
      enabled: p.enabled,
      source_groups: [...p.source_groups],
      destination_provider_ids: [...p.destination_provider_ids],
      guardrail_ids: [...p.guardrail_ids],
      limits: limitsOf(p.limits),
      created_at: p.created_at,
    })),
    guardrails: r.all<AgentNetworkGuardrailDoc>("agent_network_guardrail").map((g) => ({
      id: g.id,
      name: g.name,
      model_allowlist: {
        enabled: g.checks.model_allowlist.enabled,
        models: [...g.checks.model_allowlist.models],
      },
    })),
    budget_rules: r.all<AgentNetworkBudgetRuleDoc>("agent_network_budget_rule").map((b) => ({
      id: b.id,
      name: b.name,
      enabled: b.enabled,
      target_groups: [...b.target_groups],
      target_users: [...b.target_users],
      limits: limitsOf(b.limits),
      created_at: b.created_at,
    })),
    catalog: AGENT_NETWORK_CATALOG.map((c) => ({ id: c.id, models: pricesOf(c.models ?? []) })),
  };
}
