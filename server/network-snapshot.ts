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
 * - the DNS settings are the account's `dns` member.
 */
import { NetworkMap, type AccountSnapshot, type PeerMeta, type SnapshotPeer } from "../netmap";
import { accountOf } from "./context";
import type { Reader } from "./domain";
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
