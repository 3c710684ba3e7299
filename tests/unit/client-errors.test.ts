/**
 * Error messages of the client (JSON and non-JSON bodies), the guards, and the rule that the credential never
 * shows up in an error, a log hook or the client object.
 */
import { inspect } from "node:util";
import {
  isNotFound,
  isPrivnetApiError,
  isPrivnetConnectionError,
  PrivnetApiError,
  PrivnetClient,
  type RetryInfo,
} from "../../client";
import {
  closedPort,
  fakeTime,
  rejectionOf,
  startScriptServer,
  testClient,
  TEST_TOKEN,
  type FakeTime,
  type ScriptServer,
} from "../support/client-server";

let srv: ScriptServer;
let time: FakeTime;
let client: PrivnetClient;

beforeEach(async () => {
  srv = await startScriptServer();
  time = fakeTime();
  client = testClient(srv, time, { maxRetries: 1 });
});

afterEach(async () => {
  await client.close();
  await srv.close();
});

describe("message format", () => {
  test("JSON error body: method, path, status and the server's message", async () => {
    srv.script("PUT", "/api/routes/abc", {
      status: 422,
      body: { message: "metric: must be between 1 and 9999", code: 422 },
      headers: { "X-Request-Id": "req-42" },
    });
    const err = await rejectionOf(
      client.call("updateRoute", { params: { routeId: "abc" }, body: { metric: 0 } }),
    );
    expect(err).toBeInstanceOf(PrivnetApiError);
    expect(err.message).toBe("privnet: PUT /api/routes/abc 422: metric: must be between 1 and 9999");
    expect(err).toMatchObject({
      name: "PrivnetApiError",
      method: "PUT",
      path: "/api/routes/abc",
      status: 422,
      serverMessage: "metric: must be between 1 and 9999",
      requestId: "req-42",
      retryable: false,
    });
  });

  test("the path in the message leaves out the query string", async () => {
    srv.script("GET", "/api/groups", { status: 403, body: { message: "permission denied", code: 403 } });
    const err = await rejectionOf(client.call("listGroups", { query: { name: "ops" } }));
    expect(err.message).toBe("privnet: GET /api/groups 403: permission denied");
  });

  test("JSON without a message: an excerpt of the body", async () => {
    srv.script("GET", "/api/groups", { status: 400, body: { error: "bad filter" } });
    const err = await rejectionOf(client.call("listGroups"));
    expect(err.message).toBe('privnet: GET /api/groups 400: Bad Request: {"error":"bad filter"}');
  });

  test("an HTML page from a proxy: its text without the markup", async () => {
    const html =
      "<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>" +
      "<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>";
    srv.fallback("POST", "/api/groups", {
      status: 502,
      body: html,
      headers: { "content-type": "text/html" },
    });
    const err = await rejectionOf(client.call("createGroup", { body: { name: "x" } }));
    expect(err.message).toBe(
      "privnet: POST /api/groups 502: Bad Gateway: 502 Bad Gateway 502 Bad Gateway nginx",
    );
  });

  test("an empty body: the status text", async () => {
    srv.script("GET", "/api/groups/g1", { status: 404, body: null });
    const err = await rejectionOf(client.call("getGroup", { params: { groupId: "g1" } }));
    expect(err.message).toBe("privnet: GET /api/groups/g1 404: Not Found (empty response body)");
  });

  test("a truncated JSON body: an excerpt", async () => {
    srv.script("DELETE", "/api/groups/g1", {
      status: 400,
      body: '{"message": "group is linked to pol',
      headers: { "content-type": "application/json" },
    });
    const err = await rejectionOf(client.call("deleteGroup", { params: { groupId: "g1" } }));
    expect(err.message).toBe(
      'privnet: DELETE /api/groups/g1 400: Bad Request: {"message": "group is linked to pol',
    );
  });

  test("a long non-JSON body is cut to about 200 characters", async () => {
    srv.script("GET", "/api/groups", {
      status: 500,
      body: "x".repeat(5000),
      headers: { "content-type": "text/plain" },
    });
    const err = await rejectionOf(client.call("listGroups"));
    expect(err.serverMessage).toBe(`Internal Server Error: ${"x".repeat(200)}…`);
  });

  test("a 2xx body that is not JSON is an error, not a crash", async () => {
    srv.script("GET", "/api/groups", {
      status: 200,
      body: "<html>login</html>",
      headers: { "content-type": "text/html" },
    });
    const err = await rejectionOf(client.call("listGroups"));
    expect(isPrivnetApiError(err)).toBe(true);
    expect(err.message).toBe(
      "privnet: GET /api/groups 200: response body is not valid JSON: <html>login</html>",
    );
  });

  test("exhausted retries on 503 keep the last answer's message", async () => {
    srv.fallback("GET", "/api/groups", { status: 503, body: { message: "maintenance", code: 503 } });
    const err = await rejectionOf(client.call("listGroups"));
    expect(err.message).toBe("privnet: GET /api/groups 503: maintenance");
    expect(err.retryable).toBe(true);
  });
});

