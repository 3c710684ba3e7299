import { defaultSettings } from "../../server/bootstrap";
import { addPeer } from "../support/fixtures";
import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let accountId: string;

beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer();
  accountId = (await s.call("listAccounts")).body[0].id;
});
afterAll(() => s.close());

/** Every required member of settings, at the values of a new account. */
function required(): Record<string, unknown> {
  const d = defaultSettings(false);
  return {
    peer_login_expiration_enabled: d.peer_login_expiration_enabled,
    peer_login_expiration: d.peer_login_expiration,
    peer_inactivity_expiration_enabled: d.peer_inactivity_expiration_enabled,
    peer_inactivity_expiration: d.peer_inactivity_expiration,
    regular_users_view_blocked: d.regular_users_view_blocked,
    peer_expose_enabled: d.peer_expose_enabled,
    peer_expose_groups: d.peer_expose_groups,
  };
}

const extra = (over: Record<string, unknown> = {}) => ({
  peer_approval_enabled: false,
  user_approval_required: false,
  network_traffic_logs_enabled: false,
  network_traffic_logs_groups: [],
  network_traffic_packet_counter_enabled: false,
  ...over,
});

async function put(settings: Record<string, unknown>, more: Record<string, unknown> = {}, srv = s) {
  const id = srv === s ? accountId : (await srv.call("listAccounts")).body[0].id;
  return srv.call("updateAccount", { params: { accountId: id }, body: { settings, ...more } });
}

let seq = 0;
async function serviceUserToken(srv: TestServer, role: string): Promise<string> {
  const u = await srv.call("createUser", {
    body: { name: `svc-${++seq}`, role, auto_groups: [], is_service_user: true },
  });
  return (
    await srv.call("createToken", { params: { userId: u.body.id }, body: { name: "t", expires_in: 1 } })
  ).body.plain_token;
}

