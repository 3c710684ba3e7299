import { accountOf } from "../../server/context";
import { ManualClock, iso } from "../../server/clock";
import type { UserDoc } from "../../server/model";
import { feedProxyLogs, feedTraffic } from "../../server/sim-events";
import { addPeer } from "../support/fixtures";
import { expectError, startTestServer, type CallResult, type TestServer } from "../support/server";

process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";

const T0 = Date.parse("2026-02-01T12:00:00Z");
const at = (minutes: number) => iso(T0 + minutes * 60_000);

/** Sets account settings.extra members directly (the accounts family is not under test here). */
function setTrafficSettings(s: TestServer, extra: Record<string, unknown>): void {
  s.server.state.store.tx((tx) => {
    const acc = accountOf(tx);
    tx.put("account", {
      ...acc,
      settings: { ...acc.settings, extra: { ...(acc.settings.extra as object), ...extra } },
    });
  });
}

async function post(s: TestServer, path: string, body: unknown): Promise<CallResult> {
  return s.raw("POST", path, {
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
  });
}

describe("audit events", () => {
  let s: TestServer;
  const clock = new ManualClock(T0);
  beforeAll(async () => {
    s = await startTestServer({ clock });
  });
  afterAll(() => s.close());

  test("newest first, with the initiator's name and email", async () => {
    clock.advance(1_000);
    const g = (await s.call("createGroup", { body: { name: "audited" } })).body;
    clock.advance(1_000);
    await s.call("deleteGroup", { params: { groupId: g.id } });
    const events = (await s.call("listAuditEvents")).body as any[];
    expect(events.map((e) => e.activity_code).slice(0, 3)).toEqual([
      "group.delete",
      "group.add",
      "account.create",
    ]);
    expect(events[0].id).toBeGreaterThan(events[1].id);
    const owner = s.server.state.store.all<UserDoc>("user")[0]!;
    expect(events[0]).toMatchObject({
      timestamp: iso(T0 + 2_000),
      activity: "Group deleted",
      initiator_id: owner.id,
      initiator_name: "Owner",
      initiator_email: owner.email,
      target_id: g.id,
      meta: { name: "audited" },
    });
  });

  test("an event of a user that no longer exists keeps the id with empty name and email", async () => {
    s.server.state.store.tx((tx) =>
      tx.audit({
        timestamp: iso(clock.now()),
        activity: "User deleted",
        activity_code: "user.delete",
        initiator_id: "gone-user",
        target_id: "x",
        meta: {},
      }),
    );
    const [latest] = (await s.call("listAuditEvents")).body as any[];
    expect(latest).toMatchObject({ initiator_id: "gone-user", initiator_name: "", initiator_email: "" });
  });

  test("without credentials: 401", async () => {
    expectError(await s.call("listAuditEvents", { token: null }), 401);
  });
});

