/**
 * The components' definitions (components/): which children given inputs make and what each is called, and what
 * the check at preview says of bad input. The life under the real CLI is tests/e2e/components.test.ts.
 */
import { checkComponent, failureMessage } from "../../components/check";
import { DNS_ZONE_BUNDLE, recordName } from "../../components/dns-zone-bundle";
import { NETWORK_BUNDLE } from "../../components/network-bundle";
import { COMPONENTS } from "../../components/registry";
import { SEGMENT } from "../../components/segment";
import { UNKNOWN, type ComponentSpec, type Props } from "../../components/spec";

const children = (spec: ComponentSpec, inputs: Props, preview = false) =>
  checkComponent(spec, "c", inputs, preview)
    .plan.children.map((c) => `${c.kind}::${c.name}`)
    .sort();

const failures = (spec: ComponentSpec, inputs: Props, preview = false) =>
  checkComponent(spec, "c", inputs, preview).failures.map((f) => `${f.property}: ${f.reason}`);

const segment: Props = {
  name: "db",
  setupKeyOptions: { expiresIn: 86400 },
  allow: [
    { from: ["app"], protocol: "tcp", ports: ["5432"], description: "app to db" },
    { from: ["ops", "admins"], protocol: "tcp", ports: ["22"] },
  ],
};

const bundle: Props = {
  name: "office",
  routers: [{ peerGroups: ["servers"], metric: 100 }, { peer: "p1" }],
  resources: [
    { name: "lan", address: "10.10.0.0/16", groups: ["ops"] },
    { name: "printer", address: "10.10.0.7" },
  ],
};

const zone: Props = {
  name: "internal",
  domain: "internal.example.com",
  distributionGroups: ["ops"],
  records: [
    { name: "db", type: "A", content: "10.20.0.10" },
    { name: "www.internal.example.com", type: "CNAME", content: "db.internal.example.com" },
    { name: "@", type: "A", content: "10.20.0.1" },
  ],
};

const reversed = (inputs: Props, ...lists: string[]): Props => {
  const out = structuredClone(inputs);
  for (const l of lists) out[l] = [...(out[l] as unknown[])].reverse();
  return out;
};

describe("the components' plans", () => {
  it("name each child by its entry's key", () => {
    expect(children(SEGMENT, segment)).toEqual(
      ["Group::c", "SetupKey::c", "Policy::c-app to db", "Policy::c-from:admins,ops"].sort(),
    );
    expect(children(NETWORK_BUNDLE, bundle)).toEqual(
      [
        "Network::c",
        "NetworkRouter::c-groups-servers",
        "NetworkRouter::c-peer-p1",
        "NetworkResource::c-lan",
        "NetworkResource::c-printer",
      ].sort(),
    );
    expect(children(DNS_ZONE_BUNDLE, zone)).toEqual(
      [
        "DnsZone::c",
        "DnsRecord::c-db.internal.example.com-A-10.20.0.10",
        "DnsRecord::c-www.internal.example.com-CNAME",
        "DnsRecord::c-internal.example.com-A-10.20.0.1",
      ].sort(),
    );
    for (const [spec, inputs] of [
      [SEGMENT, segment],
      [NETWORK_BUNDLE, bundle],
      [DNS_ZONE_BUNDLE, zone],
    ] as const)
      expect(failures(spec, inputs)).toEqual([]);
  });

  it("give the same children for a list in another order", () => {
    expect(children(SEGMENT, reversed(segment, "allow"))).toEqual(children(SEGMENT, segment));
    expect(children(NETWORK_BUNDLE, reversed(bundle, "routers", "resources"))).toEqual(
      children(NETWORK_BUNDLE, bundle),
    );
    expect(children(DNS_ZONE_BUNDLE, reversed(zone, "records"))).toEqual(children(DNS_ZONE_BUNDLE, zone));
  });

  it("name a record by its entry alone: a round-robin set grows and shrinks by one child, the others kept", () => {
    const rr = (...contents: string[]) => ({
      ...zone,
      records: contents.map((content) => ({ name: "api", type: "A", content })),
    });
    const names = (inputs: Props) => children(DNS_ZONE_BUNDLE, inputs).filter((c) => c !== "DnsZone::c");
    expect(names(rr("10.0.0.1"))).toEqual(["DnsRecord::c-api.internal.example.com-A-10.0.0.1"]);
    expect(names(rr("10.0.0.1", "10.0.0.2"))).toEqual([
      "DnsRecord::c-api.internal.example.com-A-10.0.0.1",
      "DnsRecord::c-api.internal.example.com-A-10.0.0.2",
    ]);
    expect(names(rr("10.0.0.2"))).toEqual(["DnsRecord::c-api.internal.example.com-A-10.0.0.2"]);
    // The name earlier builds gave a record alone in its set is its alias (none while the set has several, as a
    // name can alias one resource only); a CNAME's name never held its content.
    const aliases = (inputs: Props) =>
      checkComponent(DNS_ZONE_BUNDLE, "c", inputs, false).plan.children.map((c) => [c.name, c.aliases]);
    expect(aliases(rr("10.0.0.1"))).toEqual([
      ["c", undefined],
      ["c-api.internal.example.com-A-10.0.0.1", ["c-api.internal.example.com-A"]],
    ]);
    expect(aliases(rr("10.0.0.1", "10.0.0.2")).map(([, a]) => a)).toEqual([undefined, undefined, undefined]);
    expect(
      aliases({ ...zone, records: [{ name: "www", type: "CNAME", content: "db.internal.example.com" }] }),
    ).toEqual([
      ["c", undefined],
      ["c-www.internal.example.com-CNAME", undefined],
    ]);
  });

  it("refuse a second CNAME of one name, and a repeated record of a set", () => {
    const twice = {
      ...zone,
      records: [
        { name: "www", type: "CNAME", content: "a.example.com" },
        { name: "www", type: "CNAME", content: "b.example.com" },
        { name: "db", type: "A", content: "10.0.0.1" },
        { name: "db", type: "A", content: "10.0.0.1", ttl: 60 },
      ],
    };
    expect(failures(DNS_ZONE_BUNDLE, twice)).toEqual([
      'records[1]: has the same key as records[0] ("www.internal.example.com-CNAME"): a CNAME is the only ' +
        "record of its name (the service refuses a second one)",
      'records[3]: has the same key as records[2] ("db.internal.example.com-A-10.0.0.1"): a record set ' +
        "repeats a name and a type only with different contents",
    ]);
  });

  it("take a record's name relative to the zone's domain unless it is in it", () => {
    expect(recordName("db", "internal.example.com")).toBe("db.internal.example.com");
    expect(recordName("db.internal.example.com", "internal.example.com")).toBe("db.internal.example.com");
    expect(recordName("@", "internal.example.com.")).toBe("internal.example.com");
  });

  it("make no setup key without setupKeyOptions, and no policy without allow", () => {
    expect(children(SEGMENT, { name: "db" })).toEqual(["Group::c"]);
  });

  it("in a preview, give an entry whose key is not known yet a placeholder, and fail at an update", () => {
    const pending = { ...segment, allow: [{ from: [UNKNOWN], protocol: "tcp", ports: ["22"] }] };
    expect(children(SEGMENT, pending, true)).toContain("Policy::c-(unknown 1)");
    expect(failures(SEGMENT, pending, true)).toEqual([]);
    expect(failures(SEGMENT, pending, false)).toEqual([
      "allow[0]: its key is not known: the component cannot name its child",
    ]);
  });

  it("make no child for a list not known yet, and say its ids are not known", () => {
    const plan = checkComponent(SEGMENT, "c", { name: "db", allow: UNKNOWN }, true).plan;
    expect(plan.children.map((c) => c.kind)).toEqual(["Group"]);
    expect(plan.outputs.policyIds).toBeDefined();
  });
});

