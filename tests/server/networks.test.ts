import { addPeer } from "../support/fixtures";
import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer();
});
afterAll(() => s.close());

const auditCodes = () => s.server.state.store.auditEvents().map((e) => e.activity_code);
const newNetwork = async (name = "net") =>
  (await s.call("createNetwork", { body: { name } })).body.id as string;
const newGroup = async (name: string, peers: string[] = []) =>
  (await s.call("createGroup", { body: { name, peers } })).body.id as string;
const getGroup = async (groupId: string) => (await s.call("getGroup", { params: { groupId } })).body;
const getNetwork = async (networkId: string) => (await s.call("getNetwork", { params: { networkId } })).body;
// Resource names are unique in the account: each gets its own unless a test names it.
let resources = 0;
const addResource = (networkId: string, body: object) =>
  s.call("createNetworkResource", {
    params: { networkId },
    body: { name: `res-${++resources}`, enabled: true, groups: [], ...body },
  });
const addRouter = (networkId: string, body: object) =>
  s.call("createNetworkRouter", {
    params: { networkId },
    body: { metric: 100, masquerade: true, enabled: true, ...body },
  });
const rule = (extra: object) => ({
  name: "r",
  enabled: true,
  action: "accept",
  bidirectional: false,
  protocol: "all",
  ...extra,
});

describe("networks", () => {
  test("create, get, list, replace, delete", async () => {
    const created = await s.call("createNetwork", { body: { name: "office" } });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    expect(created.body).toEqual({
      id,
      name: "office",
      description: "",
      routers: [],
      routing_peers_count: 0,
      resources: [],
      policies: [],
    });
    expect(await getNetwork(id)).toEqual(created.body);
    expect((await s.call("listNetworks")).body.map((n: { id: string }) => n.id)).toContain(id);
    const replaced = await s.call("updateNetwork", {
      params: { networkId: id },
      body: { name: "office-2", description: "HQ" },
    });
    expect(replaced.body).toMatchObject({ id, name: "office-2", description: "HQ" });
    expect((await s.call("deleteNetwork", { params: { networkId: id } })).body).toEqual({});
    expectError(await s.call("getNetwork", { params: { networkId: id } }), 404, /network/);
    expect(auditCodes()).toEqual(
      expect.arrayContaining(["network.create", "network.update", "network.delete"]),
    );
  });

  test("invalid bodies are 422 naming the field; unknown ids are 404", async () => {
    expectError(await s.call("createNetwork", { body: {} }), 422, "name");
    expectError(await s.call("createNetwork", { body: { name: 7 } }), 422, "name");
    expectError(await s.call("createNetwork", { body: { name: "n", description: 5 } }), 422, "description");
    const params = { networkId: "nope" };
    expectError(await s.call("getNetwork", { params }), 404, /nope/);
    expectError(await s.call("updateNetwork", { params, body: { name: "n" } }), 404, /nope/);
    expectError(await s.call("deleteNetwork", { params }), 404, /nope/);
  });

  test("routing_peers_count: distinct peers of enabled routers", async () => {
    const net = await newNetwork("counted");
    const [p1, p2, p3] = [addPeer(s), addPeer(s), addPeer(s)];
    const g = await newGroup("rp-group", [p1.id, p2.id]);
    await addRouter(net, { peer: p1.id });
    await addRouter(net, { peer_groups: [g] });
    const disabled = (await addRouter(net, { peer: p3.id, enabled: false })).body.id;
    const n = await getNetwork(net);
    expect(n.routers).toHaveLength(3);
    expect(n.routing_peers_count).toBe(2);
    await s.call("updateNetworkRouter", {
      params: { networkId: net, routerId: disabled },
      body: { peer: p3.id, metric: 100, masquerade: true, enabled: true },
    });
    expect((await getNetwork(net)).routing_peers_count).toBe(3);
  });

  test("policies: those naming a resource directly or through a group holding it", async () => {
    const net = await newNetwork("reached");
    const g = await newGroup("reach-group");
    const other = await newGroup("reach-other");
    const a = (await addResource(net, { address: "10.3.0.1", groups: [g] })).body.id;
    const b = (await addResource(net, { address: "10.4.0.0/24" })).body.id;
    const viaGroup = await s.call("createPolicy", {
      body: { name: "via-group", enabled: true, rules: [rule({ sources: [other], destinations: [g] })] },
    });
    const direct = await s.call("createPolicy", {
      body: {
        name: "direct",
        enabled: true,
        rules: [rule({ sources: [other], destinationResource: { id: b, type: "subnet" } })],
      },
    });
    await s.call("createPolicy", {
      body: { name: "unrelated", enabled: true, rules: [rule({ sources: [other], destinations: [other] })] },
    });
    const n = await getNetwork(net);
    expect(n.resources.sort()).toEqual([a, b].sort());
    expect(n.policies.sort()).toEqual([viaGroup.body.id, direct.body.id].sort());
  });

  test("deleting a network deletes its resources and routers and leaves the groups", async () => {
    const net = await newNetwork("doomed");
    const p = addPeer(s);
    const g = await newGroup("doomed-group");
    const res = (await addResource(net, { address: "db.internal.example", groups: [g] })).body.id;
    const router = (await addRouter(net, { peer: p.id })).body.id;
    expect((await getGroup(g)).resources).toEqual([{ id: res, type: "domain" }]);
    expect((await s.call("deleteNetwork", { params: { networkId: net } })).status).toBe(200);
    expect((await getGroup(g)).resources).toEqual([]);
    expect(s.server.state.store.get("network_resource", res)).toBeUndefined();
    expect(s.server.state.store.get("network_router", router)).toBeUndefined();
    // The group is free again.
    expect((await s.call("deleteGroup", { params: { groupId: g } })).status).toBe(200);
  });

  test("a network whose resource a policy names cannot be deleted; nothing changes", async () => {
    const net = await newNetwork("guarded");
    const g = await newGroup("guarded-src");
    const res = (await addResource(net, { address: "10.8.0.0/16" })).body.id;
    const router = (await addRouter(net, { peer_groups: [g] })).body.id;
    await s.call("createPolicy", {
      body: {
        name: "pins-network",
        enabled: true,
        rules: [rule({ sources: [g], destinationResource: { id: res, type: "subnet" } })],
      },
    });
    expectError(await s.call("deleteNetwork", { params: { networkId: net } }), 400, /pins-network/);
    const n = await getNetwork(net);
    expect(n.resources).toEqual([res]);
    expect(n.routers).toEqual([router]);
  });
});

