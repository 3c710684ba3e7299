import { ManualClock } from "../../server/clock";
import type { UserDoc } from "../../server/model";
import { addPeer } from "../support/fixtures";
import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let plain: TestServer;
let ownerId: string;

beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer({ embeddedIdp: true, clock: new ManualClock() });
  plain = await startTestServer();
  ownerId = (await s.call("getCurrentUser")).body.id;
});
afterAll(async () => {
  await s.close();
  await plain.close();
});

let seq = 0;
/** A service user with the given role and a PAT of its own. */
async function serviceUser(srv: TestServer, role: string): Promise<{ id: string; token: string }> {
  const u = await srv.call("createUser", {
    body: { name: `svc-${role}-${++seq}`, role, auto_groups: [], is_service_user: true },
  });
  expect(u.status).toBe(200);
  const t = await srv.call("createToken", {
    params: { userId: u.body.id },
    body: { name: "t", expires_in: 30 },
  });
  return { id: u.body.id, token: t.body.plain_token };
}

async function invite(srv: TestServer, email: string, extra: Record<string, unknown> = {}) {
  return srv.call("createUser", {
    body: { email, role: "user", auto_groups: [], is_service_user: false, ...extra },
  });
}

async function group(srv: TestServer, name: string): Promise<string> {
  return (await srv.call("createGroup", { body: { name } })).body.id;
}

function lastAudit(srv: TestServer) {
  const events = srv.server.state.store.auditEvents();
  return events[events.length - 1];
}

/** Puts a user waiting for approval straight into the store (domain-matching sign-ups are not simulated). */
function seedPendingUser(srv: TestServer, email: string): string {
  const id = `pending-${++seq}`;
  srv.server.state.store.tx((tx) =>
    tx.put<UserDoc>("user", {
      id,
      email,
      name: email,
      role: "user",
      status: "active",
      last_login: "0001-01-01T00:00:00Z",
      auto_groups: [],
      is_service_user: false,
      is_blocked: false,
      pending_approval: true,
      issued: "jwt",
      idp_id: id,
      created_at: "2026-01-01T00:00:00Z",
    }),
  );
  return id;
}

describe("list and current user", () => {
  test("the owner is listed, and is_current marks only the caller", async () => {
    const svc = await serviceUser(s, "admin");
    const asOwner = (await s.call("listUsers")).body as any[];
    expect(asOwner.find((u) => u.id === ownerId)).toMatchObject({ role: "owner", is_current: true });
    expect(asOwner.find((u) => u.id === svc.id)).toMatchObject({ is_current: false });
    const asSvc = (await s.call("listUsers", { token: svc.token })).body as any[];
    expect(asSvc.find((u) => u.id === ownerId).is_current).toBe(false);
    expect(asSvc.find((u) => u.id === svc.id).is_current).toBe(true);
    expect(asSvc.filter((u) => u.is_current)).toHaveLength(1);
  });

  test("service_user filters regular and service users; a bad value is a 422", async () => {
    await serviceUser(s, "auditor");
    await invite(s, "filter@example.com");
    const svc = (await s.call("listUsers", { query: { service_user: "true" } })).body as any[];
    const reg = (await s.call("listUsers", { query: { service_user: "false" } })).body as any[];
    expect(svc.length).toBeGreaterThan(0);
    expect(svc.every((u) => u.is_service_user)).toBe(true);
    expect(reg.every((u) => !u.is_service_user)).toBe(true);
    expect(reg.some((u) => u.email === "filter@example.com")).toBe(true);
    expectError(await s.call("listUsers", { query: { service_user: "maybe" } }), 422, "service_user");
  });

  test("GET /api/users/current answers the caller, with permissions of its role", async () => {
    const me = await s.call("getCurrentUser");
    expect(me.body).toMatchObject({ id: ownerId, role: "owner", is_current: true, status: "active" });
    expect(me.body.permissions.modules.users).toEqual({
      read: true,
      create: true,
      update: true,
      delete: true,
    });
    const aud = await serviceUser(s, "auditor");
    const cur = await s.call("getCurrentUser", { token: aud.token });
    expect(cur.body).toMatchObject({ id: aud.id, is_service_user: true, is_current: true });
    expect(cur.body.permissions.modules.users).toEqual({
      read: true,
      create: false,
      update: false,
      delete: false,
    });
  });
});

