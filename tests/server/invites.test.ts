import { INVITE_DEFAULT_EXPIRES_IN } from "../../api/invite";
import { ManualClock, iso } from "../../server/clock";
import type { UserDoc } from "../../server/model";
import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let plain: TestServer;
let clock: ManualClock;

beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  clock = new ManualClock();
  s = await startTestServer({ embeddedIdp: true, clock });
  plain = await startTestServer();
});
afterAll(async () => {
  await s.close();
  await plain.close();
});

function lastAudit() {
  const events = s.server.state.store.auditEvents();
  return events[events.length - 1];
}

let seq = 0;
async function createInvite(extra: Record<string, unknown> = {}) {
  const email = `person${++seq}@example.com`;
  return s.call("createInvite", {
    body: { email, name: `Person ${seq}`, role: "user", auto_groups: [], ...extra },
  });
}

describe("invites", () => {
  test("create returns the link token once; list never shows it", async () => {
    const g = (await s.call("createGroup", { body: { name: "newcomers" } })).body.id;
    const res = await createInvite({ role: "network_admin", auto_groups: [g] });
    expect(res.body).toMatchObject({
      role: "network_admin",
      auto_groups: [g],
      expired: false,
      created_at: iso(clock.now()),
      expires_at: iso(clock.now() + INVITE_DEFAULT_EXPIRES_IN * 1000),
    });
    expect(res.body.invite_token).toMatch(/^pni_[0-9A-Za-z]{40}$/);
    expect(lastAudit()).toMatchObject({ activity_code: "user.invite.link.create", target_id: res.body.id });
    const list = await s.call("listInvites");
    const listed = list.body.find((i: any) => i.id === res.body.id);
    expect(listed).toBeDefined();
    expect(listed.invite_token).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(res.body.invite_token);
    // Only the hash is stored.
    expect(JSON.stringify(s.server.state.store.get("invite", res.body.id))).not.toContain(
      res.body.invite_token,
    );
  });

  test("what the service takes: no upper bound on the lifetime, 0 or a negative one is the default, any address", async () => {
    const year = await createInvite({ expires_in: 31536000 });
    expect(year.body.expires_at).toBe(iso(clock.now() + 31536000_000));
    for (const expires_in of [0, -5])
      expect((await createInvite({ expires_in })).body.expires_at).toBe(iso(clock.now() + 259200_000));
    expect((await createInvite({ email: "nope" })).body.email).toBe("nope");
  });

  test("rejections: expires_in bounds, role owner, unknown group, empty email, duplicates", async () => {
    const custom = await createInvite({ expires_in: 3600 });
    expect(custom.body.expires_at).toBe(iso(clock.now() + 3600_000));
    expectError(await createInvite({ expires_in: 10 }), 422, "expires_in");
    expectError(await createInvite({ role: "owner" }), 422, "role");
    expectError(await createInvite({ auto_groups: ["nope"] }), 422, "auto_groups");
    expectError(await createInvite({ email: "" }), 422, "email");
    expectError(await createInvite({ expires_in: 1e12 }), 422, "expires_in");
    expectError(await createInvite({ name: "" }), 422, "name");
    expectError(await createInvite({ email: custom.body.email.toUpperCase() }), 409, /invite/);
    // An existing user's address cannot be invited again.
    const owner = (await s.call("getCurrentUser")).body;
    expectError(await createInvite({ email: owner.email }), 409, /user/);
    // And a pending invite blocks a direct user invitation with the same address.
    expectError(
      await s.call("createUser", {
        body: { email: custom.body.email, role: "user", auto_groups: [], is_service_user: false },
      }),
      409,
    );
  });

  test("the public info route needs no credentials and reports validity; unknown tokens are 404", async () => {
    const res = await createInvite();
    const info = await s.call("getInviteInfo", { params: { token: res.body.invite_token }, token: null });
    expect(info.body).toEqual({
      email: res.body.email,
      name: res.body.name,
      expires_at: res.body.expires_at,
      valid: true,
      invited_by: "Owner",
    });
    expectError(await s.call("getInviteInfo", { params: { token: "pni_unknown" }, token: null }), 404);
    expectError(await s.call("getInviteInfo", { params: { token: "garbage" }, token: null }), 404);
  });

  test("accept creates an active user with the invite's role and groups, once", async () => {
    const g = (await s.call("createGroup", { body: { name: "accepted" } })).body.id;
    const res = await createInvite({ role: "auditor", auto_groups: [g] });
    const token = res.body.invite_token as string;
    // Rule 8: at least 8 characters.
    expectError(
      await s.call("acceptInvite", { params: { token }, body: { password: "short" }, token: null }),
      422,
      "password",
    );
    expectError(await s.call("acceptInvite", { params: { token }, body: {}, token: null }), 422, "password");
    const ok = await s.call("acceptInvite", {
      params: { token },
      body: { password: "correct-horse" },
      token: null,
    });
    expect(ok.body).toEqual({ success: true });
    const user = (await s.call("listUsers")).body.find((u: any) => u.email === res.body.email);
    expect(user).toMatchObject({
      role: "auditor",
      auto_groups: [g],
      status: "active",
      is_service_user: false,
      name: res.body.name,
    });
    expect(lastAudit()).toMatchObject({
      activity_code: "user.invite.link.accept",
      initiator_id: user.id,
      target_id: user.id,
    });
    expect((await s.call("listInvites")).body.some((i: any) => i.id === res.body.id)).toBe(false);
    // The link is spent.
    expectError(
      await s.call("acceptInvite", { params: { token }, body: { password: "correct-horse" }, token: null }),
      404,
    );
    expectError(await s.call("getInviteInfo", { params: { token }, token: null }), 404);
    // The password was stored hashed and works for a password change.
    expect(s.server.state.store.get<UserDoc>("user", user.id)?.password_hash).toMatch(/^scrypt\$/);
    const pat = (
      await s.call("createToken", { params: { userId: user.id }, body: { name: "p", expires_in: 1 } })
    ).body.plain_token;
    const changed = await s.call("changeUserPassword", {
      params: { userId: user.id },
      body: { old_password: "correct-horse", new_password: "battery-staple" },
      token: pat,
    });
    expect(changed.status).toBe(200);
  });

  test("an expired invite is invalid: info says so, accept is refused, list marks it", async () => {
    const res = await createInvite({ expires_in: 3600 });
    clock.advance(3600_000);
    const info = await s.call("getInviteInfo", { params: { token: res.body.invite_token }, token: null });
    expect(info.body.valid).toBe(false);
    expect((await s.call("listInvites")).body.find((i: any) => i.id === res.body.id).expired).toBe(true);
    expectError(
      await s.call("acceptInvite", {
        params: { token: res.body.invite_token },
        body: { password: "long-enough" },
        token: null,
      }),
      412,
      /expired/,
    );
    expect((await s.call("listUsers")).body.some((u: any) => u.email === res.body.email)).toBe(false);
  });

  test("regenerate keeps the id, issues a new token and expiry, and kills the old token", async () => {
    const res = await createInvite({ expires_in: 3600 });
    clock.advance(7200_000);
    const regen = await s.call("regenerateInvite", { params: { inviteId: res.body.id }, body: {} });
    expect(regen.body.invite_token).toMatch(/^pni_/);
    expect(regen.body.invite_token).not.toBe(res.body.invite_token);
    expect(regen.body.invite_expires_at).toBe(iso(clock.now() + INVITE_DEFAULT_EXPIRES_IN * 1000));
    expect(lastAudit()).toMatchObject({
      activity_code: "user.invite.link.regenerate",
      target_id: res.body.id,
    });
    const listed = (await s.call("listInvites")).body.find((i: any) => i.id === res.body.id);
    expect(listed).toMatchObject({ expired: false, expires_at: regen.body.invite_expires_at });
    expectError(
      await s.call("getInviteInfo", { params: { token: res.body.invite_token }, token: null }),
      404,
    );
    const info = await s.call("getInviteInfo", { params: { token: regen.body.invite_token }, token: null });
    expect(info.body.valid).toBe(true);
    const custom = await s.call("regenerateInvite", {
      params: { inviteId: res.body.id },
      body: { expires_in: 4000 },
    });
    expect(custom.body.invite_expires_at).toBe(iso(clock.now() + 4000_000));
    expectError(
      await s.call("regenerateInvite", { params: { inviteId: res.body.id }, body: { expires_in: 1 } }),
      422,
      "expires_in",
    );
    expectError(await s.call("regenerateInvite", { params: { inviteId: "nope" }, body: {} }), 404);
  });

  test("delete removes the invite and its link", async () => {
    const res = await createInvite();
    expect((await s.call("deleteInvite", { params: { inviteId: res.body.id } })).body).toEqual({});
    expect(lastAudit()).toMatchObject({ activity_code: "user.invite.link.delete", target_id: res.body.id });
    expectError(
      await s.call("getInviteInfo", { params: { token: res.body.invite_token }, token: null }),
      404,
    );
    expectError(await s.call("deleteInvite", { params: { inviteId: res.body.id } }), 404);
  });

  test("a group named by an invite cannot be deleted while the invite exists", async () => {
    const g = (await s.call("createGroup", { body: { name: "held-by-invite" } })).body.id;
    const res = await createInvite({ auto_groups: [g] });
    expectError(await s.call("deleteGroup", { params: { groupId: g } }), 400, /invite/);
    await s.call("deleteInvite", { params: { inviteId: res.body.id } });
    expect((await s.call("deleteGroup", { params: { groupId: g } })).status).toBe(200);
  });

  test("without the embedded IdP every invite route answers 412", async () => {
    expectError(await plain.call("listInvites"), 412, /embedded/);
    expectError(
      await plain.call("createInvite", {
        body: { email: "a@example.com", name: "A", role: "user", auto_groups: [] },
      }),
      412,
    );
    expectError(await plain.call("getInviteInfo", { params: { token: "pni_x" }, token: null }), 412);
    expectError(
      await plain.call("acceptInvite", {
        params: { token: "pni_x" },
        body: { password: "long-enough" },
        token: null,
      }),
      412,
    );
  });
});
