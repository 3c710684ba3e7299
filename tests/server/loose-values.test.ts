/**
 * Values that used to be stored as given although they mean nothing or mislead: a zone domain that is a bare
 * number, a route range with host bits set, names with control or bidi characters or padded with spaces (" All"
 * reads as the built-in group), a posture check that checks nothing. Each is a 422 naming the field, and the
 * request changes nothing.
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
const route = (network: string) => ({
  description: "r",
  network_id: "net",
  enabled: true,
  peer,
  network,
  metric: 10,
  masquerade: false,
  groups: [g],
  keep_route: false,
});

describe("loose values are refused", () => {
  test("a DNS zone domain needs two labels and a top-level label that is not a number", async () => {
    const before = (await s.call("listDnsZones")).body.length;
    for (const domain of ["1", "NaN", "localhost", "10.example.1", "1.2"]) {
      expectError(await s.call("createDnsZone", { body: zone(domain) }), 422, "domain");
    }
    expect((await s.call("listDnsZones")).body.length).toBe(before);
    for (const domain of ["internal.example", "corp.internal.", "1.example", "xn--bcher-kva.example"]) {
      expect((await s.call("createDnsZone", { body: zone(domain) })).status).toBe(200);
    }
  });

  test("a route network must be canonical: no host bits set", async () => {
    const before = (await s.call("listRoutes")).body.length;
    for (const network of ["10.0.0.0/0", "10.0.0.1/8", "192.168.1.1/24", "fd00::1/64", "2001:db8::1:0/96"]) {
      const res = await s.call("createRoute", { body: route(network) });
      expectError(res, 422, "network");
      expect(res.body.message).toMatch(/host bits/);
    }
    expect((await s.call("createRoute", { body: route("10.0.0.1/8") })).body.message).toContain("10.0.0.0/8");
    expect((await s.call("listRoutes")).body.length).toBe(before);
    for (const network of [
      "0.0.0.0/0",
      "10.0.0.0/8",
      "10.1.2.3/32",
      "::/0",
      "fd00:1::/64",
      "2001:db8::1:0/112",
    ]) {
      expect((await s.call("createRoute", { body: route(network) })).status).toBe(200);
    }
  });

  test("names with NUL, other control or bidi characters, or leading/trailing spaces", async () => {
    const bad = [
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
    const creates: [operationId: string, body: (name: string) => unknown, field: string][] = [
      ["createGroup", (name) => ({ name }), "name"],
      [
        "createPolicy",
        (name) => ({
          name,
          enabled: true,
          rules: [
            {
              name: "r",
              enabled: true,
              action: "accept",
              bidirectional: true,
              protocol: "all",
              sources: [g],
              destinations: [g],
            },
          ],
        }),
        "name",
      ],
      [
        "createPolicy",
        (name) => ({
          name: "p",
          enabled: true,
          rules: [
            {
              name,
              enabled: true,
              action: "accept",
              bidirectional: true,
              protocol: "all",
              sources: [g],
              destinations: [g],
            },
          ],
        }),
        "rules[0].name",
      ],
      ["createNetwork", (name) => ({ name }), "name"],
      ["createDnsZone", (name) => ({ ...zone("named.example"), name }), "name"],
      [
        "createSetupKey",
        (name) => ({ name, type: "reusable", expires_in: 86400, auto_groups: [], usage_limit: 0 }),
        "name",
      ],
      ["createRoute", (name) => ({ ...route("10.77.0.0/16"), network_id: name }), "network_id"],
    ];
    for (const [operationId, body, field] of creates) {
      for (const name of bad) {
        const res = await s.call(operationId, { body: body(name) });
        expectError(res, 422, field);
      }
    }
    expect((await s.call("listGroups")).body.map((x: { name: string }) => x.name).sort()).toEqual([
      "All",
      "loose",
    ]);
    // Inner spaces and non-Latin scripts are names like any other.
    for (const name of ["web servers", "Böse Gruppe", "خوادم", "サーバー"]) {
      expect((await s.call("createGroup", { body: { name } })).status).toBe(200);
    }
  });

  test("a posture check that checks nothing", async () => {
    const before = (await s.call("listPostureChecks")).body.length;
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
