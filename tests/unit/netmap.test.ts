/**
 * The network map (netmap/): one test per decision of the module header, on hand-built accounts.
 */
import { NetworkMap, viewAllowed, type PeerMap } from "../../netmap";
import { Account, NOW, randomSnapshot } from "../support/netmap-account";

const mapOf = (a: Account, id: string): PeerMap => new NetworkMap(a.s).peerMap(id) as PeerMap;
const accessible = (a: Account, id: string) => new NetworkMap(a.s).accessiblePeerIds(id);
const entry = (m: PeerMap, id: string) => m.peers.find((p) => p.peer_id === id);

describe("rules", () => {
  test("a unidirectional rule: the source gets the destination (out), the destination the source (in)", () => {
    const a = new Account();
    const ops = a.peer("ops");
    const web = a.peer("web");
    a.group("ops", [ops]);
    a.group("web", [web]);
    a.policy({ sources: ["ops"], destinations: ["web"], protocol: "tcp", ports: ["22"], name: "ssh" });
    const m = mapOf(a, ops);
    expect(entry(m, web)).toMatchObject({
      grants: [
        {
          policy_id: "p1",
          rule_id: "r1",
          rule_name: "ssh",
          protocol: "tcp",
          ports: ["22"],
          direction: "out",
        },
      ],
      allowed: { out: [{ protocol: "tcp", ports: ["22"] }], in: [] },
      conditional: false,
      offline: false,
    });
    expect(entry(mapOf(a, web), ops)).toMatchObject({
      grants: [{ direction: "in" }],
      allowed: { out: [], in: [{ protocol: "tcp", ports: ["22"] }] },
    });
    expect(accessible(a, web)).toEqual([ops]);
    expect(accessible(a, ops)).toEqual([web]);
  });

  test("a bidirectional rule grants both directions to both peers", () => {
    const a = new Account();
    const x = a.peer("x");
    const y = a.peer("y");
    a.group("x", [x]);
    a.group("y", [y]);
    a.policy({
      sources: ["x"],
      destinations: ["y"],
      protocol: "udp",
      port_ranges: [{ start: 5000, end: 5010 }],
      bidirectional: true,
    });
    for (const [me, other] of [
      [x, y],
      [y, x],
    ] as const) {
      const e = entry(mapOf(a, me), other);
      expect(e?.allowed).toEqual({
        out: [{ protocol: "udp", ports: ["5000-5010"] }],
        in: [{ protocol: "udp", ports: ["5000-5010"] }],
      });
    }
  });

  test("only enabled policies and enabled rules count", () => {
    const a = new Account();
    const x = a.peer("x");
    const y = a.peer("y");
    a.group("x", [x]);
    a.group("y", [y]);
    a.policy({ sources: ["x"], destinations: ["y"] }, { enabled: false });
    a.policy({ sources: ["x"], destinations: ["y"], enabled: false });
    expect(mapOf(a, x).peers).toEqual([]);
    a.policy({ sources: ["x"], destinations: ["y"] });
    expect(mapOf(a, x).peers.map((p) => p.peer_id)).toEqual([y]);
  });

  test("a drop rule still puts the peers in each other's map, and wins over accept whatever the order", () => {
    const a = new Account();
    const x = a.peer("x");
    const y = a.peer("y");
    a.group("x", [x]);
    a.group("y", [y]);
    a.policy({ sources: ["x"], destinations: ["y"], action: "drop", protocol: "tcp", ports: ["22"] });
    expect(entry(mapOf(a, x), y)).toMatchObject({
      grants: [{ action: "drop" }],
      allowed: { out: [], in: [] },
    });
    expect(accessible(a, y)).toEqual([x]);
    a.policy({ sources: ["x"], destinations: ["y"], protocol: "all" });
    expect(entry(mapOf(a, x), y)?.allowed.out).toEqual([
      { protocol: "icmp" },
      { protocol: "other" },
      { protocol: "tcp", ports: ["1-21", "23-65535"] },
      { protocol: "udp" },
    ]);
    // A drop of `all` takes everything.
    a.policy({ sources: ["x"], destinations: ["y"], action: "drop", protocol: "all" });
    expect(entry(mapOf(a, x), y)?.allowed.out).toEqual([]);
  });

  test("an action the map does not know allows nothing and subtracts like a drop", () => {
    const a = new Account();
    const x = a.peer("x");
    const y = a.peer("y");
    a.group("x", [x]);
    a.group("y", [y]);
    a.policy({ sources: ["x"], destinations: ["y"], protocol: "tcp" });
    a.policy({ sources: ["x"], destinations: ["y"], protocol: "tcp", ports: ["80"], action: "reject" });
    expect(entry(mapOf(a, x), y)?.allowed.out).toEqual([{ protocol: "tcp", ports: ["1-79", "81-65535"] }]);
  });

  test("tcp, udp, icmp and a protocol the service adds; all covers the added one", () => {
    const a = new Account();
    const x = a.peer("x");
    const y = a.peer("y");
    a.group("x", [x]);
    a.group("y", [y]);
    a.policy({ sources: ["x"], destinations: ["y"], protocol: "icmp" });
    a.policy({ sources: ["x"], destinations: ["y"], protocol: "vendor-ssh" });
    a.policy({ sources: ["x"], destinations: ["y"], protocol: "tcp", ports: ["443", "80"] });
    expect(entry(mapOf(a, x), y)?.allowed.out).toEqual([
      { protocol: "icmp" },
      { protocol: "tcp", ports: ["80", "443"] },
      { protocol: "vendor-ssh" },
    ]);
    const b = new Account();
    const p = b.peer("p");
    const q = b.peer("q");
    b.group("p", [p]);
    b.group("q", [q]);
    b.policy({ sources: ["p"], destinations: ["q"], protocol: "all" });
    b.policy({ sources: ["p"], destinations: ["q"], protocol: "vendor-ssh", action: "drop" });
    expect(entry(mapOf(b, p), q)?.allowed.out).toEqual([
      { protocol: "icmp" },
      { protocol: "other" },
      { protocol: "tcp" },
      { protocol: "udp" },
    ]);
  });

  test("sourceResource and destinationResource of type peer name one peer", () => {
    const a = new Account();
    const x = a.peer("x");
    const y = a.peer("y");
    const z = a.peer("z");
    a.group("xz", [x, z]);
    a.policy({ sourceResource: { id: x, type: "peer" }, destinationResource: { id: y, type: "peer" } });
    expect(accessible(a, x)).toEqual([y]);
    expect(accessible(a, y)).toEqual([x]);
    expect(accessible(a, z)).toEqual([]);
  });

  test("a network resource as sourceResource puts no peer in a map; posture checks apply to a peer sourceResource", () => {
    const a = new Account();
    const x = a.peer("x", { meta: { version: "0.1.0" } });
    const y = a.peer("y");
    a.group("y", [y]);
    a.s.networks.push({
      id: "n",
      name: "n",
      resources: [{ id: "h", name: "h", address: "10.0.0.1/32", type: "host", enabled: true }],
      routers: [{ id: "r", peer: y, metric: 1, masquerade: true, enabled: true }],
    });
    a.policy({ sourceResource: { id: "h", type: "host" }, destinations: ["y"] });
    expect(accessible(a, y)).toEqual([]);
    a.s.posture_checks.push({ id: "pc", name: "v", checks: { nb_version_check: { min_version: "0.40.0" } } });
    a.policy(
      { sourceResource: { id: x, type: "peer" }, destinations: ["y"] },
      { source_posture_checks: ["pc"] },
    );
    expect(accessible(a, y)).toEqual([]);
    a.s.peers[0]!.meta.version = "0.40.0";
    expect(accessible(a, y)).toEqual([x]);
  });

  test("the All group holds every peer; a peer never lists itself", () => {
    const a = new Account();
    const ids = ["a", "b", "c"].map((n) => a.peer(n));
    a.policy({ sources: ["all"], destinations: ["all"], bidirectional: true });
    expect(accessible(a, "a")).toEqual(["b", "c"]);
    expect(mapOf(a, "b").peers.map((p) => p.peer_id)).toEqual(["a", "c"]);
    expect(ids).toHaveLength(3);
  });
});