describe("accounts", () => {
  test("list answers exactly one account with its settings", async () => {
    const res = await s.call("listAccounts");
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({
      domain_category: "private",
      settings: { ...defaultSettings(false) },
      onboarding: { signup_form_pending: false, onboarding_flow_pending: false },
    });
  });

  test("embedded_idp_enabled reflects the server option", async () => {
    const e = await startTestServer({ embeddedIdp: true });
    try {
      expect((await e.call("listAccounts")).body[0].settings.embedded_idp_enabled).toBe(true);
    } finally {
      await e.close();
    }
  });

  test("required members are replaced, unsent optional members keep their values, extra replaces", async () => {
    const first = await put({
      ...required(),
      peer_login_expiration: 7200,
      lazy_connection_enabled: true,
      dns_domain: "corp.internal",
      extra: extra({ user_approval_required: true }),
    });
    expect(first.body.settings).toMatchObject({
      peer_login_expiration: 7200,
      lazy_connection_enabled: true,
      dns_domain: "corp.internal",
      extra: extra({ user_approval_required: true }),
    });
    const events = s.server.state.store.auditEvents();
    expect(events[events.length - 1]).toMatchObject({
      activity_code: "account.settings.update",
      target_id: accountId,
    });
    expect(events[events.length - 1]!.meta.changed).toEqual(
      expect.arrayContaining(["peer_login_expiration", "lazy_connection_enabled", "dns_domain", "extra"]),
    );

    // A PUT with only the required members: those are replaced, the optional ones (extra too) stay.
    const second = await put({ ...required(), regular_users_view_blocked: false });
    expect(second.body.settings).toMatchObject({
      peer_login_expiration: 86400,
      regular_users_view_blocked: false,
      lazy_connection_enabled: true,
      dns_domain: "corp.internal",
      extra: extra({ user_approval_required: true }),
    });
    // Reads agree with the PUT response.
    expect((await s.call("listAccounts")).body[0].settings).toEqual(second.body.settings);
    await put({ ...required(), lazy_connection_enabled: false, dns_domain: "", extra: extra() });
  });

  test("read-only members are ignored; onboarding is optional and replaced when sent", async () => {
    const res = await put(
      { ...required(), embedded_idp_enabled: true, local_auth_disabled: true },
      { onboarding: { signup_form_pending: true, onboarding_flow_pending: false } },
    );
    expect(res.body.settings.embedded_idp_enabled).toBe(false);
    expect(res.body.settings.local_auth_disabled).toBe(false);
    expect(res.body.onboarding).toEqual({ signup_form_pending: true, onboarding_flow_pending: false });
    const kept = await put(required());
    expect(kept.body.onboarding).toEqual({ signup_form_pending: true, onboarding_flow_pending: false });
  });

  test("rejections name the field", async () => {
    const { peer_login_expiration: _omit, ...missing } = required();
    expectError(await put(missing), 422, "settings.peer_login_expiration");
    expectError(
      await put({ ...required(), peer_login_expiration: 60 }),
      422,
      "settings.peer_login_expiration",
    );
    expectError(
      await put({ ...required(), peer_expose_groups: ["nope"] }),
      422,
      "settings.peer_expose_groups",
    );
    expectError(
      await put({ ...required(), extra: extra({ network_traffic_logs_groups: ["nope"] }) }),
      422,
      "settings.extra.network_traffic_logs_groups",
    );
    const { user_approval_required: _u, ...partialExtra } = extra();
    expectError(
      await put({ ...required(), extra: partialExtra }),
      422,
      "settings.extra.user_approval_required",
    );
    expectError(await put({ ...required(), network_range: "fd00::/64" }), 422, "settings.network_range");
    expectError(await s.call("updateAccount", { params: { accountId }, body: {} }), 422, "settings");
    expectError(
      await s.call("updateAccount", { params: { accountId: "nope" }, body: { settings: required() } }),
      404,
    );
  });

  test("JWT groups on without a claim name are stored, as the service stores them", async () => {
    for (const claim of [{ jwt_groups_claim_name: "" }, {}]) {
      const res = await put({ ...required(), jwt_groups_enabled: true, ...claim });
      expect(res.status).toBe(200);
      expect(res.body.settings).toMatchObject({ jwt_groups_enabled: true, jwt_groups_claim_name: "" });
    }
    expect((await put({ ...required(), jwt_groups_enabled: false })).body.settings.jwt_groups_enabled).toBe(
      false,
    );
  });

  test("the network range: at most /28, host bits cleared, wider than /8 taken", async () => {
    expectError(await put({ ...required(), network_range: "100.64.0.0/29" }), 422, "settings.network_range");
    expect((await put({ ...required(), network_range: "100.64.1.0/16" })).body.settings.network_range).toBe(
      "100.64.0.0/16",
    );
    expect((await put({ ...required(), network_range: "96.0.0.0/7" })).body.settings.network_range).toBe(
      "96.0.0.0/7",
    );
    expect((await put({ ...required(), network_range: "100.64.0.0/10" })).body.settings.network_range).toBe(
      "100.64.0.0/10",
    );
  });

  test("groups named by the settings exist and cannot be deleted while named", async () => {
    const g = (await s.call("createGroup", { body: { name: "exposers" } })).body.id;
    const res = await put({
      ...required(),
      peer_expose_enabled: true,
      peer_expose_groups: [g],
      extra: extra({ network_traffic_logs_groups: [g] }),
    });
    expect(res.body.settings.peer_expose_groups).toEqual([g]);
    expectError(await s.call("deleteGroup", { params: { groupId: g } }), 400, /account settings/);
    await put({ ...required(), extra: extra() });
    expect((await s.call("deleteGroup", { params: { groupId: g } })).status).toBe(200);
  });

  test("a new network range renumbers the peers; a range too small for them is refused", async () => {
    const srv = await startTestServer();
    try {
      const peers = Array.from({ length: 7 }, () => addPeer(srv));
      expect(peers.every((p) => p.ip.startsWith("100."))).toBe(true);
      expectError(
        await put({ ...required(), network_range: "10.1.0.0/29" }, {}, srv),
        422,
        "settings.network_range",
      );
      // The refused change left every address alone.
      expect(srv.server.state.store.all("peer").map((p) => p.ip)).toEqual(peers.map((p) => p.ip));
      const res = await put({ ...required(), network_range: "10.20.0.0/16" }, {}, srv);
      expect(res.body.settings.network_range).toBe("10.20.0.0/16");
      const ips = srv.server.state.store.all("peer").map((p) => String(p.ip));
      expect(ips.every((ip) => ip.startsWith("10.20."))).toBe(true);
      expect(new Set(ips).size).toBe(7);
      // An empty range keeps the current one.
      const kept = await put({ ...required(), network_range: "" }, {}, srv);
      expect(kept.body.settings.network_range).toBe("10.20.0.0/16");
    } finally {
      await srv.close();
    }
  });

  test("only admins update the account; only the owner deletes it", async () => {
    const na = await serviceUserToken(s, "network_admin");
    expect((await s.call("listAccounts", { token: na })).status).toBe(200);
    expectError(
      await s.call("updateAccount", { params: { accountId }, body: { settings: required() }, token: na }),
      403,
    );
    const admin = await serviceUserToken(s, "admin");
    expect(
      (await s.call("updateAccount", { params: { accountId }, body: { settings: required() }, token: admin }))
        .status,
    ).toBe(200);
    expectError(await s.call("deleteAccount", { params: { accountId }, token: admin }), 403);
  });

  test("the owner deletes the account: everything is gone and every credential answers 401", async () => {
    const srv = await startTestServer({ embeddedIdp: true });
    try {
      const id = (await srv.call("listAccounts")).body[0].id;
      const other = await serviceUserToken(srv, "admin");
      const invite = await srv.call("createInvite", {
        body: { email: "late@example.com", name: "Late", role: "user", auto_groups: [] },
      });
      expectError(await srv.call("deleteAccount", { params: { accountId: "nope" } }), 404);
      expect((await srv.call("deleteAccount", { params: { accountId: id } })).body).toEqual({});
      expectError(await srv.call("listAccounts"), 401);
      expectError(await srv.call("listGroups", { token: other }), 401);
      expectError(
        await srv.call("getInviteInfo", { params: { token: invite.body.invite_token }, token: null }),
        404,
      );
      expect(srv.server.state.store.all("user")).toHaveLength(0);
      expect(srv.server.state.store.auditEvents()).toHaveLength(0);
    } finally {
      await srv.close();
    }
  });
});
