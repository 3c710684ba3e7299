/**
 * SCIM provisioning integrations (scim-idp and okta-scim-idp): validation naming the field, only the fields sent
 * change on update, the token answered in full by the create and the token route only, masked elsewhere, never
 * stored, logged or audited, and no key to the management API.
 */
import * as fs from "node:fs";
import { maskScimToken } from "../../api/scim";
import type { RequestLogEntry } from "../../server/context";
import { ManualClock, ZERO_TIME } from "../../server/clock";
import type { ScimDoc } from "../../server/handlers/scim";
import { hashSecret } from "../../server/ids";
import { expectError, startTestServer, type TestServer } from "../support/server";

const clock = new ManualClock(Date.parse("2026-04-01T09:00:00Z"));
let s: TestServer;
const lines: RequestLogEntry[] = [];

beforeAll(async () => {
  s = await startTestServer({ clock, onRequest: (e) => lines.push(e) });
});
afterAll(() => s.close());

async function audits(code: string) {
  const events = (await s.call("listAuditEvents")).body as { activity_code: string; meta: unknown }[];
  return events.filter((e) => e.activity_code === code);
}

/** Every database file as bytes (what `strings` would see). */
function dbBytes(): string {
  return [s.dbFile, `${s.dbFile}-wal`]
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString("latin1"))
    .join("\n");
}

const generic = () => ({
  prefix: "acme",
  provider: "jumpcloud",
  group_prefixes: ["eng-", "ops-"],
  user_group_prefixes: ["staff"],
});

