import { addPeer } from "../support/fixtures";
import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let peer: string;
let routers: string;
let dist: string;

beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer();
  peer = addPeer(s, "gateway").id;
  routers = (await s.call("createGroup", { body: { name: "rt-routers", peers: [peer] } })).body.id;
  dist = (await s.call("createGroup", { body: { name: "rt-dist" } })).body.id;
});
afterAll(() => s.close());

const base = () => ({
  description: "office",
  network_id: "office-net",
  enabled: true,
  metric: 100,
  masquerade: true,
  groups: [dist],
  keep_route: false,
});
const create = (body: unknown) => s.call("createRoute", { body });
const auditCodes = () => s.server.state.store.auditEvents().map((e) => e.activity_code);

describe("routes", () => {
  test("create an IPv4 route via a peer: unset optional fields are absent", async () => {
    const res = await create({ ...base(), peer, network: "10.0.0.0/16" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: res.body.id,
      network_type: "IPv4",
      ...base(),
      peer,
      network: "10.0.0.0/16",
    });
    expect((await s.call("getRoute", { params: { routeId: res.body.id } })).body).toEqual(res.body);
    expect((await s.call("listRoutes")).body.map((r: { id: string }) => r.id)).toContain(res.body.id);
  });

  test("network_type is derived: IPv6 from the range, Domain from domains", async () => {
    const v6 = await create({
      ...base(),
      peer_groups: [routers],
      network: "fd00:1::/64",
      skip_auto_apply: true,
    });
    expect(v6.body).toMatchObject({ network_type: "IPv6", peer_groups: [routers], skip_auto_apply: true });
    expect(v6.body.peer).toBeUndefined();
    const dom = await create({
      ...base(),
      peer,
      domains: ["example.com", "*.corp.example"],
      keep_route: true,
      access_control_groups: [dist],
    });
    expect(dom.body).toMatchObject({
      network_type: "Domain",
      domains: ["example.com", "*.corp.example"],
      access_control_groups: [dist],
    });
    expect(dom.body.network).toBeUndefined();
  });

  test("replace recomputes network_type and drops fields not sent; delete", async () => {
    const id = (await create({ ...base(), peer, network: "10.9.0.0/16", access_control_groups: [dist] })).body
      .id;
    const res = await s.call("updateRoute", {
      params: { routeId: id },
      body: { ...base(), peer_groups: [routers], domains: ["internal.example"], metric: 5 },
    });
    expect(res.body).toEqual({
      id,
      network_type: "Domain",
      ...base(),
      metric: 5,
      peer_groups: [routers],
      domains: ["internal.example"],
    });
    expect((await s.call("deleteRoute", { params: { routeId: id } })).body).toEqual({});
    expectError(await s.call("getRoute", { params: { routeId: id } }), 404, /route/);
    expect(auditCodes()).toEqual(expect.arrayContaining(["route.add", "route.update", "route.delete"]));
  });

  test("spec 7 rule 1: peer and peer_groups are exclusive, one is required", async () => {
    expectError(
      await create({ ...base(), peer, peer_groups: [routers], network: "10.0.0.0/8" }),
      422,
      "peer_groups",
    );
    expectError(await create({ ...base(), network: "10.0.0.0/8" }), 422, "peer");
  });

  test("spec 7 rule 2: network xor domains, at most 32 domains, metric 1..9999, network_id 1..40", async () => {
    expectError(
      await create({ ...base(), peer, network: "10.0.0.0/8", domains: ["a.example"] }),
      422,
      "domains",
    );
    expectError(await create({ ...base(), peer }), 422, "network");
    const domains = Array.from({ length: 33 }, (_, i) => `d${i}.example`);
    expectError(await create({ ...base(), peer, domains }), 422, "domains");
    expect((await create({ ...base(), peer, domains: domains.slice(0, 32) })).status).toBe(200);
    expectError(await create({ ...base(), peer, network: "10.0.0.0/8", metric: 0 }), 422, "metric");
    expectError(await create({ ...base(), peer, network: "10.0.0.0/8", metric: 10000 }), 422, "metric");
    expect((await create({ ...base(), peer, network: "10.0.0.0/8", metric: 9999 })).status).toBe(200);
    expectError(await create({ ...base(), peer, network: "10.0.0.0/8", network_id: "" }), 422, "network_id");
    expectError(
      await create({ ...base(), peer, network: "10.0.0.0/8", network_id: "x".repeat(41) }),
      422,
      "network_id",
    );
    expect(
      (await create({ ...base(), peer, network: "10.0.0.0/8", network_id: "x".repeat(40) })).status,
    ).toBe(200);
  });

  test("other invalid fields are 422 naming the field", async () => {
    expectError(await create({ ...base(), peer, network: "10.0.0.0" }), 422, "network");
    expectError(await create({ ...base(), peer, domains: ["not a domain"] }), 422, /domains\[0\]:/);
    expectError(await create({ ...base(), peer, network: "10.0.0.0/8", groups: undefined }), 422, "groups");
    expectError(
      await create({ ...base(), peer, network: "10.0.0.0/8", keep_route: "yes" }),
      422,
      "keep_route",
    );
  });

  test("references must exist: 422 naming the field and the id", async () => {
    const net = { network: "10.0.0.0/8" };
    expectError(await create({ ...base(), ...net, peer: "ghost" }), 422, /^peer: .*ghost/);
    expectError(await create({ ...base(), ...net, peer_groups: ["ghost"] }), 422, /^peer_groups: .*ghost/);
    expectError(await create({ ...base(), ...net, peer, groups: ["ghost"] }), 422, /^groups: .*ghost/);
    expectError(
      await create({ ...base(), ...net, peer, access_control_groups: ["ghost"] }),
      422,
      /^access_control_groups: .*ghost/,
    );
  });

  test("unknown ids are 404; a failed replace changes nothing", async () => {
    const params = { routeId: "nope" };
    expectError(await s.call("getRoute", { params }), 404, /nope/);
    expectError(
      await s.call("updateRoute", { params, body: { ...base(), peer, network: "10.0.0.0/8" } }),
      404,
      /nope/,
    );
    expectError(await s.call("deleteRoute", { params }), 404, /nope/);

    const r = (await create({ ...base(), peer, network: "10.5.0.0/16" })).body;
    expectError(
      await s.call("updateRoute", {
        params: { routeId: r.id },
        body: { ...base(), peer, network: "10.6.0.0/16", groups: ["ghost"] },
      }),
      422,
      "groups",
    );
    expect((await s.call("getRoute", { params: { routeId: r.id } })).body).toEqual(r);
  });

  test("groups a route uses cannot be deleted", async () => {
    const acg = (await s.call("createGroup", { body: { name: "rt-acg" } })).body.id;
    const r = (await create({ ...base(), peer, network: "10.7.0.0/16", access_control_groups: [acg] })).body;
    expectError(await s.call("deleteGroup", { params: { groupId: acg } }), 400, /route/);
    await s.call("deleteRoute", { params: { routeId: r.id } });
    expect((await s.call("deleteGroup", { params: { groupId: acg } })).status).toBe(200);
  });
});
