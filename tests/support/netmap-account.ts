/**
 * A small builder of account snapshots for the network-map tests: peers with full metadata by default, groups
 * by name, policies with one rule each unless told otherwise.
 */
import { readSnapshot } from "../../access/snapshot";
import { routeById } from "../../api/routes";
import { PrivnetApiError, type PrivnetClient } from "../../client";
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

// ---------------------------------------------------------------------------------------------------------------
// A snapshot read through the API (as a tool outside the server would build it)

/** Anything with the test server's `call` (status and body), or a client's `call` (the body). */
interface Caller {
  call(
    operationId: string,
    o?: { params?: Record<string, unknown>; query?: Record<string, unknown> },
  ): Promise<unknown>;
}

/**
 * The account of a server read through its API, as a snapshot: the one path of access/snapshot.ts (the provider's
 * readers, then `snapshotOf`). The API does not show what only the agent reports (OS family and version, network
 * addresses, processes): `agentMeta` gives it per peer id, or it stays unknown. `s` is a client, or the test
 * server (whose `call` answers `{status, body}`: a status other than 2xx becomes the client's error).
 */
export async function snapshotFromApi(
  s: Caller,
  now: number,
  agentMeta: ReadonlyMap<string, PeerMeta> = new Map(),
  shape: "client" | "test-server" = "test-server",
): Promise<AccountSnapshot> {
  const call = async (op: string, args?: { params?: Record<string, unknown> }) => {
    const res = await s.call(op, { params: args?.params ?? {} });
    if (shape === "client") return res;
    const { status, body } = res as { status: number; body: unknown };
    if (status >= 200 && status < 300) return body;
    const route = routeById(op);
    throw new PrivnetApiError({
      method: route.method,
      path: route.path,
      status,
      serverMessage: JSON.stringify(body),
      retryable: false,
      serviceShaped: true,
    });
  };
  return readSnapshot({ call } as unknown as PrivnetClient, now, agentMeta);
}

// ---------------------------------------------------------------------------------------------------------------
// Seeded randomness (no dependency): the same seed builds the same account

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Helpers over a PRNG. */
export function picker(rand: () => number) {
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
  const some = <T>(xs: readonly T[], max: number): T[] => {
    const k = 1 + int(Math.min(max, xs.length));
    const copy = [...xs];
    const out: T[] = [];
    while (out.length < k && copy.length) out.push(copy.splice(int(copy.length), 1)[0] as T);
    return out;
  };
  return { int, pick, some, chance: (p: number) => rand() < p };
}

/** The shape of a generated account (bench/netmap.ts, property tests). */
export interface RandomShape {
  peers: number;
  groups: number;
  policies: number;
  resources: number;
}

/**
 * A random account snapshot of the given size, the same for the same seed: each peer in two groups, policies
 * between one or two groups each (a tenth towards network resources, some bidirectional, some drop, some with
 * posture checks), networks of ten resources with a routing peer each, a few routes, nameserver groups and zones.
 */
export function randomSnapshot(seed: number, shape: RandomShape): AccountSnapshot {
  const r = picker(prng(seed));
  const s = emptyAccount();
  const peers: string[] = [];
  for (let i = 0; i < shape.peers; i++) {
    const id = `peer${i}`;
    peers.push(id);
    s.peers.push({
      id,
      name: id,
      ip: `100.${64 + Math.floor(i / 65536)}.${Math.floor(i / 256) % 256}.${i % 256}`,
      dns_label: id,
      user_id: r.chance(0.3) ? `user${r.int(20)}` : "",
      connected: r.chance(0.7),
      last_seen: new Date(NOW - r.int(86400_000)).toISOString(),
      last_login: new Date(NOW - r.int(86400_000)).toISOString(),
      login_expiration_enabled: true,
      inactivity_expiration_enabled: false,
      approval_required: false,
      meta: {
        ...FULL_META,
        version: r.pick(["0.39.0", "0.40.1", "0.41.0"]),
        country_code: r.pick(["DE", "FR", "US"]),
        // A tenth of the peers have not reported their processes: the map says "depends on" there.
        processes: r.chance(0.1) ? undefined : r.chance(0.5) ? ["/usr/bin/edr"] : [],
      },
    });
  }
  const groups: string[] = [];
  for (let g = 0; g < shape.groups; g++) {
    groups.push(`group${g}`);
    s.groups.push({ id: `group${g}`, name: `group${g}`, peers: [], resources: [] });
  }
  for (const id of peers)
    for (const g of r.some(groups, 2).slice(0, 2)) s.groups[1 + groups.indexOf(g)]?.peers.push(id);
  const resourceGroups: string[] = [];
  for (let n = 0; n * 10 < shape.resources; n++) {
    const resources = [];
    for (let i = n * 10; i < Math.min(shape.resources, (n + 1) * 10); i++)
      resources.push({
        id: `res${i}`,
        name: `res${i}`,
        address: `10.${n}.0.${i % 10}/32`,
        type: "host",
        enabled: true,
      });
    const rg = `resources${n}`;
    resourceGroups.push(rg);
    s.groups.push({
      id: rg,
      name: rg,
      peers: [],
      resources: resources.map((x) => ({ id: x.id, type: "host" })),
    });
    s.networks.push({
      id: `net${n}`,
      name: `net${n}`,
      resources,
      routers: [{ id: `router${n}`, peer: r.pick(peers), metric: 100, masquerade: true, enabled: true }],
    });
  }
  s.posture_checks.push(
    { id: "version", name: "version", checks: { nb_version_check: { min_version: "0.40.0" } } },
    {
      id: "geo",
      name: "geo",
      checks: { geo_location_check: { action: "allow", locations: [{ country_code: "DE" }] } },
    },
    { id: "edr", name: "edr", checks: { process_check: { processes: [{ linux_path: "/usr/bin/edr" }] } } },
  );
  for (let p = 0; p < shape.policies; p++) {
    const proto = r.pick(["all", "tcp", "tcp", "udp", "icmp"]);
    const toResource = resourceGroups.length > 0 && r.chance(0.1);
    s.policies.push({
      id: `policy${p}`,
      name: `policy${p}`,
      enabled: r.chance(0.95),
      source_posture_checks: r.chance(0.2) ? [r.pick(["version", "geo", "edr"])] : [],
      rules: [
        {
          id: `rule${p}`,
          name: `rule${p}`,
          enabled: true,
          action: r.chance(0.15) ? "drop" : "accept",
          bidirectional: r.chance(0.3),
          protocol: proto,
          ...(proto === "tcp" || proto === "udp" ? { ports: [String(1 + r.int(10000))] } : {}),
          sources: r.some(groups, 2),
          destinations: toResource ? [r.pick(resourceGroups)] : r.some(groups, 2),
        },
      ],
    });
  }
  for (let i = 0; i < 10; i++)
    s.routes.push({
      id: `route${i}`,
      network_id: `lan${i % 5}`,
      enabled: true,
      peer: r.pick(peers),
      network: `172.16.${i % 5}.0/24`,
      metric: 100 + i,
      masquerade: true,
      groups: r.some(groups, 3),
    });
  s.nameserver_groups.push({
    id: "ns",
    name: "ns",
    enabled: true,
    groups: r.some(groups, 10),
    primary: true,
    domains: [],
    search_domains_enabled: false,
    nameservers: [{ ip: "10.0.0.53", ns_type: "udp", port: 53 }],
  });
  s.dns_zones.push({
    id: "zone",
    name: "zone",
    domain: "corp.example",
    enabled: true,
    enable_search_domain: false,
    distribution_groups: r.some(groups, 10),
  });
  return s;
}
