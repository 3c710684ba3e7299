import { addPeer } from "../support/fixtures";
import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let g1: string;
let g2: string;
let network: string;
let host: string;
let subnet: string;
let peer: string;

beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer();
  g1 = (await s.call("createGroup", { body: { name: "pol-src" } })).body.id;
  g2 = (await s.call("createGroup", { body: { name: "pol-dst" } })).body.id;
  network = (await s.call("createNetwork", { body: { name: "pol-net" } })).body.id;
  const res = (address: string, name: string) =>
    s.call("createNetworkResource", {
      params: { networkId: network },
      body: { name, address, enabled: true, groups: [] },
    });
  host = (await res("10.1.0.5", "db")).body.id;
  subnet = (await res("10.2.0.0/16", "lan")).body.id;
  peer = addPeer(s, "pol-peer").id;
});
afterAll(() => s.close());

const rule = (extra: object = {}) => ({
  name: "allow",
  enabled: true,
  action: "accept",
  bidirectional: true,
  protocol: "tcp",
  sources: [g1],
  destinations: [g2],
  ...extra,
});
const policy = (rules: object[], extra: object = {}) => ({ name: "p", enabled: true, rules, ...extra });
const create = (body: unknown) => s.call("createPolicy", { body });
const auditCodes = () => s.server.state.store.auditEvents().map((e) => e.activity_code);