describe("create", () => {
  test("a service user is active at once, has no email and no IdP identity", async () => {
    const res = await s.call("createUser", {
      body: { name: "ci-bot", role: "network_admin", auto_groups: [], is_service_user: true },
    });
    expect(res.body).toMatchObject({
      name: "ci-bot",
      email: "",
      role: "network_admin",
      status: "active",
      is_service_user: true,
      idp_id: "",
      issued: "api",
      last_login: "0001-01-01T00:00:00Z",
    });
    expect(res.body.password).toBeUndefined();
    expect(lastAudit(s)).toMatchObject({ activity_code: "service.user.create", target_id: res.body.id });
  });

  test("a regular user is invited; with the embedded IdP the password is in the create response only", async () => {
    const g = await group(s, "invitees");
    const res = await invite(s, "alice@example.com", { name: "Alice", auto_groups: [g] });
    expect(res.body).toMatchObject({
      email: "alice@example.com",
      name: "Alice",
      status: "invited",
      is_service_user: false,
      auto_groups: [g],
    });
    expect(res.body.idp_id).toBe(res.body.id);
    expect(typeof res.body.password).toBe("string");
    expect(res.body.password.length).toBeGreaterThanOrEqual(12);
    expect(lastAudit(s)).toMatchObject({ activity_code: "user.invite", target_id: res.body.id });
    const listed = (await s.call("listUsers")).body.find((u: any) => u.id === res.body.id);
    expect(listed.password).toBeUndefined();
    expect(JSON.stringify(await s.call("listUsers"))).not.toContain(res.body.password);
    // Stored as a salted hash, never as given.
    const doc = s.server.state.store.get<UserDoc>("user", res.body.id);
    expect(doc?.password_hash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(doc)).not.toContain(res.body.password);
  });

  test("without the embedded IdP no password is generated", async () => {
    const res = await invite(plain, "bob@example.com");
    expect(res.body.status).toBe("invited");
    expect(res.body.password).toBeUndefined();
  });

  test("rejections name the field: email, role, auto_groups; a duplicate email is a 409", async () => {
    expectError(
      await s.call("createUser", { body: { role: "user", auto_groups: [], is_service_user: false } }),
      422,
      "email",
    );
    expectError(await invite(s, ""), 422, "email");
    expectError(await invite(s, "own@example.com", { role: "owner" }), 422, "role");
    expectError(await invite(s, "own@example.com", { role: "king" }), 422, "role");
    expectError(await invite(s, "grp@example.com", { auto_groups: ["nope"] }), 422, "auto_groups");
    const all = (await s.call("listGroups", { query: { name: "All" } })).body[0].id;
    expectError(await invite(s, "grp@example.com", { auto_groups: [all] }), 422, "auto_groups");
    await invite(s, "dup@example.com");
    expectError(await invite(s, "DUP@example.com"), 409, /dup@example.com/i);
    expectError(await s.call("createUser", { body: { role: "user" } }), 422, "auto_groups");
  });

  test("what the service stores although it looks wrong: a service user without a name, an address sent for a service user, an address that is none", async () => {
    const nameless = await s.call("createUser", {
      body: { role: "user", auto_groups: [], is_service_user: true },
    });
    expect(nameless.status).toBe(200);
    expect(nameless.body).toMatchObject({ name: "", email: "", is_service_user: true });
    // The address of a service user is ignored (stored empty), as the service does.
    const addressed = await s.call("createUser", {
      body: { email: "x@example.com", role: "user", auto_groups: [], is_service_user: true, name: "x" },
    });
    expect(addressed.status).toBe(200);
    expect(addressed.body).toMatchObject({ name: "x", email: "" });
    const odd = await invite(s, "not-an-email");
    expect(odd.status).toBe(200);
    expect(odd.body.email).toBe("not-an-email");
  });
});

