/**
 * The network map: for one account snapshot (types.ts), what each peer may reach — peers, network resources,
 * routes, DNS — computed as the service computes the map it sends to each agent. Pure: no HTTP, no storage,
 * no clock (the snapshot carries `now`).
 *
 * Decisions (the spec is silent on all of this; where the service's behaviour is known it is followed).
 * Observed on the reference server (v0.77.1, agents enrolled; tests/acceptance/accessible-peers.test.ts): a
 * one-way rule's destination lists its source, a drop rule lists the peers, a resource's routing peer and the
 * rule's source list each other, a disabled rule grants nothing, an agent version `development` fails a version
 * check.
 *
 * Rules
 * - Only enabled policies and enabled rules count.
 * - Sources and destinations are the peers of the rule's groups (`All`: every peer), or the one peer of a
 *   `sourceResource` / `destinationResource` of type `peer`. A resource of another type (host, subnet, domain)
 *   is a network resource: as a destination it is reached through its network's routers (below); as a source
 *   it puts no peer in any map (traffic that comes from a resource is not a peer's).
 * - A peer in a rule's sources gets the destinations in its map with direction `out`; a peer in the
 *   destinations gets the sources with direction `in` (the direction lives in the grant, as the service puts it
 *   in the firewall rule, but both peers have each other in their map). A bidirectional rule adds the reverse
 *   (`in` for the source, `out` for the destination). A peer never lists itself.
 * - `drop` rules put peers in each other's map exactly as `accept` rules do (the service sends them as firewall
 *   rules). How they combine: drop wins. `allowed` is the union of the accept grants minus the union of the drop
 *   grants, per direction, whatever the order of policies and rules. An action other than accept and drop
 *   allows nothing and is subtracted like a drop (a rule we do not understand must not open access).
 * - Protocols: `all` covers tcp, udp, icmp and every other protocol; `tcp` and `udp` carry ports (`ports` and
 *   `port_ranges`; none = every port); `icmp` has no ports. A protocol the service adds (e.g. its SSH protocol)
 *   is carried as is, and is covered by `all` (an accept or drop of `all` includes it).
 * - Group members that are not peers of the account are ignored; so are unknown group ids.
 *
 * Peer state
 * - Approval: a peer with `approval_required` is not validated: its map is empty and it is in nobody's map
 *   (the service leaves unvalidated peers out of every map).
 * - Login expiration: a peer added by a user (`user_id` set) with `login_expiration_enabled`, when the account's
 *   `peer_login_expiration_enabled` is on, expires `peer_login_expiration` seconds after `last_login`.
 * - Inactivity expiration: the same for a user's peer with `inactivity_expiration_enabled` when the account's
 *   `peer_inactivity_expiration_enabled` is on: `peer_inactivity_expiration` seconds after `last_seen`, only while
 *   disconnected. A stored `login_expired` mark counts as expired too.
 * - A peer whose owner is blocked, or pending approval, cannot log in.
 * - A peer that cannot log in (expired, blocked or pending owner) keeps its map (the service still answers its
 *   accessible peers: what it gets once it logs in again) with `status` saying why it is cut off now; in the
 *   maps of others it is listed with `offline: true` (the service's offline peers, still in accessible-peers),
 *   it carries no routes for them and has no DNS record in their zone. Being connected or not changes no map
 *   (the service lists disconnected peers like the others); it matters only to inactivity expiration.
 * - Posture checks: a policy's `source_posture_checks` apply to its source peers (groups or a peer
 *   `sourceResource`); a source peer that fails any of them is not a source of that policy's rules, for itself
 *   and for everyone else. Destinations are never checked.
 *   - agent version (`nb_version_check`): `version` >= min_version; pre-release suffixes are dropped
 *     (`0.40.0-dev` is 0.40.0); a version that does not parse fails.
 *   - OS (`os_version_check`): by `goos`: darwin, android, ios compare `os_version` with min_version; linux and
 *     windows compare `kernel_version` with min_kernel_version. An OS the check does not list fails.
 *   - location (`geo_location_check`): a location matches on the country, and on the city when it names one;
 *     allow passes on a match, deny fails on one. A peer the service could not locate (`country_code` "") fails.
 *   - network ranges (`peer_network_range_check`): any reported local address inside any range is a match;
 *     allow passes on a match, deny fails on one; a peer that reported no address fails.
 *   - processes (`process_check`): every process's path for the peer's OS (linux_path, mac_path, windows_path)
 *     must be running; a process without a path for that OS, or an OS without paths (android, ios), fails.
 *   - Unknown metadata (a member of `meta` left out): the check is neither passed nor failed. The grant is kept
 *     with `depends_on` naming the posture check, the peer and the missing fields, and `conditional` is true
 *     when no grant holds for sure. `allowed` counts only grants that hold for sure, and so does
 *     {@link NetworkMap.accessiblePeerIds}. A failure of another check of the same posture check wins over unknown.
 * - A regular user's view (role `user`, see {@link viewAllowed}): the map of a peer the user does not own is
 *   hidden, and so is every map when the account has `regular_users_view_blocked`.
 *
 * Network resources
 * - A peer reaches an enabled resource when a rule names it as `destinationResource`, or names a destination
 *   group that lists it, and the peer is a source of that rule; through the enabled routers of the resource's
 *   network (a router's `peer`, or every peer of its `peer_groups`; lowest metric first). A network without an
 *   enabled router reaches nothing. The routing peers are added to the peer's map (`routing` says why), and a
 *   routing peer gets every source peer of the resources it routes in its map: the service connects them.
 *
 * Routes
 * - A peer receives an enabled route when one of its groups is among the route's distribution `groups` and a
 *   routing peer of the route (`peer`, or a peer of `peer_groups`) is in its map, online. Routes with the same
 *   `network_id` and range (or domains) form one high-availability group: the peer gets every routing peer of
 *   the group, lowest metric first. A peer that routes a member of the group itself receives none of it.
 * - `access_control_groups`: without them the route carries everything; with them, only what the peer's rules
 *   towards those groups allow (the same drop-wins combination). The route is received either way.
 * - An exit node (0.0.0.0/0 or ::/0) with `skip_auto_apply` is received with `auto_apply: false`.
 *
 * DNS
 * - A peer in one of the DNS settings' `disabled_management_groups` gets no DNS configuration at all.
 * - Otherwise it gets every enabled nameserver group that names one of its groups, except one whose
 *   nameservers include the peer's own IP; the peers' zone (`dns_domain`, or {@link DEFAULT_DNS_DOMAIN}) with a
 *   record for itself and each peer of its map that is online and not conditional; and every enabled custom
 *   zone distributed to one of its groups (`search_domain` from enable_search_domain).
 */
