/**
 * A small builder of account snapshots for the network-map tests: peers with full metadata by default, groups
 * by name, policies with one rule each unless told otherwise.
 */
import type { AccountSnapshot, PeerMeta, SnapshotPeer, SnapshotPolicy, SnapshotRule } from "../../netmap";

export const NOW = Date.parse("2026-05-01T12:00:00Z");

export function emptyAccount(): AccountSnapshot {
  return {
    now: NOW,
    settings: {
      peer_login_expiration_enabled: false,
      peer_login_expiration: 86400,
      peer_inactivity_expiration_enabled: false,
      peer_inactivity_expiration: 600,
    },
    peers: [],
    users: [],
    groups: [{ id: "all", name: "All", peers: [], resources: [], all: true }],
    policies: [],
    posture_checks: [],
    routes: [],
    networks: [],
    nameserver_groups: [],
    dns_zones: [],
    dns_settings: { disabled_management_groups: [] },
  };
}

export const FULL_META: PeerMeta = {
  version: "0.40.1",
  goos: "linux",
  os_version: "12",
  kernel_version: "6.1.0",
  country_code: "DE",
  city_name: "Berlin",
  network_addresses: ["192.168.1.10/24"],
  processes: ["/usr/bin/edr"],
};

export class Account {
  readonly s = emptyAccount();
  private n = 0;

  peer(name: string, over: Partial<Omit<SnapshotPeer, "meta">> & { meta?: PeerMeta } = {}): string {
    this.n += 1;
    const id = over.id ?? name;
    this.s.peers.push({
      id,
      name,
      ip: `100.64.0.${this.n}`,
      dns_label: name,
      user_id: "",
      connected: true,
      last_seen: new Date(NOW).toISOString(),
      last_login: new Date(NOW).toISOString(),
      login_expiration_enabled: false,
      inactivity_expiration_enabled: false,
      approval_required: false,
      ...over,
      meta: over.meta ?? { ...FULL_META },
    });
    return id;
  }

  group(name: string, peers: string[], resources: string[] = []): string {
    this.s.groups.push({ id: name, name, peers, resources: resources.map((id) => ({ id, type: "host" })) });
    return name;
  }

  rule(over: Partial<SnapshotRule> = {}): SnapshotRule {
    return {
      id: `r${this.s.policies.length + 1}`,
      name: over.name ?? `rule ${this.s.policies.length + 1}`,
      enabled: true,
      action: "accept",
      bidirectional: false,
      protocol: "all",
      ...over,
    };
  }

  policy(rule: Partial<SnapshotRule>, over: Partial<SnapshotPolicy> = {}): string {
    const id = over.id ?? `p${this.s.policies.length + 1}`;
    this.s.policies.push({
      id,
      name: id,
      enabled: true,
      source_posture_checks: [],
      rules: [this.rule(rule)],
      ...over,
    });
    return id;
  }
}