describe("posture checks", () => {
  /** x (source, with `meta`) -> y under a policy with one posture check. */
  function withCheck(checks: Record<string, unknown>, meta: Record<string, unknown>) {
    const a = new Account();
    const x = a.peer("x", { meta: meta as never });
    const y = a.peer("y");
    a.group("x", [x]);
    a.group("y", [y]);
    a.s.posture_checks.push({ id: "pc", name: "the check", checks: checks as never });
    a.policy({ sources: ["x"], destinations: ["y"] }, { source_posture_checks: ["pc"] });
    return { a, x, y };
  }
  const outcome = (checks: Record<string, unknown>, meta: Record<string, unknown>) => {
    const { a, x, y } = withCheck(checks, meta);
    const e = entry(mapOf(a, x), y);
    if (!e) return "fail";
    expect(entry(mapOf(a, y), x)?.conditional).toBe(e.conditional);
    return e.conditional ? `depends on ${JSON.stringify(e.grants[0]?.depends_on?.[0]?.unknown)}` : "pass";
  };

  test("agent version", () => {
    const c = { nb_version_check: { min_version: "0.40.0" } };
    expect(outcome(c, { version: "0.40.1" })).toBe("pass");
    expect(outcome(c, { version: "0.40.0-dev" })).toBe("pass");
    expect(outcome(c, { version: "0.39.9" })).toBe("fail");
    expect(outcome(c, { version: "development" })).toBe("fail");
    expect(outcome(c, {})).toBe('depends on ["version"]');
  });

  test("OS version: kernel for linux and windows, OS version for darwin, android, ios; unlisted OS fails", () => {
    const c = { os_version_check: { linux: { min_kernel_version: "6.0" }, darwin: { min_version: "14.0" } } };
    expect(outcome(c, { goos: "linux", kernel_version: "6.1.0" })).toBe("pass");
    expect(outcome(c, { goos: "linux", kernel_version: "5.15.0" })).toBe("fail");
    expect(outcome(c, { goos: "darwin", os_version: "14.2.1", kernel_version: "1.0" })).toBe("pass");
    expect(outcome(c, { goos: "darwin", os_version: "13.6" })).toBe("fail");
    expect(outcome(c, { goos: "windows", kernel_version: "10.0.22631" })).toBe("fail");
    expect(outcome(c, { goos: "linux" })).toBe('depends on ["kernel_version"]');
    expect(outcome(c, { kernel_version: "6.1" })).toBe('depends on ["goos"]');
  });

  test("location: allow and deny, by country and by city; an unlocated peer fails", () => {
    const allow = {
      geo_location_check: {
        action: "allow",
        locations: [{ country_code: "DE", city_name: "Berlin" }, { country_code: "FR" }],
      },
    };
    expect(outcome(allow, { country_code: "DE", city_name: "Berlin" })).toBe("pass");
    expect(outcome(allow, { country_code: "DE", city_name: "Munich" })).toBe("fail");
    expect(outcome(allow, { country_code: "FR", city_name: "Paris" })).toBe("pass");
    expect(outcome(allow, { country_code: "" })).toBe("fail");
    expect(outcome(allow, {})).toBe('depends on ["country_code"]');
    const deny = { geo_location_check: { action: "deny", locations: [{ country_code: "DE" }] } };
    expect(outcome(deny, { country_code: "DE", city_name: "Munich" })).toBe("fail");
    expect(outcome(deny, { country_code: "NL" })).toBe("pass");
    expect(outcome(deny, { country_code: "" })).toBe("fail");
  });

  test("network ranges: allow and deny; no address reported fails; unknown depends", () => {
    const allow = { peer_network_range_check: { action: "allow", ranges: ["192.168.0.0/16", "fd00::/8"] } };
    expect(outcome(allow, { network_addresses: ["10.0.0.2/8", "192.168.7.3/24"] })).toBe("pass");
    expect(outcome(allow, { network_addresses: ["fd12::5/64"] })).toBe("pass");
    expect(outcome(allow, { network_addresses: ["10.0.0.2/8"] })).toBe("fail");
    expect(outcome(allow, { network_addresses: [] })).toBe("fail");
    expect(outcome(allow, {})).toBe('depends on ["network_addresses"]');
    const deny = { peer_network_range_check: { action: "deny", ranges: ["10.0.0.0/8"] } };
    expect(outcome(deny, { network_addresses: ["10.1.2.3/8"] })).toBe("fail");
    expect(outcome(deny, { network_addresses: ["172.16.0.1/12"] })).toBe("pass");
  });

  test("processes: every path for the peer's OS must run", () => {
    const c = {
      process_check: {
        processes: [
          { linux_path: "/usr/bin/edr", windows_path: "C:\\edr.exe" },
          { linux_path: "/usr/bin/av" },
        ],
      },
    };
    expect(outcome(c, { goos: "linux", processes: ["/usr/bin/edr", "/usr/bin/av", "/bin/sh"] })).toBe("pass");
    expect(outcome(c, { goos: "linux", processes: ["/usr/bin/edr"] })).toBe("fail");
    // The second process has no Windows path.
    expect(outcome(c, { goos: "windows", processes: ["C:\\edr.exe"] })).toBe("fail");
    expect(outcome(c, { goos: "android", processes: [] })).toBe("fail");
    expect(outcome(c, { goos: "linux" })).toBe('depends on ["processes"]');
  });

  test("a failure wins over an unknown in the same posture check", () => {
    const c = {
      nb_version_check: { min_version: "1.0.0" },
      peer_network_range_check: { action: "allow", ranges: ["10.0.0.0/8"] },
    };
    expect(outcome(c, { version: "0.9.0" })).toBe("fail");
  });

  test("an unknown check is named in depends_on, kept out of allowed and of accessible peers", () => {
    const { a, x, y } = withCheck(
      { process_check: { processes: [{ linux_path: "/edr" }] } },
      { goos: "linux" },
    );
    const m = mapOf(a, x);
    expect(m.depends_on).toEqual([
      { posture_check_id: "pc", posture_check_name: "the check", peer_id: x, unknown: ["processes"] },
    ]);
    expect(entry(m, y)).toMatchObject({ conditional: true, allowed: { out: [], in: [] } });
    expect(accessible(a, x)).toEqual([]);
    expect(accessible(a, y)).toEqual([]);
    expect(mapOf(a, y).depends_on).toHaveLength(1);
  });

  test("checks apply to sources only: a failing destination still gets the source", () => {
    const a = new Account();
    const x = a.peer("x");
    const y = a.peer("y", { meta: { version: "0.1.0" } });
    a.group("x", [x]);
    a.group("y", [y]);
    a.s.posture_checks.push({ id: "pc", name: "v", checks: { nb_version_check: { min_version: "0.40.0" } } });
    a.policy({ sources: ["x"], destinations: ["y"] }, { source_posture_checks: ["pc"] });
    expect(accessible(a, y)).toEqual([x]);
    // The same peer as a source fails: not a source for itself, nor for the others.
    a.policy(
      { sources: ["y"], destinations: ["x"], protocol: "tcp", ports: ["9"] },
      { source_posture_checks: ["pc"] },
    );
    expect(entry(mapOf(a, x), y)?.grants.map((g) => g.policy_id)).toEqual(["p1"]);
  });
});

