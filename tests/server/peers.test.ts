import { randomBytes } from "node:crypto";
import { ManualClock } from "../../server/clock";
import { connectPeer, disconnectPeer, finishJob } from "../../server/sim";
import { addPeer, addUserWithToken } from "../support/fixtures";
import { expectError, startTestServer, type TestServer } from "../support/server";

const clock = new ManualClock(Date.parse("2026-02-01T08:00:00Z"));
let s: TestServer;
beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer({ clock, simulate: true });
});
afterAll(() => s.close());

const auditCodes = () => s.server.state.store.auditEvents().map((e) => e.activity_code);
const wgKey = () => randomBytes(32).toString("base64");

async function group(name: string, peers: string[]): Promise<string> {
  return (await s.call("createGroup", { body: { name, peers } })).body.id as string;
}

const peerBody = (over: Record<string, unknown> = {}) => ({
  name: "renamed",
  ssh_enabled: false,
  login_expiration_enabled: false,
  inactivity_expiration_enabled: false,
  ...over,
});

/** A one-rule policy through the policies API. */
async function policy(opts: {
  name: string;
  sources?: string[];
  destinations?: string[];
  bidirectional?: boolean;
  enabled?: boolean;
  ruleEnabled?: boolean;
  action?: string;
}): Promise<string> {
  const res = await s.call("createPolicy", {
    body: {
      name: opts.name,
      enabled: opts.enabled ?? true,
      rules: [
        {
          name: `${opts.name}-rule`,
          enabled: opts.ruleEnabled ?? true,
          action: opts.action ?? "accept",
          bidirectional: opts.bidirectional ?? false,
          protocol: "all",
          sources: opts.sources,
          destinations: opts.destinations,
        },
      ],
    },
  });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

const accessible = async (peerId: string) =>
  ((await s.call("listAccessiblePeers", { params: { peerId } })).body as { id: string }[])
    .map((p) => p.id)
    .sort();

describe("peers: read", () => {
  test("groups include All; the list carries accessible_peers_count, a single GET does not", async () => {
    const p = addPeer(s, "reader-one");
    const g = await group("readers", [p.id]);
    const got = (await s.call("getPeer", { params: { peerId: p.id } })).body;
    expect(got.groups.map((x: any) => x.name)).toEqual(["All", "readers"]);
    expect(got.groups.find((x: any) => x.id === g)).toMatchObject({ peers_count: 1, resources_count: 0 });
    expect(got).not.toHaveProperty("accessible_peers_count");
    expect(got).toMatchObject({
      name: "reader-one",
      hostname: "reader-one",
      dns_label: "reader-one",
      connected: false,
    });
    const listed = (await s.call("listPeers")).body.find((x: any) => x.id === p.id);
    expect(listed.accessible_peers_count).toBe(0);
  });

  test("filters: name (exact) and ip", async () => {
    const a = addPeer(s, "filter-me");
    addPeer(s, "filter-me-not");
    const byName = (await s.call("listPeers", { query: { name: "filter-me" } })).body;
    expect(byName.map((x: any) => x.id)).toEqual([a.id]);
    const byIp = (await s.call("listPeers", { query: { ip: a.ip } })).body;
    expect(byIp.map((x: any) => x.id)).toEqual([a.id]);
    expect((await s.call("listPeers", { query: { name: "nobody" } })).body).toEqual([]);
  });

  test("unknown peer: 404 on every operation", async () => {
    const params = { peerId: "missing" };
    expectError(await s.call("getPeer", { params }), 404, /peer missing/);
    expectError(await s.call("updatePeer", { params, body: peerBody() }), 404);
    expectError(await s.call("deletePeer", { params }), 404);
    expectError(await s.call("listAccessiblePeers", { params }), 404);
    expectError(await s.call("listPeerJobs", { params }), 404);
    expectError(
      await s.call("createTemporaryAccess", {
        params,
        body: { name: "t", wg_pub_key: wgKey(), rules: ["tcp/22"] },
      }),
      404,
    );
  });

  test("a regular user sees only its own peers", async () => {
    const u = addUserWithToken(s, "user");
    const mine = addPeer(s, "users-own", { userId: u.id });
    const other = addPeer(s, "not-users");
    const list = (await s.call("listPeers", { token: u.token })).body;
    expect(list.map((x: any) => x.id)).toEqual([mine.id]);
    expect((await s.call("getPeer", { params: { peerId: mine.id }, token: u.token })).status).toBe(200);
    expectError(await s.call("getPeer", { params: { peerId: other.id }, token: u.token }), 404);
    expectError(await s.call("listPeerJobs", { params: { peerId: other.id }, token: u.token }), 404);
    // The owner still sees both.
    const all = (await s.call("listPeers")).body.map((x: any) => x.id);
    expect(all).toEqual(expect.arrayContaining([mine.id, other.id]));
  });
});

describe("peers: update", () => {
  test("name, ssh and expiration flags change; a new name gets a new unique dns label", async () => {
    const a = addPeer(s, "web");
    const b = addPeer(s, "db");
    const res = await s.call("updatePeer", {
      params: { peerId: b.id },
      body: peerBody({ name: "web", ssh_enabled: true, inactivity_expiration_enabled: true }),
    });
    expect(res.body).toMatchObject({
      name: "web",
      ssh_enabled: true,
      inactivity_expiration_enabled: true,
      dns_label: "web-1",
    });
    expect((await s.call("getPeer", { params: { peerId: a.id } })).body.dns_label).toBe("web");
    expect(auditCodes()).toContain("peer.update");
  });

  test("ip: a free address of the network range is assigned; taken, outside or malformed is 422 naming ip", async () => {
    const a = addPeer(s, "ip-a");
    const b = addPeer(s, "ip-b");
    const moved = await s.call("updatePeer", {
      params: { peerId: a.id },
      body: peerBody({ name: "ip-a", ip: "100.64.200.7" }),
    });
    expect(moved.body.ip).toBe("100.64.200.7");
    expect((await s.call("listPeers", { query: { ip: "100.64.200.7" } })).body.map((x: any) => x.id)).toEqual(
      [a.id],
    );
    expectError(
      await s.call("updatePeer", { params: { peerId: b.id }, body: peerBody({ ip: "100.64.200.7" }) }),
      422,
      "ip",
    );
    expectError(
      await s.call("updatePeer", { params: { peerId: b.id }, body: peerBody({ ip: "10.0.0.1" }) }),
      422,
      "ip",
    );
    // network and broadcast addresses of 100.64.0.0/10 are not usable
    expectError(
      await s.call("updatePeer", { params: { peerId: b.id }, body: peerBody({ ip: "100.64.0.0" }) }),
      422,
      "ip",
    );
    expectError(
      await s.call("updatePeer", { params: { peerId: b.id }, body: peerBody({ ip: "nope" }) }),
      422,
      "ip",
    );
    // Failed updates changed nothing.
    expect((await s.call("getPeer", { params: { peerId: b.id } })).body).toMatchObject({
      name: "ip-b",
      ip: b.ip,
    });
  });

  test("required fields are 422 naming them", async () => {
    const p = addPeer(s);
    expectError(
      await s.call("updatePeer", { params: { peerId: p.id }, body: { name: "x" } }),
      422,
      "ssh_enabled",
    );
    expectError(
      await s.call("updatePeer", { params: { peerId: p.id }, body: peerBody({ name: "" }) }),
      422,
      "name",
    );
  });

  test("approval_required is ignored without --cloud", async () => {
    const p = addPeer(s);
    const res = await s.call("updatePeer", {
      params: { peerId: p.id },
      body: peerBody({ approval_required: true }),
    });
    expect(res.body.approval_required).toBe(false);
  });

  test("approval_required is applied with --cloud", async () => {
    const cloud = await startTestServer({ cloud: true });
    try {
      const p = addPeer(cloud);
      const res = await cloud.call("updatePeer", {
        params: { peerId: p.id },
        body: peerBody({ approval_required: true }),
      });
      expect(res.body.approval_required).toBe(true);
      expect(
        (
          await cloud.call("updatePeer", {
            params: { peerId: p.id },
            body: peerBody({ approval_required: false }),
          })
        ).body.approval_required,
      ).toBe(false);
    } finally {
      await cloud.close();
    }
  });
});

describe("peers: delete", () => {
  test("removes the peer from its groups and deletes its jobs", async () => {
    const p = addPeer(s, "doomed");
    const keep = addPeer(s, "kept");
    const g = await group("doomed-group", [p.id, keep.id]);
    const job = (
      await s.call("createPeerJob", {
        params: { peerId: p.id },
        body: {
          workload: {
            type: "bundle",
            parameters: { bundle_for: false, bundle_for_time: 1, log_file_count: 1, anonymize: true },
          },
        },
      })
    ).body;
    expect((await s.call("deletePeer", { params: { peerId: p.id } })).body).toEqual({});
    expectError(await s.call("getPeer", { params: { peerId: p.id } }), 404);
    const after = (await s.call("getGroup", { params: { groupId: g } })).body;
    expect(after.peers.map((x: any) => x.id)).toEqual([keep.id]);
    expect(s.server.state.store.get("job", job.id)).toBeUndefined();
    expect(auditCodes()).toContain("peer.delete");
  });

  test("a peer used by a route or a network router is 400 naming it, and stays", async () => {
    const p = addPeer(s, "router-peer");
    const dist = await group("route-dist", []);
    const route = await s.call("createRoute", {
      body: {
        description: "via peer",
        network_id: "office-net",
        enabled: true,
        peer: p.id,
        network: "192.168.50.0/24",
        metric: 10,
        masquerade: true,
        groups: [dist],
        keep_route: false,
      },
    });
    expect(route.status).toBe(200);
    expectError(await s.call("deletePeer", { params: { peerId: p.id } }), 400, /route office-net/);
    await s.call("deleteRoute", { params: { routeId: route.body.id } });
    const net = (await s.call("createNetwork", { body: { name: "lab" } })).body;
    const router = await s.call("createNetworkRouter", {
      params: { networkId: net.id },
      body: { peer: p.id, metric: 1, masquerade: false, enabled: true },
    });
    expect(router.status).toBe(200);
    expectError(await s.call("deletePeer", { params: { peerId: p.id } }), 400, /network router/);
    expect((await s.call("getPeer", { params: { peerId: p.id } })).status).toBe(200);
  });

  test("cloud: an ingress peer keeps its peer; a forwarded peer's port allocations go with it", async () => {
    const cloud = await startTestServer({ cloud: true });
    try {
      const ingress = addPeer(cloud, "ingress");
      const forwarded = addPeer(cloud, "forwarded");
      const ip = await cloud.call("createIngressPeer", {
        body: { peer_id: ingress.id, enabled: true, fallback: true },
      });
      expect(ip.status).toBe(200);
      const alloc = await cloud.call("createPortAllocation", {
        params: { peerId: forwarded.id },
        body: { name: "web", enabled: true, direct_port: { count: 1, protocol: "tcp" } },
      });
      expect(alloc.status).toBe(200);
      expectError(await cloud.call("deletePeer", { params: { peerId: ingress.id } }), 400, /ingress peer/);
      expect((await cloud.call("deletePeer", { params: { peerId: forwarded.id } })).status).toBe(200);
      expect(cloud.server.state.store.get("port_allocation", alloc.body.id)).toBeUndefined();
    } finally {
      await cloud.close();
    }
  });
});

describe("accessible peers", () => {
  test("a one-way rule: each side has the other in its map (the direction lives in the grant)", async () => {
    const a = addPeer(s, "acc-a");
    const b = addPeer(s, "acc-b");
    const c = addPeer(s, "acc-c");
    const ga = await group("acc-ga", [a.id]);
    const gb = await group("acc-gb", [b.id, c.id]);
    const pol = await policy({ name: "a-to-b", sources: [ga], destinations: [gb] });
    expect(await accessible(a.id)).toEqual([b.id, c.id].sort());
    // As the service computes it: a destination gets the rule's sources too; b and c do not get each other.
    expect(await accessible(b.id)).toEqual([a.id]);
    const body = (await s.call("listAccessiblePeers", { params: { peerId: a.id } })).body;
    expect(body.find((x: any) => x.id === b.id)).toMatchObject({
      name: "acc-b",
      ip: b.ip,
      dns_label: "acc-b",
    });
    const listed = (await s.call("listPeers", { query: { name: "acc-a" } })).body[0];
    expect(listed.accessible_peers_count).toBe(2);
    await s.call("deletePolicy", { params: { policyId: pol } });
    expect(await accessible(a.id)).toEqual([]);
  });

  test("a bidirectional rule works both ways", async () => {
    const a = addPeer(s, "bi-a");
    const b = addPeer(s, "bi-b");
    const pol = await policy({
      name: "bi",
      sources: [await group("bi-ga", [a.id])],
      destinations: [await group("bi-gb", [b.id])],
      bidirectional: true,
    });
    expect(await accessible(a.id)).toEqual([b.id]);
    expect(await accessible(b.id)).toEqual([a.id]);
    await s.call("deletePolicy", { params: { policyId: pol } });
  });

  test("a disabled policy or a disabled rule grants nothing; a drop rule still puts the peers in each other's map", async () => {
    const a = addPeer(s, "dis-a");
    const b = addPeer(s, "dis-b");
    const ga = await group("dis-ga", [a.id]);
    const gb = await group("dis-gb", [b.id]);
    const p1 = await policy({ name: "off", sources: [ga], destinations: [gb], enabled: false });
    const p2 = await policy({ name: "rule-off", sources: [ga], destinations: [gb], ruleEnabled: false });
    expect(await accessible(a.id)).toEqual([]);
    const p3 = await policy({ name: "drop", sources: [ga], destinations: [gb], action: "drop" });
    expect(await accessible(a.id)).toEqual([b.id]);
    expect(await accessible(b.id)).toEqual([a.id]);
    for (const id of [p1, p2, p3]) await s.call("deletePolicy", { params: { policyId: id } });
  });

  test("the All group reaches every other peer, never the peer itself", async () => {
    const all = (await s.call("listGroups", { query: { name: "All" } })).body[0].id;
    const me = addPeer(s, "all-me");
    const pol = await policy({ name: "everyone", sources: [all], destinations: [all] });
    const ids = await accessible(me.id);
    const everyone = (await s.call("listPeers")).body.map((x: any) => x.id);
    expect(ids).toEqual(everyone.filter((id: string) => id !== me.id).sort());
    expect(ids).not.toContain(me.id);
    await s.call("deletePolicy", { params: { policyId: pol } });
  });
});

describe("temporary access", () => {
  test("creates a temporary peer that reaches only the target, deleted with its policy on disconnect", async () => {
    const target = addPeer(s, "ta-target");
    const bystander = addPeer(s, "ta-bystander");
    const res = await s.call("createTemporaryAccess", {
      params: { peerId: target.id },
      body: { name: "support-laptop", wg_pub_key: wgKey(), rules: ["tcp/22", "udp/5000-5010", "icmp"] },
    });
    expect(res.body).toMatchObject({ name: "support-laptop", rules: ["tcp/22", "udp/5000-5010", "icmp"] });
    const tempId = res.body.id as string;
    const temp = (await s.call("getPeer", { params: { peerId: tempId } })).body;
    expect(temp).toMatchObject({ name: "support-laptop", ephemeral: true });
    expect(await accessible(tempId)).toEqual([target.id]);
    expect(await accessible(bystander.id)).not.toContain(tempId);
    const policies = (await s.call("listPolicies")).body.filter(
      (p: any) => p.name === "Temporary access for support-laptop",
    );
    expect(policies).toHaveLength(1);
    const rules = policies[0].rules;
    expect(rules.map((r: any) => [r.protocol, r.ports, r.port_ranges])).toEqual([
      ["tcp", ["22"], undefined],
      ["udp", undefined, [{ start: 5000, end: 5010 }]],
      ["icmp", undefined, undefined],
    ]);
    expect(rules[0]).toMatchObject({
      sourceResource: { id: tempId, type: "peer" },
      destinationResource: { id: target.id, type: "peer" },
      bidirectional: false,
    });
    expect(auditCodes()).toContain("peer.temporary.access.create");

    connectPeer(s.server.state, tempId);
    const result = disconnectPeer(s.server.state, tempId);
    expect(result).toMatchObject({ deleted: true, policies_deleted: [policies[0].id] });
    expectError(await s.call("getPeer", { params: { peerId: tempId } }), 404);
    expectError(await s.call("getPolicy", { params: { policyId: policies[0].id } }), 404);
    expect((await s.call("getPeer", { params: { peerId: target.id } })).status).toBe(200);
  });

  test("deleting the target deletes its temporary peers and their policies", async () => {
    const target = addPeer(s, "ta-target-2");
    const temp = (
      await s.call("createTemporaryAccess", {
        params: { peerId: target.id },
        body: { name: "tmp2", wg_pub_key: wgKey(), rules: ["all"] },
      })
    ).body;
    await s.call("deletePeer", { params: { peerId: target.id } });
    expectError(await s.call("getPeer", { params: { peerId: temp.id } }), 404);
    const names = (await s.call("listPolicies")).body.map((p: any) => p.name);
    expect(names).not.toContain("Temporary access for tmp2");
  });

  test("a peer named by an ordinary policy's resource cannot be deleted", async () => {
    const p = addPeer(s, "res-peer");
    const g = await group("res-src", []);
    const pol = await s.call("createPolicy", {
      body: {
        name: "to-res-peer",
        enabled: true,
        rules: [
          {
            name: "r",
            enabled: true,
            action: "accept",
            bidirectional: false,
            protocol: "all",
            sources: [g],
            destinationResource: { id: p.id, type: "peer" },
          },
        ],
      },
    });
    expect(pol.status).toBe(200);
    expectError(await s.call("deletePeer", { params: { peerId: p.id } }), 400, /policy to-res-peer/);
  });

  test("validation: rules, wg_pub_key and name are 422 naming the field; a reused key is 409", async () => {
    const target = addPeer(s, "ta-val");
    const params = { peerId: target.id };
    const ok = { name: "t", wg_pub_key: wgKey(), rules: ["tcp/22"] };
    expectError(
      await s.call("createTemporaryAccess", { params, body: { ...ok, rules: ["tcp/99999"] } }),
      422,
      /rules\[0\]/,
    );
    expectError(
      await s.call("createTemporaryAccess", { params, body: { ...ok, rules: ["ssh"] } }),
      422,
      /rules\[0\]/,
    );
    expectError(await s.call("createTemporaryAccess", { params, body: { ...ok, rules: [] } }), 422, "rules");
    expectError(
      await s.call("createTemporaryAccess", { params, body: { ...ok, wg_pub_key: "short" } }),
      422,
      "wg_pub_key",
    );
    expectError(await s.call("createTemporaryAccess", { params, body: { ...ok, name: "" } }), 422, "name");
    expect((await s.call("createTemporaryAccess", { params, body: ok })).status).toBe(200);
    expectError(
      await s.call("createTemporaryAccess", { params, body: { ...ok, name: "t2" } }),
      409,
      "wg_pub_key",
    );
  });
});

describe("peer jobs", () => {
  const bundle = {
    type: "bundle",
    parameters: { bundle_for: true, bundle_for_time: 2, log_file_count: 10, anonymize: false },
  };

  test("create (pending), list, get; the agent completes or fails them", async () => {
    const p = addPeer(s, "job-peer");
    const created = await s.call("createPeerJob", { params: { peerId: p.id }, body: { workload: bundle } });
    expect(created.status).toBe(201);
    const owner = s.server.state.store.all("user").find((u) => u.role === "owner");
    expect(created.body).toMatchObject({
      status: "pending",
      completed_at: null,
      failed_reason: null,
      triggered_by: owner?.id,
      created_at: "2026-02-01T08:00:00Z",
      workload: bundle,
    });
    expect(auditCodes()).toContain("peer.job.create");
    const id = created.body.id as string;
    expect((await s.call("getPeerJob", { params: { peerId: p.id, jobId: id } })).body).toEqual(created.body);
    clock.advance(5000);
    finishJob(s.server.state, p.id, id, { status: "succeeded", uploadKey: "bundles/x.zip" });
    const done = (await s.call("getPeerJob", { params: { peerId: p.id, jobId: id } })).body;
    expect(done).toMatchObject({
      status: "succeeded",
      completed_at: "2026-02-01T08:00:05Z",
      failed_reason: null,
      workload: { ...bundle, result: { upload_key: "bundles/x.zip" } },
    });
    const second = (await s.call("createPeerJob", { params: { peerId: p.id }, body: { workload: bundle } }))
      .body;
    finishJob(s.server.state, p.id, second.id, { status: "failed", reason: "disk full" });
    const failed = (await s.call("getPeerJob", { params: { peerId: p.id, jobId: second.id } })).body;
    expect(failed).toMatchObject({ status: "failed", failed_reason: "disk full" });
    expect(failed.workload.result).toBeUndefined();
    const list = (await s.call("listPeerJobs", { params: { peerId: p.id } })).body;
    expect(list.map((j: any) => j.id)).toEqual([id, second.id]);
  });

  test("a job of another peer is 404; bad workloads are 422 naming the field", async () => {
    const a = addPeer(s);
    const b = addPeer(s);
    const job = (await s.call("createPeerJob", { params: { peerId: a.id }, body: { workload: bundle } }))
      .body;
    expectError(await s.call("getPeerJob", { params: { peerId: b.id, jobId: job.id } }), 404);
    expectError(await s.call("getPeerJob", { params: { peerId: a.id, jobId: "nope" } }), 404);
    expectError(
      await s.call("createPeerJob", {
        params: { peerId: a.id },
        body: { workload: { ...bundle, type: "shell" } },
      }),
      422,
      "workload.type",
    );
    expectError(
      await s.call("createPeerJob", {
        params: { peerId: a.id },
        body: { workload: { ...bundle, parameters: { ...bundle.parameters, bundle_for_time: 6 } } },
      }),
      422,
      "workload.parameters.bundle_for_time",
    );
    expectError(await s.call("createPeerJob", { params: { peerId: a.id }, body: {} }), 422, "workload");
    expectError(
      await s.call("createPeerJob", { params: { peerId: "ghost" }, body: { workload: bundle } }),
      404,
    );
  });
});
