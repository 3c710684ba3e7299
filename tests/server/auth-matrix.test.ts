/**
 * Every operation of operations.tsv and operations-beyond-spec.tsv, called with every kind of bad credential, is refused with 401 or 403 before
 * it does anything; a regular user (role `user`) is refused (403) everywhere but on the few routes it may call.
 * The server runs with --cloud and --embedded-idp so no feature switch answers in place of authentication.
 */
import { ROUTES, type ApiRoute } from "../../api/routes";
import { ManualClock } from "../../server/clock";
import { newPersonalAccessToken } from "../../server/ids";
import { servedOperations } from "../support/spec";
import { expectError, startTestServer, type CallResult, type TestServer } from "../support/server";

/** What a regular user may call (with someone else's ids in the path: its own tokens are covered elsewhere). */
const USER_MAY_CALL = new Set([
  "GET /api/users/current",
  "GET /api/peers",
  "GET /api/peers/{peerId}",
  "GET /api/peers/{peerId}/accessible-peers",
  "GET /api/peers/{peerId}/jobs",
  "GET /api/peers/{peerId}/jobs/{jobId}",
  // The service lets every signed-in user read the catalog of LLM provider types.
  "GET /api/agent-network/catalog/providers",
]);

const DAY = 86_400_000;
let s: TestServer;
const cred: Record<string, string> = {};

const rows = servedOperations();
const routeOf = (method: string, path: string): ApiRoute | undefined =>
  ROUTES.find((r) => r.method === method && r.path === path);
const tokenRoutes = rows
  .map((r) => routeOf(r.method, r.path))
  .filter((r): r is ApiRoute => r !== undefined && r.auth === "token");

beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  const clock = new ManualClock();
  s = await startTestServer({ clock, cloud: true, embeddedIdp: true });
  const ownerId = (await s.call("getCurrentUser")).body.id;
  const serviceUser = async (role: string) => {
    const u = await s.call("createUser", {
      body: { name: `svc-${role}`, role, auto_groups: [], is_service_user: true },
    });
    const t = await s.call("createToken", {
      params: { userId: u.body.id },
      body: { name: "t", expires_in: 30 },
    });
    return { id: u.body.id as string, token: t.body.plain_token as string };
  };
  const regular = await serviceUser("user");
  cred.regular = regular.token;
  const blocked = await serviceUser("admin");
  await s.call("updateUser", {
    params: { userId: blocked.id },
    body: { role: "admin", auto_groups: [], is_blocked: true },
  });
  cred.blocked = blocked.token;
  const deleted = await s.call("createToken", {
    params: { userId: ownerId },
    body: { name: "deleted", expires_in: 30 },
  });
  await s.call("deleteToken", {
    params: { userId: ownerId, tokenId: deleted.body.personal_access_token.id },
  });
  cred.deleted = deleted.body.plain_token;
  cred.expired = (
    await s.call("createToken", { params: { userId: ownerId }, body: { name: "expired", expires_in: 1 } })
  ).body.plain_token;
  clock.advance(2 * DAY);
  // Well-formed (prefix, length, checksum) but never issued.
  cred.unknown = newPersonalAccessToken();
});
afterAll(() => s.close());

/** Calls a route with placeholder ids (authentication comes before any lookup). */
async function callAs(route: ApiRoute, token: string | null): Promise<CallResult> {
  const params = Object.fromEntries(route.pathParams.map((p) => [p, `x-${p}`]));
  return s.call(route.operationId, { params, token, body: route.body ? {} : undefined });
}

describe("auth matrix", () => {
  test("every row of the operation lists maps to exactly one route, and every route to a row", () => {
    expect(rows.length).toBe(ROUTES.length);
    for (const r of rows) {
      expect(ROUTES.filter((x) => x.method === r.method && x.path === r.path)).toHaveLength(1);
    }
    // Only the two invite link routes are public.
    expect(ROUTES.filter((r) => r.auth === "public").map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/users/invites/{token}",
      "POST /api/users/invites/{token}/accept",
    ]);
    for (const k of USER_MAY_CALL) expect(tokenRoutes.some((r) => `${r.method} ${r.path}` === k)).toBe(true);
  });

  test.each(tokenRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))("%s", async (_name, route) => {
    expectError(await callAs(route, null), 401);
    expectError(await callAs(route, "raw:Token"), 401);
    expectError(await callAs(route, "raw:Token not-a-token"), 401);
    expectError(await callAs(route, "raw:Basic dXNlcjpwYXNzd29yZA=="), 401);
    expectError(await callAs(route, "raw:Bearer not.a.jwt"), 401);
    expectError(await callAs(route, cred.unknown as string), 401);
    expectError(await callAs(route, cred.expired as string), 401);
    expectError(await callAs(route, cred.deleted as string), 401);
    expectError(await callAs(route, cred.blocked as string), 403);
    const asUser = await callAs(route, cred.regular as string);
    if (USER_MAY_CALL.has(`${route.method} ${route.path}`)) {
      expect([401, 403, 500]).not.toContain(asUser.status);
    } else {
      expectError(asUser, 403, /permission denied/);
    }
  });

  test("the two public invite routes work without credentials", async () => {
    const invite = await s.call("createInvite", {
      body: { email: "matrix@example.com", name: "Matrix", role: "user", auto_groups: [] },
    });
    const token = invite.body.invite_token as string;
    const info = await s.call("getInviteInfo", { params: { token }, token: null });
    expect(info.status).toBe(200);
    expect(info.body.valid).toBe(true);
    const accepted = await s.call("acceptInvite", {
      params: { token },
      body: { password: "long-enough-password" },
      token: null,
    });
    expect(accepted.body).toEqual({ success: true });
    // Credentials are not needed there, and bad ones do not get in the way.
    expectError(await s.call("getInviteInfo", { params: { token: "pni_x" }, token: "raw:Token junk" }), 404);
  });
});