describe("peer state", () => {
  function pair(over: Parameters<Account["peer"]>[1], settings: Partial<Account["s"]["settings"]> = {}) {
    const a = new Account();
    const x = a.peer("x", over);
    const y = a.peer("y");
    Object.assign(a.s.settings, settings);
    a.policy({ sources: ["all"], destinations: ["all"], bidirectional: true });
    return { a, x, y };
  }
  const day = 86400_000;

  test("login expiration: a user's peer past last_login + expiration, when the account and the peer enable it", () => {
    const over = {
      user_id: "u1",
      login_expiration_enabled: true,
      last_login: new Date(NOW - 2 * day).toISOString(),
    };
    const on = { peer_login_expiration_enabled: true, peer_login_expiration: 86400 };
    const { a, x, y } = pair(over, on);
    expect(mapOf(a, x)).toMatchObject({ status: "login_expired" });
    expect(entry(mapOf(a, y), x)).toMatchObject({
      offline: true,
      offline_reason: expect.stringMatching(/login expired/),
    });
    // Still listed both ways, as the service's accessible-peers does.
    expect(accessible(a, y)).toEqual([x]);
    expect(accessible(a, x)).toEqual([y]);
    expect(mapOf(pair(over, { ...on, peer_login_expiration_enabled: false }).a, x).status).toBe("ok");
    expect(mapOf(pair({ ...over, login_expiration_enabled: false }, on).a, x).status).toBe("ok");
    expect(mapOf(pair({ ...over, user_id: "" }, on).a, x).status).toBe("ok");
    expect(mapOf(pair({ ...over, last_login: new Date(NOW - day / 2).toISOString() }, on).a, x).status).toBe(
      "ok",
    );
  });

  test("inactivity expiration: only while disconnected, last_seen + expiration", () => {
    const over = {
      user_id: "u1",
      inactivity_expiration_enabled: true,
      connected: false,
      last_seen: new Date(NOW - 3600_000).toISOString(),
    };
    const on = { peer_inactivity_expiration_enabled: true, peer_inactivity_expiration: 600 };
    expect(mapOf(pair(over, on).a, "x").status).toBe("inactivity_expired");
    expect(mapOf(pair({ ...over, connected: true }, on).a, "x").status).toBe("ok");
    expect(mapOf(pair(over, { ...on, peer_inactivity_expiration: 7200 }).a, "x").status).toBe("ok");
  });

  test("an offline peer carries no route and has no DNS record for the others", () => {
    const over = { user_id: "u1", login_expired: true };
    const { a, x, y } = pair(over);
    a.s.routes.push({
      id: "rt",
      network_id: "lan",
      enabled: true,
      peer: x,
      network: "10.0.0.0/24",
      metric: 1,
      masquerade: true,
      groups: ["all"],
    });
    const m = mapOf(a, y);
    expect(m.routes).toEqual([]);
    expect(m.dns.zones[0]?.records?.map((r) => r.ip)).toEqual([a.s.peers[1]?.ip]);
  });

  test("approval required: an empty map, in nobody's map, not even through All", () => {
    const { a, x, y } = pair({ approval_required: true });
    expect(mapOf(a, x)).toMatchObject({ status: "approval_required", peers: [] });
    expect(accessible(a, x)).toEqual([]);
    expect(accessible(a, y)).toEqual([]);
  });

  test("blocked and pending users: their peers cannot log in and are offline for the others", () => {
    for (const [user, status] of [
      [{ id: "u1", role: "user", is_blocked: true }, "user_blocked"],
      [{ id: "u1", role: "user", pending_approval: true }, "user_pending"],
    ] as const) {
      const { a, x, y } = pair({ user_id: "u1" });
      a.s.users.push(user);
      expect(mapOf(a, x).status).toBe(status);
      expect(entry(mapOf(a, y), x)?.offline).toBe(true);
    }
  });

  test("a regular user sees only the maps of its own peers, and none when the view is blocked", () => {
    const { a, x, y } = pair({ user_id: "u1" });
    const user = { id: "u1", role: "user" };
    const peer = (id: string) => a.s.peers.find((p) => p.id === id) as never;
    expect(viewAllowed(a.s, user, peer(x))).toBe(true);
    expect(viewAllowed(a.s, user, peer(y))).toBe(false);
    expect(viewAllowed(a.s, { id: "adm", role: "admin" }, peer(y))).toBe(true);
    a.s.settings.regular_users_view_blocked = true;
    expect(viewAllowed(a.s, user, peer(x))).toBe(false);
  });
});

