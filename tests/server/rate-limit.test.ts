import { parseArgs } from "../../server/cli";
import { ManualClock } from "../../server/clock";
import { newPersonalAccessToken } from "../../server/ids";
import { RateLimiter, parseRateLimit } from "../../server/rate-limit";
import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let clock: ManualClock;

beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  clock = new ManualClock();
  // --rate-limit 60:5: one request per second, a burst of five.
  s = await startTestServer({ clock, rateLimit: parseRateLimit("60:5") });
});
afterAll(() => s.close());

async function burst(n: number, token?: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await s.call("getCurrentUser", { token })).status);
  return out;
}

async function tokenFor(role: string): Promise<string> {
  const u = await s.call("createUser", {
    body: { name: `svc-${role}-${Math.random()}`, role, auto_groups: [], is_service_user: true },
  });
  return (await s.call("createToken", { params: { userId: u.body.id }, body: { name: "t", expires_in: 1 } }))
    .body.plain_token;
}

describe("rate limit", () => {
  test("the sixth immediate request is a 429 with Retry-After; time refills the bucket", async () => {
    const token = await tokenFor("admin");
    expect(await burst(5, token)).toEqual([200, 200, 200, 200, 200]);
    const limited = await s.call("getCurrentUser", { token });
    expectError(limited, 429, /too many requests/);
    expect(limited.body).toEqual({ message: "too many requests", code: 429 });
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.headers.get("x-request-id")).toBeTruthy();
    // A refused request takes nothing: still limited without time passing, then one per second.
    expect((await s.call("getCurrentUser", { token })).status).toBe(429);
    clock.advance(1000);
    expect(await burst(2, token)).toEqual([200, 429]);
    clock.advance(500);
    const half = await s.call("getCurrentUser", { token });
    expect(half.status).toBe(429);
    expect(half.headers.get("retry-after")).toBe("1");
    clock.advance(500);
    expect((await s.call("getCurrentUser", { token })).status).toBe(200);
    // A long pause refills to the burst, not beyond.
    clock.advance(3_600_000);
    expect(await burst(6, token)).toEqual([200, 200, 200, 200, 200, 429]);
  });

  test("buckets are per user; unauthenticated requests are answered 401, not counted", async () => {
    const a = await tokenFor("user");
    const b = await tokenFor("user");
    expect(await burst(6, a)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await burst(1, b)).toEqual([200]);
    for (let i = 0; i < 10; i++) expectError(await s.call("getCurrentUser", { token: null }), 401);
  });

  test("all tokens of one user share one bucket: five new tokens together get 5 successes, then 429", async () => {
    const u = await s.call("createUser", {
      body: { name: `svc-shared-${Math.random()}`, role: "user", auto_groups: [], is_service_user: true },
    });
    const tokens: string[] = [];
    for (let i = 0; i < 5; i++) {
      // The owner's own bucket refills between the mints.
      clock.advance(60_000);
      const t = await s.call("createToken", {
        params: { userId: u.body.id },
        body: { name: `t${i}`, expires_in: 1 },
      });
      expect(t.status).toBe(200);
      tokens.push(t.body.plain_token);
    }
    const statuses: number[] = [];
    for (const token of tokens) statuses.push((await s.call("getCurrentUser", { token })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    for (const token of tokens) expectError(await s.call("getCurrentUser", { token }), 429);
  });

  test("failed authentications are limited per client address, apart from the request limit", async () => {
    const c = new ManualClock();
    // No request limit at all: the failure limit stands on its own.
    const f = await startTestServer({ clock: c, authFailLimit: parseRateLimit("60:3") });
    try {
      const good = f.token;
      // Requests without any credential are no guess: answered 401, not counted.
      for (let i = 0; i < 5; i++) expectError(await f.call("getCurrentUser", { token: null }), 401);
      // A token with a valid checksum nobody has, a corrupted one, a bearer token on a server without a key set.
      expectError(await f.call("getCurrentUser", { token: newPersonalAccessToken() }), 401);
      expectError(await f.call("getCurrentUser", { token: `${good.slice(0, -1)}x` }), 401);
      expectError(await f.call("getCurrentUser", { token: "raw:Bearer abc.def.ghi" }), 401);
      const limited = await f.call("getCurrentUser", { token: newPersonalAccessToken() });
      expectError(limited, 429, /failed authentications/);
      expect(limited.headers.get("retry-after")).toBe("1");
      // While the address is over its budget no credential is even looked at, a good one neither: a guess
      // learns nothing.
      expectError(await f.call("getCurrentUser", { token: good }), 429);
      c.advance(1000);
      expect((await f.call("getCurrentUser", { token: good })).status).toBe(200);
      // A success takes nothing from the failure budget (one failure refilled in that second, still one left).
      expectError(await f.call("getCurrentUser", { token: newPersonalAccessToken() }), 401);
      expectError(await f.call("getCurrentUser", { token: newPersonalAccessToken() }), 429);
    } finally {
      await f.close();
    }
  });

  test("an unknown invite token on the public invite routes counts as a failed authentication", async () => {
    const c = new ManualClock();
    const f = await startTestServer({ clock: c, embeddedIdp: true, authFailLimit: parseRateLimit("60:2") });
    try {
      const real = (
        await f.call("createInvite", {
          body: { email: "rl@example.com", name: "RL", role: "user", auto_groups: [] },
        })
      ).body.invite_token as string;
      const info = (token: string) => f.call("getInviteInfo", { params: { token }, token: null });
      const unknown = `pni_${"x".repeat(40)}`;
      expectError(await info(unknown), 404);
      expectError(await info(unknown), 404);
      expectError(await info(unknown), 429, /failed authentications/);
      // While the address is over its budget a real link is refused too (and so is the owner), then it works.
      expectError(await info(real), 429);
      expectError(await f.call("getCurrentUser"), 429);
      c.advance(1000);
      expect((await info(real)).status).toBe(200);
    } finally {
      await f.close();
    }
  });

  test("the limiter itself: exact refills and a clock set back does not refill", () => {
    const c = new ManualClock();
    const rl = new RateLimiter({ perMinute: 7, burst: 1 }, c);
    rl.take("k");
    expect(() => rl.take("k")).toThrow(/too many requests/);
    c.advance(60_000 / 7 + 1);
    expect(() => rl.take("k")).not.toThrow();
    c.set(c.now() - 3_600_000);
    expect(() => rl.take("k")).toThrow(/too many requests/);
  });

  test("--rate-limit parsing", () => {
    expect(parseRateLimit("120:1200")).toEqual({ perMinute: 120, burst: 1200 });
    expect(parseRateLimit("off")).toBeUndefined();
    expect(() => parseRateLimit("120")).toThrow(/PER_MIN:BURST/);
    expect(() => parseRateLimit("0:5")).toThrow(/at least 1/);
    expect(() => parseRateLimit("x", "--auth-fail-limit")).toThrow(/^--auth-fail-limit: /);
  });

  test("--auth-fail-limit: 10:20 by default with --rate-limit, off without; explicit values win", () => {
    expect(parseArgs(["--rate-limit", "60:5"])).toMatchObject({
      rateLimit: { perMinute: 60, burst: 5 },
      authFailLimit: { perMinute: 10, burst: 20 },
    });
    expect(parseArgs([]).authFailLimit).toBeUndefined();
    expect(parseArgs(["--rate-limit", "60:5", "--auth-fail-limit", "off"]).authFailLimit).toBeUndefined();
    expect(parseArgs(["--auth-fail-limit=6:3"]).authFailLimit).toEqual({ perMinute: 6, burst: 3 });
  });
});
