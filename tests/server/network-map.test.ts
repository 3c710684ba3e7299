/**
 * The network map served by privnet-server: /internal/network-map, accessible-peers from the module, the
 * simulated agent's metadata moving a peer in and out of posture checks, and a property test comparing
 * accessible-peers with the module run on the account as read through the API.
 */
import { NetworkMap, type PeerMap, type PeerMeta } from "../../netmap";
import { ManualClock } from "../../server/clock";
import { addPeer, addUserWithToken } from "../support/fixtures";
import { picker, prng, snapshotFromApi } from "../support/netmap-account";
import { expectError, startTestServer, type CallResult, type TestServer } from "../support/server";

const clock = new ManualClock(Date.parse("2026-06-01T09:00:00Z"));
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ clock, simulate: true });
});
afterAll(() => s.close());

async function post(t: TestServer, path: string, body: unknown = {}): Promise<CallResult> {
  const res = await t.raw("POST", path, {
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
  });
  if (res.status >= 400) expect(res.body).toEqual({ message: expect.any(String), code: res.status });
  return res;
}

async function get(t: TestServer, path: string, token: string | null = t.token): Promise<CallResult> {
  return t.raw("GET", path, { headers: token === null ? {} : { Authorization: `Token ${token}` } });
}

async function setupKey(t: TestServer, autoGroups: string[] = []): Promise<string> {
  const res = await t.call("createSetupKey", {
    body: { name: "k", type: "reusable", expires_in: 86400, auto_groups: autoGroups, usage_limit: 0 },
  });
  return res.body.key as string;
}

async function enroll(t: TestServer, key: string, hostname: string, meta: Record<string, unknown> = {}) {
  const res = await post(t, "/sim/enroll", { setup_key: key, hostname, ...meta });
  expect(res.status).toBe(200);
  return res.body as { id: string; ip: string; name: string };
}

const group = async (t: TestServer, name: string, peers: string[]) =>
  (await t.call("createGroup", { body: { name, peers } })).body.id as string;

const accessible = async (t: TestServer, id: string, token?: string) =>
  ((await t.call("listAccessiblePeers", { params: { peerId: id }, token })).body as { id: string }[]).map(
    (p) => p.id,
  );

function rule(over: Record<string, unknown>) {
  return { name: "r", enabled: true, action: "accept", bidirectional: false, protocol: "all", ...over };
}

describe("GET /internal/network-map", () => {
  test("one peer's full map; every peer's; the API's authentication and visibility", async () => {
    const a = addPeer(s, "map-a");
    const b = addPeer(s, "map-b");
    const ga = await group(s, "map-ga", [a.id]);
    const gb = await group(s, "map-gb", [b.id]);
    const pol = await s.call("createPolicy", {
      body: {
        name: "map-ssh",
        enabled: true,
        rules: [rule({ protocol: "tcp", ports: ["22"], sources: [ga], destinations: [gb] })],
      },
    });
    const res = await get(s, `/internal/network-map/${b.id}`);
    expect(res.status).toBe(200);
    const m = res.body as PeerMap;
    expect(m).toMatchObject({ peer_id: b.id, status: "ok", dns: { management_enabled: true } });
    expect(m.peers).toEqual([
      expect.objectContaining({
        peer_id: a.id,
        grants: [
          expect.objectContaining({
            policy_id: pol.body.id,
            protocol: "tcp",
            ports: ["22"],
            direction: "in",
          }),
        ],
        allowed: { out: [], in: [{ protocol: "tcp", ports: ["22"] }] },
      }),
    ]);
    const all = await get(s, "/internal/network-map");
    expect((all.body as PeerMap[]).map((x) => x.peer_id)).toEqual(expect.arrayContaining([a.id, b.id]));

    expect((await get(s, `/internal/network-map/${b.id}`, null)).status).toBe(401);
    expect((await get(s, "/internal/network-map/nope")).status).toBe(404);
    // A regular user: no map while the account blocks regular users' view (the default), then the maps of its
    // own peers only (others are 404, as for GET /api/peers/{id}).
    const user = addUserWithToken(s, "user");
    const own = addPeer(s, "map-own", { userId: user.id });
    expect((await get(s, `/internal/network-map/${own.id}`, user.token)).status).toBe(403);
    expect(await accessible(s, own.id, user.token)).toEqual([]);
    const account = (await s.call("listAccounts")).body[0];
    await s.call("updateAccount", {
      params: { accountId: account.id },
      body: { settings: { ...account.settings, regular_users_view_blocked: false } },
    });
    expect((await get(s, `/internal/network-map/${own.id}`, user.token)).status).toBe(200);
    expect((await get(s, `/internal/network-map/${b.id}`, user.token)).status).toBe(404);
    expect((await get(s, "/internal/network-map", user.token)).body.map((x: PeerMap) => x.peer_id)).toEqual([
      own.id,
    ]);
    await s.call("deletePolicy", { params: { policyId: pol.body.id } });
  });
});