describe("network resources through routers", () => {
  function net() {
    const a = new Account();
    const dev = a.peer("dev");
    const r1 = a.peer("router1");
    const r2 = a.peer("router2");
    const other = a.peer("other");
    a.group("devs", [dev]);
    a.group("routers", [r1, r2]);
    a.s.networks.push({
      id: "n1",
      name: "office",
      resources: [
        { id: "db", name: "db", address: "10.0.0.5/32", type: "host", enabled: true },
        { id: "lan", name: "lan", address: "10.0.1.0/24", type: "subnet", enabled: true },
        { id: "off", name: "off", address: "10.0.2.0/24", type: "subnet", enabled: false },
      ],
      routers: [
        { id: "ro1", peer_groups: ["routers"], metric: 100, masquerade: true, enabled: true },
        { id: "ro2", peer: r2, metric: 10, masquerade: false, enabled: true },
      ],
    });
    a.group("lan-res", [], ["lan", "off"]);
    return { a, dev, r1, r2, other };
  }

  test("a destinationResource is reached through the network's routers, who join the map", () => {
    const { a, dev, r1, r2, other } = net();
    a.policy({
      sources: ["devs"],
      destinationResource: { id: "db", type: "host" },
      protocol: "tcp",
      ports: ["5432"],
    });
    const m = mapOf(a, dev);
    expect(m.resources).toEqual([
      expect.objectContaining({
        resource_id: "db",
        network_id: "n1",
        allowed: [{ protocol: "tcp", ports: ["5432"] }],
        routing_peers: [
          { peer_id: r2, name: "router2", metric: 10, masquerade: false },
          { peer_id: r1, name: "router1", metric: 100, masquerade: true },
        ],
      }),
    ]);
    expect(entry(m, r1)?.routing).toEqual(["routes resource db (network office) for this peer"]);
    expect(accessible(a, dev)).toEqual([r1, r2]);
    // The routers get the source peer; a peer outside the sources gets nothing.
    expect(accessible(a, r1)).toEqual([dev]);
    expect(mapOf(a, other).resources).toEqual([]);
  });

  test("a destination group holding the resource reaches it; a disabled resource is never reached", () => {
    const { a, dev } = net();
    a.policy({ sources: ["devs"], destinations: ["lan-res"] });
    expect(mapOf(a, dev).resources.map((r) => r.resource_id)).toEqual(["lan"]);
  });

  test("without an enabled router the resource is not reached", () => {
    const { a, dev } = net();
    for (const r of a.s.networks[0]?.routers ?? []) r.enabled = false;
    a.policy({ sources: ["devs"], destinationResource: { id: "db", type: "host" } });
    expect(mapOf(a, dev).resources).toEqual([]);
    expect(accessible(a, dev)).toEqual([]);
  });
});