import { evaluatePostureCheck, type Outcome } from "./posture";
import { portStrings, ruleIntervals, TrafficSet } from "./traffic";
import type {
  AccountSnapshot,
  Dependency,
  DnsMap,
  Grant,
  PeerAccess,
  PeerMap,
  PeerStatus,
  ResourceAccess,
  RouteAccess,
  RoutedRoute,
  RoutingPeer,
  SnapshotNetwork,
  SnapshotNetworkResource,
  SnapshotPeer,
  SnapshotPolicy,
  SnapshotRoute,
  SnapshotRule,
  SnapshotUser,
  Traffic,
} from "./types";

/** The peers' DNS zone when the account sets no `dns_domain`. */
export const DEFAULT_DNS_DOMAIN = "privnet.internal";

const BUILTIN_PROTOCOLS = new Set(["all", "tcp", "udp", "icmp"]);
const SECOND_MS = 1000;

/** One enabled rule. Its peer sets are made when first needed (one peer's map needs few of them). */
interface RuleInfo {
  /** Position among the enabled rules: the traffic cache's key. */
  n: number;
  policy: SnapshotPolicy;
  rule: SnapshotRule;
  /** The peer of a `peer` resource, or the groups, of each side. */
  srcPeer?: string;
  srcGroups: string[];
  dstPeer?: string;
  dstGroups: string[];
  /** Source peers that pass (or may pass) the policy's posture checks: dependencies when unknown. */
  src?: Map<string, Dependency[] | undefined>;
  dst?: Set<string>;
  /** Network resources among the destinations. */
  dstResources: string[];
  /** The grants without dependencies, shared by every pair. */
  out: Grant;
  in: Grant;
}

type Verdict = "fail" | Dependency[] | undefined;

/** The rules of one peer: as a source (with its posture dependencies) and as a destination. */
interface Sides {
  src: { rule: RuleInfo; deps: Dependency[] | undefined }[];
  dst: RuleInfo[];
}

interface ResourceInfo {
  resource: SnapshotNetworkResource;
  network: SnapshotNetwork;
}

/** An entry of a map being built. */
interface Entry {
  id: string;
  rank: number;
  grants: Grant[];
  /** Keys of the sure grants per direction (rule numbers), for the traffic cache. */
  outKey: string;
  inKey: string;
  /** True when a grant depends on a posture check. */
  deps: boolean;
  routing?: { text: string; conditional: boolean }[];
}

