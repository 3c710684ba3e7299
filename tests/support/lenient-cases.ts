/**
 * Programs with values the service accepts although our server or provider used to refuse them
 * (docs/validation.md): a network resource in the built-in `All` group, JWT groups on without a claim name, setup
 * keys shorter than a day, and values that became warnings (a route range with host bits set, a padded group name,
 * a one-label zone, a rule without destinations, a network without a name). Each is a resource kind's fixture for
 * the whole provider lifecycle, with the warnings its check must give (and no other). They run against any
 * {@link FixtureTarget}: the provider tier's local server, or a live server in the acceptance tier.
 */
import { randomBytes } from "node:crypto";
import { madeOn, type FixtureTarget, type KindFixture } from "./provider";

export interface LenientCase {
  kind: string;
  fixture: KindFixture;
  /** Warnings the check gives for `fixture.create`: the property each names and what it says. */
  warns: { property: string; says: RegExp }[];
}

const TAG = `${process.pid}${randomBytes(2).toString("hex")}`;
let n = 0;
const unique = (prefix: string) => `${prefix}-${TAG}-${++n}`;

/** The cases by name, their prerequisites made on `t`. */
export async function lenientCases(t: FixtureTarget): Promise<Record<string, () => Promise<LenientCase>>> {
  const group = async () => {
    const id = (await t.call("createGroup", { body: { name: unique("lg") } })).id as string;
    madeOn(t, "deleteGroup", { groupId: id });
    return id;
  };
  const network = async () => {
    const id = (await t.call("createNetwork", { body: { name: unique("ln") } })).id as string;
    madeOn(t, "deleteNetwork", { networkId: id });
    return id;
  };
  const allGroup = async () => {
    const groups = (await t.call("listGroups")) as { id: string; name: string }[];
    const all = groups.find((g) => g.name === "All");
    if (!all) throw new Error("the target has no group All");
    return all.id;
  };
  const setupKey = (expiresIn: number) => async (): Promise<LenientCase> => {
    const [g1, g2] = [await group(), await group()];
    const create = { name: unique("short"), type: "reusable", expiresIn, autoGroups: [g1], usageLimit: 0 };
    return {
      kind: "SetupKey",
      fixture: {
        create,
        update: { ...create, autoGroups: [g1, g2] },
        // A key that lives a second or a minute may expire between the create and a later read.
        ...(expiresIn < 600 ? { timeBound: { state: ["valid", "expired"], valid: [true, false] } } : {}),
      },
      warns: [{ property: "expiresIn", says: /outside the documented range 86400 to 31536000 seconds/ }],
    };
  };
  return {
    "a network resource in the built-in All group": async () => {
      const [net, all, g] = [await network(), await allGroup(), await group()];
      const create = {
        networkId: net,
        name: unique("in-all"),
        address: "10.99.0.5",
        enabled: true,
        groups: [all, g],
      };
      return {
        kind: "NetworkResource",
        fixture: { create, update: { ...create, groups: [all] }, idLists: ["groups"] },
        warns: [],
      };
    },
    "JWT groups on without a claim name": async () => ({
      kind: "AccountSettings",
      fixture: {
        create: { jwtGroupsEnabled: true },
        update: { jwtGroupsEnabled: true, peerLoginExpiration: 7200 },
        survivesDelete: true,
      },
      warns: [],
    }),
    "a setup key for 1 second": setupKey(1),
    "a setup key for 60 seconds": setupKey(60),
    "a setup key for 1800 seconds": setupKey(1800),
    "a route range with host bits set": async () => {
      const [g1, g2] = [await group(), await group()];
      const base = {
        description: "",
        networkId: unique("hb").slice(0, 40),
        enabled: true,
        masquerade: true,
        keepRoute: false,
      };
      const create = { ...base, peerGroups: [g1], network: "10.98.7.1/16", metric: 100, groups: [g2] };
      return {
        kind: "Route",
        fixture: { create, update: { ...create, metric: 50 } },
        warns: [
          {
            property: "network",
            says: /host bits set after \/16: the range 10\.98\.7\.1\/16 is 10\.98\.0\.0\/16/,
          },
        ],
      };
    },
    "a group name with a leading space": async () => {
      const name = ` ${unique("padded")}`;
      return {
        kind: "Group",
        fixture: { create: { name }, update: { name: `${name}-2` } },
        warns: [{ property: "name", says: /starts or ends with white space/ }],
      };
    },
    "a DNS zone of one label": async () => {
      const g = await group();
      const create = {
        name: "one label",
        domain: unique("zone"),
        enableSearchDomain: false,
        distributionGroups: [g],
      };
      return {
        kind: "DnsZone",
        fixture: { create, update: { ...create, enableSearchDomain: true } },
        warns: [{ property: "domain", says: /has one label/ }],
      };
    },
    "a policy rule without destinations": async () => {
      const g = await group();
      const rule = {
        name: "nowhere",
        enabled: true,
        action: "accept",
        bidirectional: false,
        protocol: "all",
      };
      const create = {
        name: unique("pol"),
        enabled: true,
        rules: [{ ...rule, sources: [g], destinations: [] }],
      };
      return {
        kind: "Policy",
        fixture: { create, update: { ...create, enabled: false } },
        warns: [{ property: "rules[0].destinations", says: /matches no traffic/ }],
      };
    },
    "a network without a name": async () => ({
      kind: "Network",
      fixture: {
        create: { name: "", description: unique("nameless") },
        update: { name: "", description: "2" },
      },
      warns: [{ property: "name", says: /is empty/ }],
    }),
  };
}

/** `got` (the warnings of one check of `c`'s create inputs) are those `c` names: each its property, what it says. */
export function expectWarnings(c: LenientCase, got: string[]): void {
  expect(got).toHaveLength(c.warns.length);
  for (const w of c.warns) {
    const named = got.filter((m) => m.startsWith(`privnet: ${c.kind}`) && m.includes(`: ${w.property}: `));
    expect(named).toHaveLength(1);
    expect(named[0]).toMatch(w.says);
  }
}
