/**
 * policy/affected.ts: the diff of two accounts limited to the peers a change may touch equals the full diff, on
 * generated accounts and random changes of every kind it handles (a rule's groups, ports and action, a policy on or
 * off, removed or added, a group's members and resources, a posture check, a network resource, a router), and a
 * change it does not handle narrowly (a peer's own fields) falls back to every peer.
 */
import { diffAccess } from "../../access/diff";
import { accountOf, lineKey } from "../../access/report";
import type { AccountSnapshot } from "../../netmap";
import { affectedPeers } from "../../policy/affected";
import { picker, prng, randomSnapshot } from "../support/netmap-account";

const SHAPE = { peers: 60, groups: 12, policies: 30, resources: 20 };

function mutate(s: AccountSnapshot, seed: number): string {
  const r = picker(prng(seed));
  const policy = r.pick(s.policies);
  const rule = r.pick(policy.rules);
  const group = r.pick(s.groups.filter((g) => !g.all));
  const groupIds = s.groups.map((g) => g.id);
  switch (r.int(11)) {
    case 0:
      rule.sources = r.some(groupIds, 2);
      return "a rule's sources";
    case 1:
      rule.destinations = r.some(groupIds, 2);
      return "a rule's destinations";
    case 2:
      rule.ports = r.chance(0.5) ? ["22", "443"] : undefined;
      rule.protocol = "tcp";
      return "a rule's ports";
    case 3:
      rule.action = rule.action === "accept" ? "drop" : "accept";
      return "a rule's action";
    case 4:
      policy.enabled = !policy.enabled;
      return "a policy on or off";
    case 5:
      s.policies.splice(s.policies.indexOf(policy), 1);
      return "a policy removed";
    case 6:
      s.policies.push({ ...structuredClone(policy), id: `new-${seed}` });
      return "a policy added";
    case 7:
      if (r.chance(0.5) && group.peers.length) group.peers.splice(r.int(group.peers.length), 1);
      else group.peers.push(r.pick(s.peers).id);
      return "a group's members";
    case 8: {
      const check = r.pick(s.posture_checks);
      check.checks = { nb_version_check: { min_version: r.pick(["0.39.5", "0.41.0"]) } };
      return "a posture check";
    }
    case 9: {
      const net = r.pick(s.networks);
      const res = r.pick(net.resources);
      res.enabled = !res.enabled;
      return "a network resource on or off";
    }
    default: {
      const net = r.pick(s.networks);
      const router = net.routers[0];
      if (router) router.peer = r.pick(s.peers).id;
      return "a router's peer";
    }
  }
}

const keys = (d: ReturnType<typeof diffAccess>) => ({
  gained: d.gained.map(lineKey).sort(),
  lost: d.lost.map(lineKey).sort(),
  totals: d.totals,
});

test.each(Array.from({ length: 40 }, (_, i) => i + 1))(
  "change %i: the narrowed diff equals the full one",
  (seed) => {
    const before = randomSnapshot(100 + seed, SHAPE);
    const after = structuredClone(before);
    const what = mutate(after, seed);
    const a = accountOf(before);
    const b = accountOf(after);
    const peers = affectedPeers(before, after);
    const full = keys(diffAccess(a, b));
    expect({ what, ...keys(diffAccess(a, b, peers)) }).toEqual({ what, ...full });
  },
);

test("the changes above change access, and narrowing is worth it: most leave most peers alone", () => {
  let changed = 0;
  const sizes = Array.from({ length: 40 }, (_, i) => {
    const before = randomSnapshot(101 + i, SHAPE);
    const after = structuredClone(before);
    mutate(after, i + 1);
    const d = diffAccess(accountOf(before), accountOf(after));
    if (d.gained.length + d.lost.length) changed++;
    return affectedPeers(before, after)?.size ?? SHAPE.peers;
  });
  expect(changed).toBeGreaterThanOrEqual(25);
  expect(sizes.filter((n) => n <= SHAPE.peers / 2).length).toBeGreaterThanOrEqual(20);
});

test("a change to a peer's own fields (its approval) is every peer's business", () => {
  const before = randomSnapshot(7, SHAPE);
  const after = structuredClone(before);
  after.peers[3]!.approval_required = true;
  expect(affectedPeers(before, after)).toBeUndefined();
  const renamed = structuredClone(before);
  renamed.peers[3]!.name = "renamed";
  expect(affectedPeers(before, renamed)?.size).toBe(0);
});
