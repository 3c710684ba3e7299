import { MASKED_CREDENTIAL } from "../../api/event-streaming";
import { ManualClock, ZERO_TIME, iso } from "../../server/clock";
import type { EventStreamingDoc } from "../../server/handlers/integrations";
import type { UserDoc } from "../../server/model";
import { expectError, startTestServer, type TestServer } from "../support/server";

const clock = new ManualClock(Date.parse("2026-03-01T10:00:00Z"));
let s: TestServer;
let ownerId: string;
let groupId: string;

beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer({ clock });
  ownerId = s.server.state.store.all<UserDoc>("user")[0]!.id;
  groupId = (await s.call("createGroup", { body: { name: "edr-checked" } })).body.id;
});
afterAll(() => s.close());

/** The newest audit event with this code. */
async function lastAudit(code: string) {
  const events = (await s.call("listAuditEvents")).body as { activity_code: string }[];
  return events.find((e) => e.activity_code === code) as any;
}

const vendorA = () => ({
  groups: [groupId],
  last_synced_interval: 24,
  api_token: "token-a-secret",
  api_url: "https://edr-a.example.com/api",
  match_attributes: { active_threats: 0, firewall_enabled: true, network_status: "connected" },
});
const vendorB = () => ({
  groups: [groupId],
  last_synced_interval: 48,
  client_id: "client-b",
  tenant_id: "tenant-b",
  secret: "secret-b",
});
const vendorC = () => ({
  groups: [groupId],
  client_id: "client-c-secret",
  secret: "secret-c",
  cloud_id: "us-1",
  zta_score_threshold: 70,
});

