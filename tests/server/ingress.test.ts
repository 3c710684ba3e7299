import type { PeerDoc } from "../../server/model";
import { addPeer } from "../support/fixtures";
import { expectError, startTestServer, type TestServer } from "../support/server";

/** Ports an empty ingress peer offers: 1024..65535. */
const POOL = 65535 - 1024 + 1;

/** Changes a peer document directly (peers come from agents, not from the API). */
function patchPeer(s: TestServer, id: string, patch: Partial<PeerDoc>): void {
  const { store } = s.server.state;
  store.tx((tx) => {
    tx.put("peer", { ...tx.get<PeerDoc>("peer", id)!, ...patch });
  });
}

describe("ingress without --cloud", () => {
  let s: TestServer;
  beforeAll(async () => {
    process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
    s = await startTestServer();
  });
  afterAll(() => s.close());

  test("every ingress operation answers 404", async () => {
    const peer = addPeer(s);
    expectError(await s.call("listIngressPeers"), 404, /cloud/);
    expectError(
      await s.call("createIngressPeer", { body: { peer_id: peer.id, enabled: true, fallback: false } }),
      404,
    );
    expectError(await s.call("listPortAllocations", { params: { peerId: peer.id } }), 404);
    expect(s.server.state.store.count("ingress_peer")).toBe(0);
  });
});