describe("policies", () => {
  test("create, get, list, replace, delete", async () => {
    const created = await create(policy([rule({ ports: ["22", "443"] })], { name: "ssh" }));
    expect(created.status).toBe(200);
    const p = created.body;
    expect(p).toMatchObject({ name: "ssh", description: "", enabled: true, source_posture_checks: [] });
    expect(p.rules).toHaveLength(1);
    const r0 = p.rules[0];
    expect(typeof r0.id).toBe("string");
    expect(r0).toEqual({
      id: r0.id,
      name: "allow",
      description: "",
      enabled: true,
      action: "accept",
      bidirectional: true,
      protocol: "tcp",
      ports: ["22", "443"],
      sources: [{ id: g1, name: "pol-src", peers_count: 0, resources_count: 0, issued: "api" }],
      destinations: [{ id: g2, name: "pol-dst", peers_count: 0, resources_count: 0, issued: "api" }],
    });
    expect((await s.call("getPolicy", { params: { policyId: p.id } })).body).toEqual(p);
    expect((await s.call("listPolicies")).body.map((x: { id: string }) => x.id)).toContain(p.id);

    const replaced = await s.call("updatePolicy", {
      params: { policyId: p.id },
      body: policy([rule({ protocol: "icmp", action: "drop" })], {
        name: "ssh-v2",
        description: "now icmp",
        enabled: false,
      }),
    });
    expect(replaced.body).toMatchObject({
      id: p.id,
      name: "ssh-v2",
      description: "now icmp",
      enabled: false,
    });
    expect(replaced.body.rules[0]).toMatchObject({ protocol: "icmp", action: "drop" });
    expect(replaced.body.rules[0].ports).toBeUndefined();

    expect((await s.call("deletePolicy", { params: { policyId: p.id } })).body).toEqual({});
    expectError(await s.call("getPolicy", { params: { policyId: p.id } }), 404, /policy/);
    expect(auditCodes()).toEqual(expect.arrayContaining(["policy.add", "policy.update", "policy.delete"]));
  });

  test("optional rule fields are returned when set: port_ranges, authorized_groups, description", async () => {
    const res = await create(
      policy([
        rule({
          description: "ranges",
          port_ranges: [{ start: 8000, end: 8100 }],
          authorized_groups: { [g1]: ["root", "deploy"] },
        }),
      ]),
    );
    expect(res.body.rules[0]).toMatchObject({
      description: "ranges",
      port_ranges: [{ start: 8000, end: 8100 }],
      authorized_groups: { [g1]: ["root", "deploy"] },
    });
    expect(res.body.rules[0].ports).toBeUndefined();
  });

  test("a replace keeps the id of a rule sent back; new rules and foreign ids get fresh ids", async () => {
    const p = (await create(policy([rule({ name: "a" }), rule({ name: "b" })]))).body;
    const other = (await create(policy([rule({ name: "z" })]))).body;
    const [a, b] = p.rules;
    const res = await s.call("updatePolicy", {
      params: { policyId: p.id },
      body: policy([
        rule({ id: b.id, name: "b2" }),
        rule({ name: "new" }),
        rule({ id: other.rules[0].id, name: "stolen" }),
      ]),
    });
    const ids = res.body.rules.map((x: { id: string }) => x.id);
    expect(ids[0]).toBe(b.id);
    expect(ids[1]).not.toBe(a.id);
    expect(ids[2]).not.toBe(other.rules[0].id);
    expect(new Set(ids).size).toBe(3);
    expect(res.body.rules[0].name).toBe("b2");
  });

  test("resources as source or destination: network resources and peers, with their real type", async () => {
    const res = await create(
      policy([
        {
          ...rule({ sources: undefined, destinations: undefined }),
          sourceResource: { id: peer, type: "peer" },
          destinationResource: { id: subnet, type: "subnet" },
        },
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.body.rules[0]).toMatchObject({
      sources: [],
      destinations: [],
      sourceResource: { id: peer, type: "peer" },
      destinationResource: { id: subnet, type: "subnet" },
    });
  });

  test("unknown or mistyped resources are 422 naming the rule's field", async () => {
    const withRes = (sourceResource: object) =>
      create(policy([rule(), { ...rule({ sources: undefined }), sourceResource }]));
    expectError(await withRes({ id: subnet, type: "host" }), 422, "rules[1].sourceResource");
    expectError(await withRes({ id: "missing", type: "host" }), 422, "rules[1].sourceResource");
    expectError(await withRes({ id: "missing", type: "peer" }), 422, "rules[1].sourceResource");
    expectError(await withRes({ id: host, type: "peer" }), 422, "rules[1].sourceResource");
    expectError(
      await create(
        policy([{ ...rule({ destinations: undefined }), destinationResource: { id: peer, type: "host" } }]),
      ),
      422,
      "rules[0].destinationResource",
    );
  });

  test("unknown groups and posture checks are 422 naming the field", async () => {
    expectError(await create(policy([rule({ sources: [g1, "nope"] })])), 422, "rules[0].sources");
    expectError(
      await create(policy([rule(), rule({ destinations: ["nope"] })])),
      422,
      "rules[1].destinations",
    );
    expectError(
      await create(policy([rule({ authorized_groups: { nope: ["root"] } })])),
      422,
      "rules[0].authorized_groups",
    );
    expectError(
      await create(policy([rule()], { source_posture_checks: ["nope"] })),
      422,
      "source_posture_checks",
    );
    const check = (
      await s.call("createPostureCheck", {
        body: { name: "pol-check", description: "", checks: { nb_version_check: { min_version: "0.1.0" } } },
      })
    ).body;
    const ok = await create(policy([rule()], { source_posture_checks: [check.id] }));
    expect(ok.body.source_posture_checks).toEqual([check.id]);
  });

  test("body rules of the schema are 422 naming the field", async () => {
    expectError(await create({ name: "p", enabled: true, rules: [] }), 422, "rules");
    expectError(await create(policy([rule()], { name: "" })), 422, "name");
    expectError(await create({ name: "p", rules: [rule()] }), 422, "enabled");
    expectError(await create(policy([rule({ action: "allow" })])), 422, "rules[0].action");
    expectError(await create(policy([rule({ protocol: "sctp" })])), 422, "rules[0].protocol");
    expectError(
      await create(policy([rule({ ports: ["22"], port_ranges: [{ start: 1, end: 2 }] })])),
      422,
      "rules[0].port_ranges",
    );
    expectError(await create(policy([rule({ protocol: "icmp", ports: ["22"] })])), 422, "rules[0].ports");
    expectError(await create(policy([rule({ ports: ["70000"] })])), 422, /rules\[0\]\.ports\[0\]:/);
    // Absent sources are refused, as the service refuses them; an empty list is stored (a rule matching nothing).
    expectError(await create(policy([rule({ sources: undefined })])), 422, "rules[0].sources");
    expectError(await create(policy([rule({ destinations: null })])), 422, "rules[0].destinations");
    expectError(
      await create(policy([rule({ port_ranges: [{ start: 0, end: 2 }] })])),
      422,
      "rules[0].port_ranges[0].start",
    );
    expectError(
      await create(policy([rule({ destinationResource: { id: host, type: "host" } })])),
      422,
      "rules[0].destinationResource",
    );
  });

  test("a rule without sources and a reversed port range are stored as given, as the service stores them", async () => {
    const res = await create(
      policy([rule({ sources: [], port_ranges: [{ start: 90, end: 80 }] })], { name: "odd but stored" }),
    );
    expect(res.status).toBe(200);
    expect(res.body.rules[0]).toMatchObject({ sources: [], port_ranges: [{ start: 90, end: 80 }] });
  });

  test("unknown ids are 404; a failed replace changes nothing", async () => {
    const params = { policyId: "nope" };
    expectError(await s.call("getPolicy", { params }), 404, /nope/);
    expectError(await s.call("updatePolicy", { params, body: policy([rule()]) }), 404, /nope/);
    expectError(await s.call("deletePolicy", { params }), 404, /nope/);

    const p = (await create(policy([rule()], { name: "stable" }))).body;
    expectError(
      await s.call("updatePolicy", {
        params: { policyId: p.id },
        body: policy([rule({ sources: ["nope"] })], { name: "changed" }),
      }),
      422,
      "rules[0].sources",
    );
    expect((await s.call("getPolicy", { params: { policyId: p.id } })).body).toEqual(p);
  });

  test("groups a policy uses cannot be deleted; the summary follows the group", async () => {
    const g = (await s.call("createGroup", { body: { name: "pol-used" } })).body.id;
    const p = (await create(policy([rule({ sources: [g] })], { name: "user-of-group" }))).body;
    expectError(await s.call("deleteGroup", { params: { groupId: g } }), 400, /user-of-group/);
    const pr = addPeer(s);
    await s.call("updateGroup", { params: { groupId: g }, body: { name: "pol-renamed", peers: [pr.id] } });
    const got = (await s.call("getPolicy", { params: { policyId: p.id } })).body;
    expect(got.rules[0].sources[0]).toMatchObject({ id: g, name: "pol-renamed", peers_count: 1 });
  });

  test("a group named only in a rule's authorized_groups cannot be deleted either", async () => {
    const g = (await s.call("createGroup", { body: { name: "pol-ssh-users" } })).body.id;
    const p = (await create(policy([rule({ authorized_groups: { [g]: ["root"] } })], { name: "ssh-login" })))
      .body;
    const refused = await s.call("deleteGroup", { params: { groupId: g } });
    expectError(refused, 400, /ssh-login/);
    expect(refused.body.message).toMatch(/authorized_groups/);
    expect((await s.call("getGroup", { params: { groupId: g } })).status).toBe(200);
    // The policy still round-trips: nothing dangles.
    const again = await s.call("updatePolicy", {
      params: { policyId: p.id },
      body: policy([rule({ authorized_groups: { [g]: ["root"] } })], { name: "ssh-login" }),
    });
    expect(again.status).toBe(200);
    await s.call("deletePolicy", { params: { policyId: p.id } });
    expect((await s.call("deleteGroup", { params: { groupId: g } })).status).toBe(200);
  });

  test("authorized_groups keys that are not plain ids (__proto__) are 422, not dropped", async () => {
    const before = (await s.call("listPolicies")).body.length;
    const body = JSON.stringify(policy([rule()], { name: "proto" })).replace(
      '"sources":',
      `"authorized_groups":{"__proto__":["root"]},"sources":`,
    );
    expect(body).toContain('"__proto__"');
    for (const [method, path] of [
      ["POST", "/api/policies"],
      ["PUT", `/api/policies/${(await create(policy([rule()], { name: "proto-target" }))).body.id}`],
    ]) {
      const res = await s.raw(method as string, path as string, {
        body,
        headers: { Authorization: `Token ${s.token}`, "Content-Type": "application/json" },
      });
      expectError(res, 422, "rules[0].authorized_groups");
    }
    expect((await s.call("listPolicies")).body.length).toBe(before + 1);
  });
});