describe("EDR singletons", () => {
  test("vendor-a: 404 before create, create, 409 on a second create, replace, delete", async () => {
    expectError(await s.call("getEdrVendorA"), 404, /vendor-a/);
    expectError(await s.call("updateEdrVendorA", { body: vendorA() }), 404);
    expectError(await s.call("deleteEdrVendorA"), 404);

    const created = await s.call("createEdrVendorA", { body: vendorA() });
    expect(created.status).toBe(200);
    expect(typeof created.body.id).toBe("number");
    expect(created.body).toMatchObject({
      enabled: true,
      created_by: ownerId,
      created_at: iso(clock.now()),
      last_synced_at: ZERO_TIME,
      last_synced_interval: 24,
      api_url: "https://edr-a.example.com/api",
      match_attributes: { active_threats: 0, firewall_enabled: true, network_status: "connected" },
    });
    // groups come back as full Group objects; the token never does.
    expect(created.body.groups).toEqual([
      expect.objectContaining({ id: groupId, name: "edr-checked", peers: [], resources: [] }),
    ]);
    expect(JSON.stringify(created.body)).not.toContain("token-a-secret");
    expect((await lastAudit("integration.create")).meta).toEqual({ vendor: "sentinelone" });

    expectError(await s.call("createEdrVendorA", { body: vendorA() }), 409, /vendor-a/);

    clock.advance(60_000);
    const replaced = await s.call("updateEdrVendorA", {
      body: { ...vendorA(), last_synced_interval: 72, enabled: false, api_url: "https://b.example.com" },
    });
    expect(replaced.body).toMatchObject({
      id: created.body.id,
      created_at: created.body.created_at,
      updated_at: iso(clock.now()),
      last_synced_interval: 72,
      enabled: false,
      api_url: "https://b.example.com",
    });
    expect((await s.call("getEdrVendorA")).body.enabled).toBe(false);

    expect((await s.call("deleteEdrVendorA")).body).toEqual({});
    expectError(await s.call("getEdrVendorA"), 404);
    expect((await lastAudit("integration.delete")).meta).toEqual({ vendor: "sentinelone" });
  });

  test("vendor-a: rejects unknown groups, a short sync interval and a bad URL (rule 7)", async () => {
    expectError(
      await s.call("createEdrVendorA", { body: { ...vendorA(), groups: ["nope"] } }),
      422,
      "groups",
    );
    expectError(
      await s.call("createEdrVendorA", { body: { ...vendorA(), last_synced_interval: 23 } }),
      422,
      "last_synced_interval",
    );
    expectError(
      await s.call("createEdrVendorA", { body: { ...vendorA(), api_url: "nope" } }),
      422,
      "api_url",
    );
    expectError(
      await s.call("createEdrVendorA", { body: { ...vendorA(), api_token: "" } }),
      422,
      "api_token",
    );
    // Nothing was created by the failed requests.
    expectError(await s.call("getEdrVendorA"), 404);
  });

  test("vendor-b: get answers 404 before create and the stored integration after, without the secret", async () => {
    expectError(await s.call("getEdrVendorB"), 404);
    const created = await s.call("createEdrVendorB", { body: vendorB() });
    const got = await s.call("getEdrVendorB");
    expect(got.body).toEqual(created.body);
    expect(JSON.stringify(got.body)).not.toContain(vendorB().secret);
    await s.call("deleteEdrVendorB");
    expectError(await s.call("getEdrVendorB"), 404);
  });

  test("vendor-c: update replaces the integration, validates, and answers 404 when there is none", async () => {
    expectError(await s.call("updateEdrVendorC", { body: vendorC() }), 404);
    await s.call("createEdrVendorC", { body: vendorC() });
    const updated = await s.call("updateEdrVendorC", {
      body: { ...vendorC(), cloud_id: "us-2", zta_score_threshold: 80 },
    });
    expect(updated.body).toMatchObject({ cloud_id: "us-2", zta_score_threshold: 80 });
    expect(updated.body).not.toHaveProperty("secret");
    expect(updated.body).not.toHaveProperty("client_id");
    expectError(
      await s.call("updateEdrVendorC", { body: { ...vendorC(), zta_score_threshold: 101 } }),
      422,
      "zta_score_threshold",
    );
    expect((await s.call("getEdrVendorC")).body.zta_score_threshold).toBe(80);
    expect((await s.call("deleteEdrVendorC")).status).toBe(202);
  });

  test("vendor-b: lifecycle without returning the secret", async () => {
    const created = await s.call("createEdrVendorB", { body: vendorB() });
    expect(created.body).toMatchObject({
      client_id: "client-b",
      tenant_id: "tenant-b",
      last_synced_interval: 48,
    });
    expect(created.body).not.toHaveProperty("secret");
    expectError(await s.call("createEdrVendorB", { body: vendorB() }), 409);
    const updated = await s.call("updateEdrVendorB", { body: { ...vendorB(), tenant_id: "tenant-2" } });
    expect(updated.body.tenant_id).toBe("tenant-2");
    // An omitted `enabled` on replace keeps the stored value.
    expect(updated.body.enabled).toBe(true);
    expectError(
      await s.call("updateEdrVendorB", { body: { ...vendorB(), secret: undefined } }),
      422,
      "secret",
    );
    expect((await s.call("deleteEdrVendorB")).body).toEqual({});
    expectError(await s.call("deleteEdrVendorB"), 404);
  });

  test("vendor-c: optional interval, zta_score_threshold at most 100, DELETE is 202 without body", async () => {
    expectError(
      await s.call("createEdrVendorC", { body: { ...vendorC(), zta_score_threshold: 101 } }),
      422,
      "zta_score_threshold",
    );
    expectError(
      await s.call("createEdrVendorC", { body: { ...vendorC(), last_synced_interval: 12 } }),
      422,
      "last_synced_interval",
    );
    const created = await s.call("createEdrVendorC", { body: vendorC() });
    expect(created.body).toMatchObject({
      cloud_id: "us-1",
      zta_score_threshold: 70,
      last_synced_interval: 24,
    });
    expect(created.body).not.toHaveProperty("client_id");
    expect(JSON.stringify(created.body)).not.toContain("secret");
    expect((await s.call("getEdrVendorC")).body.id).toBe(created.body.id);
    const del = await s.call("deleteEdrVendorC");
    expect(del.status).toBe(202);
    expect(del.body).toBe("");
    expectError(await s.call("getEdrVendorC"), 404);
  });

  test("a group used by an EDR integration cannot be deleted", async () => {
    await s.call("createEdrVendorB", { body: vendorB() });
    expectError(await s.call("deleteGroup", { params: { groupId } }), 400, /EDR integration/);
    await s.call("deleteEdrVendorB");
  });

  test("integer ids are unique across integrations", async () => {
    const a = (await s.call("createEdrVendorA", { body: vendorA() })).body.id;
    const b = (await s.call("createEdrVendorB", { body: vendorB() })).body.id;
    expect(a).not.toBe(b);
    await s.call("deleteEdrVendorA");
    await s.call("deleteEdrVendorB");
  });
});

const KEY = Buffer.from("service-account-key").toString("base64");
const vendorD = () => ({ service_account_key: KEY, customer_id: "C0123" });
const vendorE = () => ({
  client_secret: Buffer.from("client-secret").toString("base64"),
  client_id: "client-e",
  tenant_id: "tenant-e",
  host: "api.vendor-e.example.com",
});

