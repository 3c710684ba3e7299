/**
 * What each peer reaches, flattened from the network map into lines a person (or a diff) reads: from a peer, to
 * a peer or a network resource, the traffic one accept rule lets through (after the drop rules of the same pair
 * are taken away), and the policy and rule that grant it.
 *
 * A line is kept only for traffic that flows: a grant entirely taken away by drop rules makes no line, and a
 * grant partly taken away shows what is left. A grant that holds only if a peer passes a posture check the API
 * cannot decide (metadata only the agent reports) is a line marked `conditional`, naming the check.
 */
import {
  allowedTraffic,
  exposuresOf,
  NetworkMap,
  type AccountSnapshot,
  type Dependency,
  type ExposedTarget,
  type Exposure,
  type Grant,
  type PeerMap,
  type Traffic,
} from "../netmap";

/** An account as read: the snapshot, its map, and the raw users (for e-mail addresses). */
export interface Account {
  snapshot: AccountSnapshot;
  map: NetworkMap;
  /** Users by id: e-mail and name, which the snapshot does not carry. */
  users: Map<string, { email: string; name: string }>;
}

export function accountOf(snapshot: AccountSnapshot, users: Account["users"] = new Map()): Account {
  return { snapshot, map: new NetworkMap(snapshot), users };
}

export interface Target {
  kind: "peer" | "resource";
  id: string;
  name: string;
  /** A peer's IP, or a resource's address. */
  address: string;
  /** For a resource: its network and the peers that route it. */
  network?: string;
  via?: string[];
}

export interface AccessLine {
  from: { id: string; name: string; ip: string };
  to: Target;
  /** The traffic as text: `all`, `tcp/5432`, `tcp/8000-8999,9000`, `udp`, `icmp`. */
  traffic: string;
  policy: { id: string; name: string };
  rule: { id: string; name: string };
  /** Set when the grant depends on posture checks the API cannot decide. */
  conditional?: { check: string; unknown: string[] }[];
}

/** Traffic as text (see {@link AccessLine.traffic}). */
export function trafficText(list: readonly Traffic[]): string {
  return list.map((t) => (t.ports?.length ? `${t.protocol}/${t.ports.join(",")}` : t.protocol)).join(" ");
}

/** What one accept grant lets through once the drop rules (that hold for sure) are taken away. */
export function effective(g: Grant, drops: readonly Grant[]): Traffic[] {
  const { depends_on: _ignored, ...sure } = g;
  return allowedTraffic([sure, ...drops]);
}

function conditionalOf(deps: readonly Dependency[] | undefined): AccessLine["conditional"] {
  if (!deps?.length) return undefined;
  return deps.map((d) => ({ check: d.posture_check_name, unknown: d.unknown }));
}

function linesOf(from: AccessLine["from"], to: Target, grants: readonly Grant[], out: AccessLine[]): void {
  const mine = grants.filter((g) => g.direction === "out");
  const drops = mine.filter((g) => g.action !== "accept" && !g.depends_on);
  for (const g of mine) {
    if (g.action !== "accept") continue;
    const traffic = effective(g, drops);
    if (!traffic.length) continue;
    const line: AccessLine = {
      from,
      to,
      traffic: trafficText(traffic),
      policy: { id: g.policy_id, name: g.policy_name },
      rule: { id: g.rule_id, name: g.rule_name },
    };
    const c = conditionalOf(g.depends_on);
    if (c) line.conditional = c;
    out.push(line);
  }
}

/** The lines of one peer's map. */
export function peerLines(pm: PeerMap): AccessLine[] {
  const from = { id: pm.peer_id, name: pm.name, ip: pm.ip };
  const out: AccessLine[] = [];
  for (const p of pm.peers)
    linesOf(from, { kind: "peer", id: p.peer_id, name: p.name, address: p.ip }, p.grants, out);
  for (const r of pm.resources)
    linesOf(
      from,
      {
        kind: "resource",
        id: r.resource_id,
        name: r.name,
        address: r.address,
        network: r.network_name,
        via: r.routing_peers.map((x) => x.name),
      },
      r.grants,
      out,
    );
  return out;
}

/** Every line of the account, peer by peer in snapshot order. */
export function accessLines(account: Account, peerIds?: readonly string[]): AccessLine[] {
  const ids = peerIds ?? account.map.peerIds();
  return ids.flatMap((id) => {
    const pm = account.map.peerMap(id);
    return pm ? peerLines(pm) : [];
  });
}

/** The identity of a line, for a diff: ids, traffic and the condition (names may change, ids do not). */
export function lineKey(l: AccessLine): string {
  const cond = (l.conditional ?? []).map((c) => c.check).join(",");
  return [l.from.id, l.to.kind, l.to.id, l.traffic, l.policy.id, l.rule.id, cond].join("\u0000");
}