describe("the simulated agent's metadata", () => {
  test("enrollment stores full metadata; the API shows its fields, the map reads the rest", async () => {
    const key = await setupKey(s);
    const p = await enroll(s, key, "meta-mac", {
      version: "0.41.2",
      os: "macOS 14.2",
      os_version: "14.2",
      kernel_version: "23.2.0",
      country_code: "FR",
      city_name: "Paris",
      connection_ip: "203.0.113.7",
      network_addresses: ["192.168.50.2/24", "fd00::2/64"],
      processes: ["/Applications/EDR.app/Contents/MacOS/edr"],
    });
    expect(p).toMatchObject({
      version: "0.41.2",
      os: "macOS 14.2",
      kernel_version: "23.2.0",
      country_code: "FR",
      city_name: "Paris",
      connection_ip: "203.0.113.7",
    });
    const doc = s.server.state.store.get("peer", p.id) as Record<string, any>;
    expect(doc.meta).toEqual({
      goos: "darwin",
      os_version: "14.2",
      network_addresses: ["192.168.50.2/24", "fd00::2/64"],
      processes: ["/Applications/EDR.app/Contents/MacOS/edr"],
    });
    // Defaults: the default agent's metadata.
    const d = await enroll(s, key, "meta-default");
    expect(d).toMatchObject({ version: "0.40.0", os: "linux", kernel_version: "6.1.0", country_code: "DE" });
    expect((s.server.state.store.get("peer", d.id) as any).meta).toEqual({
      network_addresses: ["192.168.1.10/24"],
      processes: [],
    });
  });

  test("sim meta moves a peer in and out of a posture check; login and connection state drive expiry", async () => {
    const key = await setupKey(s);
    const dev = await enroll(s, key, "pc-dev", { processes: [] });
    const srv = await enroll(s, key, "pc-srv");
    const gd = await group(s, "pc-devs", [dev.id]);
    const gs = await group(s, "pc-srvs", [srv.id]);
    const check = await s.call("createPostureCheck", {
      body: {
        name: "edr running",
        description: "",
        checks: { process_check: { processes: [{ linux_path: "/opt/edr" }] } },
      },
    });
    const pol = await s.call("createPolicy", {
      body: {
        name: "pc-policy",
        enabled: true,
        source_posture_checks: [check.body.id],
        rules: [rule({ sources: [gd], destinations: [gs] })],
      },
    });
    expect(await accessible(s, srv.id)).toEqual([]);
    expect((await post(s, `/sim/peers/${dev.id}/meta`, { processes: ["/opt/edr"] })).status).toBe(200);
    expect(await accessible(s, srv.id)).toEqual([dev.id]);
    expect(await accessible(s, dev.id)).toEqual([srv.id]);
    const listed = (await s.call("listPeers", { query: { name: "pc-srv" } })).body[0];
    expect(listed.accessible_peers_count).toBe(1);
    // Another OS family: the check has no path for it.
    await post(s, `/sim/peers/${dev.id}/meta`, { os: "Windows 11", kernel_version: "10.0.22631" });
    expect(await accessible(s, srv.id)).toEqual([]);
    await post(s, `/sim/peers/${dev.id}/meta`, { goos: "linux" });
    expect(await accessible(s, srv.id)).toEqual([dev.id]);
    await s.call("deletePolicy", { params: { policyId: pol.body.id } });
    await s.call("deletePostureCheck", { params: { postureCheckId: check.body.id } });
  });

  test("login expiration follows the clock and `sim login`; inactivity follows disconnect", async () => {
    const t = await startTestServer({
      clock: new ManualClock(Date.parse("2026-06-01T09:00:00Z")),
      simulate: true,
    });
    try {
      const c = t.server.state.clock as ManualClock;
      const user = addUserWithToken(t, "admin");
      const laptop = addPeer(t, "laptop", { userId: user.id });
      const box = addPeer(t, "box");
      const all = (await t.call("listGroups", { query: { name: "All" } })).body[0].id;
      await t.call("createPolicy", {
        body: {
          name: "mesh",
          enabled: true,
          rules: [rule({ sources: [all], destinations: [all], bidirectional: true })],
        },
      });
      const account = (await t.call("listAccounts")).body[0];
      await t.call("updateAccount", {
        params: { accountId: account.id },
        body: {
          settings: {
            ...account.settings,
            peer_login_expiration_enabled: true,
            peer_login_expiration: 3600,
            peer_inactivity_expiration_enabled: true,
            peer_inactivity_expiration: 600,
          },
        },
      });
      const status = async (id: string) => (await get(t, `/internal/network-map/${id}`)).body.status;
      expect(await status(laptop.id)).toBe("ok");
      c.advance(3600_000);
      expect(await status(laptop.id)).toBe("login_expired");
      const boxMap = (await get(t, `/internal/network-map/${box.id}`)).body as PeerMap;
      expect(boxMap.peers.find((p) => p.peer_id === laptop.id)).toMatchObject({ offline: true });
      expect((await post(t, `/sim/peers/${laptop.id}/login`)).status).toBe(200);
      expect(await status(laptop.id)).toBe("ok");
      // Inactivity: only a user's peer with the switch on, while disconnected.
      await t.call("updatePeer", {
        params: { peerId: laptop.id },
        body: {
          name: "laptop",
          ssh_enabled: false,
          login_expiration_enabled: true,
          inactivity_expiration_enabled: true,
        },
      });
      await post(t, `/sim/peers/${laptop.id}/connect`);
      c.advance(1200_000);
      expect(await status(laptop.id)).toBe("ok");
      await post(t, `/sim/peers/${laptop.id}/disconnect`);
      c.advance(600_000);
      expect(await status(laptop.id)).toBe("inactivity_expired");
    } finally {
      await t.close();
    }
  });

  test("bad metadata is a 422 naming the field; an unknown peer is 404", async () => {
    const key = await setupKey(s);
    const p = await enroll(s, key, "bad-meta");
    const cases: [unknown, RegExp][] = [
      [{ network_addresses: ["192.168.1.10"] }, /network_addresses\[0\]/],
      [{ country_code: "germany" }, /country_code/],
      [{ goos: "Linux OS" }, /goos/],
      [{ processes: [""] }, /processes\[0\]/],
      [{ connection_ip: "300.1.1.1" }, /connection_ip/],
      [{ colour: "blue" }, /colour/],
      [{}, /at least one of/],
    ];
    for (const [body, field] of cases) {
      const res = await post(s, `/sim/peers/${p.id}/meta`, body);
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(field);
    }
    const bad = await post(s, "/sim/enroll", {
      setup_key: key,
      hostname: "x",
      network_addresses: "10.0.0.1/8",
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/network_addresses/);
    expectError(await post(s, "/sim/peers/nope/meta", { version: "1.0.0" }), 404);
    expectError(await post(s, "/sim/peers/nope/login"), 404);
  });
});

describe("property: accessible-peers equals the module on the account read through the API", () => {
  /** Builds a random account through the API and the simulated agent; returns the metadata reported. */
  async function randomAccount(t: TestServer, seed: number): Promise<Map<string, PeerMeta>> {
    const r = picker(prng(seed));
    const key = await setupKey(t);
    const reported = new Map<string, PeerMeta>();
    const peers: string[] = [];
    for (let i = 0; i < 14; i++) {
      const meta = {
        version: r.pick(["0.39.0", "0.40.0", "0.41.3-dev"]),
        os: r.pick(["linux", "Windows 11", "macOS 14.1"]),
        os_version: r.pick(["13.0", "14.1"]),
        kernel_version: r.pick(["5.15.0", "6.1.0", "10.0.19045"]),
        country_code: r.pick(["DE", "FR", "US"]),
        city_name: r.pick(["Berlin", "Paris", ""]),
        network_addresses: r.chance(0.8) ? [r.pick(["192.168.1.10/24", "10.1.2.3/16", "172.16.5.5/12"])] : [],
        processes: r.chance(0.5) ? ["/opt/edr", "C:\\edr.exe", "/Applications/edr"] : [],
      };
      const p = await enroll(t, key, `p${i}`, meta);
      const goos = meta.os.startsWith("Windows")
        ? "windows"
        : meta.os.startsWith("macOS")
          ? "darwin"
          : "linux";
      reported.set(p.id, {
        goos,
        os_version: meta.os_version,
        network_addresses: meta.network_addresses,
        processes: meta.processes,
      });
      peers.push(p.id);
    }
    // Small groups, and All only now and then, so that access is sparse and each clause shows.
    const all = (await t.call("listGroups", { query: { name: "All" } })).body[0].id as string;
    const groups: string[] = [];
    for (let i = 0; i < 6; i++) groups.push(await group(t, `g${i}`, r.some(peers, 3)));
    const someGroups = () => (r.chance(0.1) ? [all] : r.some(groups, 2));
    const checks: string[] = [];
    for (const checksBody of [
      { nb_version_check: { min_version: "0.40.0" } },
      { os_version_check: { linux: { min_kernel_version: "6.0" }, darwin: { min_version: "14.0" } } },
      { geo_location_check: { action: r.pick(["allow", "deny"]), locations: [{ country_code: "DE" }] } },
      { peer_network_range_check: { action: r.pick(["allow", "deny"]), ranges: ["192.168.0.0/16"] } },
      {
        process_check: {
          processes: [{ linux_path: "/opt/edr", windows_path: "C:\\edr.exe", mac_path: "/Applications/edr" }],
        },
      },
    ])
      checks.push(
        (
          await t.call("createPostureCheck", {
            body: { name: `c${checks.length}`, description: "", checks: checksBody },
          })
        ).body.id,
      );
    const net = (await t.call("createNetwork", { body: { name: "net" } })).body.id;
    const resGroup = await group(t, "resources", []);
    const res = (
      await t.call("createNetworkResource", {
        params: { networkId: net },
        body: { name: "db", address: "10.9.0.5", enabled: true, groups: [resGroup] },
      })
    ).body.id;
    await t.call("createNetworkRouter", {
      params: { networkId: net },
      body: { peer: r.pick(peers), metric: 10, masquerade: true, enabled: true },
    });
    for (let i = 0; i < 12; i++) {
      const proto = r.pick(["all", "tcp", "udp", "icmp"]);
      const target = r.int(10);
      const body = rule({
        name: `rule${i}`,
        enabled: r.chance(0.9),
        action: r.chance(0.2) ? "drop" : "accept",
        bidirectional: r.chance(0.4),
        protocol: proto,
        ...(proto === "tcp" || proto === "udp" ? { ports: [String(1 + r.int(1000))] } : {}),
        ...(r.chance(0.15)
          ? { sourceResource: { id: r.pick(peers), type: "peer" } }
          : { sources: someGroups() }),
        ...(target === 0
          ? { destinationResource: { id: res, type: "host" } }
          : target === 1
            ? { destinations: [resGroup] }
            : target === 2
              ? { destinationResource: { id: r.pick(peers), type: "peer" } }
              : { destinations: someGroups() }),
      });
      const created = await t.call("createPolicy", {
        body: {
          name: `policy${i}`,
          enabled: r.chance(0.9),
          // Each posture check guards a policy of its own, and others at random.
          source_posture_checks:
            i < checks.length ? [checks[i] as string] : r.chance(0.4) ? r.some(checks, 2) : [],
          rules: [body],
        },
      });
      expect(created.status).toBe(200);
    }
    return reported;
  }

  test.each([1, 2, 3, 4, 5, 6])("seed %i", async (seed) => {
    const t = await startTestServer({
      clock: new ManualClock(Date.parse("2026-06-01T09:00:00Z")),
      simulate: true,
    });
    try {
      const reported = await randomAccount(t, seed);
      const snap = await snapshotFromApi(t, t.server.state.clock.now(), reported);
      const map = new NetworkMap(snap);
      const listed = (await t.call("listPeers")).body as { id: string; accessible_peers_count: number }[];
      let nonEmpty = 0;
      for (const p of listed) {
        const expected = map.accessiblePeerIds(p.id) as string[];
        expect({ peer: p.id, ids: (await accessible(t, p.id)).sort() }).toEqual({
          peer: p.id,
          ids: [...expected].sort(),
        });
        expect(p.accessible_peers_count).toBe(expected.length);
        // And the full map the server serves is the module's.
        expect((await get(t, `/internal/network-map/${p.id}`)).body).toEqual(map.peerMap(p.id));
        if (expected.length) nonEmpty += 1;
      }
      // The account is not trivially empty: most peers reach someone.
      expect(nonEmpty).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});