function ms(t: string): number {
  const v = Date.parse(t);
  return Number.isNaN(v) ? 0 : v;
}

function isExitNode(network: string | undefined): boolean {
  return network === "0.0.0.0/0" || network === "::/0";
}

function haId(r: SnapshotRoute): string {
  return `${r.network_id}|${r.network ?? (r.domains ?? []).join(",")}`;
}

function grantOf(p: SnapshotPolicy, r: SnapshotRule, direction: "in" | "out", deps?: Dependency[]): Grant {
  const g: Grant = {
    policy_id: p.id,
    policy_name: p.name,
    rule_id: r.id,
    rule_name: r.name,
    action: r.action,
    protocol: r.protocol,
    direction,
  };
  if (r.protocol === "tcp" || r.protocol === "udp") {
    const iv = ruleIntervals(r.ports, r.port_ranges);
    if (!(iv.length === 1 && iv[0]?.[0] === 1 && iv[0][1] === 65535)) g.ports = portStrings(iv);
  }
  if (deps?.length) g.depends_on = deps;
  return g;
}

/** The traffic a list of grants allows (accept minus drop), from grants that hold for sure. */
export function allowedTraffic(grants: readonly Grant[]): Traffic[] {
  const named = [...new Set(grants.map((g) => g.protocol).filter((p) => !BUILTIN_PROTOCOLS.has(p)))];
  const set = new TrafficSet(named);
  const sure = grants.filter((g) => !g.depends_on);
  for (const g of sure)
    if (g.action === "accept") set.apply("add", g.protocol, ruleIntervals(g.ports, undefined));
  for (const g of sure)
    if (g.action !== "accept") set.apply("remove", g.protocol, ruleIntervals(g.ports, undefined));
  return set.toList();
}

/**
 * Whether `viewer` may see the map of `peer` (the service's restricted view): a regular user (role `user`) sees
 * the maps of its own peers only, and none when the account has `regular_users_view_blocked`.
 */
export function viewAllowed(snapshot: AccountSnapshot, viewer: SnapshotUser, peer: SnapshotPeer): boolean {
  if (viewer.role !== "user") return true;
  return snapshot.settings.regular_users_view_blocked !== true && peer.user_id === viewer.id;
}

/** The network map of an account, indexed once; maps are computed per peer on demand. */
export class NetworkMap {
  private readonly peers = new Map<string, SnapshotPeer>();
  private readonly order = new Map<string, number>();
  private readonly users: Map<string, SnapshotUser>;
  private readonly status = new Map<string, { status: PeerStatus; reason?: string }>();
  private readonly groups = new Map<string, AccountSnapshot["groups"][number]>();
  /** Validated members of each group, made when first needed. */
  private readonly members = new Map<string, Set<string>>();
  private allMembers?: Set<string>;
  private readonly peerGroupsCache = new Map<string, Set<string>>();
  private readonly rules: RuleInfo[] = [];
  private readonly checks: Map<string, AccountSnapshot["posture_checks"][number]>;
  private readonly resources = new Map<string, ResourceInfo>();
  private readonly networks = new Map<string, SnapshotNetwork>();
  /** Network id -> its routing peers (enabled routers, validated peers), lowest metric first. */
  private readonly networkRouters = new Map<string, RoutingPeer[]>();
  /** Peer id -> the networks it routes. */
  private readonly routesNetworks = new Map<string, string[]>();
  /** Resource id -> the rules that name it as a destination. */
  private readonly resourceRules = new Map<string, RuleInfo[]>();
  /** Peer id -> the routes it is a routing peer of. */
  private readonly peerRoutes = new Map<string, SnapshotRoute[]>();
  /** Posture check id -> peer id -> outcome. */
  private readonly postureCache = new Map<string, Map<string, Outcome>>();
  /** Allowed traffic by the rules (and directions) of the sure grants: many pairs share the same grants. */
  private readonly trafficCache = new Map<string, Traffic[]>();
  private sideIndex?: Map<string, Sides>;
  private firstSides?: { peerId: string; sides: Sides };