describe("network resources", () => {
  let net: string;
  let g1: string;
  let g2: string;
  beforeAll(async () => {
    net = await newNetwork("resources");
    g1 = await newGroup("res-g1");
    g2 = await newGroup("res-g2");
  });

  test("create, get, list, replace, delete; membership lives in the groups", async () => {
    const created = await addResource(net, {
      name: "db",
      address: "10.0.0.5",
      groups: [g1],
      description: "d",
    });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    expect(created.body).toEqual({
      id,
      type: "host",
      groups: [{ id: g1, name: "res-g1", peers_count: 0, resources_count: 1, issued: "api" }],
      name: "db",
      description: "d",
      address: "10.0.0.5",
      enabled: true,
    });
    expect((await getGroup(g1)).resources).toEqual([{ id, type: "host" }]);
    const params = { networkId: net, resourceId: id };
    expect((await s.call("getNetworkResource", { params })).body).toEqual(created.body);
    expect((await s.call("listNetworkResources", { params: { networkId: net } })).body).toEqual([
      created.body,
    ]);
    expect((await getNetwork(net)).resources).toEqual([id]);

    // New address (a subnet now) and moved from g1 to g2.
    const replaced = await s.call("updateNetworkResource", {
      params,
      body: { name: "lan", address: "10.0.0.0/24", enabled: false, groups: [g2] },
    });
    expect(replaced.body).toMatchObject({ id, type: "subnet", name: "lan", description: "", enabled: false });
    expect(replaced.body.groups.map((g: { id: string }) => g.id)).toEqual([g2]);
    expect((await getGroup(g1)).resources).toEqual([]);
    expect((await getGroup(g2)).resources).toEqual([{ id, type: "subnet" }]);

    // Same group, new type: the group's ref follows.
    await s.call("updateNetworkResource", {
      params,
      body: { name: "lan", address: "*.corp.example", enabled: true, groups: [g2] },
    });
    expect((await getGroup(g2)).resources).toEqual([{ id, type: "domain" }]);

    expect((await s.call("deleteNetworkResource", { params })).body).toEqual({});
    expect((await getGroup(g2)).resources).toEqual([]);
    expectError(await s.call("getNetworkResource", { params }), 404, /network resource/);
    expect(auditCodes()).toEqual(
      expect.arrayContaining([
        "network.resource.create",
        "network.resource.update",
        "network.resource.delete",
      ]),
    );
  });

  test("type is derived from the address", async () => {
    const typeOf = async (address: string) => (await addResource(net, { address })).body.type;
    expect(await typeOf("192.168.1.1")).toBe("host");
    expect(await typeOf("192.168.1.1/32")).toBe("host");
    expect(await typeOf("fd00::1")).toBe("host");
    expect(await typeOf("192.168.0.0/16")).toBe("subnet");
    expect(await typeOf("fd00::/64")).toBe("subnet");
    expect(await typeOf("example.com")).toBe("domain");
    expect(await typeOf("*.example.com")).toBe("domain");
  });

  test("invalid bodies are 422 naming the field", async () => {
    expectError(await addResource(net, { address: "not an address!" }), 422, "address");
    expectError(await addResource(net, { address: "10.0.0.0/33" }), 422, "address");
    expectError(await addResource(net, { address: "10.0.0.1", name: null }), 422, "name");
    expectError(await addResource(net, { address: "10.0.0.1", groups: undefined }), 422, "groups");
    expectError(await addResource(net, { address: "10.0.0.1", groups: ["ghost"] }), 422, /^groups: .*ghost/);
  });

  test("the built-in All group holds a resource put in it, as the service lets it", async () => {
    const all = (await s.call("listGroups", { query: { name: "All" } })).body[0].id;
    const g = (await s.call("createGroup", { body: { name: "with-all" } })).body.id;
    const res = await addResource(net, { address: "10.0.0.77", groups: [all, g] });
    expect(res.status).toBe(200);
    expect(res.body.groups.map((x: { id: string }) => x.id).sort()).toEqual([all, g].sort());
    const held = await getGroup(all);
    expect(held.resources).toContainEqual({ id: res.body.id, type: "host" });
    expect(held.resources_count).toBe(held.resources.length);
    // Out of All again by an update, and gone from it with the resource.
    const params = { networkId: net, resourceId: res.body.id };
    const body = { name: res.body.name, address: "10.0.0.77", enabled: true, groups: [g] };
    expect((await s.call("updateNetworkResource", { params, body })).status).toBe(200);
    expect((await getGroup(all)).resources).not.toContainEqual({ id: res.body.id, type: "host" });
    await s.call("updateNetworkResource", { params, body: { ...body, groups: [all] } });
    expect((await s.call("deleteNetworkResource", { params })).status).toBe(200);
    expect((await getGroup(all)).resources).not.toContainEqual(expect.objectContaining({ id: res.body.id }));
  });

  test("an empty name is stored, as the service stores it", async () => {
    expect((await s.call("createNetwork", { body: { name: "" } })).body.name).toBe("");
    expect((await addResource(net, { address: "10.0.0.88", name: "" })).body.name).toBe("");
  });

  test("scoped by network: unknown network or a resource of another network is 404", async () => {
    const other = await newNetwork("other");
    const id = (await addResource(other, { address: "10.0.0.9" })).body.id;
    const params = { networkId: net, resourceId: id };
    const body = { name: "x", address: "10.0.0.9", enabled: true, groups: [] };
    expectError(await s.call("getNetworkResource", { params }), 404, new RegExp(id));
    expectError(await s.call("updateNetworkResource", { params, body }), 404, new RegExp(id));
    expectError(await s.call("deleteNetworkResource", { params }), 404, new RegExp(id));
    expectError(await s.call("listNetworkResources", { params: { networkId: "nope" } }), 404, /nope/);
    expectError(await addResource("nope", { address: "10.0.0.1" }), 404, /nope/);
    expect(
      (await s.call("getNetworkResource", { params: { networkId: other, resourceId: id } })).status,
    ).toBe(200);
  });

  test("a resource a policy names cannot be deleted: 400 naming the policy", async () => {
    const id = (await addResource(net, { address: "10.0.1.1", groups: [g1] })).body.id;
    const policy = await s.call("createPolicy", {
      body: {
        name: "pins-resource",
        enabled: true,
        rules: [rule({ sourceResource: { id, type: "host" }, destinations: [g2] })],
      },
    });
    const params = { networkId: net, resourceId: id };
    expectError(await s.call("deleteNetworkResource", { params }), 400, /pins-resource/);
    expect((await getGroup(g1)).resources).toContainEqual({ id, type: "host" });

    // An address change that alters the type carries over to the rule's reference.
    await s.call("updateNetworkResource", {
      params,
      body: { name: "wider", address: "10.0.1.0/24", enabled: true, groups: [g1] },
    });
    const p = (await s.call("getPolicy", { params: { policyId: policy.body.id } })).body;
    expect(p.rules[0].sourceResource).toEqual({ id, type: "subnet" });

    await s.call("deletePolicy", { params: { policyId: policy.body.id } });
    expect((await s.call("deleteNetworkResource", { params })).status).toBe(200);
  });
});

