/**
 * The generated OpenAPI document covers every operation of operations.tsv, with request and response schemas
 * wherever spec part 4 gives a body, and every operation of operations-beyond-spec.tsv, with them wherever the
 * service's own document has them (tests/fixtures/service-openapi/facts.json); the committed copy is current.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildOpenApi } from "../../api/openapi";
import { ROUTES } from "../../api/routes";
import type { ServiceFacts } from "../../scripts/service-facts";
import { beyondSpecOperations, specEndpointRows, specOperations } from "../support/spec";

type Op = {
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};

const committed = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../docs/openapi.json"), "utf8")) as {
  paths: Record<string, Record<string, Op>>;
  info: { version: string };
};

function operation(method: string, p: string): Op | undefined {
  return committed.paths[p]?.[method.toLowerCase()];
}

/** What spec part 4 says about bodies, per "METHOD path". */
function expectedBodies(): Map<string, { request: boolean; response: boolean }> {
  const out = new Map<string, { request: boolean; response: boolean }>();
  const none = (s: string) => /^(none\b|query\b|`?\{\}`?\s*$)/i.test(s) && !/^`?\{\}`?$/.test(s);
  const notShown = (s: string) => /^(none|not shown|response body not shown)\b/i.test(s);
  for (const row of specEndpointRows()) {
    if (row.path.startsWith("/api/integrations/vendor-e-idp (")) continue; // shorthand row, expanded below
    for (const method of row.methods) {
      const compound = row.methods.length > 1;
      const request =
        (method === "POST" || method === "PUT") && !none(row.request) && !/^none;/.test(row.request);
      let response = !notShown(row.response);
      if (compound && method === "DELETE" && /DELETE has no body/.test(row.response)) response = false;
      out.set(`${method} ${row.path}`, {
        request: compound ? method === "POST" || method === "PUT" : request,
        response,
      });
    }
  }
  // "same operations and shapes as vendor-d-idp"
  for (const [key, v] of [...out]) {
    if (key.includes("/api/integrations/vendor-d-idp"))
      out.set(key.replace("vendor-d-idp", "vendor-e-idp"), v);
  }
  // Beyond the spec: what the service's own document gives a body.
  const facts = JSON.parse(
    fs.readFileSync(path.resolve(__dirname, "../fixtures/service-openapi/facts.json"), "utf8"),
  ) as ServiceFacts;
  for (const [key, f] of Object.entries(facts.operations)) {
    out.set(key, { request: f.request !== null, response: f.response !== null });
  }
  return out;
}

describe("OpenAPI document", () => {
  const ops = [...specOperations(), ...beyondSpecOperations()];

  test("operations.tsv has the 137 operations of the spec; 113 more are served beyond it", () => {
    expect(specOperations()).toHaveLength(137);
    // SCIM provisioning (2 x 7), notifications (6), reverse proxies (14), the EDR vendors under their own names
    // (5 x 4), directory sync under theirs (2 x 7), EDR bypasses (3), MSP tenants (8), the instance (2),
    // locations (2), every network router (1) and agent networks (29), from the service's own document.
    expect(beyondSpecOperations()).toHaveLength(113);
    expect(ops).toHaveLength(250);
  });

  test.each(ops.map((o) => [o.method, o.path]))("%s %s is an operation of the document", (method, p) => {
    expect(operation(method, p)).toBeDefined();
  });

  test("request and response schemas exist wherever spec part 4 gives a body", () => {
    const expected = expectedBodies();
    const missing: string[] = [];
    for (const { method, path: p } of ops) {
      const want = expected.get(`${method} ${p}`);
      if (!want) {
        missing.push(`${method} ${p}: not found in spec part 4 tables nor in the service's facts`);
        continue;
      }
      const op = operation(method, p) as Op;
      const hasRequest = Boolean(op.requestBody?.content["application/json"]?.schema);
      const success = op.responses["200"] ?? op.responses["202"];
      const hasResponse = Boolean(success?.content?.["application/json"]?.schema);
      if (want.request && !hasRequest) missing.push(`${method} ${p}: request schema`);
      if (want.response && !hasResponse) missing.push(`${method} ${p}: response schema`);
    }
    expect(missing).toEqual([]);
  });

  test("the document has no operation beyond the two operation lists", () => {
    const spec = new Set(ops.map((o) => `${o.method} ${o.path}`));
    const extra = ROUTES.map((r) => `${r.method} ${r.path}`).filter((k) => !spec.has(k));
    expect(extra).toEqual([]);
    expect(new Set(ROUTES.map((r) => r.operationId)).size).toBe(ROUTES.length);
  });

  test("the committed docs/openapi.json is what the schemas generate", () => {
    expect(buildOpenApi(committed.info.version)).toEqual(committed);
  });

  // A fuzzer (and any client generator) takes the document at its word: a parameter marked required, or limited
  // to an enum or a range, must be refused by the server when it is absent or outside; a parameter the server
  // reads forgivingly (anything else reads as its default) must not be described with limits.
  const queried = ROUTES.filter((r) => r.query);
  test.each(queried.map((r) => [r.method, r.path, r] as const))(
    "%s %s: its query parameters promise only what the server enforces",
    (method, p, route) => {
      type Param = { name: string; in: string; required: boolean; schema: Record<string, unknown> };
      const params = (
        (committed.paths[p]![method.toLowerCase()] as { parameters?: Param[] }).parameters ?? []
      ).filter((q) => q.in === "query");
      const query = route.query!;
      const broken: string[] = [];
      for (const q of params) {
        if (q.required && query.safeParse({}).success)
          broken.push(`${q.name}: required, but the query parses without it`);
        const bad = Array.isArray(q.schema.enum)
          ? "not-a-member"
          : q.schema.type === "integer"
            ? "not-a-number"
            : undefined;
        if (bad !== undefined && query.safeParse({ [q.name]: bad }).success) {
          broken.push(`${q.name}: the document limits it, but the query takes ${JSON.stringify(bad)}`);
        }
      }
      expect(broken).toEqual([]);
    },
  );
});