  constructor(private readonly snapshot: AccountSnapshot) {
    const s = snapshot;
    this.users = new Map(s.users.map((u) => [u.id, u]));
    s.peers.forEach((p, i) => {
      this.peers.set(p.id, p);
      this.order.set(p.id, i);
    });
    for (const g of s.groups) this.groups.set(g.id, g);
    this.checks = new Map(s.posture_checks.map((c) => [c.id, c]));
    const groupResources = new Map<string, string[]>();
    for (const n of s.networks) {
      this.networks.set(n.id, n);
      for (const r of n.resources) this.resources.set(r.id, { resource: r, network: n });
    }
    for (const g of s.groups)
      groupResources.set(
        g.id,
        g.resources.filter((x) => this.resources.has(x.id)).map((x) => x.id),
      );

    for (const policy of s.policies) {
      if (!policy.enabled) continue;
      for (const rule of policy.rules ?? []) {
        if (!rule.enabled) continue;
        // A tcp or udp rule whose only port ranges end below their start (stored as given) matches no traffic.
        const ported = rule.protocol === "tcp" || rule.protocol === "udp";
        if (ported && !ruleIntervals(rule.ports, rule.port_ranges).length) continue;
        const srcRes = rule.sourceResource;
        const dstRes = rule.destinationResource;
        const info: RuleInfo = {
          n: this.rules.length,
          policy,
          rule,
          srcGroups: srcRes ? [] : (rule.sources ?? []),
          dstGroups: dstRes ? [] : (rule.destinations ?? []),
          dstResources:
            dstRes && dstRes.type !== "peer"
              ? [dstRes.id].filter((id) => this.resources.has(id))
              : [...new Set((rule.destinations ?? []).flatMap((g) => groupResources.get(g) ?? []))],
          out: grantOf(policy, rule, "out"),
          in: grantOf(policy, rule, "in"),
        };
        // A resource of another type than `peer` as the source names no peer.
        if (srcRes) info.srcPeer = srcRes.type === "peer" ? srcRes.id : "";
        if (dstRes) info.dstPeer = dstRes.type === "peer" ? dstRes.id : "";
        this.rules.push(info);
        for (const r of info.dstResources) push(this.resourceRules, r, info);
      }
    }

    for (const n of s.networks) {
      const best = new Map<string, RoutingPeer>();
      for (const router of n.routers) {
        if (!router.enabled) continue;
        for (const id of this.peersOf(router.peer, router.peer_groups)) {
          const have = best.get(id);
          if (!have || router.metric < have.metric)
            best.set(id, {
              peer_id: id,
              name: this.peers.get(id)?.name ?? "",
              metric: router.metric,
              masquerade: router.masquerade,
            });
        }
      }
      const list = [...best.values()].sort(
        (a, b) => a.metric - b.metric || this.rank(a.peer_id) - this.rank(b.peer_id),
      );
      this.networkRouters.set(n.id, list);
      for (const rp of list) push(this.routesNetworks, rp.peer_id, n.id);
    }

    for (const route of s.routes)
      for (const id of this.peersOf(route.peer, route.peer_groups)) push(this.peerRoutes, id, route);
  }

  /** Peer ids in snapshot order. */
  peerIds(): string[] {
    return [...this.peers.keys()];
  }

  /**
   * Ids of the peers `peerId` may connect to, as the service's accessible-peers answers them: every peer of its
   * map (offline ones and routing peers included) whose presence does not depend on an unknown posture check.
   * Undefined for a peer the snapshot does not hold.
   */
  accessiblePeerIds(peerId: string): string[] | undefined {
    if (!this.peers.has(peerId)) return undefined;
    if (!this.valid(peerId)) return [];
    return this.entries(peerId)
      .filter((e) => !isConditional(e))
      .map((e) => e.id);
  }

  /** The full map of one peer; undefined for a peer the snapshot does not hold. */
  peerMap(peerId: string): PeerMap | undefined {
    const peer = this.peers.get(peerId);
    if (!peer) return undefined;
    const st = this.statusFor(peerId);
    const base: PeerMap = {
      peer_id: peer.id,
      name: peer.name,
      ip: peer.ip,
      status: st.status,
      peers: [],
      resources: [],
      routes: [],
      routed: this.routedBy(peerId),
      dns: { management_enabled: true, disabled_by_groups: [], nameserver_groups: [], zones: [] },
      depends_on: [],
    };
    if (st.reason) base.status_reason = st.reason;
    if (st.status === "approval_required") {
      base.dns = this.dns(peer, []);
      return base;
    }
    const resources = this.resourceAccess(peerId);
    const entries = this.entries(peerId, resources);
    base.peers = entries.map((e) => this.peerAccess(e));
    const anyDeps = entries.some((e) => e.deps);
    base.resources = resources;
    base.routes = this.routeAccess(peerId, base.peers);
    base.dns = this.dns(
      peer,
      base.peers.filter((p) => !p.offline && !p.conditional),
    );
    const deps = new Map<string, Dependency>();
    const collect = (grants: Grant[]) => {
      for (const g of grants)
        for (const d of g.depends_on ?? []) deps.set(`${d.posture_check_id}|${d.peer_id}`, d);
    };
    if (anyDeps) for (const p of base.peers) collect(p.grants);
    for (const r of base.resources) collect(r.grants);
    for (const r of base.routes) collect(r.grants);
    base.depends_on = [...deps.values()];
    return base;
  }