describe("update", () => {
  test("role and auto_groups change; blocking sets status blocked and unblocking restores it", async () => {
    const g = await group(s, "upd");
    const inv = await invite(s, "carol@example.com");
    const id = inv.body.id;
    const up = await s.call("updateUser", {
      params: { userId: id },
      body: { role: "auditor", auto_groups: [g], is_blocked: false },
    });
    expect(up.body).toMatchObject({
      role: "auditor",
      auto_groups: [g],
      status: "invited",
      is_blocked: false,
    });
    expect(lastAudit(s)).toMatchObject({ activity_code: "user.update", target_id: id });

    const blocked = await s.call("updateUser", {
      params: { userId: id },
      body: { role: "auditor", auto_groups: [g], is_blocked: true },
    });
    expect(blocked.body).toMatchObject({ status: "blocked", is_blocked: true });
    expect(lastAudit(s)).toMatchObject({ activity_code: "user.block", target_id: id });

    const unblocked = await s.call("updateUser", {
      params: { userId: id },
      body: { role: "auditor", auto_groups: [g], is_blocked: false },
    });
    expect(unblocked.body).toMatchObject({ status: "invited", is_blocked: false });
    expect(lastAudit(s)).toMatchObject({ activity_code: "user.unblock", target_id: id });
  });

  test("a blocked user can do nothing; unblocked it works again", async () => {
    const svc = await serviceUser(s, "admin");
    expect((await s.call("getCurrentUser", { token: svc.token })).status).toBe(200);
    const body = { role: "admin", auto_groups: [], is_blocked: true };
    expect((await s.call("updateUser", { params: { userId: svc.id }, body })).body.status).toBe("blocked");
    expectError(await s.call("getCurrentUser", { token: svc.token }), 403, /blocked/);
    expectError(await s.call("listGroups", { token: svc.token }), 403, /blocked/);
    const un = await s.call("updateUser", {
      params: { userId: svc.id },
      body: { ...body, is_blocked: false },
    });
    expect(un.body.status).toBe("active");
    expect((await s.call("getCurrentUser", { token: svc.token })).status).toBe(200);
  });

  test("nobody changes the owner's role or blocks the owner; nobody blocks or re-roles itself", async () => {
    const admin = await serviceUser(s, "admin");
    const ownerBody = { role: "owner", auto_groups: [], is_blocked: false };
    for (const token of [s.token, admin.token]) {
      expectError(
        await s.call("updateUser", {
          params: { userId: ownerId },
          body: { ...ownerBody, role: "admin" },
          token,
        }),
        403,
      );
      expectError(
        await s.call("updateUser", {
          params: { userId: ownerId },
          body: { ...ownerBody, is_blocked: true },
          token,
        }),
        403,
      );
    }
    expectError(
      await s.call("updateUser", {
        params: { userId: admin.id },
        body: { role: "admin", auto_groups: [], is_blocked: true },
        token: admin.token,
      }),
      403,
      /itself/,
    );
    expectError(
      await s.call("updateUser", {
        params: { userId: admin.id },
        body: { role: "user", auto_groups: [], is_blocked: false },
        token: admin.token,
      }),
      403,
      /own role/,
    );
    // The owner may still edit its own auto groups.
    const g = await group(s, "owner-groups");
    const ok = await s.call("updateUser", {
      params: { userId: ownerId },
      body: { ...ownerBody, auto_groups: [g] },
    });
    expect(ok.body).toMatchObject({ role: "owner", auto_groups: [g] });
    await s.call("updateUser", { params: { userId: ownerId }, body: ownerBody });
  });

  test("owner cannot be assigned; unknown user 404; unknown group 422; missing field 422", async () => {
    const inv = await invite(s, "dave@example.com");
    expectError(
      await s.call("updateUser", {
        params: { userId: inv.body.id },
        body: { role: "owner", auto_groups: [], is_blocked: false },
      }),
      422,
      "role",
    );
    expectError(
      await s.call("updateUser", {
        params: { userId: "nope" },
        body: { role: "user", auto_groups: [], is_blocked: false },
      }),
      404,
    );
    expectError(
      await s.call("updateUser", {
        params: { userId: inv.body.id },
        body: { role: "user", auto_groups: ["nope"], is_blocked: false },
      }),
      422,
      "auto_groups",
    );
    expectError(
      await s.call("updateUser", {
        params: { userId: inv.body.id },
        body: { role: "user", auto_groups: [] },
      }),
      422,
      "is_blocked",
    );
  });

  test("with groups propagation, auto group changes move the user's peers", async () => {
    const g1 = await group(s, "prop-1");
    const g2 = await group(s, "prop-2");
    const inv = await invite(s, "erin@example.com");
    const peer = addPeer(s);
    s.server.state.store.tx((tx) => {
      const p = tx.get("peer", peer.id)!;
      tx.put("peer", { ...p, user_id: inv.body.id });
    });
    const put = (auto: string[]) =>
      s.call("updateUser", {
        params: { userId: inv.body.id },
        body: { role: "user", auto_groups: auto, is_blocked: false },
      });
    await put([g1]);
    expect((await s.call("getGroup", { params: { groupId: g1 } })).body.peers).toEqual([
      { id: peer.id, name: peer.name },
    ]);
    await put([g2]);
    expect((await s.call("getGroup", { params: { groupId: g1 } })).body.peers).toEqual([]);
    expect((await s.call("getGroup", { params: { groupId: g2 } })).body.peers_count).toBe(1);
    await put([]);
    expect((await s.call("getGroup", { params: { groupId: g2 } })).body.peers_count).toBe(0);
    // The user no longer refers to either group, so both can be deleted.
    expect((await s.call("deleteGroup", { params: { groupId: g1 } })).status).toBe(200);
    expect((await s.call("deleteGroup", { params: { groupId: g2 } })).status).toBe(200);
  });
  test("without groups propagation, auto group changes leave existing peers where they are", async () => {
    const srv = await startTestServer();
    try {
      const accountId = (await srv.call("listAccounts")).body[0].id;
      const settings = {
        ...(await srv.call("listAccounts")).body[0].settings,
        groups_propagation_enabled: false,
      };
      expect((await srv.call("updateAccount", { params: { accountId }, body: { settings } })).status).toBe(
        200,
      );
      const g = await group(srv, "static");
      const inv = await invite(srv, "static@example.com");
      const peer = addPeer(srv);
      srv.server.state.store.tx((tx) =>
        tx.put("peer", { ...tx.get("peer", peer.id)!, user_id: inv.body.id }),
      );
      const res = await srv.call("updateUser", {
        params: { userId: inv.body.id },
        body: { role: "user", auto_groups: [g], is_blocked: false },
      });
      expect(res.body.auto_groups).toEqual([g]);
      expect((await srv.call("getGroup", { params: { groupId: g } })).body.peers).toEqual([]);
    } finally {
      await srv.close();
    }
  });
});