describe("routes", () => {
  function routed() {
    const a = new Account();
    const client = a.peer("client");
    const gw1 = a.peer("gw1");
    const gw2 = a.peer("gw2");
    const outsider = a.peer("outsider");
    a.group("clients", [client]);
    a.group("gws", [gw1, gw2]);
    a.group("nobody", []);
    a.policy({ sources: ["all"], destinations: ["all"], bidirectional: true });
    const route = (id: string, over: Record<string, unknown>) =>
      a.s.routes.push({
        id,
        network_id: "lan",
        enabled: true,
        network: "10.0.0.0/24",
        metric: 100,
        masquerade: true,
        groups: ["clients"],
        ...over,
      });
    return { a, client, gw1, gw2, outsider, route };
  }

  test("distribution groups decide who receives a route; disabled routes are not received", () => {
    const { a, client, gw1, outsider, route } = routed();
    route("r1", { peer: gw1 });
    route("r2", { peer: gw1, network_id: "off", network: "10.9.0.0/16", enabled: false });
    expect(mapOf(a, client).routes).toEqual([
      expect.objectContaining({
        network_id: "lan",
        network: "10.0.0.0/24",
        access: "all",
        exit_node: false,
        auto_apply: true,
        routing_peers: [expect.objectContaining({ route_id: "r1", peer_id: gw1, metric: 100 })],
      }),
    ]);
    expect(mapOf(a, outsider).routes).toEqual([]);
    expect(mapOf(a, gw1).routed.map((r) => [r.route_id, r.enabled])).toEqual([
      ["r1", true],
      ["r2", false],
    ]);
  });

  test("high availability by network_id: every routing peer, lowest metric first; peer_groups routes", () => {
    const { a, client, gw1, gw2, route } = routed();
    route("r1", { peer: gw1, metric: 200 });
    route("r2", { peer_groups: ["gws"], metric: 50 });
    const [r] = mapOf(a, client).routes;
    expect(r?.routing_peers.map((p) => [p.route_id, p.peer_id, p.metric])).toEqual([
      ["r2", gw1, 50],
      ["r2", gw2, 50],
      ["r1", gw1, 200],
    ]);
    // A routing peer of the HA group does not receive the group from its peers.
    a.s.groups.find((g) => g.id === "clients")?.peers.push(gw2);
    expect(mapOf(a, gw2).routes).toEqual([]);
  });

  test("a route comes only from routing peers in the map", () => {
    const { a, client, gw1, route } = routed();
    a.s.policies = [];
    route("r1", { peer: gw1 });
    expect(mapOf(a, client).routes).toEqual([]);
  });

  test("access_control_groups: only what the peer's rules towards them allow", () => {
    const { a, client, gw1, route } = routed();
    route("r1", { peer: gw1, access_control_groups: ["acg"] });
    a.group("acg", []);
    expect(mapOf(a, client).routes[0]?.access).toEqual([]);
    a.policy({ sources: ["clients"], destinations: ["acg"], protocol: "tcp", ports: ["443"] });
    expect(mapOf(a, client).routes[0]).toMatchObject({
      access: [{ protocol: "tcp", ports: ["443"] }],
      grants: [{ policy_id: "p2" }],
    });
  });

  test("exit nodes, and skip_auto_apply", () => {
    const { a, client, gw1, route } = routed();
    route("r1", { peer: gw1, network_id: "exit", network: "0.0.0.0/0", skip_auto_apply: true });
    expect(mapOf(a, client).routes[0]).toMatchObject({ exit_node: true, auto_apply: false });
    a.s.routes[0]!.skip_auto_apply = false;
    expect(mapOf(a, client).routes[0]).toMatchObject({ exit_node: true, auto_apply: true });
  });
});

