/**
 * Regression tests for what the schemathesis run (bench/fuzz/run.sh) found. Each test failed before its fix.
 */
import { validate } from "../../api/common";
import { buildOpenApi } from "../../api/openapi";
import { ROUTES } from "../../api/routes";
import type { RequestLogEntry } from "../../server/context";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ cloud: true, embeddedIdp: true });
});
afterAll(() => s?.close());

const send = (method: string, p: string, body?: string) =>
  s.raw(method, p, {
    body,
    headers: {
      Authorization: `Token ${s.token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
  });

describe("unsupported_method: a declared path with an undeclared method", () => {
  test("answers 405 with an Allow header naming the declared methods", async () => {
    const cases: [string, string, string][] = [
      ["PATCH", "/api/groups", "GET, HEAD, POST"],
      ["DELETE", "/api/groups", "GET, HEAD, POST"],
      ["PATCH", "/api/groups/nosuchid", "DELETE, GET, HEAD, PUT"],
      ["POST", "/api/accounts", "GET, HEAD"],
      ["OPTIONS", "/api/users/current", "GET, HEAD"],
      ["PUT", "/api/users/invites/pni_x/accept", "POST"],
      ["PATCH", "/api/integrations/edr/vendor-c/", "DELETE, GET, HEAD, POST, PUT"],
    ];
    for (const [method, p, allow] of cases) {
      const res = await send(method, p);
      expect({ method, p, status: res.status, allow: res.headers.get("allow") }).toEqual({
        method,
        p,
        status: 405,
        allow,
      });
      expect(res.body).toEqual({ message: expect.stringContaining(`${method} is not allowed`), code: 405 });
    }
  });

  test("a concrete path wins over a templated sibling (OpenAPI path matching): its methods alone are allowed", async () => {
    const cases: [string, string, string][] = [
      // The router would hand these to /api/users/{userId}; the document says the concrete path answers them.
      ["PUT", "/api/users/invites", "GET, HEAD, POST"],
      ["DELETE", "/api/users/current", "GET, HEAD"],
      ["OPTIONS", "/api/users/invites", "GET, HEAD, POST"],
      // Two templates of the same shape: both count.
      ["PUT", "/api/users/invites/abc", "DELETE, GET, HEAD"],
    ];
    for (const [method, p, allow] of cases) {
      const res = await send(method, p, method === "PUT" ? "{}" : undefined);
      expect({ method, p, status: res.status, allow: res.headers.get("allow") }).toEqual({
        method,
        p,
        status: 405,
        allow,
      });
    }
    // The templated operations still work where no concrete path claims the URL.
    expect((await send("PUT", "/api/users/nosuchuser", "{}")).status).toBe(422);
    expect((await send("DELETE", "/api/users/nosuchuser")).status).toBe(404);
  });

  test("routing comes before the body: a method with a body but no Content-Type, or a bad body on an unknown path", async () => {
    const query = await send("QUERY", "/api/accounts");
    expect([query.status, query.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    expect(query.body).toMatchObject({ code: 405 });
    const bad = await send("POST", "/api/nope", "{not json");
    expect(bad.status).toBe(404);
    const badMethod = await send("PATCH", "/api/groups", "{not json");
    expect(badMethod.status).toBe(405);
  });

  test("an unknown path, or a declared method the router turned away, still answers 404", async () => {
    for (const [method, p] of [
      ["GET", "/api/nope"],
      ["PATCH", "/api/nope/deeper"],
      ["GET", "/nope"],
      // Longer than the router's parameter limit: GET is declared here, so this is "not found", not 405.
      ["GET", `/api/groups/${"a".repeat(600)}`],
    ] as const) {
      const res = await send(method, p);
      expect({ method, status: res.status, allow: res.headers.get("allow") }).toEqual({
        method,
        status: 404,
        allow: null,
      });
      expect(res.body).toMatchObject({ code: 404 });
    }
  });
});

describe("response_schema_conformance: what the router itself turns away", () => {
  test("a malformed percent-encoding in the path answers 400 in the service's error shape", async () => {
    for (const p of ["/api/groups/%zz", "/api/groups/%E0%A4%A", "/api/groups/abc%", "/api/nope/%zz"]) {
      const res = await send("GET", p);
      expect({ p, status: res.status, body: res.body }).toEqual({
        p,
        status: 400,
        body: { message: expect.stringMatching(/malformed URL/), code: 400 },
      });
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-v]{20}$/);
    }
  });

  test("those answers get a request-log line like every other request", async () => {
    const lines: RequestLogEntry[] = [];
    const logged = await startTestServer({ onRequest: (e) => lines.push(e) });
    try {
      const res = await logged.raw("GET", "/api/groups/%zz", {
        headers: { Authorization: `Token ${logged.token}` },
      });
      expect(res.status).toBe(400);
      const long = await logged.raw("GET", `/api/groups/${"g".repeat(501)}`);
      expect(long.status).toBe(404);
    } finally {
      await logged.close();
    }
    expect(lines.map((l) => [l.method, l.status, l.path])).toEqual([
      ["GET", 400, "(unknown)"],
      ["GET", 404, "(unknown)"],
    ]);
    // Never the raw URL: a malformed path may still carry a secret.
    expect(JSON.stringify(lines)).not.toContain("%zz");
  });

  test("a path parameter past the router's length limit is an unknown object: 404, not an undocumented 414", async () => {
    const res = await send("PUT", `/api/groups/${"g".repeat(501)}`, JSON.stringify({ name: "x" }));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: expect.any(String), code: 404 });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-v]{20}$/);
  });
});

describe("negative_data_rejection: a request body the server lets the client omit", () => {
  const doc = buildOpenApi("test") as {
    paths: Record<string, Record<string, { requestBody?: { required?: boolean } }>>;
  };

  test("is documented as optional, and every other body as required", () => {
    const wrong: string[] = [];
    for (const r of ROUTES.filter((x) => x.body)) {
      const optional = validate(r.body!, {}).ok;
      const required = doc.paths[r.path]?.[r.method.toLowerCase()]?.requestBody?.required;
      if (required !== !optional) wrong.push(`${r.method} ${r.path}: required=${String(required)}`);
    }
    expect(wrong).toEqual([]);
  });

  test("the server agrees: no body at all is accepted exactly where the document says it is optional", async () => {
    const invite = await s.call("createInvite", {
      body: { email: "omit@example.com", name: "Omit", role: "user", auto_groups: [] },
    });
    const regenerate = await send("POST", `/api/users/invites/${invite.body.id}/regenerate`);
    expect(regenerate.status).toBe(200);
    expect(doc.paths["/api/users/invites/{inviteId}/regenerate"]?.post?.requestBody?.required).toBe(false);
    const group = await send("POST", "/api/groups");
    expect(group.status).toBe(400);
    expect(doc.paths["/api/groups"]?.post?.requestBody?.required).toBe(true);
  });
});