describe("directory sync", () => {
  test("vendor-d-idp: create with defaults, list, get, partial update, delete", async () => {
    const created = await s.call("createVendorDIdp", { body: vendorD() });
    expect(created.body).toEqual({
      id: expect.any(Number),
      enabled: true,
      group_prefixes: [],
      user_group_prefixes: [],
      connector_id: "",
      sync_interval: 300,
      last_synced_at: ZERO_TIME,
      customer_id: "C0123",
    });
    const id = created.body.id as number;
    expect((await s.call("listVendorDIdps")).body.map((x: any) => x.id)).toContain(id);
    expect((await s.call("getVendorDIdp", { params: { id } })).body.customer_id).toBe("C0123");

    // Only the fields sent change.
    const updated = await s.call("updateVendorDIdp", {
      params: { id },
      body: { sync_interval: 900, group_prefixes: ["eng-"], enabled: false },
    });
    expect(updated.body).toMatchObject({
      sync_interval: 900,
      group_prefixes: ["eng-"],
      enabled: false,
      customer_id: "C0123",
      connector_id: "",
    });
    expect((await lastAudit("integration.update")).meta).toEqual({ vendor: "google-idp" });

    expect((await s.call("deleteVendorDIdp", { params: { id } })).body).toEqual({});
    expectError(await s.call("getVendorDIdp", { params: { id } }), 404);
    expectError(await s.call("updateVendorDIdp", { params: { id }, body: {} }), 404);
    expectError(await s.call("deleteVendorDIdp", { params: { id } }), 404);
  });

  test("vendor-d-idp: required fields, base64 key and sync_interval >= 300 (rule 7)", async () => {
    expectError(await s.call("createVendorDIdp", { body: { service_account_key: KEY } }), 422, "customer_id");
    expectError(
      await s.call("createVendorDIdp", { body: { ...vendorD(), service_account_key: "not base64!" } }),
      422,
      "service_account_key",
    );
    expectError(
      await s.call("createVendorDIdp", { body: { ...vendorD(), sync_interval: 299 } }),
      422,
      "sync_interval",
    );
    const id = (await s.call("createVendorDIdp", { body: { ...vendorD(), sync_interval: 300 } })).body.id;
    expectError(
      await s.call("updateVendorDIdp", { params: { id }, body: { sync_interval: 60 } }),
      422,
      "sync_interval",
    );
    expect((await s.call("getVendorDIdp", { params: { id } })).body.sync_interval).toBe(300);
    await s.call("deleteVendorDIdp", { params: { id } });
  });

  test("manual sync records a log entry and sets last_synced_at; logs list them", async () => {
    const id = (await s.call("createVendorDIdp", { body: vendorD() })).body.id;
    expect((await s.call("listVendorDIdpLogs", { params: { id } })).body).toEqual([]);
    clock.advance(5_000);
    const res = await s.call("syncVendorDIdp", { params: { id } });
    expect(res.body).toEqual({ result: "ok" });
    expect((await s.call("getVendorDIdp", { params: { id } })).body.last_synced_at).toBe(iso(clock.now()));
    clock.advance(5_000);
    await s.call("syncVendorDIdp", { params: { id } });
    const logs = (await s.call("listVendorDIdpLogs", { params: { id } })).body;
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({ level: "info", timestamp: iso(clock.now() - 5_000) });
    expect(logs[1].timestamp).toBe(iso(clock.now()));
    expect(logs[1].id).toBeGreaterThan(logs[0].id);
    expect((await lastAudit("integration.sync")).target_id).toBe(String(id));

    // A disabled integration is not synced.
    await s.call("updateVendorDIdp", { params: { id }, body: { enabled: false } });
    expectError(await s.call("syncVendorDIdp", { params: { id } }), 412, /disabled/);
    expect((await s.call("listVendorDIdpLogs", { params: { id } })).body).toHaveLength(2);

    await s.call("deleteVendorDIdp", { params: { id } });
    expectError(await s.call("syncVendorDIdp", { params: { id } }), 404);
    expectError(await s.call("listVendorDIdpLogs", { params: { id } }), 404);
  });

  test("vendor-e-idp: create requires host, update cannot change it, secret never returned", async () => {
    const { host: _host, ...noHost } = vendorE();
    expectError(await s.call("createVendorEIdp", { body: noHost }), 422, "host");
    expectError(await s.call("createVendorEIdp", { body: { ...vendorE(), host: "bad host/" } }), 422, "host");
    const created = await s.call("createVendorEIdp", { body: vendorE() });
    expect(created.body).toMatchObject({
      client_id: "client-e",
      tenant_id: "tenant-e",
      host: "api.vendor-e.example.com",
      sync_interval: 300,
    });
    expect(created.body).not.toHaveProperty("client_secret");
    const id = created.body.id;
    expectError(
      await s.call("updateVendorEIdp", { params: { id }, body: { host: "other.example.com" } }),
      422,
      "host",
    );
    const updated = await s.call("updateVendorEIdp", {
      params: { id },
      body: { client_id: "client-2", user_group_prefixes: ["staff"], connector_id: "conn-1" },
    });
    expect(updated.body).toMatchObject({
      client_id: "client-2",
      tenant_id: "tenant-e",
      host: "api.vendor-e.example.com",
      user_group_prefixes: ["staff"],
      connector_id: "conn-1",
    });
    expect((await s.call("listVendorEIdps")).body).toHaveLength(1);
    expect((await s.call("syncVendorEIdp", { params: { id } })).body).toEqual({ result: "ok" });
    expect((await s.call("listVendorEIdpLogs", { params: { id } })).body).toHaveLength(1);
    expect((await s.call("deleteVendorEIdp", { params: { id } })).body).toEqual({});
    expectError(await s.call("getVendorEIdp", { params: { id } }), 404);
  });

  test("an id of one vendor is unknown under the other vendor's path", async () => {
    const d = (await s.call("createVendorDIdp", { body: vendorD() })).body.id;
    expectError(await s.call("getVendorEIdp", { params: { id: d } }), 404);
    expectError(await s.call("syncVendorEIdp", { params: { id: d } }), 404);
    expectError(await s.call("deleteVendorEIdp", { params: { id: d } }), 404);
    expect((await s.call("listVendorEIdps")).body.map((x: any) => x.id)).not.toContain(d);
    expect((await s.call("getVendorDIdp", { params: { id: d } })).status).toBe(200);
    expectError(await s.call("getVendorDIdp", { params: { id: "abc" } }), 404);
    await s.call("deleteVendorDIdp", { params: { id: d } });
  });
});