describe("DNS", () => {
  function dnsAccount() {
    const a = new Account();
    const x = a.peer("x");
    const y = a.peer("y");
    const ns = a.peer("ns");
    a.group("g", [x, ns]);
    a.policy({ sources: ["all"], destinations: ["all"], bidirectional: true });
    const nsg = { primary: true, domains: [], search_domains_enabled: false };
    a.s.nameserver_groups.push(
      {
        id: "n1",
        name: "corp",
        enabled: true,
        groups: ["g"],
        nameservers: [{ ip: "100.64.0.3", ns_type: "udp", port: 53 }],
        ...nsg,
      },
      {
        id: "n2",
        name: "off",
        enabled: false,
        groups: ["g"],
        nameservers: [{ ip: "1.1.1.1", ns_type: "udp", port: 53 }],
        ...nsg,
      },
    );
    a.s.dns_zones.push(
      {
        id: "z1",
        name: "internal",
        domain: "corp.example",
        enabled: true,
        enable_search_domain: true,
        distribution_groups: ["g"],
      },
      {
        id: "z2",
        name: "off",
        domain: "off.example",
        enabled: false,
        enable_search_domain: false,
        distribution_groups: ["g"],
      },
    );
    a.s.settings.dns_domain = "mesh.example";
    return { a, x, y, ns };
  }

  test("nameserver groups and custom zones by group; not the peer's own nameserver; the peers zone", () => {
    const { a, x, y, ns } = dnsAccount();
    const d = mapOf(a, x).dns;
    expect(d.management_enabled).toBe(true);
    expect(d.nameserver_groups.map((g) => g.id)).toEqual(["n1"]);
    expect(d.zones.map((z) => z.domain)).toEqual(["mesh.example", "corp.example"]);
    expect(d.zones[0]?.records?.map((r) => r.name)).toEqual([
      "x.mesh.example",
      "y.mesh.example",
      "ns.mesh.example",
    ]);
    expect(mapOf(a, y).dns.nameserver_groups).toEqual([]);
    expect(mapOf(a, ns).dns.nameserver_groups).toEqual([]);
  });

  test("disabled_management_groups switch DNS off", () => {
    const { a, x, y } = dnsAccount();
    a.s.dns_settings.disabled_management_groups = ["g"];
    expect(mapOf(a, x).dns).toEqual({
      management_enabled: false,
      disabled_by_groups: ["g"],
      nameserver_groups: [],
      zones: [],
    });
    expect(mapOf(a, y).dns.management_enabled).toBe(true);
  });
});

describe("one map alone and every map", () => {
  test.each([1, 2, 3])(
    "seed %i: a peer's map from a fresh index (a scan of the rules) equals its map among all (the rule index)",
    (seed) => {
      const s = randomSnapshot(seed, { peers: 60, groups: 12, policies: 40, resources: 10 });
      const shared = new NetworkMap(s);
      const all = shared.all();
      for (const m of all) {
        expect(new NetworkMap(s).peerMap(m.peer_id)).toEqual(m);
        expect(new NetworkMap(s).accessiblePeerIds(m.peer_id)).toEqual(shared.accessiblePeerIds(m.peer_id));
      }
      // The generated account is not trivial: peers reach peers, resources and routes.
      expect(all.some((m) => m.peers.length > 0)).toBe(true);
      expect(all.some((m) => m.resources.length > 0)).toBe(true);
      expect(all.some((m) => m.routes.length > 0)).toBe(true);
    },
  );
});