describe("the components' checks", () => {
  it("name the component, the entry and the field of a value a child's kind refuses", () => {
    const bad = structuredClone(segment);
    (bad.allow as Props[])[0]!.ports = ["5432", "99999"];
    const found = checkComponent(SEGMENT, "db", bad, true).failures;
    expect(found.map((f) => f.property)).toEqual(["allow[0].ports[1]"]);
    expect(failureMessage(SEGMENT, "db", found)).toMatch(
      /^privnet: Segment "db": allow\[0\]\.ports\[1\]: .*65535/,
    );
  });

  it("name two entries with one key", () => {
    const twice = {
      ...segment,
      allow: [
        { from: ["ops"], protocol: "tcp", ports: ["22"] },
        { from: ["ops"], protocol: "udp", ports: ["53"] },
      ],
    };
    expect(failures(SEGMENT, twice)).toEqual([
      'allow[1]: has the same key as allow[0] ("from:ops"): give each entry a description',
    ]);
    const resources = {
      ...bundle,
      resources: [...(bundle.resources as Props[]), { name: "lan", address: "10.0.0.1" }],
    };
    expect(
      failures(NETWORK_BUNDLE, resources).some((f) => f.startsWith("resources[2]: has the same key")),
    ).toBe(true);
  });

  it("name an entry without its key and a field of the component's own schema", () => {
    const noRouter = { ...bundle, routers: [{ metric: 10 }] };
    expect(failures(NETWORK_BUNDLE, noRouter)).toContain(
      "routers[0].peer: is required: set peer or peerGroups",
    );
    const badMetric = { ...bundle, routers: [{ peer: "p1", metric: 0 }] };
    expect(failures(NETWORK_BUNDLE, badMetric).some((f) => f.startsWith("routers[0].metric: "))).toBe(true);
    const noType = { ...zone, records: [{ name: "db", content: "10.0.0.1" }] };
    expect(failures(DNS_ZONE_BUNDLE, noType).some((f) => f.startsWith("records[0]"))).toBe(true);
  });

  it("take a number where a string is expected as its text (Pulumi YAML's digits-only config values)", () => {
    const digits = {
      ...segment,
      name: 2024,
      allow: [{ from: [7], protocol: "tcp", ports: [5432], description: 42 }],
    };
    const checked = checkComponent(SEGMENT, "c", digits, false);
    expect(checked.failures).toEqual([]);
    expect(checked.values).toMatchObject({
      name: "2024",
      allow: [{ from: ["7"], ports: ["5432"], description: "42" }],
    });
    expect(checked.plan.children.map((c) => `${c.kind}::${c.name}`)).toContain("Policy::c-42");
    const records = { ...zone, records: [{ name: 2024, type: "A", content: "10.0.0.1", ttl: 300 }] };
    expect(failures(DNS_ZONE_BUNDLE, records)).toEqual([]);
  });

  it("pass values not known yet", () => {
    expect(failures(SEGMENT, { ...segment, name: UNKNOWN }, true)).toEqual([]);
    expect(failures(DNS_ZONE_BUNDLE, { ...zone, domain: UNKNOWN }, true)).toEqual([]);
  });

  it("every component says what it creates and what an update of each input does", () => {
    for (const c of COMPONENTS) {
      expect(c.description).toMatch(/creates/);
      for (const [k, s] of Object.entries(c.inputs.shape))
        expect([c.name, k, /change|Adding|update/i.test(s.description ?? "")]).toEqual([c.name, k, true]);
    }
  });
});
