/**
 * Retries against a real local HTTP server: what is retried for which method, how long the client waits, and
 * that a POST which may have reached the server is never sent twice. No real sleeping: waits are recorded.
 */
import {
  isPrivnetApiError,
  isPrivnetConnectionError,
  type PrivnetClient,
  type RetryInfo,
} from "../../client";
import {
  closedPort,
  fakeTime,
  rejectionOf,
  startScriptServer,
  testClient,
  type FakeTime,
  type ScriptServer,
} from "../support/client-server";

let srv: ScriptServer;
let time: FakeTime;
const clients: PrivnetClient[] = [];

function client(opts: Parameters<typeof testClient>[2] = {}): PrivnetClient {
  const c = testClient(srv, time, opts);
  clients.push(c);
  return c;
}

beforeEach(async () => {
  srv = await startScriptServer();
  time = fakeTime();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await srv.close();
});

const tooMany = { status: 429, body: { message: "too many requests", code: 429 } };
const unavailable = { status: 503, body: { message: "service unavailable", code: 503 } };

describe("429", () => {
  test("GET: 429, 429, 200 recovers after two backoff waits", async () => {
    srv.script("GET", "/api/groups", tooMany, tooMany, { body: [{ id: "g1" }] });
    await expect(client().call("listGroups")).resolves.toEqual([{ id: "g1" }]);
    expect(srv.count("GET", "/api/groups")).toBe(3);
    // random() = 0.5: half of 250, then half of 500.
    expect(time.sleeps).toEqual([125, 250]);
  });

  test("POST: 429, 429, 200 recovers (the limiter rejects before anything is processed)", async () => {
    srv.script("POST", "/api/groups", tooMany, tooMany, { body: { id: "g1", name: "ops" } });
    await expect(client().call("createGroup", { body: { name: "ops" } })).resolves.toEqual({
      id: "g1",
      name: "ops",
    });
    expect(srv.count("POST", "/api/groups")).toBe(3);
    // The same body every time.
    expect(new Set(srv.requests.map((r) => r.body))).toEqual(new Set(['{"name":"ops"}']));
  });

  test("429 on every attempt surfaces the error after maxRetries", async () => {
    srv.fallback("GET", "/api/groups", tooMany);
    const err = await rejectionOf(client({ maxRetries: 3 }).call("listGroups"));
    expect(isPrivnetApiError(err)).toBe(true);
    expect(err.status).toBe(429);
    expect(err.retryable).toBe(true);
    expect(err.message).toBe("privnet: GET /api/groups 429: too many requests");
    expect(srv.count("GET", "/api/groups")).toBe(4);
    expect(time.sleeps).toHaveLength(3);
  });
});

describe("502 / 503 / 504", () => {
  test.each([
    ["GET", "getGroup", 503],
    ["PUT", "updateGroup", 502],
    ["DELETE", "deleteGroup", 504],
  ] as const)("%s recovers from %s / %i sequences", async (method, operationId, status) => {
    const fail = {
      status,
      body: `<html><body>${status}</body></html>`,
      headers: { "content-type": "text/html" },
    };
    srv.script(method, "/api/groups/g1", fail, { ...unavailable }, fail, { body: { id: "g1" } });
    const args = { params: { groupId: "g1" }, body: method === "PUT" ? { name: "ops" } : undefined };
    await expect(client().call(operationId, args)).resolves.toEqual({ id: "g1" });
    expect(srv.count(method, "/api/groups/g1")).toBe(4);
    expect(time.sleeps).toEqual([125, 250, 500]);
  });

  test.each([502, 503, 504])("POST on %i is NOT retried: one request, the error surfaces", async (status) => {
    srv.fallback("POST", "/api/groups", { status, body: { message: "upstream trouble", code: status } });
    const err = await rejectionOf(client().call("createGroup", { body: { name: "ops" } }));
    expect(srv.count("POST", "/api/groups")).toBe(1);
    expect(time.sleeps).toEqual([]);
    expect(isPrivnetApiError(err)).toBe(true);
    expect(err.status).toBe(status);
    expect(err.retryable).toBe(false);
    expect(err.message).toBe(`privnet: POST /api/groups ${status}: upstream trouble`);
  });

  test("statuses that are not transient are not retried (GET 500, PUT 409)", async () => {
    srv.fallback("GET", "/api/groups", { status: 500, body: { message: "internal", code: 500 } });
    srv.fallback("PUT", "/api/groups/g1", { status: 409, body: { message: "exists", code: 409 } });
    const c = client();
    expect((await rejectionOf(c.call("listGroups"))).status).toBe(500);
    expect((await rejectionOf(c.call("updateGroup", { params: { groupId: "g1" }, body: {} }))).status).toBe(
      409,
    );
    expect(srv.requests).toHaveLength(2);
  });
});

