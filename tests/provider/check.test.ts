/**
 * check: each rule of spec part 7 that applies to a resource's inputs fails with the Pulumi property named,
 * before any API call (no client is even configured here); the preview unknown marker passes. Values the service
 * accepts although a document or good sense says otherwise pass, with a warning naming the property
 * (docs/validation.md).
 */
import { UNKNOWN } from "../../model/mapping";
import { setWarningSink } from "../../provider/diagnostics";
import type { Props } from "../../provider/spec";
import { providerFor } from "../support/provider";

const route = {
  description: "lan",
  networkId: "lan",
  enabled: true,
  peerGroups: ["g1"],
  network: "10.0.0.0/16",
  metric: 10,
  masquerade: true,
  groups: ["g2"],
  keepRoute: false,
};
const router = { networkId: "n1", peerGroups: ["g1"], metric: 10, masquerade: true, enabled: true };
const ns = {
  name: "corp",
  description: "",
  nameservers: [{ ip: "1.1.1.1", nsType: "udp", port: 53 }],
  enabled: true,
  groups: ["g1"],
  primary: false,
  domains: ["corp.example"],
  searchDomainsEnabled: false,
};
const zone = { name: "z", domain: "z.example", enableSearchDomain: false, distributionGroups: ["g1"] };
const record = { zoneId: "z1", name: "a.z.example", type: "A", content: "10.0.0.1", ttl: 60 };
const key = { name: "k", type: "reusable", expiresIn: 86400, autoGroups: [], usageLimit: 0 };
const token = { userId: "u1", name: "t", expiresIn: 30 };
const edrA = {
  groups: ["g"],
  lastSyncedInterval: 24,
  apiToken: "t",
  apiUrl: "https://x.example",
  matchAttributes: {},
};
const edrC = { groups: ["g"], clientId: "c", secret: "s", cloudId: "c1", ztaScoreThreshold: 50 };
const dirD = { serviceAccountKey: "c2E=", customerId: "C1" };

type Case = [rule: string, kind: string, valid: Props, invalid: Props, property: string];

const cases: Case[] = [
  ["1 route peer with peerGroups", "Route", route, { ...route, peer: "p1" }, "peerGroups"],
  ["1 router peer with peerGroups", "NetworkRouter", router, { ...router, peer: "p1" }, "peerGroups"],
  ["2 route network with domains", "Route", route, { ...route, domains: ["a.example"] }, "domains"],
  [
    "2 route at most 32 domains",
    "Route",
    { ...route, network: undefined, domains: ["a.example"] },
    { ...route, network: undefined, domains: Array.from({ length: 33 }, (_, i) => `d${i}.example`) },
    "domains",
  ],
  ["2 route metric >= 1", "Route", route, { ...route, metric: 0 }, "metric"],
  ["2 route metric <= 9999", "Route", route, { ...route, metric: 10000 }, "metric"],
  ["2 router metric 1..9999", "NetworkRouter", router, { ...router, metric: 0 }, "metric"],
  ["2 route networkId 1..40", "Route", route, { ...route, networkId: "x".repeat(41) }, "networkId"],
  ["3 nameservers 1..3", "NameserverGroup", ns, { ...ns, nameservers: [] }, "nameservers"],
  [
    "3 nameservers at most 3",
    "NameserverGroup",
    ns,
    { ...ns, nameservers: Array(4).fill(ns.nameservers[0]) },
    "nameservers",
  ],
  ["3 nameserver group name 1..40", "NameserverGroup", ns, { ...ns, name: "n".repeat(41) }, "name"],
  ["3 primary only without domains", "NameserverGroup", ns, { ...ns, primary: true }, "primary"],
  ["3 domains empty only when primary", "NameserverGroup", ns, { ...ns, domains: [] }, "domains"],
  [
    "3 search domains need domains",
    "NameserverGroup",
    { ...ns, primary: true, domains: [] },
    { ...ns, primary: true, domains: [], searchDomainsEnabled: true },
    "searchDomainsEnabled",
  ],
  ["4 zone name 1..255", "DnsZone", zone, { ...zone, name: "z".repeat(256) }, "name"],
  ["4 record content 1..255", "DnsRecord", record, { ...record, content: "" }, "content"],
  // The documented 86400 to 31536000 is a warning (below): the service refuses only a negative lifetime.
  ["5 setup key expiresIn not negative", "SetupKey", key, { ...key, expiresIn: -1 }, "expiresIn"],
  ["6 token expiresIn 1..365", "PersonalAccessToken", token, { ...token, expiresIn: 366 }, "expiresIn"],
  [
    "7 EDR lastSyncedInterval >= 24",
    "EdrVendorA",
    edrA,
    { ...edrA, lastSyncedInterval: 12 },
    "lastSyncedInterval",
  ],
  [
    "7 EDR ztaScoreThreshold <= 100",
    "EdrVendorC",
    edrC,
    { ...edrC, ztaScoreThreshold: 101 },
    "ztaScoreThreshold",
  ],
  [
    "7 directory sync syncInterval >= 300",
    "DirectorySyncVendorD",
    dirD,
    { ...dirD, syncInterval: 60 },
    "syncInterval",
  ],
  // The service fails on it (a posture check without checks closes the connection).
  [
    "value posture check checks something",
    "PostureCheck",
    { name: "pc", description: "", checks: { nbVersionCheck: { minVersion: "0.28.0" } } },
    { name: "pc", description: "", checks: {} },
    "checks",
  ],
];

