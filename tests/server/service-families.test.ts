/**
 * The families privnet-server serves from the service's v0.77.1 document beyond the spec: the EDR and
 * directory-sync integrations under the service's names (the same objects as the spec's neutral paths), EDR
 * bypasses, MSP tenants, the instance, locations and every network router. Bad input is a 4xx naming the field and
 * changes nothing; secrets are never answered and are sealed in the database file.
 */
import * as fs from "node:fs";
import { ManualClock } from "../../server/clock";
import { challengeName } from "../../server/handlers/msp";
import type { PeerDoc } from "../../server/model";
import { setSimDnsRecord } from "../../server/handlers/reverse-proxies";
import { addPeer } from "../support/fixtures";
import { expectError, startTestServer, type TestServer } from "../support/server";

const clock = new ManualClock(Date.parse("2026-05-01T10:00:00Z"));
let s: TestServer;
let groupId: string;

beforeAll(async () => {
  s = await startTestServer({ clock });
  groupId = (await s.call("createGroup", { body: { name: "checked" } })).body.id;
});
afterAll(() => s.close());

async function lastAudit(code: string) {
  const events = (await s.call("listAuditEvents")).body as { activity_code: string }[];
  return events.find((e) => e.activity_code === code) as { activity_code: string; meta: unknown } | undefined;
}

const sentinel = () => ({
  groups: [groupId],
  last_synced_interval: 24,
  api_token: "s1-token-sealed-7f2c",
  api_url: "https://s1.example.com",
  match_attributes: { active_threats: 0, infected: false },
});

describe("EDR integrations under the service's names", () => {
  test("sentinelone is vendor-a: one object, written by either path, read by both", async () => {
    const created = await s.call("createEdrSentinelOne", { body: sentinel() });
    expect(created.status).toBe(200);
    expect(created.body).not.toHaveProperty("api_token");
    const viaNeutral = await s.call("getEdrVendorA");
    expect(viaNeutral.body).toEqual(created.body);
    expectError(await s.call("createEdrVendorA", { body: sentinel() }), 409, /vendor-a/);
    const updated = await s.call("updateEdrVendorA", { body: { ...sentinel(), last_synced_interval: 72 } });
    expect((await s.call("getEdrSentinelOne")).body).toEqual(updated.body);
    expect(updated.body.last_synced_interval).toBe(72);
    expect((await lastAudit("integration.update"))?.meta).toEqual({ vendor: "sentinelone" });
    // The token is sealed in the database file, never in plain text.
    expect(fs.readFileSync(s.dbFile).includes("s1-token-sealed-7f2c")).toBe(false);
    expect((await s.call("deleteEdrSentinelOne")).body).toEqual({});
    expectError(await s.call("getEdrVendorA"), 404, /vendor-a/);
  });

  test("falcon answers no sync interval; the spec's vendor-c answers it (24 when never set)", async () => {
    const body = {
      groups: [groupId],
      client_id: "falcon-id",
      secret: "falcon-secret",
      cloud_id: "eu-1",
      zta_score_threshold: 70,
    };
    const created = await s.call("createEdrFalcon", { body });
    expect(created.body).not.toHaveProperty("last_synced_interval");
    expect(created.body).not.toHaveProperty("client_id");
    expect(created.body).not.toHaveProperty("secret");
    expect((await s.call("getEdrVendorC")).body.last_synced_interval).toBe(24);
    await s.call("updateEdrVendorC", { body: { ...body, last_synced_interval: 48 } });
    expect((await s.call("getEdrVendorC")).body.last_synced_interval).toBe(48);
    // A write through falcon's path keeps the interval the spec's path set.
    await s.call("updateEdrFalcon", { body: { ...body, zta_score_threshold: 90 } });
    expect((await s.call("getEdrVendorC")).body).toMatchObject({
      last_synced_interval: 48,
      zta_score_threshold: 90,
    });
    const del = await s.call("deleteEdrFalcon");
    expect(del.status).toBe(202);
    expectError(await s.call("getEdrVendorC"), 404);
  });

  test("huntress and fleetdm: their own match attributes, secrets never answered, 422 naming the field", async () => {
    expectError(
      await s.call("createEdrHuntress", {
        body: {
          groups: [groupId],
          last_synced_interval: 12,
          api_key: "k",
          api_secret: "s",
          match_attributes: {},
        },
      }),
      422,
      "last_synced_interval",
    );
    expectError(await s.call("getEdrHuntress"), 404);
    const h = await s.call("createEdrHuntress", {
      body: {
        groups: [groupId],
        last_synced_interval: 24,
        api_key: "huntress-key",
        api_secret: "huntress-secret",
        match_attributes: { defender_status: "Healthy", firewall_status: "Enabled" },
      },
    });
    expect(h.body.match_attributes).toEqual({ defender_status: "Healthy", firewall_status: "Enabled" });
    expect(JSON.stringify(h.body)).not.toMatch(/huntress-key|huntress-secret/);
    expectError(
      await s.call("createEdrFleetDm", {
        body: {
          groups: [groupId],
          last_synced_interval: 24,
          api_url: "fleet",
          api_token: "t",
          match_attributes: {},
        },
      }),
      422,
      "api_url",
    );
    expectError(
      await s.call("createEdrFleetDm", {
        body: {
          groups: [groupId],
          last_synced_interval: 24,
          api_url: "https://fleet.example.com",
          api_token: "t",
          match_attributes: { failing_policies_count_max: -1 },
        },
      }),
      422,
      "match_attributes.failing_policies_count_max",
    );
    expectError(await s.call("getEdrFleetDm"), 404);
    const f = await s.call("createEdrFleetDm", {
      body: {
        groups: [groupId],
        last_synced_interval: 24,
        api_url: "https://fleet.example.com",
        api_token: "fleet-token",
        match_attributes: { disk_encryption_enabled: true, required_policies: [1, 5] },
      },
    });
    expect(f.body).toMatchObject({
      api_url: "https://fleet.example.com",
      match_attributes: { required_policies: [1, 5] },
    });
    expect(JSON.stringify(f.body)).not.toContain("fleet-token");
    // A group an integration checks cannot be deleted.
    expectError(await s.call("deleteGroup", { params: { groupId } }), 400, /EDR integration/);
    await s.call("deleteEdrHuntress");
    await s.call("deleteEdrFleetDm");
  });
});

