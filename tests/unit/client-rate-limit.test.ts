/**
 * The client-side token bucket: waits through the injected sleep when the burst is used up, never fails.
 */
import { MockAgent } from "undici";
import { PrivnetClient } from "../../client";
import { TokenBucket } from "../../client/rate-limit";
import {
  fakeTime,
  startScriptServer,
  testClient,
  TEST_TOKEN,
  type FakeTime,
  type ScriptServer,
} from "../support/client-server";

describe("through the client", () => {
  let srv: ScriptServer;
  let time: FakeTime;
  let client: PrivnetClient | undefined;

  beforeEach(async () => {
    srv = await startScriptServer();
    time = fakeTime();
  });

  afterEach(async () => {
    await client?.close();
    await srv.close();
  });

  test("waits once the burst is used up, at the configured rate", async () => {
    client = testClient(srv, time, { rateLimit: { perMinute: 60, burst: 3 } });
    for (let i = 0; i < 5; i++) await client.call("listGroups");
    // 3 from the burst, then one per second (the fake sleep moves the clock).
    expect(time.sleeps).toEqual([1000, 1000]);
    expect(srv.requests).toHaveLength(5);

    // After a quiet minute the bucket is full again, but never above the burst.
    time.advance(60_000);
    time.sleeps.length = 0;
    for (let i = 0; i < 4; i++) await client.call("listGroups");
    expect(time.sleeps).toEqual([1000]);
  });

  test("retries take tokens too", async () => {
    client = testClient(srv, time, { rateLimit: { perMinute: 60, burst: 1 } });
    srv.script("GET", "/api/groups", { status: 429, body: { message: "too many requests", code: 429 } });
    await client.call("listGroups");
    // Backoff 125 ms (random 0.5), then the bucket still needs 875 ms for the second attempt's token.
    expect(time.sleeps).toEqual([125, 875]);
  });

  test("a 429 empties the bucket: what follows is paced at the refill rate, not spent from the burst", async () => {
    client = testClient(srv, time, { rateLimit: { perMinute: 60, burst: 10 } });
    await client.call("listGroups");
    expect(time.sleeps).toEqual([]);
    // The server's bucket for this credential is empty (another process used it): 429, no Retry-After.
    srv.script("GET", "/api/groups", { status: 429, body: { message: "too many requests", code: 429 } });
    await client.call("listGroups");
    // Backoff 125 ms; then the retry's token: the bucket holds nothing after the 429, so 875 ms more.
    expect(time.sleeps).toEqual([125, 875]);
    // The 8 tokens this bucket still believed in are gone: one request per second from here.
    time.sleeps.length = 0;
    for (let i = 0; i < 3; i++) await client.call("listGroups");
    expect(time.sleeps).toEqual([1000, 1000, 1000]);
  });

  test("observers hear each call and each wait for the bucket; a throwing observer changes nothing", async () => {
    client = testClient(srv, time, { rateLimit: { perMinute: 60, burst: 1 } });
    const heard: string[] = [];
    client.observe({
      request: ({ method, path }) => heard.push(`${method} ${path}`),
      rateLimitWait: ({ method, path, waitMs, limit }) =>
        heard.push(`wait ${waitMs} ${method} ${path} ${limit.perMinute}:${limit.burst}`),
    });
    const stop = client.observe({
      request: () => {
        throw new Error("observer failure");
      },
    });
    await client.call("listGroups");
    await client.call("createGroup", { body: { name: "g" } });
    stop();
    await client.call("getGroup", { params: { groupId: "g1" }, query: { x: "secret-filter" } });
    expect(heard).toEqual([
      "GET /api/groups",
      "POST /api/groups",
      "wait 1000 POST /api/groups 60:1",
      "GET /api/groups/g1",
      "wait 1000 GET /api/groups/g1 60:1",
    ]);
    expect(srv.requests).toHaveLength(3);
  });

  test("false disables it", async () => {
    client = testClient(srv, time, { rateLimit: false });
    for (let i = 0; i < 30; i++) await client.call("listGroups");
    expect(time.sleeps).toEqual([]);
  });

  test("invalid settings are refused", () => {
    expect(() => testClient(srv, time, { rateLimit: { perMinute: 0, burst: 1 } })).toThrow("perMinute");
    expect(() => testClient(srv, time, { rateLimit: { perMinute: 60, burst: 0 } })).toThrow("burst");
  });
});

test("the default is the hosted service's limit: 1200 at once, then 2 per second", async () => {
  // A MockAgent as the dispatcher seam: 1201 requests without a socket.
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent.get("http://privnet.test").intercept({ path: "/api/groups", method: "GET" }).reply(200, []).persist();
  const time = fakeTime();
  const client = new PrivnetClient({
    apiUrl: "http://privnet.test",
    token: TEST_TOKEN,
    dispatcher: agent,
    clock: time.clock,
    sleep: time.sleep,
  });
  for (let i = 0; i < 1200; i++) await client.call("listGroups");
  expect(time.sleeps).toEqual([]);
  await client.call("listGroups");
  await client.call("listGroups");
  expect(time.sleeps).toEqual([500, 500]);
  await client.close();
  await agent.close();
});

describe("TokenBucket", () => {
  test("concurrent callers queue up: each reserves a token and waits for its debt", async () => {
    const waits: number[] = [];
    const bucket = new TokenBucket({ perMinute: 120, burst: 2 }, { now: () => 0 }, async (ms) => {
      waits.push(ms);
    });
    const taken = await Promise.all([1, 2, 3, 4, 5].map(() => bucket.take()));
    expect(taken).toEqual([0, 0, 500, 1000, 1500]);
    expect(waits).toEqual([500, 1000, 1500]);
  });

  test("a clock going backwards does not drain the bucket", async () => {
    let now = 10_000;
    const bucket = new TokenBucket({ perMinute: 60, burst: 2 }, { now: () => now }, async () => {});
    await bucket.take();
    now = 0;
    expect(await bucket.take()).toBe(0);
    expect(await bucket.take()).toBe(1000);
  });
});