describe("network traffic", () => {
  let s: TestServer;
  let peerA: { id: string; ip: string; name: string };
  let peerB: { id: string; ip: string; name: string };

  const flow = (over: Record<string, unknown>) => ({
    flow_id: "f",
    reporter_id: "r",
    events: [{ type: "TYPE_START", timestamp: at(0) }],
    ...over,
  });

  beforeAll(async () => {
    s = await startTestServer({ cloud: true, simulate: true });
    peerA = addPeer(s, "alpha");
    peerB = addPeer(s, "bravo");
    setTrafficSettings(s, {
      network_traffic_logs_enabled: true,
      network_traffic_packet_counter_enabled: true,
    });
    const owner = s.server.state.store.all<UserDoc>("user")[0]!;
    const res = await post(s, "/sim/traffic", {
      events: [
        flow({
          flow_id: "f1",
          reporter_id: peerA.id,
          source: { id: peerA.id },
          destination: { id: peerB.id },
          user: { id: owner.id },
          protocol: 6,
          direction: "EGRESS",
          connection_type: "P2P",
          events: [
            { type: "TYPE_START", timestamp: at(0) },
            { type: "TYPE_END", timestamp: at(5) },
          ],
        }),
        flow({
          flow_id: "f2",
          reporter_id: peerB.id,
          source: { id: "ext", type: "HOST_RESOURCE", name: "Payroll-DB", address: "10.9.8.7:5432" },
          destination: { id: peerB.id },
          user: { id: "u2", email: "Carol@Example.com", name: "Carol" },
          protocol: 17,
          direction: "INGRESS",
          connection_type: "ROUTED",
          events: [{ type: "TYPE_START", timestamp: at(10) }],
        }),
        flow({
          flow_id: "f3",
          reporter_id: peerA.id,
          source: { id: peerA.id },
          destination: {
            id: "web",
            type: "DOMAIN_RESOURCE",
            name: "intranet.example.com",
            address: "203.0.113.9:443",
          },
          protocol: 1,
          icmp: { type: 8, code: 0 },
          direction: "DIRECTION_UNKNOWN",
          events: [{ type: "TYPE_DROP", timestamp: at(20) }],
        }),
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accepted: 3, dropped: 0 });
  });
  afterAll(() => s.close());

  const list = async (query: Record<string, string | number> = {}) =>
    (await s.call("listTrafficEvents", { query })).body;
  const flows = async (query: Record<string, string | number>) =>
    ((await list(query)).data as any[]).map((e) => e.flow_id);

  test("lists flows newest first with defaults page 1 / page_size 1000; peer endpoints are filled in", async () => {
    const page = await list();
    expect(page).toMatchObject({ page: 1, page_size: 1000, total_records: 3, total_pages: 1 });
    expect(page.data.map((e: any) => e.flow_id)).toEqual(["f3", "f2", "f1"]);
    const f1 = page.data[2];
    expect(f1.source).toMatchObject({ id: peerA.id, type: "PEER", name: "alpha", address: peerA.ip });
    expect(f1.user.email).toBe("owner@privnet.local");
  });

  test("paging: a page, the last page, a page past the end, page_size above 50000 rejected", async () => {
    const p1 = await list({ page_size: 2 });
    expect(p1).toMatchObject({ total_records: 3, total_pages: 2 });
    expect(p1.data.map((e: any) => e.flow_id)).toEqual(["f3", "f2"]);
    expect(await flows({ page_size: 2, page: 2 })).toEqual(["f1"]);
    const past = await list({ page_size: 2, page: 3 });
    expect(past).toMatchObject({ data: [], page: 3, total_records: 3 });
    expectError(await s.call("listTrafficEvents", { query: { page_size: 50001 } }), 422, "page_size");
    expectError(await s.call("listTrafficEvents", { query: { page: 0 } }), 422, "page");
  });

  test("filter user_id", async () => {
    expect(await flows({ user_id: "u2" })).toEqual(["f2"]);
  });
  test("filter reporter_id", async () => {
    expect(await flows({ reporter_id: peerA.id })).toEqual(["f3", "f1"]);
  });
  test("filter protocol", async () => {
    expect(await flows({ protocol: 17 })).toEqual(["f2"]);
    expectError(await s.call("listTrafficEvents", { query: { protocol: 256 } }), 422, "protocol");
  });
  test("filter type: flows having an event of that type", async () => {
    expect(await flows({ type: "TYPE_END" })).toEqual(["f1"]);
    expect(await flows({ type: "TYPE_START" })).toEqual(["f2", "f1"]);
    expectError(await s.call("listTrafficEvents", { query: { type: "START" } }), 422, "type");
  });
  test("filter connection_type", async () => {
    expect(await flows({ connection_type: "ROUTED" })).toEqual(["f2"]);
  });
  test("filter direction", async () => {
    expect(await flows({ direction: "EGRESS" })).toEqual(["f1"]);
    expectError(await s.call("listTrafficEvents", { query: { direction: "UP" } }), 422, "direction");
  });
  test("filter source_id and destination_id", async () => {
    expect(await flows({ source_id: peerA.id })).toEqual(["f3", "f1"]);
    expect(await flows({ destination_id: peerB.id })).toEqual(["f2", "f1"]);
  });
  test("search: case-insensitive partial match on user email, names and addresses", async () => {
    expect(await flows({ search: "carol@example" })).toEqual(["f2"]);
    expect(await flows({ search: "payroll" })).toEqual(["f2"]);
    expect(await flows({ search: "INTRANET" })).toEqual(["f3"]);
    expect(await flows({ search: "203.0.113.9" })).toEqual(["f3"]);
    expect(await flows({ search: "bravo" })).toEqual(["f2", "f1"]);
    expect(await flows({ search: "nothing-matches" })).toEqual([]);
  });
  test("start_date and end_date are inclusive bounds on the flow's event timestamps", async () => {
    expect(await flows({ start_date: at(5), end_date: at(10) })).toEqual(["f2", "f1"]);
    expect(await flows({ start_date: at(11) })).toEqual(["f3"]);
    expect(await flows({ end_date: at(4) })).toEqual(["f1"]);
    // A plain end date covers that whole day.
    expect(await flows({ end_date: "2026-02-01" })).toHaveLength(3);
    expect(await flows({ end_date: "2026-01-31" })).toEqual([]);
    expectError(
      await s.call("listTrafficEvents", { query: { start_date: at(10), end_date: at(0) } }),
      422,
      "end_date",
    );
    expectError(await s.call("listTrafficEvents", { query: { start_date: "yesterday" } }), 422, "start_date");
  });

  test("a flow reported again gets its new events merged in", async () => {
    feedTraffic(s.server.state, [
      flow({ flow_id: "f2", reporter_id: peerB.id, events: [{ type: "TYPE_END", timestamp: at(30) }] }),
    ]);
    const page = await list({ type: "TYPE_END" });
    const f2 = page.data.find((e: any) => e.flow_id === "f2");
    expect(f2.events.map((e: any) => e.type)).toEqual(["TYPE_START", "TYPE_END"]);
    expect(page.data[0].flow_id).toBe("f2");
  });

  test("the feed validates its input", async () => {
    const bad = await post(s, "/sim/traffic", { events: [{ reporter_id: "r", events: [] }] });
    expectError(bad, 422, /events\[0\]\.flow_id/);
    expectError(
      await post(s, "/sim/traffic", { events: [flow({ direction: "UP" })] }),
      422,
      /events\[0\]\.direction/,
    );
    expectError(await post(s, "/sim/traffic", { events: "nope" }), 400, /events/);
    expectError(await post(s, "/sim/traffic", "[1]"), 400);
    expect(() => feedTraffic(s.server.state, [{ flow_id: "x" }])).toThrow(/reporter_id/);
    expect((await list()).total_records).toBe(3);
  });
});

describe("network traffic collection follows the account settings", () => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer({ cloud: true, simulate: true });
  });
  afterEach(() => s.close());

  const ev = (flow_id: string, reporter_id: string) => ({
    flow_id,
    reporter_id,
    rx_packets: 5,
    tx_packets: 7,
    events: [{ type: "TYPE_START", timestamp: at(0) }],
  });

  test("nothing is collected while logging is disabled", async () => {
    expectError(
      await post(s, "/sim/traffic", { events: [ev("a", "r")] }),
      412,
      /network_traffic_logs_enabled/,
    );
    expect((await s.call("listTrafficEvents")).body.total_records).toBe(0);
  });

  test("only peers of network_traffic_logs_groups are logged; packet counters need their switch", async () => {
    const inside = addPeer(s);
    const outside = addPeer(s);
    const g = (await s.call("createGroup", { body: { name: "logged", peers: [inside.id] } })).body;
    setTrafficSettings(s, { network_traffic_logs_enabled: true, network_traffic_logs_groups: [g.id] });
    const r = feedTraffic(s.server.state, [ev("a", inside.id), ev("b", outside.id)]);
    expect(r).toMatchObject({ accepted: 1, dropped: 1 });
    const data = (await s.call("listTrafficEvents")).body.data;
    expect(data.map((e: any) => e.flow_id)).toEqual(["a"]);
    expect(data[0]).toMatchObject({ rx_packets: 0, tx_packets: 0 });
  });

  test("network traffic is cloud-only", async () => {
    const local = await startTestServer();
    try {
      expectError(await local.call("listTrafficEvents"), 404, /cloud/);
    } finally {
      await local.close();
    }
  });
});