  /** Every peer's map, in snapshot order. */
  all(): PeerMap[] {
    return this.peerIds().map((id) => this.peerMap(id) as PeerMap);
  }

  // -------------------------------------------------------------------------------------------------------------

  private rank(id: string): number {
    return this.order.get(id) ?? Number.MAX_SAFE_INTEGER;
  }

  /** A peer that takes part in maps: present and not waiting for approval. */
  private valid(id: string): boolean {
    const p = this.peers.get(id);
    return p !== undefined && !p.approval_required;
  }

  /** The validated members of a group (`All`: every validated peer). */
  private membersOf(groupId: string): Set<string> {
    let m = this.members.get(groupId);
    if (m) return m;
    const g = this.groups.get(groupId);
    if (g?.all) {
      this.allMembers ??= new Set([...this.peers.keys()].filter((id) => this.valid(id)));
      m = this.allMembers;
    } else m = new Set((g?.peers ?? []).filter((id) => this.valid(id)));
    this.members.set(groupId, m);
    return m;
  }

  /** The groups that hold a validated peer. */
  private peerGroups(peerId: string): Set<string> {
    let out = this.peerGroupsCache.get(peerId);
    if (!out) {
      out = new Set([...this.groups.keys()].filter((g) => this.membersOf(g).has(peerId)));
      this.peerGroupsCache.set(peerId, out);
    }
    return out;
  }

  /** The peers of one peer or of groups (routers, routes), deduplicated. */
  private peersOf(peer: string | undefined, groups: string[] | undefined): string[] {
    if (peer) return this.valid(peer) ? [peer] : [];
    const out = new Set<string>();
    for (const g of groups ?? []) for (const id of this.membersOf(g)) out.add(id);
    return [...out];
  }

  /** Whether a peer is on one side of a rule (before posture checks). */
  private onSide(peerId: string, one: string | undefined, groups: string[]): boolean {
    if (one !== undefined) return one === peerId && this.valid(peerId);
    for (const g of groups) if (this.membersOf(g).has(peerId)) return true;
    return false;
  }

  /**
   * The rules a peer is a source of (passing or maybe passing their posture checks, with its dependencies) and
   * the rules it is a destination of. For the first peer asked, a scan of the rules; once a second peer is asked,
   * an index of every peer's rules, built once, for callers that go through many peers (every map, a list of
   * peers with their counts).
   */
  private sides(peerId: string): Sides {
    if (this.sideIndex) return this.sideIndex.get(peerId) ?? { src: [], dst: [] };
    if (this.firstSides?.peerId === peerId) return this.firstSides.sides;
    if (this.firstSides) {
      const index = new Map<string, Sides>();
      const of = (id: string) => {
        let x = index.get(id);
        if (!x) index.set(id, (x = { src: [], dst: [] }));
        return x;
      };
      for (const r of this.rules) {
        for (const [id, deps] of this.sources(r)) of(id).src.push({ rule: r, deps });
        for (const id of this.destinations(r)) of(id).dst.push(r);
      }
      this.sideIndex = index;
      return index.get(peerId) ?? { src: [], dst: [] };
    }
    const out: Sides = { src: [], dst: [] };
    for (const r of this.rules) {
      if (this.onSide(peerId, r.srcPeer, r.srcGroups)) {
        const deps = this.postureVerdict(peerId, r.policy.source_posture_checks ?? []);
        if (deps !== "fail") out.src.push({ rule: r, deps });
      }
      if (this.onSide(peerId, r.dstPeer, r.dstGroups)) out.dst.push(r);
    }
    this.firstSides = { peerId, sides: out };
    return out;
  }

  /** Every source of a rule that passes (or may pass) its posture checks. */
  private sources(r: RuleInfo): Map<string, Dependency[] | undefined> {
    if (r.src) return r.src;
    const src = new Map<string, Dependency[] | undefined>();
    for (const id of this.sideMembers(r.srcPeer, r.srcGroups)) {
      const v = this.postureVerdict(id, r.policy.source_posture_checks ?? []);
      if (v !== "fail") src.set(id, v);
    }
    return (r.src = src);
  }

  private destinations(r: RuleInfo): Set<string> {
    return (r.dst ??= new Set(this.sideMembers(r.dstPeer, r.dstGroups)));
  }

