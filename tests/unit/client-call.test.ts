/**
 * What goes on the wire: URLs built from the route table, headers, JSON bodies, bodiless answers, keep-alive.
 */
import { PrivnetClient } from "../../client";
import { ROUTES } from "../../api/routes";
import {
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
const clients: PrivnetClient[] = [];

function client(opts: Parameters<typeof testClient>[2] = {}, url = srv.url): PrivnetClient {
  const c = testClient({ url }, time, opts);
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

describe("call()", () => {
  test("fills path parameters, URL-encoded", async () => {
    await client().call("getToken", { params: { userId: "u/1", tokenId: "a b?c#d" } });
    expect(srv.requests[0]?.url).toBe("/api/users/u%2F1/tokens/a%20b%3Fc%23d");
  });

  test("adds the query, leaving out undefined values", async () => {
    await client().call("listGroups", { query: { name: "ops team&co", skip: undefined, all: true, n: 3 } });
    expect(srv.requests[0]?.url).toBe("/api/groups?name=ops+team%26co&all=true&n=3");
  });

  test("a missing path parameter fails before any request", async () => {
    await expect(client().call("getGroup", {})).rejects.toThrow(
      "missing path parameter groupId for /api/groups/{groupId}",
    );
    // @ts-expect-error an unknown operation id is a compile error; at run time it is refused too
    await expect(client().call("noSuchOperation")).rejects.toThrow("unknown operation noSuchOperation");
    expect(srv.requests).toHaveLength(0);
  });

  test("sends JSON with the right headers and returns the parsed answer", async () => {
    srv.script("POST", "/api/groups", { body: { id: "g1", name: "ops", extra_field_from_newer_service: 1 } });
    const body = { name: "ops", peers: ["p1"], nested: { ok: true } };
    const out = await client().call("createGroup", { body });
    // Not validated against the schema: a newer service may add fields.
    expect(out).toEqual({ id: "g1", name: "ops", extra_field_from_newer_service: 1 });
    const seen = srv.requests[0];
    expect(JSON.parse(seen?.body ?? "")).toEqual(body);
    expect(seen?.headers).toMatchObject({
      "content-type": "application/json",
      accept: "application/json",
      authorization: `Token ${TEST_TOKEN}`,
      "user-agent": "pulumi-privnet/0.1.0",
    });
  });

  test("no Content-Type and no body without a request body", async () => {
    await client().call("listGroups");
    expect(srv.requests[0]?.headers["content-type"]).toBeUndefined();
    expect(srv.requests[0]?.body).toBe("");
  });

  test("DELETE answers {}; the vendor-c EDR delete answers 202 without a body: undefined", async () => {
    srv.script("DELETE", "/api/groups/g1", { body: {} });
    srv.script("DELETE", "/api/integrations/edr/vendor-c", { status: 202, body: null });
    const c = client();
    await expect(c.call("deleteGroup", { params: { groupId: "g1" } })).resolves.toEqual({});
    await expect(c.call("deleteEdrVendorC")).resolves.toBeUndefined();
  });

  test("the public routes (invites, the instance's status) are called without the credential", async () => {
    const publicRoutes = ROUTES.filter((r) => r.auth === "public").map((r) => r.operationId);
    expect(publicRoutes.sort()).toEqual(["acceptInvite", "getInstanceStatus", "getInviteInfo"]);
    await client().call("getInviteInfo", { params: { token: "inv-1" } });
    expect(srv.requests[0]?.headers.authorization).toBeUndefined();
  });

  test("a custom User-Agent", async () => {
    await client({ userAgent: "my-tool/2" }).call("listGroups");
    expect(srv.requests[0]?.headers["user-agent"]).toBe("my-tool/2");
  });
});

describe("request()", () => {
  test("raw method and path, query merged into an existing one", async () => {
    srv.script("PUT", "/api/accounts/a1", { body: { id: "a1" } });
    const c = client();
    await expect(c.request("PUT", "/api/accounts/a1", { body: { settings: {} } })).resolves.toEqual({
      id: "a1",
    });
    await c.request("GET", "/api/events/proxy?page=2", { query: { page_size: 10 } });
    expect(srv.requests.map((r) => r.url)).toEqual([
      "/api/accounts/a1",
      "/api/events/proxy?page=2&page_size=10",
    ]);
    await expect(c.request("GET", "api/groups")).rejects.toThrow('must start with "/"');
  });
});

describe("apiUrl", () => {
  test.each([
    ["", "/api/groups"],
    ["/", "/api/groups"],
    ["/api", "/api/groups"],
    ["/api/", "/api/groups"],
    ["/privnet", "/privnet/api/groups"],
  ])("base %j -> %s", async (suffix, expected) => {
    await client({}, srv.url + suffix).call("listGroups");
    expect(srv.requests[0]?.url).toBe(expected);
  });

  test.each([
    ["not a url", "absolute http(s) URL"],
    ["ftp://127.0.0.1", "must use http or https"],
    ["http://user:pw@127.0.0.1", "must not contain credentials"],
    ["http://127.0.0.1/?x=1", "must not have a query"],
  ])("%j is refused", (apiUrl, message) => {
    expect(() => new PrivnetClient({ apiUrl, token: TEST_TOKEN })).toThrow(message);
  });

  test("bad numeric options are refused", () => {
    expect(() => new PrivnetClient({ apiUrl: srv.url, token: "t", maxRetries: -1 })).toThrow("maxRetries");
    expect(() => new PrivnetClient({ apiUrl: srv.url, token: "t", maxRetries: 1.5 })).toThrow("maxRetries");
    expect(() => new PrivnetClient({ apiUrl: srv.url, token: "t", timeoutMs: 0 })).toThrow("timeoutMs");
    expect(() => new PrivnetClient({ apiUrl: srv.url, token: "t", baseDelayMs: NaN })).toThrow("baseDelayMs");
  });
});

describe("connections", () => {
  test("sequential requests reuse one keep-alive connection", async () => {
    const c = client();
    for (let i = 0; i < 5; i++) await c.call("listGroups");
    await c.call("createGroup", { body: { name: "x" } });
    await c.call("deleteGroup", { params: { groupId: "g1" } });
    expect(srv.requests).toHaveLength(7);
    expect(srv.connections()).toBe(1);
  });

  test("clients of one origin share the pool", async () => {
    await client().call("listGroups");
    await client().call("listGroups");
    expect(srv.connections()).toBe(1);
  });

  test("a closed client refuses requests; closing twice is fine", async () => {
    const c = client();
    await c.call("listGroups");
    await c.close();
    await c.close();
    const err = await rejectionOf(c.call("listGroups"));
    expect(err.message).toBe("privnet: GET /api/groups: the client is closed");
    expect(srv.requests).toHaveLength(1);
  });

  test("the last close releases the pool: a new client opens a new connection", async () => {
    const a = new PrivnetClient({ apiUrl: srv.url, token: TEST_TOKEN, rateLimit: false });
    await a.call("listGroups");
    await a.close();
    const b = client();
    await b.call("listGroups");
    expect(srv.connections()).toBe(2);
  });
});