describe("Retry-After", () => {
  test("delta-seconds is honoured instead of the backoff", async () => {
    srv.script("GET", "/api/groups", { ...tooMany, headers: { "Retry-After": "3" } }, { body: [] });
    await client().call("listGroups");
    expect(time.sleeps).toEqual([3000]);
  });

  test("an HTTP date is honoured relative to the injected clock", async () => {
    const at = new Date(time.clock.now() + 7000).toUTCString();
    srv.script("GET", "/api/groups", { ...unavailable, headers: { "Retry-After": at } }, { body: [] });
    await client().call("listGroups");
    expect(time.sleeps).toEqual([7000]);
  });

  test("is capped by maxDelayMs", async () => {
    srv.script("GET", "/api/groups", { ...tooMany, headers: { "Retry-After": "3600" } }, { body: [] });
    await client({ maxDelayMs: 10_000 }).call("listGroups");
    expect(time.sleeps).toEqual([10_000]);
  });

  test("an unreadable value falls back to the backoff", async () => {
    srv.script("GET", "/api/groups", { ...tooMany, headers: { "Retry-After": "soon" } }, { body: [] });
    await client().call("listGroups");
    expect(time.sleeps).toEqual([125]);
  });
});

describe("backoff", () => {
  test("grows exponentially, is capped by maxDelayMs and scaled by the jitter", async () => {
    srv.fallback("GET", "/api/groups", unavailable);
    await rejectionOf(client({ maxRetries: 9, random: () => 1 }).call("listGroups"));
    expect(time.sleeps).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  test("full jitter: each wait is random() times the ceiling", async () => {
    srv.fallback("GET", "/api/groups", unavailable);
    const draws = [0.1, 0.9, 0, 0.5];
    await rejectionOf(
      client({ maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 5000, random: () => draws.shift() ?? 0 }).call(
        "listGroups",
      ),
    );
    expect(time.sleeps).toEqual([100, 1800, 0, 2500]);
  });

  test("maxRetries is respected (0 = a single attempt)", async () => {
    srv.fallback("DELETE", "/api/groups/g1", unavailable);
    await rejectionOf(client({ maxRetries: 0 }).call("deleteGroup", { params: { groupId: "g1" } }));
    expect(srv.count("DELETE", "/api/groups/g1")).toBe(1);
    await rejectionOf(client({ maxRetries: 2 }).call("deleteGroup", { params: { groupId: "g1" } }));
    expect(srv.count("DELETE", "/api/groups/g1")).toBe(1 + 3);
  });

  test("the default is 6 retries (7 attempts)", async () => {
    srv.fallback("GET", "/api/groups", unavailable);
    await rejectionOf(client().call("listGroups"));
    expect(srv.count("GET", "/api/groups")).toBe(7);
  });

  test("onRetry hears method, path, attempt, delay and reason", async () => {
    const seen: RetryInfo[] = [];
    srv.script("GET", "/api/groups/g%201", tooMany, unavailable, { body: {} });
    await client({ onRetry: (i) => seen.push(i) }).call("getGroup", { params: { groupId: "g 1" } });
    expect(seen).toEqual([
      { method: "GET", path: "/api/groups/g%201", attempt: 1, delayMs: 125, reason: "429 Too Many Requests" },
      {
        method: "GET",
        path: "/api/groups/g%201",
        attempt: 2,
        delayMs: 250,
        reason: "503 Service Unavailable",
      },
    ]);
  });

  test("an onRetry hook that throws does not change the outcome", async () => {
    srv.script("GET", "/api/groups", tooMany, { body: [] });
    const onRetry = () => {
      throw new Error("logger broke");
    };
    await expect(client({ onRetry }).call("listGroups")).resolves.toEqual([]);
  });
});

describe("connection failures", () => {
  test("connection refused is retried, then fails naming method, path and cause", async () => {
    const port = await closedPort();
    const seen: RetryInfo[] = [];
    const refused = testClient({ url: `http://127.0.0.1:${port}` }, time, {
      maxRetries: 2,
      onRetry: (i) => seen.push(i),
    });
    clients.push(refused);
    const err = await rejectionOf(refused.call("getGroup", { params: { groupId: "g1" } }));
    expect(isPrivnetConnectionError(err)).toBe(true);
    expect(isPrivnetApiError(err)).toBe(false);
    expect(err.code).toBe("ECONNREFUSED");
    expect(err.attempts).toBe(3);
    expect(err.mayHaveReachedServer).toBe(false);
    expect(err.message).toMatch(
      /^privnet: GET \/api\/groups\/g1: .*ECONNREFUSED.*; gave up after 3 attempts$/,
    );
    expect(seen.map((s) => s.reason)).toEqual(["ECONNREFUSED", "ECONNREFUSED"]);
    expect(time.sleeps).toEqual([125, 250]);
  });

  test("a POST is retried on connection refused: nothing was sent", async () => {
    const port = await closedPort();
    const refused = testClient({ url: `http://127.0.0.1:${port}` }, time, { maxRetries: 3 });
    clients.push(refused);
    const err = await rejectionOf(refused.call("createGroup", { body: { name: "ops" } }));
    expect(err.code).toBe("ECONNREFUSED");
    expect(err.attempts).toBe(4);
    expect(err.message).not.toMatch(/may already have applied/);
  });

  test("a reset after the request arrived: GET is retried, POST is not", async () => {
    srv.script("GET", "/api/groups", { destroy: true }, { body: [] });
    await expect(client().call("listGroups")).resolves.toEqual([]);
    expect(srv.count("GET", "/api/groups")).toBe(2);

    srv.fallback("POST", "/api/groups", { destroy: true });
    const err = await rejectionOf(client().call("createGroup", { body: { name: "ops" } }));
    expect(srv.count("POST", "/api/groups")).toBe(1);
    expect(isPrivnetConnectionError(err)).toBe(true);
    expect(err.mayHaveReachedServer).toBe(true);
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(
      /^privnet: POST \/api\/groups: .*not repeated because the server may already/,
    );
  });

  // undici checks header timeouts on a coarse (about 1 s) timer, so this test takes a second or two of real time.
  test("a timeout after sending: PUT is retried, POST is not", async () => {
    srv.script("PUT", "/api/groups/g1", { delayMs: 5000 }, { body: { id: "g1" } });
    const c = client({ timeoutMs: 100 });
    await expect(c.call("updateGroup", { params: { groupId: "g1" }, body: {} })).resolves.toEqual({
      id: "g1",
    });
    expect(srv.count("PUT", "/api/groups/g1")).toBe(2);

    srv.fallback("POST", "/api/groups", { delayMs: 5000 });
    const err = await rejectionOf(c.call("createGroup", { body: { name: "ops" } }));
    expect(srv.count("POST", "/api/groups")).toBe(1);
    expect(err.code).toBe("UND_ERR_HEADERS_TIMEOUT");
    expect(err.mayHaveReachedServer).toBe(true);
  });
});