  private sideMembers(one: string | undefined, groups: string[]): Iterable<string> {
    if (one !== undefined) return one !== "" && this.valid(one) ? [one] : [];
    if (groups.length === 1) return this.membersOf(groups[0] as string);
    const out = new Set<string>();
    for (const g of groups) for (const id of this.membersOf(g)) out.add(id);
    return out;
  }

  private statusFor(peerId: string): { status: PeerStatus; reason?: string } {
    let st = this.status.get(peerId);
    if (!st) {
      const p = this.peers.get(peerId) as SnapshotPeer;
      st = this.statusOf(p, this.users.get(p.user_id));
      this.status.set(peerId, st);
    }
    return st;
  }

  private statusOf(p: SnapshotPeer, user: SnapshotUser | undefined): { status: PeerStatus; reason?: string } {
    const s = this.snapshot.settings;
    const now = this.snapshot.now;
    if (p.approval_required) return { status: "approval_required", reason: "the peer waits for approval" };
    if (user && (user.is_blocked === true || user.status === "blocked"))
      return { status: "user_blocked", reason: `its user ${user.id} is blocked` };
    if (user?.pending_approval === true)
      return { status: "user_pending", reason: `its user ${user.id} is pending approval` };
    const byUser = p.user_id !== "";
    if (
      byUser &&
      p.login_expiration_enabled &&
      s.peer_login_expiration_enabled &&
      ms(p.last_login) + s.peer_login_expiration * SECOND_MS <= now
    )
      return {
        status: "login_expired",
        reason: `login expired ${s.peer_login_expiration} s after ${p.last_login}`,
      };
    if (
      byUser &&
      p.inactivity_expiration_enabled &&
      s.peer_inactivity_expiration_enabled &&
      !p.connected &&
      ms(p.last_seen) + s.peer_inactivity_expiration * SECOND_MS <= now
    )
      return {
        status: "inactivity_expired",
        reason: `inactive for ${s.peer_inactivity_expiration} s or more since ${p.last_seen}`,
      };
    if (p.login_expired === true)
      return { status: "login_expired", reason: "the service marked its login expired" };
    return { status: "ok" };
  }

  /** "fail", or the dependencies on checks that cannot be evaluated (undefined: passes for sure). */
  private postureVerdict(peerId: string, checkIds: string[]): Verdict {
    if (!checkIds.length) return undefined;
    const deps: Dependency[] = [];
    const peer = this.peers.get(peerId) as SnapshotPeer;
    for (const id of checkIds) {
      const check = this.checks.get(id);
      if (!check) continue; // a deleted check constrains nothing (the service refuses to delete a used one)
      let byPeer = this.postureCache.get(id);
      if (!byPeer) this.postureCache.set(id, (byPeer = new Map()));
      let o = byPeer.get(peerId);
      if (!o) byPeer.set(peerId, (o = evaluatePostureCheck(check, peer.meta)));
      if (o.result === "fail") return "fail";
      if (o.result === "unknown")
        deps.push({
          posture_check_id: id,
          posture_check_name: check.name,
          peer_id: peerId,
          unknown: o.unknown,
        });
    }
    return deps.length ? deps : undefined;
  }

  /** The peers of the map with the grants and routing reasons that put them there, in snapshot order. */
  private entries(peerId: string, resources?: ResourceAccess[]): Entry[] {
    const out = new Map<string, Entry>();
    const entry = (id: string): Entry => {
      let e = out.get(id);
      if (!e) out.set(id, (e = { id, rank: this.rank(id), grants: [], outKey: "", inKey: "", deps: false }));
      return e;
    };
    const add = (e: Entry, g: Grant, r: RuleInfo) => {
      e.grants.push(g);
      if (g.depends_on) e.deps = true;
      else if (g.direction === "out") e.outKey += `${r.n},`;
      else e.inKey += `${r.n},`;
    };
    const sides = this.sides(peerId);
    for (const { rule: r, deps } of sides.src) {
      const outG = deps ? grantOf(r.policy, r.rule, "out", deps) : r.out;
      const inG = deps ? grantOf(r.policy, r.rule, "in", deps) : r.in;
      for (const d of this.destinations(r)) {
        if (d === peerId) continue;
        const e = entry(d);
        add(e, outG, r);
        if (r.rule.bidirectional) add(e, inG, r);
      }
    }
    for (const r of sides.dst) {
      for (const [s, deps] of this.sources(r)) {
        if (s === peerId) continue;
        const e = entry(s);
        add(e, deps ? grantOf(r.policy, r.rule, "in", deps) : r.in, r);
        if (r.rule.bidirectional) add(e, deps ? grantOf(r.policy, r.rule, "out", deps) : r.out, r);
      }
    }
    const routing = (id: string, text: string, conditional: boolean) => {
      const e = entry(id);
      (e.routing ??= []).push({ text, conditional });
    };
    // The routers of the resources this peer reaches.
    for (const res of resources ?? this.resourceAccess(peerId))
      for (const rp of res.routing_peers)
        if (rp.peer_id !== peerId)
          routing(
            rp.peer_id,
            `routes resource ${res.name} (network ${res.network_name}) for this peer`,
            res.conditional,
          );
    // The sources of the resources this peer routes.
    for (const networkId of this.routesNetworks.get(peerId) ?? []) {
      const network = this.networks.get(networkId) as SnapshotNetwork;
      for (const res of network.resources) {
        if (!res.enabled) continue;
        for (const r of this.resourceRules.get(res.id) ?? [])
          for (const [s, deps] of this.sources(r))
            if (s !== peerId)
              routing(
                s,
                `this peer routes resource ${res.name} (network ${network.name}) for it`,
                deps !== undefined,
              );
      }
    }
    return [...out.values()].sort((x, y) => x.rank - y.rank);
  }