describe("delete", () => {
  test("a deleted user's tokens die with it", async () => {
    const svc = await serviceUser(s, "admin");
    expect((await s.call("deleteUser", { params: { userId: svc.id } })).body).toEqual({});
    expect(lastAudit(s)).toMatchObject({ activity_code: "service.user.delete", target_id: svc.id });
    expectError(await s.call("getCurrentUser", { token: svc.token }), 401);
    expect(s.server.state.store.all("token", svc.id)).toHaveLength(0);
    expectError(await s.call("deleteUser", { params: { userId: svc.id } }), 404);
    const inv = await invite(s, "frank@example.com");
    await s.call("deleteUser", { params: { userId: inv.body.id } });
    expect(lastAudit(s)).toMatchObject({ activity_code: "user.delete", target_id: inv.body.id });
  });

  test("the owner cannot be deleted, and no one deletes itself", async () => {
    const admin = await serviceUser(s, "admin");
    expectError(
      await s.call("deleteUser", { params: { userId: ownerId }, token: admin.token }),
      403,
      /owner/,
    );
    expectError(await s.call("deleteUser", { params: { userId: ownerId } }), 403, /owner/);
    expectError(
      await s.call("deleteUser", { params: { userId: admin.id }, token: admin.token }),
      403,
      /itself/,
    );
  });
});