/**
 * Proxy log fixtures: four entries whose fields each sort them differently, so every sort_by has its own
 * expected order (ties break by id).
 */
const ENTRIES = [
  {
    id: "A",
    timestamp: at(0),
    host: "b.example",
    path: "/z",
    method: "POST",
    status_code: 500,
    duration_ms: 30,
    source_ip: "10.0.0.10",
    user_id: "u3",
    auth_method_used: "pin",
    reason: "allowed",
  },
  {
    id: "B",
    timestamp: at(1),
    host: "a.example",
    path: "/y",
    method: "DELETE",
    status_code: 200,
    duration_ms: 40,
    source_ip: "10.0.0.9",
    user_id: "u1",
    auth_method_used: "sso",
    reason: "denied: policy",
    user_email: "bob@corp.example",
    user_name: "Bob Builder",
  },
  {
    id: "C",
    timestamp: at(2),
    host: "b.example",
    path: "/a",
    method: "GET",
    status_code: 404,
    duration_ms: 10,
    source_ip: "192.168.1.1",
    user_id: "u4",
    auth_method_used: "password",
    reason: "auth required",
  },
  {
    id: "D",
    timestamp: at(3),
    host: "a.example",
    path: "/b/admin",
    method: "PUT",
    status_code: 302,
    duration_ms: 20,
    source_ip: "10.0.0.100",
    user_id: "u2",
    auth_method_used: "none",
    reason: "allowed",
  },
];