/** [what, kind, inputs the check passes with a warning, property the warning names, what it says]. */
type Warned = [what: string, kind: string, inputs: Props, property: string, says: RegExp];

const warned: Warned[] = [
  ["setup key shorter than a day", "SetupKey", { ...key, expiresIn: 60 }, "expiresIn", /86400 to 31536000/],
  ["setup key that never expires", "SetupKey", { ...key, expiresIn: 0 }, "expiresIn", /never expires/],
  ["setup key longer than a year", "SetupKey", { ...key, expiresIn: 31536001 }, "expiresIn", /documented/],
  ["zone domain of one label", "DnsZone", { ...zone, domain: "NaN" }, "domain", /one label/],
  ["route network with host bits", "Route", { ...route, network: "10.0.0.1/8" }, "network", /10\.0\.0\.0\/8/],
  ["name padded", "Group", { name: " All" }, "name", /white space/],
  ["name with a control character", "Network", { name: "pr\u0000od" }, "name", /U\+0000/],
  ["group listed twice", "Route", { ...route, groups: ["g2", "g2"] }, "groups[1]", /lists g2 again/],
  [
    "nameserver port 0",
    "NameserverGroup",
    { ...ns, nameservers: [{ ip: "1.1.1.1", nsType: "udp", port: 0 }] },
    "nameservers[0].port",
    /1 to 65535/,
  ],
];

describe("check warns of what the service accepts, naming the property", () => {
  let warnings: string[] = [];
  beforeEach(() => {
    warnings = [];
    setWarningSink((m) => warnings.push(m));
  });
  afterEach(() => setWarningSink(undefined));

  test.each(warned)("%s", async (_what, kind, inputs, property, says) => {
    expect((await providerFor(kind).check({}, inputs)).failures).toEqual([]);
    const named = warnings.filter((w) => w.startsWith(`privnet: ${kind}`) && w.includes(`: ${property}: `));
    expect(named).toHaveLength(1);
    expect(named[0]).toMatch(says);
    // Pulumi's names only.
    expect(named[0]).not.toMatch(/\b(expires_in|network_id|ns_type)\b/);
  });

  test.each(warned)("%s: nothing to say about an unknown value", async (_what, kind, inputs, property) => {
    const top = property.replace(/\[.*$/, "");
    await providerFor(kind).check({}, { ...inputs, [top]: UNKNOWN });
    expect(warnings).toEqual([]);
  });

  test("a value's own warning is given though another input is unknown at preview", async () => {
    await providerFor("SetupKey").check({}, { ...key, autoGroups: UNKNOWN, expiresIn: 600 });
    expect(warnings).toEqual([expect.stringMatching(/^privnet: SetupKey "k": expiresIn: is 600, outside/)]);
  });

  test("an ordinary value raises no warning", async () => {
    await providerFor("SetupKey").check({}, key);
    await providerFor("Route").check({}, route);
    await providerFor("Group").check({}, { name: "All servers" });
    expect(warnings).toEqual([]);
  });
});

describe("check enforces spec part 7 with Pulumi property names", () => {
  test.each(cases)("%s", async (_rule, kind, valid, invalid, property) => {
    const p = providerFor(kind);
    expect((await p.check({}, valid)).failures).toEqual([]);
    const failures = (await p.check({}, invalid)).failures ?? [];
    expect(failures.map((f) => f.property)).toContain(property);
    const failure = failures.find((f) => f.property === property);
    expect(failure?.reason).toMatch(new RegExp(`^${property.replace(/[[\]]/g, "\\$&")}: `));
    // Pulumi's names only: no snake_case field names leak into the reason.
    expect(failure?.reason).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
  });

  test.each(cases)("%s: the unknown marker passes", async (_rule, kind, valid, _invalid, property) => {
    const p = providerFor(kind);
    expect((await p.check({}, { ...valid, [property]: UNKNOWN })).failures).toEqual([]);
  });

  test("a required property missing is named", async () => {
    const failures = (await providerFor("Route").check({}, { ...route, metric: undefined })).failures ?? [];
    expect(failures).toEqual([{ property: "metric", reason: "metric: is required" }]);
  });

  test("nested properties are named in Pulumi form", async () => {
    const rule = {
      name: "r",
      enabled: true,
      action: "accept",
      bidirectional: true,
      protocol: "tcp",
      sources: ["a"],
      destinations: ["b"],
    };
    const failures =
      (
        await providerFor("Policy").check(
          {},
          {
            name: "p",
            enabled: true,
            rules: [{ ...rule, ports: ["22"], portRanges: [{ start: 1, end: 2 }] }],
          },
        )
      ).failures ?? [];
    expect(failures).toEqual([
      { property: "rules[0].portRanges", reason: "rules[0].portRanges: cannot be set together with ports" },
    ]);
  });

  test("an authorizedGroups key __proto__ fails, not dropped", async () => {
    const rule = {
      name: "r",
      enabled: true,
      action: "accept",
      bidirectional: true,
      protocol: "tcp",
      sources: ["a"],
      destinations: ["b"],
      authorizedGroups: JSON.parse('{"__proto__": ["root"]}') as Props,
    };
    const failures =
      (await providerFor("Policy").check({}, { name: "p", enabled: true, rules: [rule] })).failures ?? [];
    expect(failures.map((f) => f.property)).toEqual([`rules[0].authorizedGroups["__proto__"]`]);
  });

  test("a whole unknown list passes a cross-field rule", async () => {
    const failures = (await providerFor("Route").check({}, { ...route, peerGroups: UNKNOWN })).failures;
    expect(failures).toEqual([]);
  });
});
