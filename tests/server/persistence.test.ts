/** Data survives a restart: create across families, stop, start on the same file, read back equal. */
import { ROUTES } from "../../api/routes";
import { addPeer } from "../support/fixtures";
import { startTestServer } from "../support/server";

/** Every list operation that needs no path parameter: together they show the whole database. */
const LISTS = ROUTES.filter((r) => r.method === "GET" && r.pathParams.length === 0).map((r) => r.operationId);

test("create, stop, start on the same file, read back equal", async () => {
  const first = await startTestServer({ cloud: true, embeddedIdp: true });
  const ok = async (op: string, body: unknown, params?: Record<string, string>) => {
    const r = await first.call(op, { body, params });
    if (r.status !== 200) throw new Error(`${op}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const peer = addPeer(first, "db-host");
  const g = await ok("createGroup", { name: "servers", peers: [peer.id] });
  await ok("createPolicy", {
    name: "ssh",
    enabled: true,
    rules: [
      {
        name: "ssh",
        enabled: true,
        action: "accept",
        bidirectional: false,
        protocol: "tcp",
        ports: ["22"],
        sources: [g.id],
        destinations: [g.id],
      },
    ],
  });
  await ok("createRoute", {
    description: "lan",
    network_id: "lan",
    enabled: true,
    peer: peer.id,
    network: "10.1.0.0/16",
    metric: 9,
    masquerade: true,
    groups: [g.id],
    keep_route: true,
  });
  const net = await ok("createNetwork", { name: "prod" });
  await ok(
    "createNetworkResource",
    { name: "db", address: "10.1.0.5", enabled: true, groups: [g.id] },
    { networkId: net.id },
  );
  const zone = await ok("createDnsZone", {
    name: "int",
    domain: "int.example",
    enable_search_domain: false,
    distribution_groups: [g.id],
  });
  await ok(
    "createDnsRecord",
    { name: "db.int.example", type: "A", content: "10.1.0.5", ttl: 60 },
    { zoneId: zone.id },
  );
  await ok("createSetupKey", {
    name: "ci",
    type: "reusable",
    expires_in: 86400,
    auto_groups: [g.id],
    usage_limit: 0,
  });
  await ok("createUser", { name: "bot", role: "user", auto_groups: [], is_service_user: true });
  await ok("createEventStreaming", {
    platform: "datadog",
    config: { api_key: "k", site: "eu" },
    enabled: true,
  });
  await ok("createIngressPeer", { peer_id: peer.id, enabled: true, fallback: false });

  const snapshot = async (s: typeof first) => {
    const out: Record<string, unknown> = {};
    for (const op of LISTS) {
      const r = await s.call(op);
      out[op] = r.status === 200 ? r.body : r.status;
    }
    return out;
  };
  const before = await snapshot(first);
  const token = first.token;
  const dbFile = first.dbFile;
  await first.close();

  const second = await startTestServer({ cloud: true, embeddedIdp: true, dbFile, token });
  try {
    expect(second.server.ownerToken).toBeUndefined();
    const after = await snapshot(second);
    // The owner token's last_used may move; everything else must be equal.
    expect(after).toEqual(before);
    expect(Object.keys(before).length).toBeGreaterThan(10);
  } finally {
    await second.close();
  }
});

test("an acknowledged write survives a power loss: the WAL is synced at every commit (synchronous FULL)", async () => {
  const pragma = (s: { server: { state: { store: { db: { prepare(q: string): { get(): unknown } } } } } }) =>
    s.server.state.store.db.prepare("PRAGMA synchronous").get();
  const full = await startTestServer();
  const normal = await startTestServer({ synchronous: "normal" });
  try {
    // SQLite numbers the settings: 1 NORMAL, 2 FULL.
    expect(pragma(full)).toEqual({ synchronous: 2 });
    expect(pragma(normal)).toEqual({ synchronous: 1 });
  } finally {
    await full.close();
    await normal.close();
  }
});