describe("directory sync under the service's names", () => {
  test("google-idp is vendor-d-idp: the same collection, listed by both", async () => {
    const key = Buffer.from("google-key").toString("base64");
    const created = await s.call("createGoogleWorkspaceSync", {
      body: { service_account_key: key, customer_id: "C0abc", group_prefixes: ["eng-"] },
    });
    expect(created.body).not.toHaveProperty("service_account_key");
    const id = String(created.body.id);
    expect((await s.call("getVendorDIdp", { params: { id } })).body).toEqual(created.body);
    expect((await s.call("listVendorDIdps")).body).toEqual((await s.call("listGoogleWorkspaceSyncs")).body);
    expect((await s.call("syncGoogleWorkspaceSync", { params: { id } })).body).toEqual({ result: "ok" });
    expect((await s.call("listVendorDIdpLogs", { params: { id } })).body).toHaveLength(1);
    // An azure id is not a google one.
    expectError(await s.call("getAzureAdSync", { params: { id } }), 404);
    await s.call("deleteVendorDIdp", { params: { id } });
    expectError(await s.call("getGoogleWorkspaceSync", { params: { id } }), 404);
  });

  test("azure-idp: the host is microsoft.com or microsoft.us, fixed at creation", async () => {
    const body = {
      client_secret: Buffer.from("azure").toString("base64"),
      client_id: "app",
      tenant_id: "tenant",
      host: "graph.example.com",
    };
    expectError(await s.call("createAzureAdSync", { body }), 422, "host");
    const created = await s.call("createAzureAdSync", { body: { ...body, host: "microsoft.us" } });
    const id = String(created.body.id);
    const updated = await s.call("updateAzureAdSync", {
      params: { id },
      body: { host: "microsoft.com", enabled: false },
    });
    expect(updated.body).toMatchObject({ host: "microsoft.us", enabled: false });
    expectError(
      await s.call("updateVendorEIdp", { params: { id }, body: { host: "microsoft.com" } }),
      422,
      "host",
    );
    await s.call("deleteAzureAdSync", { params: { id } });
  });
});

describe("EDR bypasses", () => {
  test("bypass a peer, list it, revoke it; the peer's deletion takes it along", async () => {
    const peer = addPeer(s);
    expectError(await s.call("createPeerEdrBypass", { params: { peerId: "nope" } }), 404, /peer/);
    expect((await s.call("createPeerEdrBypass", { params: { peerId: peer.id } })).body).toEqual({
      peer_id: peer.id,
    });
    expect((await s.call("createPeerEdrBypass", { params: { peerId: peer.id } })).status).toBe(200);
    expect((await s.call("listPeerEdrBypasses")).body).toEqual([{ peer_id: peer.id }]);
    const del = await s.call("deletePeerEdrBypass", { params: { peerId: peer.id } });
    expect(del.status).toBe(200);
    expectError(await s.call("deletePeerEdrBypass", { params: { peerId: peer.id } }), 404);
    await s.call("createPeerEdrBypass", { params: { peerId: peer.id } });
    await s.call("deletePeer", { params: { peerId: peer.id } });
    expect((await s.call("listPeerEdrBypasses")).body).toEqual([]);
  });
});