test("serviceShaped: the service's own error body, not an unknown path's plain text", async () => {
  srv.script("GET", "/api/groups/gone", { status: 404, body: { message: "group not found", code: 404 } });
  srv.script("GET", "/api/integrations/edr/vendor-a", {
    status: 404,
    body: "404 page not found",
    headers: { "content-type": "text/plain" },
  });
  const missing = await rejectionOf(client.call("getGroup", { params: { groupId: "gone" } }));
  const unknownPath = await rejectionOf(client.call("getEdrVendorA"));
  expect([missing.status, missing.serviceShaped]).toEqual([404, true]);
  expect([unknownPath.status, unknownPath.serviceShaped]).toEqual([404, false]);
});

describe("guards", () => {
  test("isNotFound: true for a 404 answer only", async () => {
    srv.script("GET", "/api/groups/gone", { status: 404, body: { message: "group not found", code: 404 } });
    srv.script("GET", "/api/groups/secret", {
      status: 403,
      body: { message: "permission denied", code: 403 },
    });
    expect(isNotFound(await rejectionOf(client.call("getGroup", { params: { groupId: "gone" } })))).toBe(
      true,
    );
    expect(isNotFound(await rejectionOf(client.call("getGroup", { params: { groupId: "secret" } })))).toBe(
      false,
    );
    expect(isNotFound(new Error("404"))).toBe(false);
    expect(isNotFound({ status: 404 })).toBe(false);
    expect(isNotFound(undefined)).toBe(false);
  });

  test("isPrivnetApiError recognises the brand of another module copy, not look-alikes", () => {
    const foreign = Object.assign(new Error("privnet: GET /x 404: gone"), { status: 404 });
    Object.defineProperty(foreign, Symbol.for("pulumi-privnet.PrivnetApiError"), { value: true });
    expect(isPrivnetApiError(foreign)).toBe(true);
    expect(isNotFound(foreign)).toBe(true);
    const lookAlike = Object.assign(new Error("x"), { name: "PrivnetApiError", status: 404 });
    expect(isPrivnetApiError(lookAlike)).toBe(false);
    expect(isPrivnetApiError(null)).toBe(false);
    expect(isPrivnetApiError("PrivnetApiError")).toBe(false);
  });

  test("connection errors are not API errors", async () => {
    const port = await closedPort();
    const c = testClient({ url: `http://127.0.0.1:${port}` }, time, { maxRetries: 0 });
    const err = await rejectionOf(c.call("listGroups"));
    await c.close();
    expect(isPrivnetConnectionError(err)).toBe(true);
    expect(isPrivnetApiError(err)).toBe(false);
    expect(isNotFound(err)).toBe(false);
  });
});

describe("the credential stays secret", () => {
  function expectNoToken(value: unknown, token = TEST_TOKEN) {
    expect(inspect(value, { depth: 10, showHidden: true })).not.toContain(token);
    expect(JSON.stringify(value) ?? "").not.toContain(token);
    if (typeof value === "object" && value !== null) {
      expect(String((value as { message?: unknown }).message ?? "")).not.toContain(token);
      expect(String((value as { stack?: unknown }).stack ?? "")).not.toContain(token);
      for (const v of Object.values(value)) expect(inspect(v)).not.toContain(token);
    }
  }

  test("it is sent, but an error echoing it (401) does not carry it", async () => {
    srv.script("GET", "/api/groups", {
      status: 401,
      body: { message: `invalid credentials: Token ${TEST_TOKEN}`, code: 401 },
    });
    const err = await rejectionOf(client.call("listGroups"));
    expect(srv.requests[0]?.headers.authorization).toBe(`Token ${TEST_TOKEN}`);
    expect(err.message).toBe("privnet: GET /api/groups 401: invalid credentials: Token [redacted]");
    expectNoToken(err);
  });

  test("a non-JSON echo is redacted too", async () => {
    srv.script("GET", "/api/groups", { status: 400, body: `<p>bad header ${TEST_TOKEN}</p>` });
    expectNoToken(await rejectionOf(client.call("listGroups")));
  });

  test("connection errors, retry notices and the client object", async () => {
    const port = await closedPort();
    const seen: RetryInfo[] = [];
    const c = testClient({ url: `http://127.0.0.1:${port}` }, time, {
      maxRetries: 2,
      onRetry: (i) => seen.push(i),
    });
    const err = await rejectionOf(c.call("createGroup", { body: { name: "x" } }));
    expect(seen).toHaveLength(2);
    expectNoToken(err);
    expectNoToken(seen);
    expectNoToken(c);
    await c.close();
  });

  test("a Bearer token is sent as bearer and kept out of errors", async () => {
    const bearer = "eyJhbGciOiJSUzI1NiJ9.payload.signature";
    const c = new PrivnetClient({
      apiUrl: srv.url,
      token: `Bearer ${bearer}`,
      rateLimit: false,
      maxRetries: 0,
    });
    srv.script("GET", "/api/groups", { status: 401, body: { message: `bad token ${bearer}`, code: 401 } });
    const err = await rejectionOf(c.call("listGroups"));
    expect(srv.requests[0]?.headers.authorization).toBe(`Bearer ${bearer}`);
    expectNoToken(err, bearer);
    expectNoToken(c, bearer);
    await c.close();
  });

  test("a token with a line break is refused without quoting it", () => {
    expect(() => new PrivnetClient({ apiUrl: srv.url, token: `${TEST_TOKEN}\r\nX-Evil: 1` })).toThrow(
      "privnet: token contains control characters",
    );
    let caught: unknown;
    try {
      new PrivnetClient({ apiUrl: srv.url, token: `${TEST_TOKEN}\nx` });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(Error);
    expectNoToken(caught);
  });
});