describe("event streaming", () => {
  const storedConfig = (id: number) =>
    s.server.state.store.get<EventStreamingDoc>("event_streaming", String(id))!.config;

  test("create masks credentials; get, list, delete", async () => {
    const created = await s.call("createEventStreaming", {
      body: { platform: "datadog", config: { api_key: "dd-key", site: "datadoghq.eu" }, enabled: true },
    });
    expect(created.body).toMatchObject({
      platform: "datadog",
      enabled: true,
      config: { api_key: MASKED_CREDENTIAL, site: "datadoghq.eu" },
      created_at: iso(clock.now()),
    });
    const id = created.body.id as number;
    expect(storedConfig(id).api_key).toBe("dd-key");
    expect((await s.call("getEventStreaming", { params: { id } })).body.config.api_key).toBe(
      MASKED_CREDENTIAL,
    );
    expect((await s.call("listEventStreamings")).body.map((x: any) => x.id)).toContain(id);
    expect((await lastAudit("integration.create")).meta).toEqual({
      type: "event_streaming",
      platform: "datadog",
    });
    expect((await s.call("deleteEventStreaming", { params: { id } })).body).toEqual({});
    expectError(await s.call("getEventStreaming", { params: { id } }), 404);
    expectError(await s.call("deleteEventStreaming", { params: { id } }), 404);
  });

  test("create validates the platform and its config keys", async () => {
    expectError(
      await s.call("createEventStreaming", { body: { platform: "kafka", config: {}, enabled: true } }),
      422,
      "platform",
    );
    expectError(
      await s.call("createEventStreaming", {
        body: { platform: "s3", config: { bucket_name: "b" }, enabled: true },
      }),
      422,
      "config.region",
    );
    expectError(
      await s.call("createEventStreaming", {
        body: { platform: "datadog", config: { api_key: "k", bucket_name: "x" }, enabled: true },
      }),
      422,
      "config.bucket_name",
    );
    expectError(
      await s.call("createEventStreaming", {
        body: { platform: "datadog", config: { api_key: MASKED_CREDENTIAL }, enabled: true },
      }),
      422,
      "config.api_key",
    );
  });

  test("update ignores the platform, checks config against the stored one, keeps masked credentials", async () => {
    const s3 = {
      bucket_name: "logs",
      region: "eu-west-1",
      access_key_id: "AKIA1",
      secret_access_key: "s3cret",
    };
    const id = (
      await s.call("createEventStreaming", { body: { platform: "s3", config: s3, enabled: false } })
    ).body.id;
    clock.advance(1_000);
    // Round-trip what was read: the masked values stand for the stored secrets.
    const read = (await s.call("getEventStreaming", { params: { id } })).body;
    const updated = await s.call("updateEventStreaming", {
      params: { id },
      body: { platform: "datadog", config: { ...read.config, prefix: "net/" }, enabled: true },
    });
    expect(updated.body).toMatchObject({
      platform: "s3",
      enabled: true,
      updated_at: iso(clock.now()),
      config: { bucket_name: "logs", prefix: "net/", access_key_id: MASKED_CREDENTIAL },
    });
    expect(storedConfig(id)).toEqual({ ...s3, prefix: "net/" });

    // A new credential replaces the stored one.
    await s.call("updateEventStreaming", {
      params: { id },
      body: { config: { ...read.config, secret_access_key: "rotated" }, enabled: true },
    });
    expect(storedConfig(id).secret_access_key).toBe("rotated");

    // Checked against s3 even though datadog is sent.
    expectError(
      await s.call("updateEventStreaming", {
        params: { id },
        body: { platform: "datadog", config: { api_key: "k" }, enabled: true },
      }),
      422,
      "config.bucket_name",
    );
    expect(storedConfig(id).bucket_name).toBe("logs");
    expectError(
      await s.call("updateEventStreaming", { params: { id: 9999 }, body: { config: s3, enabled: true } }),
      404,
    );
    await s.call("deleteEventStreaming", { params: { id } });
  });

  test("a new destination needs the credential itself: the stored one is never sent somewhere else", async () => {
    const cases: [platform: string, config: Record<string, string>, moved: Record<string, string>][] = [
      [
        "generic_http",
        { url: "https://a.example.com/in", auth_token: "tok-1" },
        { url: "https://b.example/in" },
      ],
      [
        "s3",
        { bucket_name: "logs", region: "eu-west-1", access_key_id: "AKIA2", secret_access_key: "k2" },
        { bucket_name: "elsewhere" },
      ],
      [
        "s3",
        { bucket_name: "logs", region: "eu-west-1", access_key_id: "AKIA3", secret_access_key: "k3" },
        { region: "us-east-1" },
      ],
      [
        "firehose",
        { stream_name: "audit", region: "eu-west-1", access_key_id: "AKIA4", secret_access_key: "k4" },
        { stream_name: "other" },
      ],
      ["datadog", { api_key: "dd-1", site: "datadoghq.eu" }, { site: "attacker.example" }],
    ];
    for (const [platform, config, moved] of cases) {
      const id = (await s.call("createEventStreaming", { body: { platform, config, enabled: true } })).body
        .id;
      const read = (await s.call("getEventStreaming", { params: { id } })).body;
      const credential = Object.keys(config).find((k) => read.config[k] === MASKED_CREDENTIAL) as string;
      const refused = await s.call("updateEventStreaming", {
        params: { id },
        body: { config: { ...read.config, ...moved }, enabled: true },
      });
      expectError(refused, 422, `config.${credential}`);
      expect(refused.body.message).toContain(`config.${Object.keys(moved)[0]}`);
      expect(storedConfig(id)).toEqual(config);
      // With the credential sent again, the move is fine.
      const fresh = Object.fromEntries(
        Object.entries(read.config as Record<string, string>).map(([k, v]) => [
          k,
          v === MASKED_CREDENTIAL ? `${k}-new` : v,
        ]),
      );
      const ok = await s.call("updateEventStreaming", {
        params: { id },
        body: { config: { ...fresh, ...moved }, enabled: true },
      });
      expect(ok.status).toBe(200);
      expect(storedConfig(id)).toEqual({ ...fresh, ...moved });
      await s.call("deleteEventStreaming", { params: { id } });
    }
  });

  test("a masked optional credential that was never stored is rejected", async () => {
    const id = (
      await s.call("createEventStreaming", {
        body: { platform: "generic_http", config: { url: "https://collector.example.com" }, enabled: true },
      })
    ).body.id;
    expectError(
      await s.call("updateEventStreaming", {
        params: { id },
        body: {
          config: { url: "https://collector.example.com", auth_token: MASKED_CREDENTIAL },
          enabled: true,
        },
      }),
      422,
      "config.auth_token",
    );
    const ok = await s.call("updateEventStreaming", {
      params: { id },
      body: { config: { url: "https://collector.example.com", auth_token: "t0k" }, enabled: true },
    });
    expect(ok.body.config).toEqual({ url: "https://collector.example.com", auth_token: MASKED_CREDENTIAL });
    await s.call("deleteEventStreaming", { params: { id } });
  });
});