  private peerAccess(e: Entry): PeerAccess {
    const id = e.id;
    const p = this.peers.get(id) as SnapshotPeer;
    const st = this.statusFor(id);
    const offline = st.status !== "ok";
    const a: PeerAccess = {
      peer_id: id,
      name: p.name,
      ip: p.ip,
      offline,
      grants: e.grants,
      allowed: { out: this.traffic(e.outKey, e.grants, "out"), in: this.traffic(e.inKey, e.grants, "in") },
      conditional: isConditional(e),
    };
    if (offline && st.reason) a.offline_reason = st.reason;
    if (e.routing) a.routing = [...new Set(e.routing.map((r) => r.text))];
    return a;
  }

  /**
   * {@link allowedTraffic} of the sure grants (of one direction), computed once per distinct set of rules: `key`
   * names the rules, "" for none.
   */
  private traffic(key: string, grants: Grant[], direction?: "in" | "out"): Traffic[] {
    if (key === "") return [];
    let t = this.trafficCache.get(`${direction ?? ""}${key}`);
    if (!t) {
      const sure = grants.filter(
        (g) => !g.depends_on && (direction === undefined || g.direction === direction),
      );
      this.trafficCache.set(`${direction ?? ""}${key}`, (t = allowedTraffic(sure)));
    }
    return t;
  }

  /** The traffic of grants not keyed by rule number (resources, routes). */
  private allowed(grants: Grant[]): Traffic[] {
    const key = grants
      .filter((g) => !g.depends_on)
      .map((g) => `${g.policy_id}\u0000${g.rule_id}`)
      .join("\u0001");
    return this.traffic(key === "" ? "" : `r${key}`, grants);
  }