describe("MSP tenants", () => {
  test("create pending, verify its DNS challenge, rename, unlink; bad groups and roles are 422", async () => {
    expectError(
      await s.call("createMspTenant", {
        body: { name: "Acme", domain: "acme.example", groups: [{ id: "nope", role: "admin" }] },
      }),
      422,
      "groups",
    );
    expectError(
      await s.call("createMspTenant", {
        body: { name: "Acme", domain: "acme.example", groups: [{ id: groupId, role: "owner" }] },
      }),
      422,
      "groups[0].role",
    );
    expect((await s.call("listMspTenants")).body).toEqual([]);
    const t = (
      await s.call("createMspTenant", {
        body: { name: "Acme", domain: "Acme.Example", groups: [{ id: groupId, role: "admin" }] },
      })
    ).body;
    expect(t).toMatchObject({ name: "Acme", domain: "acme.example", status: "pending" });
    expect(typeof t.dns_challenge).toBe("string");
    expectError(
      await s.call("createMspTenant", { body: { name: "Again", domain: "acme.example", groups: [] } }),
      409,
    );
    expectError(
      await s.call("verifyMspTenantDns", { params: { id: t.id } }),
      412,
      challengeName("acme.example"),
    );
    s.server.state.store.tx((tx) => setSimDnsRecord(tx, challengeName("acme.example"), t.dns_challenge));
    expect((await s.call("verifyMspTenantDns", { params: { id: t.id } })).status).toBe(200);
    const renamed = await s.call("updateMspTenant", {
      params: { id: t.id },
      body: { name: "Acme Inc", groups: [] },
    });
    expect(renamed.body).toMatchObject({
      name: "Acme Inc",
      domain: "acme.example",
      status: "active",
      groups: [],
    });
    expectError(await s.call("inviteMspTenant", { params: { id: t.id } }), 412);
    expect(
      (await s.call("createMspTenantSubscription", { params: { id: t.id }, body: { priceID: "p1" } })).status,
    ).toBe(200);
    expectError(await s.call("unlinkMspTenant", { params: { id: t.id }, body: {} }), 422, "owner");
    expect(
      (await s.call("unlinkMspTenant", { params: { id: t.id }, body: { owner: "someone" } })).status,
    ).toBe(200);
    expect((await s.call("listMspTenants")).body).toEqual([]);
    expect((await lastAudit("msp.tenant.unlink"))?.meta).toEqual({ name: "Acme Inc", owner: "someone" });
  });
});

describe("the instance, locations and every router", () => {
  test("version and status", async () => {
    expect((await s.call("getInstanceStatus", { token: null })).body).toEqual({ setup_required: false });
    const v = (await s.call("getInstanceVersion")).body;
    expect(v).toEqual({
      management_current_version: expect.stringMatching(/^v\d+\.\d+\.\d+/),
      management_update_available: false,
    });
  });

  test("locations are those the peers report", async () => {
    const p = addPeer(s);
    s.server.state.store.tx((tx) => {
      const doc = tx.get<PeerDoc>("peer", p.id)!;
      tx.put("peer", { ...doc, country_code: "FR", city_name: "Lyon", geoname_id: 2996944 });
    });
    expect((await s.call("listCountries")).body).toContain("FR");
    expect((await s.call("listCities", { params: { country: "FR" } })).body).toEqual([
      { geoname_id: 2996944, city_name: "Lyon" },
    ]);
    expectError(await s.call("listCities", { params: { country: "france" } }), 422, "country");
  });

  test("every router of every network, in the order they were made", async () => {
    const n1 = (await s.call("createNetwork", { body: { name: "n1" } })).body.id;
    const n2 = (await s.call("createNetwork", { body: { name: "n2" } })).body.id;
    const body = { peer_groups: [groupId], metric: 100, masquerade: true, enabled: true };
    const r1 = (await s.call("createNetworkRouter", { params: { networkId: n1 }, body })).body;
    const r2 = (await s.call("createNetworkRouter", { params: { networkId: n2 }, body })).body;
    expect((await s.call("listAllNetworkRouters")).body).toEqual([r1, r2]);
  });
});
