import * as fs from "node:fs";
import { ManualClock } from "../../server/clock";
import { setupKeyState, type SetupKeyDoc } from "../../server/handlers/setup-keys";
import { enrollPeer } from "../../server/sim";
import { expectError, startTestServer, type TestServer } from "../support/server";

const clock = new ManualClock(Date.parse("2026-03-01T12:00:00Z"));
let s: TestServer;
beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer({ clock });
});
afterAll(() => s.close());

const DAY = 86400;
const keyBody = (over: Record<string, unknown> = {}) => ({
  name: "ci",
  type: "reusable",
  expires_in: 7 * DAY,
  auto_groups: [] as string[],
  usage_limit: 0,
  ...over,
});

const auditCodes = () => s.server.state.store.auditEvents().map((e) => e.activity_code);

describe("setup keys", () => {
  test("create returns the full key once; reads return the masked key", async () => {
    const created = await s.call("createSetupKey", { body: keyBody({ ephemeral: true }) });
    const key = created.body.key as string;
    expect(key).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(created.body).toMatchObject({
      name: "ci",
      type: "reusable",
      expires: "2026-03-08T12:00:00Z",
      valid: true,
      revoked: false,
      used_times: 0,
      last_used: "0001-01-01T00:00:00Z",
      state: "valid",
      auto_groups: [],
      updated_at: "2026-03-01T12:00:00Z",
      usage_limit: 0,
      ephemeral: true,
      allow_extra_dns_labels: false,
    });
    expect(Number.isInteger(created.body.id)).toBe(true);
    const masked = `${key.slice(0, 5)}****`;
    const got = await s.call("getSetupKey", { params: { keyId: created.body.id } });
    expect(got.body).toEqual({ ...created.body, key: masked });
    const listed = (await s.call("listSetupKeys")).body.find((k: any) => k.id === created.body.id);
    expect(listed.key).toBe(masked);
    expect(JSON.stringify((await s.call("listSetupKeys")).body)).not.toContain(key);
    // The plain key is stored nowhere: neither in the database file nor in its write-ahead log.
    for (const f of [s.dbFile, `${s.dbFile}-wal`]) {
      if (fs.existsSync(f)) expect(fs.readFileSync(f).includes(Buffer.from(key))).toBe(false);
    }
    expect(auditCodes()).toContain("setupkey.add");
  });

  test("ids are integers from a sequence", async () => {
    const a = (await s.call("createSetupKey", { body: keyBody({ name: "a" }) })).body.id;
    const b = (await s.call("createSetupKey", { body: keyBody({ name: "b" }) })).body.id;
    expect(b).toBe(a + 1);
  });

  test("rule 5: the documented 86400 to 31536000 seconds, and what the service accepts besides", async () => {
    expect((await s.call("createSetupKey", { body: keyBody({ expires_in: 86400 }) })).status).toBe(200);
    const max = await s.call("createSetupKey", { body: keyBody({ expires_in: 31536000 }) });
    expect(max.body.expires).toBe("2027-03-01T12:00:00Z");
    // Shorter and longer lifetimes are the server's to decide; like the service, this one takes them.
    for (const expires_in of [1, 1800]) {
      const short = await s.call("createSetupKey", { body: keyBody({ expires_in }) });
      expect(short.body.expires).toBe(
        new Date(clock.now() + expires_in * 1000).toISOString().replace(".000", ""),
      );
    }
    const minute = await s.call("createSetupKey", { body: keyBody({ expires_in: 60 }) });
    expect(minute.body).toMatchObject({ expires: "2026-03-01T12:01:00Z", state: "valid", valid: true });
    const doc = (id: number) => s.server.state.store.get<SetupKeyDoc>("setup_key", String(id)) as SetupKeyDoc;
    expect(setupKeyState(doc(minute.body.id), clock.now() + 60_000)).toBe("expired");
    const longer = await s.call("createSetupKey", { body: keyBody({ expires_in: 31536001 }) });
    expect(longer.status).toBe(200);
    // 0: the key never expires (its expiry is the zero time).
    const never = await s.call("createSetupKey", { body: keyBody({ expires_in: 0 }) });
    expect(never.body).toMatchObject({ expires: "0001-01-01T00:00:00Z", state: "valid", valid: true });
    expect(setupKeyState(doc(never.body.id), Date.parse("2999-01-01T00:00:00Z"))).toBe("valid");
    expectError(await s.call("createSetupKey", { body: keyBody({ expires_in: -1 }) }), 422, "expires_in");
    expectError(
      await s.call("createSetupKey", { body: keyBody({ expires_in: 9223372037 }) }),
      422,
      "expires_in",
    );
  });

  test("other create validation: type, usage_limit, unknown auto groups", async () => {
    expectError(await s.call("createSetupKey", { body: keyBody({ type: "forever" }) }), 422, "type");
    expectError(await s.call("createSetupKey", { body: keyBody({ usage_limit: 1.5 }) }), 422, "usage_limit");
    expectError(await s.call("createSetupKey", { body: keyBody({ name: "" }) }), 422, "name");
    expectError(
      await s.call("createSetupKey", { body: keyBody({ auto_groups: ["ghost"] }) }),
      422,
      /auto_groups: unknown group id ghost/,
    );
  });

  test("PUT changes only revoked and auto_groups; revoking is final", async () => {
    const g = (await s.call("createGroup", { body: { name: "sk-auto" } })).body.id;
    const k = (await s.call("createSetupKey", { body: keyBody({ name: "rev", usage_limit: 3 }) })).body;
    clock.advance(60_000);
    const upd = await s.call("updateSetupKey", {
      params: { keyId: k.id },
      body: { revoked: false, auto_groups: [g], name: "ignored", usage_limit: 99 },
    });
    expect(upd.body).toMatchObject({
      name: "rev",
      usage_limit: 3,
      auto_groups: [g],
      revoked: false,
      updated_at: "2026-03-01T12:01:00Z",
    });
    expect(auditCodes()).toContain("setupkey.update");
    const revoked = await s.call("updateSetupKey", {
      params: { keyId: k.id },
      body: { revoked: true, auto_groups: [g] },
    });
    expect(revoked.body).toMatchObject({ revoked: true, valid: false, state: "revoked" });
    expect(auditCodes()).toContain("setupkey.revoke");
    expectError(
      await s.call("updateSetupKey", { params: { keyId: k.id }, body: { revoked: false, auto_groups: [g] } }),
      422,
      "revoked",
    );
    expectError(
      await s.call("updateSetupKey", {
        params: { keyId: k.id },
        body: { revoked: true, auto_groups: ["ghost"] },
      }),
      422,
      "auto_groups",
    );
    expectError(
      await s.call("updateSetupKey", { params: { keyId: k.id }, body: { revoked: true } }),
      422,
      "auto_groups",
    );
    expectError(
      await s.call("updateSetupKey", { params: { keyId: 999999 }, body: { revoked: true, auto_groups: [] } }),
      404,
    );
    // The group is now used by the key's auto_groups.
    expectError(await s.call("deleteGroup", { params: { groupId: g } }), 400, /setup key rev/);
  });

  test("state: expired once the clock passes expires", async () => {
    const k = (await s.call("createSetupKey", { body: keyBody({ name: "exp", expires_in: DAY }) })).body;
    clock.advance(DAY * 1000 - 1000);
    expect((await s.call("getSetupKey", { params: { keyId: k.id } })).body.state).toBe("valid");
    clock.advance(1000);
    const got = (await s.call("getSetupKey", { params: { keyId: k.id } })).body;
    expect(got).toMatchObject({ state: "expired", valid: false });
    // Revoked wins over expired.
    const rev = await s.call("updateSetupKey", {
      params: { keyId: k.id },
      body: { revoked: true, auto_groups: [] },
    });
    expect(rev.body.state).toBe("revoked");
  });

  test("state: overused after the usage limit (a one-off key after one use)", async () => {
    const oneOff = (await s.call("createSetupKey", { body: keyBody({ name: "once", type: "one-off" }) }))
      .body;
    const p = enrollPeer(s.server.state, { setup_key: oneOff.key, hostname: "once-host" });
    const got = (await s.call("getSetupKey", { params: { keyId: oneOff.id } })).body;
    expect(got).toMatchObject({ state: "overused", valid: false, used_times: 1, usage_limit: 0 });
    expect(got.last_used).toBe(p.created_at);
    const limited = (await s.call("createSetupKey", { body: keyBody({ name: "two", usage_limit: 2 }) })).body;
    enrollPeer(s.server.state, { setup_key: limited.key, hostname: "two-a" });
    expect((await s.call("getSetupKey", { params: { keyId: limited.id } })).body.state).toBe("valid");
    enrollPeer(s.server.state, { setup_key: limited.key, hostname: "two-b" });
    expect((await s.call("getSetupKey", { params: { keyId: limited.id } })).body).toMatchObject({
      state: "overused",
      used_times: 2,
    });
  });

  test("delete: the key is gone, its peers stay", async () => {
    const k = (await s.call("createSetupKey", { body: keyBody({ name: "gone" }) })).body;
    const peer = enrollPeer(s.server.state, { setup_key: k.key, hostname: "survivor" });
    expect((await s.call("deleteSetupKey", { params: { keyId: k.id } })).body).toEqual({});
    expectError(await s.call("getSetupKey", { params: { keyId: k.id } }), 404);
    expectError(await s.call("deleteSetupKey", { params: { keyId: k.id } }), 404);
    expect((await s.call("getPeer", { params: { peerId: peer.id } })).body.name).toBe("survivor");
    expect(auditCodes()).toContain("setupkey.delete");
  });

  test("unknown ids are 404", async () => {
    expectError(await s.call("getSetupKey", { params: { keyId: 424242 } }), 404);
    expectError(await s.call("getSetupKey", { params: { keyId: "not-a-number" } }), 404);
  });
});