  private resourceAccess(peerId: string): ResourceAccess[] {
    const byResource = new Map<string, Grant[]>();
    for (const { rule: r, deps } of this.sides(peerId).src) {
      if (!r.dstResources.length) continue;
      const g = deps ? grantOf(r.policy, r.rule, "out", deps) : r.out;
      for (const id of r.dstResources) {
        const list = byResource.get(id);
        if (list) list.push(g);
        else byResource.set(id, [g]);
      }
    }
    const out: ResourceAccess[] = [];
    for (const [id, grants] of byResource) {
      const { resource, network } = this.resources.get(id) as ResourceInfo;
      if (!resource.enabled) continue;
      const routers = this.networkRouters.get(network.id) ?? [];
      if (!routers.length) continue;
      out.push({
        resource_id: id,
        name: resource.name,
        address: resource.address,
        type: resource.type,
        network_id: network.id,
        network_name: network.name,
        grants,
        allowed: this.allowed(grants),
        routing_peers: routers,
        conditional: grants.every((g) => g.depends_on),
      });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name) || a.resource_id.localeCompare(b.resource_id));
  }

  private routedBy(peerId: string): RoutedRoute[] {
    return (this.peerRoutes.get(peerId) ?? []).map((r) => {
      const x: RoutedRoute = { route_id: r.id, network_id: r.network_id, enabled: r.enabled };
      if (r.network !== undefined) x.network = r.network;
      if (r.domains !== undefined) x.domains = r.domains;
      return x;
    });
  }

  private routeAccess(peerId: string, peers: PeerAccess[]): RouteAccess[] {
    const mine = new Set((this.peerRoutes.get(peerId) ?? []).map(haId));
    const groups = this.peerGroups(peerId);
    const byHa = new Map<string, { routes: { route: SnapshotRoute; via: PeerAccess }[] }>();
    for (const p of peers) {
      if (p.offline) continue;
      for (const route of this.peerRoutes.get(p.peer_id) ?? []) {
        if (!route.enabled || mine.has(haId(route))) continue;
        if (!route.groups.some((g) => groups.has(g))) continue;
        const key = haId(route);
        let ha = byHa.get(key);
        if (!ha) byHa.set(key, (ha = { routes: [] }));
        ha.routes.push({ route, via: p });
      }
    }
    const out: RouteAccess[] = [];
    for (const [key, ha] of byHa) {
      const first = (ha.routes[0] as { route: SnapshotRoute }).route;
      const routing = ha.routes
        .map(({ route, via }) => ({
          route_id: route.id,
          peer_id: via.peer_id,
          name: via.name,
          metric: route.metric,
          masquerade: route.masquerade,
        }))
        .sort((a, b) => a.metric - b.metric || this.rank(a.peer_id) - this.rank(b.peer_id));
      const acg = new Set(ha.routes.flatMap(({ route }) => route.access_control_groups ?? []));
      const grants: Grant[] = [];
      if (acg.size)
        for (const { rule: r, deps } of this.sides(peerId).src) {
          if (!r.dstGroups.some((g) => acg.has(g))) continue;
          grants.push(deps ? grantOf(r.policy, r.rule, "out", deps) : r.out);
        }
      const exit = isExitNode(first.network);
      const x: RouteAccess = {
        ha_id: key,
        network_id: first.network_id,
        exit_node: exit,
        auto_apply: !(exit && ha.routes.every(({ route }) => route.skip_auto_apply === true)),
        routing_peers: routing,
        access: acg.size ? this.allowed(grants) : "all",
        grants,
        // A route depends on the posture of the peers that carry it (or of this peer, for the ACG rules).
        conditional:
          ha.routes.every(({ via }) => via.conditional) ||
          (acg.size > 0 && grants.length > 0 && grants.every((g) => g.depends_on)),
      };
      if (first.network !== undefined) x.network = first.network;
      if (first.domains !== undefined) x.domains = first.domains;
      out.push(x);
    }
    return out.sort((a, b) => a.ha_id.localeCompare(b.ha_id));
  }

  private dns(peer: SnapshotPeer, online: PeerAccess[]): DnsMap {
    const s = this.snapshot;
    const groups = this.peerGroups(peer.id);
    const disabled = s.dns_settings.disabled_management_groups.filter((g) => groups.has(g));
    if (disabled.length)
      return { management_enabled: false, disabled_by_groups: disabled, nameserver_groups: [], zones: [] };
    const domain = s.settings.dns_domain || DEFAULT_DNS_DOMAIN;
    const record = (p: { dns_label: string; ip: string }) => ({ name: `${p.dns_label}.${domain}`, ip: p.ip });
    const validSelf = this.valid(peer.id);
    return {
      management_enabled: true,
      disabled_by_groups: [],
      nameserver_groups: s.nameserver_groups
        .filter((g) => g.enabled && g.groups.some((id) => groups.has(id)))
        .filter((g) => !g.nameservers.some((ns) => ns.ip === peer.ip))
        .map((g) => ({
          id: g.id,
          name: g.name,
          primary: g.primary,
          domains: g.domains,
          search_domains_enabled: g.search_domains_enabled,
        })),
      zones: [
        {
          name: "peers",
          domain,
          search_domain: true,
          records: validSelf
            ? [record(peer), ...online.map((p) => record(this.peers.get(p.peer_id) as SnapshotPeer))]
            : [],
        },
        ...s.dns_zones
          .filter((z) => z.enabled && z.distribution_groups.some((id) => groups.has(id)))
          .map((z) => ({ id: z.id, name: z.name, domain: z.domain, search_domain: z.enable_search_domain })),
      ],
    };
  }
}

function push<T>(m: Map<string, T[]>, k: string, v: T): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** True when nothing puts the peer in the map for sure: every grant and every routing reason is conditional. */
function isConditional(e: Entry): boolean {
  const sureGrant = e.deps ? e.grants.some((g) => !g.depends_on) : e.grants.length > 0;
  return !sureGrant && (e.routing ?? []).every((r) => r.conditional);
}

/** The full map of every peer of a snapshot. */
export function networkMaps(snapshot: AccountSnapshot): PeerMap[] {
  return new NetworkMap(snapshot).all();
}