describe("scim-idp", () => {
  let id = 0;
  let token = "";

  test("create answers the token in full, once; every read masks it", async () => {
    const created = await s.call("createScimIntegration", { body: generic() });
    expect(created.status).toBe(200);
    id = created.body.id;
    token = created.body.auth_token;
    expect(typeof id).toBe("number");
    expect(token).toMatch(/^pns_[0-9A-Za-z]{40}$/);
    expect(created.body).toEqual({
      id,
      enabled: true,
      prefix: "acme",
      provider: "jumpcloud",
      group_prefixes: ["eng-", "ops-"],
      user_group_prefixes: ["staff"],
      auth_token: token,
      last_synced_at: ZERO_TIME,
    });
    const got = await s.call("getScimIntegration", { params: { id } });
    expect(got.body.auth_token).toBe(maskScimToken(token));
    expect(got.body.auth_token).toMatch(/^pns_...\*{37}$/);
    expect({ ...got.body, auth_token: token }).toEqual(created.body);
    const listed = await s.call("listScimIntegrations");
    expect(listed.body).toEqual([got.body]);
    expect(JSON.stringify(listed.body)).not.toContain(token.slice(7));
  });

  test("the token is stored only as its hash; not in the database, the audit log or the request log", async () => {
    const doc = s.server.state.store.get<ScimDoc>("scim_integration", String(id))!;
    expect(doc.token_hash).toBe(hashSecret(token));
    expect(JSON.stringify(doc)).not.toContain(token);
    expect(dbBytes()).not.toContain(token);
    expect(dbBytes()).not.toContain(token.slice(7));
    const [created] = await audits("integration.create");
    expect(created?.meta).toEqual({
      type: "scim",
      variant: "scim-idp",
      provider: "jumpcloud",
      prefix: "acme",
    });
    const allEvents = JSON.stringify((await s.call("listAuditEvents")).body);
    expect(allEvents).not.toContain(token.slice(7));
    expect(JSON.stringify(lines)).not.toContain(token.slice(7));
  });

  test("a SCIM token is no key to the management API", async () => {
    expectError(await s.call("listGroups", { token }), 401);
    expectError(await s.call("getScimIntegration", { params: { id }, token: `raw:Bearer ${token}` }), 401);
  });

  test("update changes only the fields sent; provider cannot change", async () => {
    clock.advance(60_000);
    const updated = await s.call("updateScimIntegration", {
      params: { id },
      body: { prefix: "acme-2", enabled: false, provider: "okta" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      prefix: "acme-2",
      provider: "jumpcloud",
      enabled: false,
      group_prefixes: ["eng-", "ops-"],
      user_group_prefixes: ["staff"],
      auth_token: maskScimToken(token),
    });
    const cleared = await s.call("updateScimIntegration", {
      params: { id },
      body: { group_prefixes: [], connector_id: "dex-okta" },
    });
    expect(cleared.body).toMatchObject({ prefix: "acme-2", group_prefixes: [], connector_id: "dex-okta" });
    expect((await audits("integration.update")).length).toBeGreaterThanOrEqual(2);
  });

  test("bad input is a 422 naming the field and changes nothing", async () => {
    const before = (await s.call("listScimIntegrations")).body;
    expectError(await s.call("createScimIntegration", { body: { provider: "x" } }), 422, "prefix");
    expectError(await s.call("createScimIntegration", { body: { prefix: "x" } }), 422, "provider");
    expectError(
      await s.call("createScimIntegration", { body: { prefix: "", provider: "x" } }),
      422,
      /prefix: must not be empty/,
    );
    expectError(
      await s.call("createScimIntegration", { body: { ...generic(), prefix: " acme" } }),
      422,
      /prefix: starts or ends with white space/,
    );
    expectError(
      await s.call("createScimIntegration", { body: { ...generic(), group_prefixes: "eng" } }),
      422,
      "group_prefixes",
    );
    expectError(
      await s.call("updateScimIntegration", { params: { id }, body: { enabled: "no" } }),
      422,
      "enabled",
    );
    expectError(
      await s.call("updateScimIntegration", { params: { id }, body: { prefix: "" } }),
      422,
      "prefix",
    );
    expect((await s.call("listScimIntegrations")).body).toEqual(before);
  });

  test("the token route answers a new token; the old one is gone", async () => {
    clock.advance(60_000);
    const r = await s.call("regenerateScimIntegrationToken", { params: { id } });
    expect(r.status).toBe(200);
    const fresh = r.body.auth_token as string;
    expect(fresh).toMatch(/^pns_[0-9A-Za-z]{40}$/);
    expect(fresh).not.toBe(token);
    const doc = s.server.state.store.get<ScimDoc>("scim_integration", String(id))!;
    expect(doc.token_hash).toBe(hashSecret(fresh));
    expect((await s.call("getScimIntegration", { params: { id } })).body.auth_token).toBe(
      maskScimToken(fresh),
    );
    const [event] = await audits("integration.token.regenerate");
    expect(event?.meta).toEqual({
      type: "scim",
      variant: "scim-idp",
      provider: "jumpcloud",
      prefix: "acme-2",
    });
    expect(dbBytes()).not.toContain(fresh.slice(7));
    token = fresh;
  });

  test("logs tell what happened, oldest first", async () => {
    const logs = (await s.call("listScimIntegrationLogs", { params: { id } })).body as { message: string }[];
    expect(logs.map((l) => l.message)).toEqual([
      expect.stringMatching(/^integration created/),
      expect.stringMatching(/^integration disabled/),
      expect.stringMatching(/^token regenerated/),
    ]);
  });

  test("ids of the other collection and unknown ids are 404 on every route", async () => {
    for (const op of [
      "getOktaScimIntegration",
      "listOktaScimIntegrationLogs",
      "regenerateOktaScimIntegrationToken",
    ])
      expectError(await s.call(op, { params: { id } }), 404);
    expectError(await s.call("updateOktaScimIntegration", { params: { id }, body: {} }), 404);
    expectError(await s.call("deleteOktaScimIntegration", { params: { id } }), 404);
    expectError(
      await s.call("getScimIntegration", { params: { id: 999999 } }),
      404,
      /SCIM integration 999999/,
    );
    expectError(await s.call("getScimIntegration", { params: { id: "abc" } }), 404);
  });

  test("delete answers {} and takes the logs with it", async () => {
    expect((await s.call("deleteScimIntegration", { params: { id } })).body).toEqual({});
    expectError(await s.call("getScimIntegration", { params: { id } }), 404);
    expectError(await s.call("listScimIntegrationLogs", { params: { id } }), 404);
    expect(s.server.state.store.all("scim_log", `scim-idp:${id}`)).toEqual([]);
    expect((await audits("integration.delete"))[0]?.meta).toMatchObject({ variant: "scim-idp" });
  });
});

describe("okta-scim-idp", () => {
  test("the connection name is required, write-only and fixed; the rest as scim-idp", async () => {
    expectError(await s.call("createOktaScimIntegration", { body: {} }), 422, "connection_name");
    const created = await s.call("createOktaScimIntegration", {
      body: { connection_name: "okta-prod", user_group_prefixes: ["vpn-"] },
    });
    expect(created.status).toBe(200);
    const { id, auth_token: token } = created.body;
    expect(created.body).toEqual({
      id,
      enabled: true,
      group_prefixes: [],
      user_group_prefixes: ["vpn-"],
      auth_token: token,
      last_synced_at: ZERO_TIME,
    });
    expect(JSON.stringify(await s.call("getOktaScimIntegration", { params: { id } }))).not.toContain(
      "okta-prod",
    );
    // Not in the audit log either (the API never shows it).
    expect(JSON.stringify((await s.call("listAuditEvents")).body)).not.toContain("okta-prod");
    const updated = await s.call("updateOktaScimIntegration", {
      params: { id },
      body: { connection_name: "other", enabled: false },
    });
    expect(updated.body.enabled).toBe(false);
    expect(s.server.state.store.get<ScimDoc>("scim_integration", String(id))?.connection_name).toBe(
      "okta-prod",
    );
    // The scim-idp routes do not see it.
    expectError(await s.call("getScimIntegration", { params: { id } }), 404);
    expect((await s.call("listScimIntegrations")).body.map((x: { id: number }) => x.id)).not.toContain(id);
    const r = await s.call("regenerateOktaScimIntegrationToken", { params: { id } });
    expect(r.body.auth_token).not.toBe(token);
    expect((await s.call("deleteOktaScimIntegration", { params: { id } })).body).toEqual({});
  });
});
