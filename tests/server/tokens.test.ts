import { ManualClock, iso } from "../../server/clock";
import { hashSecret, newPersonalAccessToken, patChecksumValid } from "../../server/ids";
import { MAX_ACTIVE_TOKENS_PER_USER } from "../../server/handlers/tokens";
import type { TokenDoc } from "../../server/model";
import { expectError, startTestServer, type TestServer } from "../support/server";

const DAY = 86_400_000;
let s: TestServer;
let clock: ManualClock;
let ownerId: string;

beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  clock = new ManualClock();
  s = await startTestServer({ clock });
  ownerId = (await s.call("getCurrentUser")).body.id;
});
afterAll(() => s.close());

let seq = 0;
async function serviceUser(role: string): Promise<{ id: string; token: string }> {
  const u = await s.call("createUser", {
    body: { name: `svc-${++seq}`, role, auto_groups: [], is_service_user: true },
  });
  const t = await s.call("createToken", {
    params: { userId: u.body.id },
    body: { name: "t", expires_in: 30 },
  });
  return { id: u.body.id, token: t.body.plain_token };
}

function lastAudit() {
  const events = s.server.state.store.auditEvents();
  return events[events.length - 1];
}

describe("personal access tokens", () => {
  test("create returns the value once, in the documented shape; it authenticates at once", async () => {
    const res = await s.call("createToken", {
      params: { userId: ownerId },
      body: { name: "ci", expires_in: 7 },
    });
    const plain = res.body.plain_token as string;
    // Fixed prefix, 30 random base62 characters, 6-character base62 CRC32.
    expect(plain).toMatch(/^pnp_[0-9A-Za-z]{36}$/);
    expect(patChecksumValid(plain)).toBe(true);
    expect(res.body.personal_access_token).toEqual({
      id: expect.any(String),
      name: "ci",
      expiration_date: iso(clock.now() + 7 * DAY),
      created_by: ownerId,
      created_at: iso(clock.now()),
      last_used: null,
    });
    expect(lastAudit()).toMatchObject({
      activity_code: "personal.access.token.create",
      target_id: res.body.personal_access_token.id,
    });
    // Only the hash is stored.
    const doc = s.server.state.store.get<TokenDoc>("token", res.body.personal_access_token.id);
    expect(doc?.hashed_token).toBe(hashSecret(plain));
    expect(JSON.stringify(doc)).not.toContain(plain);

    const me = await s.call("getCurrentUser", { token: plain });
    expect(me.body.id).toBe(ownerId);
    const got = await s.call("getToken", {
      params: { userId: ownerId, tokenId: res.body.personal_access_token.id },
    });
    expect(got.body.last_used).toBe(iso(clock.now()));
    expect(JSON.stringify(got.body)).not.toContain(plain);
    const list = await s.call("listTokens", { params: { userId: ownerId } });
    expect(list.body.map((t: any) => t.id)).toContain(res.body.personal_access_token.id);
    expect(JSON.stringify(list.body)).not.toContain(plain);
  });

  test("expires_in must be 1 to 365 days (rule 6); name is required", async () => {
    for (const expires_in of [0, 366, 1.5, "7"]) {
      expectError(
        await s.call("createToken", { params: { userId: ownerId }, body: { name: "x", expires_in } }),
        422,
        "expires_in",
      );
    }
    for (const expires_in of [1, 365]) {
      expect(
        (await s.call("createToken", { params: { userId: ownerId }, body: { name: "edge", expires_in } }))
          .status,
      ).toBe(200);
    }
    expectError(
      await s.call("createToken", { params: { userId: ownerId }, body: { name: "", expires_in: 1 } }),
      422,
      "name",
    );
    expectError(
      await s.call("createToken", { params: { userId: ownerId }, body: { expires_in: 1 } }),
      422,
      "name",
    );
  });

  test("unknown user or token: 404; another user's token under this path: 404", async () => {
    const a = await serviceUser("admin");
    const b = await serviceUser("admin");
    const bTokens = (await s.call("listTokens", { params: { userId: b.id } })).body;
    const bTokenId = bTokens[0].id as string;
    expectError(await s.call("listTokens", { params: { userId: "nope" } }), 404, /user/);
    expectError(
      await s.call("createToken", { params: { userId: "nope" }, body: { name: "x", expires_in: 1 } }),
      404,
      /user/,
    );
    expectError(await s.call("getToken", { params: { userId: a.id, tokenId: bTokenId } }), 404, /token/);
    expectError(await s.call("deleteToken", { params: { userId: a.id, tokenId: bTokenId } }), 404, /token/);
    expectError(await s.call("getToken", { params: { userId: a.id, tokenId: "nope" } }), 404);
    // b's token survived the attempt.
    expect((await s.call("getToken", { params: { userId: b.id, tokenId: bTokenId } })).status).toBe(200);
  });

  test("delete revokes at once", async () => {
    const res = await s.call("createToken", {
      params: { userId: ownerId },
      body: { name: "tmp", expires_in: 1 },
    });
    const id = res.body.personal_access_token.id;
    expect((await s.call("getCurrentUser", { token: res.body.plain_token })).status).toBe(200);
    expect((await s.call("deleteToken", { params: { userId: ownerId, tokenId: id } })).body).toEqual({});
    expect(lastAudit()).toMatchObject({ activity_code: "personal.access.token.delete", target_id: id });
    expectError(await s.call("getCurrentUser", { token: res.body.plain_token }), 401);
    expectError(await s.call("getToken", { params: { userId: ownerId, tokenId: id } }), 404);
  });

  test("an expired token is refused", async () => {
    const res = await s.call("createToken", {
      params: { userId: ownerId },
      body: { name: "short", expires_in: 1 },
    });
    expect((await s.call("getCurrentUser", { token: res.body.plain_token })).status).toBe(200);
    clock.advance(DAY - 1000);
    expect((await s.call("getCurrentUser", { token: res.body.plain_token })).status).toBe(200);
    clock.advance(1000);
    expectError(await s.call("getCurrentUser", { token: res.body.plain_token }), 401, /expired/);
  });

  test("checksum first: a well-formed unknown token and a corrupted one are both 401", async () => {
    expectError(await s.call("getCurrentUser", { token: newPersonalAccessToken() }), 401);
    const corrupted = s.token.slice(0, -1) + (s.token.endsWith("A") ? "B" : "A");
    expect(patChecksumValid(corrupted)).toBe(false);
    expectError(await s.call("getCurrentUser", { token: corrupted }), 401);
  });
});

