/**
 * Values that look wrong but that the service accepts (docs/validation.md): a zone domain that is a bare number,
 * a range with host bits set, names with control or bidi characters or padded with spaces (" All" reads as the
 * built-in group), a rule without sources. The server stores each as the service stores it (a route's or the
 * account's range with its host bits cleared, the rest as given); the provider warns of them at preview. What the
 * service refuses or fails on stays a 422 naming the field, and the request changes nothing.
 */
import { addPeer } from "../support/fixtures";
import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let g: string;
let peer: string;

beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer();
  g = (await s.call("createGroup", { body: { name: "loose" } })).body.id;
  peer = addPeer(s, "loose-peer").id;
});
afterAll(() => s.close());

const zone = (domain: string) => ({
  name: `zone ${domain}`,
  domain,
  enable_search_domain: false,
  distribution_groups: [g],
});
let routes = 0;
const route = (network: string) => ({
  description: "r",
  network_id: `net-${++routes}`,
  enabled: true,
  peer,
  network,
  metric: 10,
  masquerade: false,
  groups: [g],
  keep_route: false,
});
const rule = (name: string) => ({
  name,
  enabled: true,
  action: "accept",
  bidirectional: true,
  protocol: "all",
  sources: [g],
  destinations: [g],
});

describe("loose values are stored as the service stores them", () => {
  test("a DNS zone domain of one label or with a numeric top-level label, as given", async () => {
    for (const domain of ["1", "NaN", "localhost", "10.example.1", "1.2"]) {
      const res = await s.call("createDnsZone", { body: zone(domain) });
      expect(res.status).toBe(200);
      expect(res.body.domain).toBe(domain);
    }
    expectError(await s.call("createDnsZone", { body: zone("bad label.example") }), 422, "domain");
  });

  test("a route network with host bits set is stored as its network", async () => {
    for (const [sent, stored] of [
      ["10.0.0.0/0", "0.0.0.0/0"],
      ["10.0.0.1/8", "10.0.0.0/8"],
      ["192.168.1.1/24", "192.168.1.0/24"],
      ["fd00::1/64", "fd00::/64"],
      ["2001:db8::1:0/96", "2001:db8::/96"],
      ["10.1.2.3/32", "10.1.2.3/32"],
    ]) {
      const res = await s.call("createRoute", { body: route(sent as string) });
      expect(res.status).toBe(200);
      expect(res.body.network).toBe(stored);
      expect((await s.call("getRoute", { params: { routeId: res.body.id } })).body.network).toBe(stored);
    }
    expectError(await s.call("createRoute", { body: route("10.0.0.0/33") }), 422, "network");
  });

  test("a posture check range with host bits set is stored as given", async () => {
    const res = await s.call("createPostureCheck", {
      body: {
        name: "host bits",
        description: "",
        checks: { peer_network_range_check: { ranges: ["192.168.1.1/24"], action: "allow" } },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.checks.peer_network_range_check.ranges).toEqual(["192.168.1.1/24"]);
  });

  test("names with NUL, other control or bidi characters, or leading/trailing spaces, as given", async () => {
    const odd = [
      " All",
      "All ",
      "a\u0000b",
      "a\u0007b",
      "tab\tname",
      "line\nbreak",
      "a\u202eb",
      "x\u2066y\u2069",
      "\u200fname",
      "zero\u200bwidth",
    ];
    const creates: [operationId: string, body: (name: string) => unknown, read: (b: any) => unknown][] = [
      ["createGroup", (name) => ({ name }), (b) => b.name],
      ["createPolicy", (name) => ({ name, enabled: true, rules: [rule("r")] }), (b) => b.name],
      ["createPolicy", (name) => ({ name: "p", enabled: true, rules: [rule(name)] }), (b) => b.rules[0].name],
      ["createNetwork", (name) => ({ name }), (b) => b.name],
      ["createDnsZone", (name) => ({ ...zone(`z${++routes}.example`), name }), (b) => b.name],
      [
        "createSetupKey",
        (name) => ({ name, type: "reusable", expires_in: 86400, auto_groups: [], usage_limit: 0 }),
        (b) => b.name,
      ],
      [
        "createRoute",
        (name) => ({ ...route(`10.77.${++routes}.0/24`), network_id: name }),
        (b) => b.network_id,
      ],
    ];
    for (const [operationId, body, read] of creates) {
      for (const name of odd) {
        const res = await s.call(operationId, { body: body(name) });
        expect([operationId, res.status]).toEqual([operationId, 200]);
        expect(read(res.body)).toBe(name);
      }
    }
    // " All" is a group of its own, not the built-in All.
    const alls = (await s.call("listGroups")).body.filter((x: { name: string }) => x.name.trim() === "All");
    expect(alls.map((x: { name: string }) => x.name).sort()).toEqual([" All", "All", "All "]);
    expectError(await s.call("createGroup", { body: { name: "All" } }), 409, /All/);
  });
});

// `__proto__` keys: tests/server/policies.test.ts.
describe("refused: the service fails on these", () => {
  test("a posture check that checks nothing", async () => {
    const before = (await s.call("listPostureChecks")).body.length;
    // The service answers `checks: {}` with a 422 and closes the connection when `checks` is missing.
    expectError(
      await s.call("createPostureCheck", { body: { name: "empty", description: "", checks: {} } }),
      422,
      "checks",
    );
    expectError(
      await s.call("createPostureCheck", { body: { name: "none", description: "" } }),
      422,
      "checks",
    );
    expect((await s.call("listPostureChecks")).body.length).toBe(before);
    const ok = await s.call("createPostureCheck", {
      body: { name: "some", description: "", checks: { nb_version_check: { min_version: "0.28.0" } } },
    });
    expect(ok.status).toBe(200);
  });
});