/** `laptop-1 → db-1 tcp/5432 (policy "web to db", rule "postgres")`. */
export function lineText(l: AccessLine): string {
  const via = l.to.via?.length ? ` via ${l.to.via.join(", ")}` : ", no routing peer";
  const to = l.to.kind === "resource" ? `resource ${l.to.name} (${l.to.address}${via})` : l.to.name;
  const cond = l.conditional
    ? ` [only if ${l.from.name} passes ${l.conditional.map((c) => `"${c.check}"`).join(", ")}: unknown ${[
        ...new Set(l.conditional.flatMap((c) => c.unknown)),
      ].join(", ")}]`
    : "";
  return `${l.from.name} → ${to} ${l.traffic} (policy ${JSON.stringify(l.policy.name)}, rule ${JSON.stringify(
    l.rule.name,
  )})${cond}`;
}

/** Group names of each peer (the built-in All group left out: every peer is in it). */
export function groupsByPeer(snapshot: AccountSnapshot): Map<string, string[]> {
  const out = new Map<string, string[]>(snapshot.peers.map((p) => [p.id, []]));
  for (const g of snapshot.groups) {
    if (g.all) continue;
    for (const id of g.peers) out.get(id)?.push(g.name);
  }
  return out;
}

/** The posture checks that could not be decided for some peer, one line each. */
export function undecided(account: Account, peerIds?: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const id of peerIds ?? account.map.peerIds()) {
    for (const d of account.map.peerMap(id)?.depends_on ?? []) {
      const peer = account.snapshot.peers.find((p) => p.id === d.peer_id)?.name ?? d.peer_id;
      seen.set(
        `${d.posture_check_id}|${d.peer_id}`,
        `posture check ${JSON.stringify(d.posture_check_name)} on ${peer}: the API does not show ${d.unknown.join(", ")}`,
      );
    }
  }
  return [...seen.values()].sort();
}

// ---------------------------------------------------------------------------------------------------------------
// What reverse-proxy services publish (netmap/exposure.ts), one line per target of each enabled service.

export interface PublishedLine {
  service: { id: string; name: string };
  url: string;
  to: ExposedTarget;
  audience: Exposure["audience"];
  /** Public: the enabled auth checks (empty: anyone who can connect). */
  auth: string[];
  restrictions: string[];
  /** Private: the access groups, and how many peers they hold. */
  groups: { id: string; name: string }[];
  peers: number;
  /** Private: the peers that may reach it. */
  peer_ids: string[];
}

/** Every target every enabled service publishes (netmap/exposure.ts). */
export function publishedLines(account: Account): PublishedLine[] {
  return exposuresOf(account.snapshot).flatMap((e) =>
    e.targets.map((to) => ({
      service: { id: e.service_id, name: e.service_name },
      url: e.url,
      to,
      audience: e.audience,
      auth: e.auth,
      restrictions: e.restrictions,
      groups: e.groups,
      peers: e.peers.length,
      peer_ids: e.peers.map((p) => p.id),
    })),
  );
}

/** The published lines that concern a peer: those it is the target of, and private ones it may reach. */
export function publishedFor(lines: readonly PublishedLine[], peerIds: readonly string[]): PublishedLine[] {
  const mine = new Set(peerIds);
  return lines.filter(
    (l) => (l.to.kind === "peer" && mine.has(l.to.id)) || l.peer_ids.some((id) => mine.has(id)),
  );
}

/** Who may reach a published target, as text: `public, guarded by password` or `private: peers of ops`. */
export function guardText(
  l: Pick<PublishedLine, "audience" | "auth" | "restrictions" | "groups" | "peers">,
): string {
  const where = l.restrictions.length ? `; ${l.restrictions.join("; ")}` : "";
  if (l.audience === "private")
    return `private: peers of ${l.groups.map((g) => g.name).join(", ")} (${l.peers} peer${l.peers === 1 ? "" : "s"})${where}`;
  return `public, ${l.auth.length ? `guarded by ${l.auth.join(", ")}` : "no auth: anyone who can connect"}${where}`;
}

/** The identity of a published line, for a diff: ids, where it goes, and who may reach it. */
export function publishedKey(l: PublishedLine): string {
  return [
    l.service.id,
    l.url,
    l.to.kind,
    l.to.id,
    `${l.to.address}:${l.to.port}`,
    l.to.protocol,
    l.to.path ?? "",
    l.audience,
    l.auth.join(","),
    l.restrictions.join(","),
    l.groups.map((g) => g.id).join(","),
  ].join("\u0000");
}

/** `published: https://db.example → resource db (10.0.0.5:8080, network dc) http, public, guarded by password (service "db")`. */
export function publishedText(l: PublishedLine): string {
  const place = [`${l.to.address}:${l.to.port}`, ...(l.to.network ? [`network ${l.to.network}`] : [])].join(
    ", ",
  );
  const path = l.to.path ? ` path ${l.to.path}` : "";
  return `published: ${l.url}${path} → ${l.to.kind} ${l.to.name} (${place}) ${l.to.protocol}, ${guardText(
    l,
  )} (service ${JSON.stringify(l.service.name)})`;
}