describe("who manages which tokens", () => {
  test(`a user has at most ${MAX_ACTIVE_TOKENS_PER_USER} active tokens: 422 beyond, nothing stored`, async () => {
    expect(MAX_ACTIVE_TOKENS_PER_USER).toBe(100);
    const u = await serviceUser("user"); // has one token already
    const mint = (expires_in = 30) =>
      s.call("createToken", { params: { userId: u.id }, body: { name: "many", expires_in } });
    for (let i = 1; i < MAX_ACTIVE_TOKENS_PER_USER - 1; i++) expect((await mint()).status).toBe(200);
    // One short-lived token fills the last place.
    const short = await mint(1);
    expect(short.status).toBe(200);
    const count = () => s.server.state.store.all<TokenDoc>("token", u.id).length;
    expect(count()).toBe(MAX_ACTIVE_TOKENS_PER_USER);
    const refused = await mint();
    expectError(refused, 422, /100 active personal access tokens/);
    expect(count()).toBe(MAX_ACTIVE_TOKENS_PER_USER);
    // Another user is not affected.
    expect(
      (await s.call("createToken", { params: { userId: ownerId }, body: { name: "o", expires_in: 1 } }))
        .status,
    ).toBe(200);
    // A deleted token frees its place; so does an expired one.
    const tokenId = short.body.personal_access_token.id;
    await s.call("deleteToken", { params: { userId: u.id, tokenId } });
    expect((await mint(1)).status).toBe(200);
    expectError(await mint(), 422);
    clock.advance(DAY + 1);
    expect((await mint()).status).toBe(200);
    expectError(await mint(), 422);
  });

  test("authentication finds a token by its hash without listing the tokens", async () => {
    const u = await serviceUser("user");
    const store = s.server.state.store;
    const all = jest.spyOn(store, "all");
    try {
      expect((await s.call("getCurrentUser", { token: u.token })).status).toBe(200);
      expectError(await s.call("getCurrentUser", { token: newPersonalAccessToken() }), 401);
      expect(all.mock.calls.filter(([kind]) => kind === "token")).toEqual([]);
    } finally {
      all.mockRestore();
    }
    // The index follows deletes: a deleted token no longer authenticates.
    const t = await s.call("createToken", {
      params: { userId: u.id },
      body: { name: "gone", expires_in: 1 },
    });
    expect((await s.call("getCurrentUser", { token: t.body.plain_token })).status).toBe(200);
    await s.call("deleteToken", { params: { userId: u.id, tokenId: t.body.personal_access_token.id } });
    expectError(await s.call("getCurrentUser", { token: t.body.plain_token }), 401);
  });

  test("a regular user manages its own tokens, not another's", async () => {
    const u = await serviceUser("user");
    const other = await serviceUser("user");
    const mine = await s.call("createToken", {
      params: { userId: u.id },
      body: { name: "mine", expires_in: 2 },
      token: u.token,
    });
    expect(mine.status).toBe(200);
    expect((await s.call("listTokens", { params: { userId: u.id }, token: u.token })).body).toHaveLength(2);
    expect(
      (
        await s.call("deleteToken", {
          params: { userId: u.id, tokenId: mine.body.personal_access_token.id },
          token: u.token,
        })
      ).status,
    ).toBe(200);
    expectError(await s.call("listTokens", { params: { userId: other.id }, token: u.token }), 403);
    expectError(
      await s.call("createToken", {
        params: { userId: other.id },
        body: { name: "x", expires_in: 1 },
        token: u.token,
      }),
      403,
    );
  });

  test("an admin manages a service user's tokens but cannot mint or delete the owner's", async () => {
    const admin = await serviceUser("admin");
    const svc = await serviceUser("user");
    const made = await s.call("createToken", {
      params: { userId: svc.id },
      body: { name: "by-admin", expires_in: 3 },
      token: admin.token,
    });
    expect(made.body.personal_access_token.created_by).toBe(admin.id);
    expect((await s.call("getCurrentUser", { token: made.body.plain_token })).body.id).toBe(svc.id);

    expectError(
      await s.call("createToken", {
        params: { userId: ownerId },
        body: { name: "escalate", expires_in: 1 },
        token: admin.token,
      }),
      403,
      /owner/,
    );
    const ownerTokens = await s.call("listTokens", { params: { userId: ownerId }, token: admin.token });
    expect(ownerTokens.status).toBe(200);
    expectError(
      await s.call("deleteToken", {
        params: { userId: ownerId, tokenId: ownerTokens.body[0].id },
        token: admin.token,
      }),
      403,
      /owner/,
    );
  });

  test("an auditor reads tokens of others but cannot create them", async () => {
    const aud = await serviceUser("auditor");
    expect((await s.call("listTokens", { params: { userId: ownerId }, token: aud.token })).status).toBe(200);
    expectError(
      await s.call("createToken", {
        params: { userId: ownerId },
        body: { name: "x", expires_in: 1 },
        token: aud.token,
      }),
      403,
    );
  });
});