/** The ascending order of each sort_by value over ENTRIES. */
const ASC: Record<string, string[]> = {
  timestamp: ["A", "B", "C", "D"],
  url: ["D", "B", "C", "A"],
  host: ["B", "D", "A", "C"],
  path: ["C", "D", "B", "A"],
  method: ["B", "C", "A", "D"],
  status_code: ["B", "D", "C", "A"],
  duration: ["C", "D", "A", "B"],
  source_ip: ["B", "A", "D", "C"],
  user_id: ["B", "D", "A", "C"],
  auth_method: ["D", "C", "A", "B"],
  reason: ["A", "D", "C", "B"],
};

describe("proxy access logs", () => {
  let s: TestServer;
  const clock = new ManualClock(T0 + 3_600_000);
  beforeAll(async () => {
    s = await startTestServer({ simulate: true, clock });
    const res = await post(s, "/sim/proxy-logs", { entries: ENTRIES });
    expect(res.body).toMatchObject({ accepted: 4, ids: ["A", "B", "C", "D"] });
  });
  afterAll(() => s.close());

  const ids = async (query: Record<string, string | number>) =>
    ((await s.call("listProxyLogs", { query })).body.data as any[]).map((e) => e.id);

  test("defaults: page 1, page_size 50, newest first; full entries", async () => {
    const page = (await s.call("listProxyLogs")).body;
    expect(page).toMatchObject({ page: 1, page_size: 50, total_records: 4, total_pages: 1 });
    expect(page.data.map((e: any) => e.id)).toEqual(["D", "C", "B", "A"]);
    expect(page.data[2]).toMatchObject({
      id: "B",
      service_id: "",
      protocol: "HTTP/1.1",
      metadata: {},
      user_email: "bob@corp.example",
      bytes_upload: 0,
    });
  });

  test("paging, and page_size above 100 rejected (rule 9)", async () => {
    const p2 = (await s.call("listProxyLogs", { query: { page_size: 3, page: 2 } })).body;
    expect(p2).toMatchObject({ page: 2, page_size: 3, total_records: 4, total_pages: 2 });
    expect(p2.data.map((e: any) => e.id)).toEqual(["A"]);
    expect(await ids({ page_size: 3, page: 3 })).toEqual([]);
    expect((await s.call("listProxyLogs", { query: { page_size: 100 } })).status).toBe(200);
    expectError(await s.call("listProxyLogs", { query: { page_size: 101 } }), 422, "page_size");
    expectError(await s.call("listProxyLogs", { query: { page_size: 0 } }), 422, "page_size");
    expectError(await s.call("listProxyLogs", { query: { page: "x" } }), 422, "page");
  });

  const cases = Object.keys(ASC).flatMap((field) => [
    [field, "asc"],
    [field, "desc"],
  ]);
  test.each(cases)("sort_by %s, sort_order %s", async (field, order) => {
    const asc = ASC[field]!;
    expect(await ids({ sort_by: field, sort_order: order })).toEqual(
      order === "asc" ? asc : [...asc].reverse(),
    );
  });

  test("sort_by and sort_order reject unknown values", async () => {
    expectError(await s.call("listProxyLogs", { query: { sort_by: "size" } }), 422, "sort_by");
    expectError(await s.call("listProxyLogs", { query: { sort_order: "up" } }), 422, "sort_order");
  });

  test("search: id, host, path, source ip, user email and user name, case-insensitive", async () => {
    const q = (search: string) => ids({ search, sort_order: "asc" });
    expect(await q("c")).toEqual(["B", "C"]); // id C, Bob's email "corp"
    expect(await q("A.EXAMPLE")).toEqual(["B", "D"]);
    expect(await q("admin")).toEqual(["D"]);
    expect(await q("192.168")).toEqual(["C"]);
    expect(await q("bob@corp")).toEqual(["B"]);
    expect(await q("builder")).toEqual(["B"]);
    expect(await q("no-such-thing")).toEqual([]);
  });

  test("filter source_ip (exact)", async () => {
    expect(await ids({ source_ip: "10.0.0.10" })).toEqual(["A"]);
  });
  test("filter host (exact, case-insensitive)", async () => {
    expect(await ids({ host: "A.example", sort_order: "asc" })).toEqual(["B", "D"]);
    expect(await ids({ host: "example" })).toEqual([]);
  });
  test("filter path (partial)", async () => {
    expect(await ids({ path: "/b" })).toEqual(["D"]);
  });
  test("filter user_id", async () => {
    expect(await ids({ user_id: "u4" })).toEqual(["C"]);
  });
  test("filter user_email (partial)", async () => {
    expect(await ids({ user_email: "CORP.example" })).toEqual(["B"]);
  });
  test("filter user_name (partial)", async () => {
    expect(await ids({ user_name: "bob" })).toEqual(["B"]);
  });
  test("user email and name come from the user when the entry does not carry them", async () => {
    const owner = s.server.state.store.all<UserDoc>("user")[0]!;
    feedProxyLogs(s.server.state, [{ id: "E", host: "o.example", status_code: 204, user_id: owner.id }]);
    expect(await ids({ user_email: "owner@" })).toEqual(["E"]);
    const e = (await s.call("listProxyLogs", { query: { user_name: "Owner" } })).body.data[0];
    expect(e).toMatchObject({
      id: "E",
      user_name: "Owner",
      timestamp: iso(clock.now()),
      method: "GET",
      path: "/",
    });
    s.server.state.store.tx((tx) => tx.delete("proxy_log", "E"));
  });
  test("filter method", async () => {
    expect(await ids({ method: "DELETE" })).toEqual(["B"]);
    expectError(await s.call("listProxyLogs", { query: { method: "TRACE" } }), 422, "method");
  });
  test("filter status: success is 2xx/3xx, failed is 1xx/4xx/5xx", async () => {
    expect(await ids({ status: "success", sort_order: "asc" })).toEqual(["B", "D"]);
    expect(await ids({ status: "failed", sort_order: "asc" })).toEqual(["A", "C"]);
    expectError(await s.call("listProxyLogs", { query: { status: "ok" } }), 422, "status");
  });
  test("filter status_code", async () => {
    expect(await ids({ status_code: 404 })).toEqual(["C"]);
    expectError(await s.call("listProxyLogs", { query: { status_code: 600 } }), 422, "status_code");
  });
  test("start_date and end_date are inclusive bounds", async () => {
    // Entries exactly at both bounds are included.
    expect(await ids({ start_date: at(1), end_date: at(2), sort_order: "asc" })).toEqual(["B", "C"]);
    expect(await ids({ start_date: at(3) })).toEqual(["D"]);
    expect(await ids({ end_date: at(0) })).toEqual(["A"]);
    expectError(await s.call("listProxyLogs", { query: { start_date: "not-a-date" } }), 422, "start_date");
    expectError(
      await s.call("listProxyLogs", { query: { start_date: at(2), end_date: at(1) } }),
      422,
      "end_date",
    );
  });
  test("filters combine", async () => {
    expect(await ids({ host: "b.example", status: "failed", method: "GET" })).toEqual(["C"]);
  });

  test("the feed fills ids and validates entries", async () => {
    const r = feedProxyLogs(s.server.state, [{ host: "x.example", status_code: 200 }]);
    expect(r.ids[0]).toMatch(/^[0-9a-v]{16,}$/);
    expect(await ids({ search: r.ids[0]! })).toEqual(r.ids);
    s.server.state.store.tx((tx) => tx.delete("proxy_log", r.ids[0]!));
    expectError(
      await post(s, "/sim/proxy-logs", { entries: [{ host: "x" }] }),
      422,
      /entries\[0\]\.status_code/,
    );
    expectError(
      await post(s, "/sim/proxy-logs", {
        entries: [{ host: "x", status_code: 200, timestamp: "yesterday" }],
      }),
      422,
      /entries\[0\]\.timestamp/,
    );
    expectError(await post(s, "/sim/proxy-logs", {}), 400, /entries/);
    expect((await s.call("listProxyLogs")).body.total_records).toBe(4);
  });
});

describe("the event feed exists only with --simulate", () => {
  test("POST /sim/proxy-logs is unknown without it", async () => {
    const plain = await startTestServer();
    try {
      expect((await post(plain, "/sim/proxy-logs", { entries: [] })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