describe("invite resend, approve, reject", () => {
  test("resend works only for invited users", async () => {
    const inv = await invite(s, "gina@example.com");
    expect((await s.call("resendUserInvite", { params: { userId: inv.body.id } })).body).toEqual({});
    expect(lastAudit(s)).toMatchObject({ activity_code: "user.invite", target_id: inv.body.id });
    const svc = await serviceUser(s, "user");
    expectError(await s.call("resendUserInvite", { params: { userId: svc.id } }), 412, /not invited/);
    expectError(await s.call("resendUserInvite", { params: { userId: "nope" } }), 404);
  });

  test("approve clears pending_approval; a pending user cannot act until approved", async () => {
    const id = seedPendingUser(s, "pending@example.com");
    const tok = await s.call("createToken", { params: { userId: id }, body: { name: "p", expires_in: 1 } });
    expectError(await s.call("getCurrentUser", { token: tok.body.plain_token }), 403, /pending/);
    const res = await s.call("approveUser", { params: { userId: id } });
    expect(res.body).toMatchObject({ id, pending_approval: false });
    expect(lastAudit(s)).toMatchObject({ activity_code: "user.approve", target_id: id });
    expect((await s.call("getCurrentUser", { token: tok.body.plain_token })).status).toBe(200);
    expectError(await s.call("approveUser", { params: { userId: id } }), 412, /not pending/);
    expectError(await s.call("approveUser", { params: { userId: "nope" } }), 404);
  });

  test("reject removes a pending user; a user not pending is refused", async () => {
    const id = seedPendingUser(s, "reject@example.com");
    expect((await s.call("rejectUser", { params: { userId: id } })).body).toEqual({});
    expect(lastAudit(s)).toMatchObject({ activity_code: "user.reject", target_id: id });
    expect((await s.call("listUsers")).body.some((u: any) => u.id === id)).toBe(false);
    expectError(await s.call("rejectUser", { params: { userId: id } }), 404);
    expectError(await s.call("rejectUser", { params: { userId: ownerId } }), 412, /not pending/);
  });
});

describe("password change (embedded IdP)", () => {
  test("only one's own, old_password must match, new_password at least 8 characters", async () => {
    const inv = await invite(s, "hank@example.com");
    const initial = inv.body.password as string;
    const id = inv.body.id as string;
    const tok = (await s.call("createToken", { params: { userId: id }, body: { name: "h", expires_in: 1 } }))
      .body.plain_token;
    expectError(
      await s.call("changeUserPassword", {
        params: { userId: id },
        body: { old_password: "wrong-password", new_password: "another-password" },
        token: tok,
      }),
      422,
      "old_password",
    );
    expectError(
      await s.call("changeUserPassword", {
        params: { userId: id },
        body: { old_password: initial, new_password: "short" },
        token: tok,
      }),
      422,
      "new_password",
    );
    const ok = await s.call("changeUserPassword", {
      params: { userId: id },
      body: { old_password: initial, new_password: "a-new-password" },
      token: tok,
    });
    expect(ok.body).toEqual({});
    expect(lastAudit(s)).toMatchObject({ activity_code: "user.password.change", target_id: id });
    // The old password no longer matches; the new one does.
    expectError(
      await s.call("changeUserPassword", {
        params: { userId: id },
        body: { old_password: initial, new_password: "third-password" },
        token: tok,
      }),
      422,
      "old_password",
    );
    expect(
      (
        await s.call("changeUserPassword", {
          params: { userId: id },
          body: { old_password: "a-new-password", new_password: "third-password" },
          token: tok,
        })
      ).status,
    ).toBe(200);
    // Not even the owner sets another user's password.
    expectError(
      await s.call("changeUserPassword", {
        params: { userId: id },
        body: { old_password: "third-password", new_password: "owner-chosen" },
      }),
      403,
    );
  });

  test("a user without a password gets 412; without the embedded IdP the route answers 412", async () => {
    expectError(
      await s.call("changeUserPassword", {
        params: { userId: ownerId },
        body: { old_password: "whatever-it-was", new_password: "new-password" },
      }),
      412,
      /no password/,
    );
    const plainOwner = (await plain.call("getCurrentUser")).body.id;
    expectError(
      await plain.call("changeUserPassword", {
        params: { userId: plainOwner },
        body: { old_password: "whatever-it-was", new_password: "new-password" },
      }),
      412,
      /embedded identity provider/,
    );
  });
});

describe("roles", () => {
  test("a network admin reads users but cannot create them; a regular user cannot list them", async () => {
    const na = await serviceUser(s, "network_admin");
    expect((await s.call("listUsers", { token: na.token })).status).toBe(200);
    expectError(
      await s.call("createUser", {
        body: { name: "x", role: "user", auto_groups: [], is_service_user: true },
        token: na.token,
      }),
      403,
    );
    const u = await serviceUser(s, "user");
    expectError(await s.call("listUsers", { token: u.token }), 403);
    expect((await s.call("getCurrentUser", { token: u.token })).body.permissions.is_restricted).toBe(true);
  });
});