describe("ingress with --cloud", () => {
  let s: TestServer;
  beforeEach(async () => {
    process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
    s = await startTestServer({ cloud: true });
  });
  afterEach(() => s.close());

  async function ingressPeer(body: { enabled?: boolean; fallback?: boolean } = {}) {
    const peer = addPeer(s);
    const res = await s.call("createIngressPeer", {
      body: { peer_id: peer.id, enabled: body.enabled ?? true, fallback: body.fallback ?? false },
    });
    expect(res.status).toBe(200);
    return { peer, ingress: res.body };
  }

  test("ingress peer lifecycle with computed address, region, ports and connection state", async () => {
    const { peer, ingress } = await ingressPeer();
    expect(ingress).toMatchObject({
      peer_id: peer.id,
      ingress_ip: "203.0.113.1",
      region: "eu-central",
      available_ports: { tcp: POOL, udp: POOL },
      enabled: true,
      fallback: false,
      connected: false,
    });
    expect((await ingressPeer()).ingress.ingress_ip).toBe("203.0.113.2");

    patchPeer(s, peer.id, { connected: true });
    const got = await s.call("getIngressPeer", { params: { ingressPeerId: ingress.id } });
    expect(got.body.connected).toBe(true);
    expect((await s.call("listIngressPeers")).body).toHaveLength(2);

    const updated = await s.call("updateIngressPeer", {
      params: { ingressPeerId: ingress.id },
      body: { enabled: false, fallback: true },
    });
    expect(updated.body).toMatchObject({ enabled: false, fallback: true, ingress_ip: "203.0.113.1" });

    expect((await s.call("deleteIngressPeer", { params: { ingressPeerId: ingress.id } })).body).toEqual({});
    expectError(await s.call("getIngressPeer", { params: { ingressPeerId: ingress.id } }), 404);
    const codes = ((await s.call("listAuditEvents")).body as any[]).map((e) => e.activity_code);
    expect(codes).toEqual(
      expect.arrayContaining(["ingress.peer.create", "ingress.peer.update", "ingress.peer.delete"]),
    );
  });

  test("ingress peer rejections: unknown peer_id, a second ingress peer for a peer, unknown ids", async () => {
    expectError(
      await s.call("createIngressPeer", { body: { peer_id: "nope", enabled: true, fallback: false } }),
      422,
      "peer_id",
    );
    expectError(
      await s.call("createIngressPeer", { body: { enabled: true, fallback: false } }),
      422,
      "peer_id",
    );
    const { peer } = await ingressPeer();
    expectError(
      await s.call("createIngressPeer", { body: { peer_id: peer.id, enabled: true, fallback: true } }),
      409,
      new RegExp(peer.id),
    );
    expectError(
      await s.call("updateIngressPeer", {
        params: { ingressPeerId: "nope" },
        body: { enabled: true, fallback: true },
      }),
      404,
    );
    expectError(await s.call("deleteIngressPeer", { params: { ingressPeerId: "nope" } }), 404);
  });

  test("port allocation lifecycle with computed port_range_mappings", async () => {
    const { ingress } = await ingressPeer();
    const target = addPeer(s, "web");
    const created = await s.call("createPortAllocation", {
      params: { peerId: target.id },
      body: {
        name: "web",
        enabled: true,
        port_ranges: [
          { start: 8000, end: 8009, protocol: "tcp" },
          { start: 5000, end: 5000, protocol: "udp" },
        ],
        direct_port: { count: 2, protocol: "tcp/udp" },
      },
    });
    expect(created.body).toMatchObject({
      name: "web",
      enabled: true,
      ingress_peer_id: ingress.id,
      region: "eu-central",
      ingress_ip: "203.0.113.1",
      direct_port: { count: 2, protocol: "tcp/udp" },
    });
    // TCP and UDP are tracked apart: both ranges start at the pool's first port; tcp/udp needs both free.
    expect(created.body.port_range_mappings).toEqual([
      {
        translated_start: 8000,
        translated_end: 8009,
        ingress_start: 1024,
        ingress_end: 1033,
        protocol: "tcp",
      },
      {
        translated_start: 5000,
        translated_end: 5000,
        ingress_start: 1024,
        ingress_end: 1024,
        protocol: "udp",
      },
      {
        translated_start: 1034,
        translated_end: 1035,
        ingress_start: 1034,
        ingress_end: 1035,
        protocol: "tcp/udp",
      },
    ]);
    const id = created.body.id;
    const free = (await s.call("getIngressPeer", { params: { ingressPeerId: ingress.id } })).body
      .available_ports;
    expect(free).toEqual({ tcp: POOL - 12, udp: POOL - 3 });

    // Another peer's allocation on the same ingress peer gets the next free block.
    const other = addPeer(s, "db");
    const second = await s.call("createPortAllocation", {
      params: { peerId: other.id },
      body: { name: "db", enabled: true, port_ranges: [{ start: 5432, end: 5433, protocol: "tcp" }] },
    });
    expect(second.body.port_range_mappings[0]).toMatchObject({ ingress_start: 1036, ingress_end: 1037 });

    expect(
      (await s.call("getPortAllocation", { params: { peerId: target.id, allocationId: id } })).body,
    ).toEqual(created.body);
    expect((await s.call("listPortAllocations", { params: { peerId: target.id } })).body).toHaveLength(1);
    expect(
      (await s.call("listPortAllocations", { params: { peerId: target.id }, query: { name: "web" } })).body,
    ).toHaveLength(1);
    expect(
      (await s.call("listPortAllocations", { params: { peerId: target.id }, query: { name: "db" } })).body,
    ).toHaveLength(0);

    // PUT: the unchanged range keeps its public ports, the changed one moves, the dropped ones free theirs.
    const updated = await s.call("updatePortAllocation", {
      params: { peerId: target.id, allocationId: id },
      body: {
        name: "web-2",
        enabled: false,
        port_ranges: [
          { start: 8000, end: 8009, protocol: "tcp" },
          { start: 9000, end: 9001, protocol: "tcp" },
        ],
      },
    });
    expect(updated.body).toMatchObject({ name: "web-2", enabled: false });
    expect(updated.body).not.toHaveProperty("direct_port");
    expect(updated.body.port_range_mappings).toEqual([
      {
        translated_start: 8000,
        translated_end: 8009,
        ingress_start: 1024,
        ingress_end: 1033,
        protocol: "tcp",
      },
      {
        translated_start: 9000,
        translated_end: 9001,
        ingress_start: 1034,
        ingress_end: 1035,
        protocol: "tcp",
      },
    ]);
    const after = (await s.call("getIngressPeer", { params: { ingressPeerId: ingress.id } })).body
      .available_ports;
    expect(after).toEqual({ tcp: POOL - 14, udp: POOL });

    // An ingress peer with allocations cannot be deleted; the message names them.
    expectError(await s.call("deleteIngressPeer", { params: { ingressPeerId: ingress.id } }), 400, /web-2/);
    expect(
      (await s.call("deletePortAllocation", { params: { peerId: target.id, allocationId: id } })).body,
    ).toEqual({});
    expectError(await s.call("getPortAllocation", { params: { peerId: target.id, allocationId: id } }), 404);
    await s.call("deletePortAllocation", { params: { peerId: other.id, allocationId: second.body.id } });
    expect((await s.call("deleteIngressPeer", { params: { ingressPeerId: ingress.id } })).body).toEqual({});

    const codes = ((await s.call("listAuditEvents")).body as any[]).map((e) => e.activity_code);
    expect(codes).toEqual(
      expect.arrayContaining([
        "ingress.port.allocation.create",
        "ingress.port.allocation.update",
        "ingress.port.allocation.delete",
      ]),
    );
  });

  test("port allocation rejections: unknown peer or allocation, missing ports, bad ranges", async () => {
    await ingressPeer();
    const target = addPeer(s);
    const other = addPeer(s);
    const body = { name: "x", enabled: true, port_ranges: [{ start: 80, end: 80, protocol: "tcp" }] };
    expectError(await s.call("listPortAllocations", { params: { peerId: "nope" } }), 404, /peer/);
    expectError(await s.call("createPortAllocation", { params: { peerId: "nope" }, body }), 404);
    expectError(
      await s.call("createPortAllocation", {
        params: { peerId: target.id },
        body: { name: "x", enabled: true },
      }),
      422,
      "port_ranges",
    );
    expectError(
      await s.call("createPortAllocation", {
        params: { peerId: target.id },
        body: { ...body, port_ranges: [{ start: 90, end: 80, protocol: "tcp" }] },
      }),
      422,
      "port_ranges[0].end",
    );
    expectError(
      await s.call("createPortAllocation", {
        params: { peerId: target.id },
        body: { ...body, port_ranges: [{ start: 80, end: 80, protocol: "sctp" }] },
      }),
      422,
      "port_ranges[0].protocol",
    );
    expectError(
      await s.call("createPortAllocation", {
        params: { peerId: target.id },
        body: {
          ...body,
          port_ranges: [
            { start: 80, end: 90, protocol: "tcp" },
            { start: 85, end: 95, protocol: "tcp/udp" },
          ],
        },
      }),
      422,
      /^port_ranges\[1\]: overlaps port_ranges\[0\]/,
    );
    expectError(
      await s.call("createPortAllocation", {
        params: { peerId: target.id },
        body: { ...body, port_ranges: [{ start: 1, end: 65535, protocol: "tcp" }] },
      }),
      422,
      /^port_ranges\[0\]: at most/,
    );
    expectError(
      await s.call("createPortAllocation", {
        params: { peerId: target.id },
        body: { name: "x", enabled: true, direct_port: { count: 101, protocol: "tcp" } },
      }),
      422,
      "direct_port.count",
    );
    const id = (await s.call("createPortAllocation", { params: { peerId: target.id }, body })).body.id;
    // The allocation belongs to its peer: under another peer's path it does not exist.
    expectError(await s.call("getPortAllocation", { params: { peerId: other.id, allocationId: id } }), 404);
    expectError(
      await s.call("updatePortAllocation", { params: { peerId: other.id, allocationId: id }, body }),
      404,
    );
    expectError(
      await s.call("deletePortAllocation", { params: { peerId: other.id, allocationId: id } }),
      404,
    );
    expectError(
      await s.call("getPortAllocation", { params: { peerId: target.id, allocationId: "nope" } }),
      404,
    );
  });

  test("no usable ingress peer: 412; a fallback peer serves other regions", async () => {
    const target = addPeer(s);
    const body = { name: "x", enabled: true, port_ranges: [{ start: 80, end: 80, protocol: "tcp" }] };
    expectError(
      await s.call("createPortAllocation", { params: { peerId: target.id }, body }),
      412,
      /no ingress peer available/,
    );
    // A disabled ingress peer does not count.
    const { ingress } = await ingressPeer({ enabled: false });
    expectError(await s.call("createPortAllocation", { params: { peerId: target.id }, body }), 412);

    // A peer in another region needs a fallback ingress peer.
    await s.call("updateIngressPeer", {
      params: { ingressPeerId: ingress.id },
      body: { enabled: true, fallback: false },
    });
    const far = addPeer(s);
    patchPeer(s, far.id, { country_code: "US" });
    expectError(await s.call("createPortAllocation", { params: { peerId: far.id }, body }), 412, /us-east/);
    await s.call("updateIngressPeer", {
      params: { ingressPeerId: ingress.id },
      body: { enabled: true, fallback: true },
    });
    const res = await s.call("createPortAllocation", { params: { peerId: far.id }, body });
    expect(res.body).toMatchObject({ ingress_peer_id: ingress.id, region: "eu-central" });
  });

  test("same-region ingress peers are preferred, and a full ingress peer is skipped", async () => {
    const { ingress: eu } = await ingressPeer({ fallback: true });
    const usPeer = addPeer(s);
    patchPeer(s, usPeer.id, { country_code: "US" });
    const us = (
      await s.call("createIngressPeer", { body: { peer_id: usPeer.id, enabled: true, fallback: false } })
    ).body;
    expect(us.region).toBe("us-east");

    const target = addPeer(s);
    patchPeer(s, target.id, { country_code: "CA" });
    const whole = { name: "all", enabled: true, port_ranges: [{ start: 1024, end: 65535, protocol: "tcp" }] };
    const first = await s.call("createPortAllocation", { params: { peerId: target.id }, body: whole });
    expect(first.body.ingress_peer_id).toBe(us.id);
    expect(
      (await s.call("getIngressPeer", { params: { ingressPeerId: us.id } })).body.available_ports,
    ).toEqual({
      tcp: 0,
      udp: POOL,
    });
    // The US ingress peer is full: the EU fallback takes the next one.
    const second = await s.call("createPortAllocation", { params: { peerId: target.id }, body: whole });
    expect(second.body.ingress_peer_id).toBe(eu.id);
    // Now nothing fits anywhere.
    expectError(
      await s.call("createPortAllocation", { params: { peerId: target.id }, body: whole }),
      412,
      /free/,
    );
    // UDP is a separate space.
    const udp = await s.call("createPortAllocation", {
      params: { peerId: target.id },
      body: { name: "dns", enabled: true, port_ranges: [{ start: 53, end: 53, protocol: "udp" }] },
    });
    expect(udp.body.port_range_mappings[0]).toMatchObject({ ingress_start: 1024, protocol: "udp" });
  });
});
