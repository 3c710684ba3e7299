import { ManualClock } from "../../server/clock";
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

  test("buckets are per credential; unauthenticated requests are answered 401, not counted", async () => {
    const a = await tokenFor("user");
    const b = await tokenFor("user");
    expect(await burst(6, a)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await burst(1, b)).toEqual([200]);
    for (let i = 0; i < 10; i++) expectError(await s.call("getCurrentUser", { token: null }), 401);
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
  });
});