describe("network routers", () => {
  let net: string;
  let peer: string;
  let group: string;
  beforeAll(async () => {
    net = await newNetwork("routed");
    peer = addPeer(s).id;
    group = await newGroup("router-group", [peer]);
  });

  test("create, get, list, replace, delete", async () => {
    const created = await addRouter(net, { peer, metric: 10 });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    expect(created.body).toEqual({ id, peer, metric: 10, masquerade: true, enabled: true });
    const params = { networkId: net, routerId: id };
    expect((await s.call("getNetworkRouter", { params })).body).toEqual(created.body);
    expect((await s.call("listNetworkRouters", { params: { networkId: net } })).body).toEqual([created.body]);
    expect((await getNetwork(net)).routers).toEqual([id]);

    const replaced = await s.call("updateNetworkRouter", {
      params,
      body: { peer_groups: [group], metric: 9999, masquerade: false, enabled: true },
    });
    expect(replaced.body).toEqual({
      id,
      peer_groups: [group],
      metric: 9999,
      masquerade: false,
      enabled: true,
    });
    expectError(await s.call("deleteGroup", { params: { groupId: group } }), 400, /network router/);

    expect((await s.call("deleteNetworkRouter", { params })).body).toEqual({});
    expectError(await s.call("getNetworkRouter", { params }), 404, /network router/);
    expect((await getNetwork(net)).routers).toEqual([]);
    expect(auditCodes()).toEqual(
      expect.arrayContaining(["network.router.create", "network.router.update", "network.router.delete"]),
    );
  });

  test("spec 7 rule 1: peer and peer_groups are exclusive, one is required", async () => {
    expectError(await addRouter(net, { peer, peer_groups: [group] }), 422, "peer_groups");
    expectError(await addRouter(net, {}), 422, "peer");
    expectError(await addRouter(net, { peer: "" }), 422, "peer");
  });

  test("metric is 1..9999; other fields are required", async () => {
    expectError(await addRouter(net, { peer, metric: 0 }), 422, "metric");
    expectError(await addRouter(net, { peer, metric: 10000 }), 422, "metric");
    expectError(await addRouter(net, { peer, metric: 1.5 }), 422, "metric");
    expectError(await addRouter(net, { peer, masquerade: undefined }), 422, "masquerade");
    expectError(await addRouter(net, { peer, enabled: undefined }), 422, "enabled");
  });

  test("references must exist: 422 naming the field and the id", async () => {
    expectError(await addRouter(net, { peer: "ghost" }), 422, /^peer: .*ghost/);
    expectError(await addRouter(net, { peer_groups: ["ghost"] }), 422, /^peer_groups: .*ghost/);
    expect((await s.call("listNetworkRouters", { params: { networkId: net } })).body).toEqual([]);
  });

  test("scoped by network: unknown network or a router of another network is 404", async () => {
    const other = await newNetwork("other-routed");
    const id = (await addRouter(other, { peer })).body.id;
    const params = { networkId: net, routerId: id };
    const body = { peer, metric: 1, masquerade: true, enabled: true };
    expectError(await s.call("getNetworkRouter", { params }), 404, new RegExp(id));
    expectError(await s.call("updateNetworkRouter", { params, body }), 404, new RegExp(id));
    expectError(await s.call("deleteNetworkRouter", { params }), 404, new RegExp(id));
    expectError(await s.call("listNetworkRouters", { params: { networkId: "nope" } }), 404, /nope/);
    expectError(await addRouter("nope", { peer }), 404, /nope/);
  });
});
