/**
 * The peers whose access lines a change may alter: the diff of two accounts needs the lines of those peers only.
 * Every other peer's lines are the same before and after (they depend on nothing the change touches), so
 * computing them twice is the bulk of the work for nothing: on the 1,019-object account of bench/guard.ts, the
 * lines of every peer take about 0.5 s per account on an idle 2-core machine, and three to four times that while
 * other work shares it; a policy's change touches a few dozen of its 600 peers.
 *
 * What a peer's lines depend on (netmap/network-map.ts): the rules whose sources or destinations hold it (their
 * policy, its posture checks, the groups on both sides), the network resources those rules reach (their network,
 * its routers and their peers). So the peers affected are both sides of every rule that changed or names a group
 * that changed or reaches a network that changed, in either account, and the routing peers of the networks such a
 * rule reaches. Anything else that may change lines everywhere (a peer's own fields, users, settings) answers
 * "every peer" (undefined). tests/unit/access-guard-affected.test.ts checks the result against the full diff on
 * generated accounts and changes.
 */
import type { AccountSnapshot, SnapshotNetwork, SnapshotRule } from "../netmap";

const json = (v: unknown): string => JSON.stringify(v);

/** Ids present in only one list, or whose objects differ. */
function changedIds<T extends { id: string }>(
  a: readonly T[],
  b: readonly T[],
  key: (x: T) => unknown = (x) => x,
): Set<string> {
  const out = new Set<string>();
  const am = new Map(a.map((x) => [x.id, json(key(x))]));
  const bm = new Map(b.map((x) => [x.id, json(key(x))]));
  for (const [id, v] of am) if (bm.get(id) !== v) out.add(id);
  for (const id of bm.keys()) if (!am.has(id)) out.add(id);
  return out;
}

/** A peer as far as its lines and others' depend on it (its name and address only change what a line says). */
function peerFacts(p: AccountSnapshot["peers"][number]): unknown {
  const { name: _n, ip: _i, dns_label: _d, ...rest } = p;
  return rest;
}

/** The peers whose lines may differ between two accounts of one account; undefined for every peer. */
export function affectedPeers(before: AccountSnapshot, after: AccountSnapshot): Set<string> | undefined {
  if (json(before.settings) !== json(after.settings) || changedIds(before.users, after.users).size)
    return undefined;
  if (changedIds(before.peers, after.peers, peerFacts).size) return undefined;
  if (before.now !== after.now) return undefined;

  const accounts = [before, after];
  const groups = changedIds(before.groups, after.groups);
  const checks = changedIds(before.posture_checks, after.posture_checks);
  const policies = changedIds(before.policies, after.policies);
  for (const s of accounts)
    for (const p of s.policies)
      if ((p.source_posture_checks ?? []).some((c) => checks.has(c))) policies.add(p.id);
  const networks = changedIds(before.networks, after.networks);
  const changedResources = new Set(
    accounts.flatMap((s) =>
      s.networks.filter((n) => networks.has(n.id)).flatMap((n) => n.resources.map((r) => r.id)),
    ),
  );

  const out = new Set<string>();
  const allPeers = before.peers.map((p) => p.id);
  const members = (gid: string): string[] =>
    accounts.flatMap((s) => {
      const g = s.groups.find((x) => x.id === gid);
      return !g ? [] : g.all ? allPeers : g.peers;
    });
  const groupResources = (gid: string): string[] =>
    accounts.flatMap((s) => s.groups.find((x) => x.id === gid)?.resources.map((r) => r.id) ?? []);
  const networkOf = (rid: string): SnapshotNetwork[] =>
    accounts.flatMap((s) => s.networks.filter((n) => n.resources.some((r) => r.id === rid)));
  const routingPeers = (n: SnapshotNetwork): string[] =>
    n.routers.flatMap((r) => [...(r.peer ? [r.peer] : []), ...(r.peer_groups ?? []).flatMap(members)]);

  const side = (
    rule: SnapshotRule,
    which: "source" | "destination",
  ): { peers: string[]; resources: string[] } => {
    const ref = which === "source" ? rule.sourceResource : rule.destinationResource;
    if (ref)
      return ref.type === "peer" ? { peers: [ref.id], resources: [] } : { peers: [], resources: [ref.id] };
    const gs = (which === "source" ? rule.sources : rule.destinations) ?? [];
    return { peers: gs.flatMap(members), resources: gs.flatMap(groupResources) };
  };

  for (const s of accounts)
    for (const p of s.policies)
      for (const rule of p.rules ?? []) {
        const src = side(rule, "source");
        const dst = side(rule, "destination");
        const named = [...(rule.sources ?? []), ...(rule.destinations ?? [])];
        const touched =
          policies.has(p.id) ||
          named.some((g) => groups.has(g)) ||
          [...src.resources, ...dst.resources].some((r) => changedResources.has(r));
        if (!touched) continue;
        for (const x of [...src.peers, ...dst.peers]) out.add(x);
        for (const r of dst.resources)
          for (const n of networkOf(r)) for (const x of routingPeers(n)) out.add(x);
      }
  for (const g of groups) for (const x of members(g)) out.add(x);
  return out;
}
