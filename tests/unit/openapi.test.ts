/**
 * The generated OpenAPI document covers every operation of operations.tsv (the spec's 137, then those taken from
 * the service's own API document, tests/fixtures/reference), with request and response schemas wherever spec
 * part 4 (or that document) gives a body; the committed copy is current.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildOpenApi } from "../../api/openapi";
import { ROUTES } from "../../api/routes";
import { referenceOperations, specEndpointRows, specOperations } from "../support/spec";

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
  // Operations beyond the spec: the service's own document says where a body is.
  for (const o of referenceOperations())
    out.set(`${o.method} ${o.path}`, {
      request: o.request !== undefined,
      response: o.response !== undefined,
    });
  return out;
}

describe("OpenAPI document", () => {
  const ops = specOperations();

  test("operations.tsv has the 137 operations of the spec, then those of the service's own document", () => {
    const beyond = referenceOperations();
    expect(ops).toHaveLength(137 + beyond.length);
    expect(ops.slice(137)).toEqual(beyond.map((o) => ({ method: o.method, path: o.path })));
  });

  test.each(specOperations().map((o) => [o.method, o.path]))(
    "%s %s is an operation of the document",
    (method, p) => {
      expect(operation(method, p)).toBeDefined();
    },
  );

  test("request and response schemas exist wherever spec part 4 gives a body", () => {
    const expected = expectedBodies();
    const missing: string[] = [];
    for (const { method, path: p } of ops) {
      const want = expected.get(`${method} ${p}`);
      if (!want) {
        missing.push(`${method} ${p}: not found in spec part 4 tables`);
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

  test("the document has no operation beyond operations.tsv", () => {
    const spec = new Set(ops.map((o) => `${o.method} ${o.path}`));
    const extra = ROUTES.map((r) => `${r.method} ${r.path}`).filter((k) => !spec.has(k));
    expect(extra).toEqual([]);
    expect(new Set(ROUTES.map((r) => r.operationId)).size).toBe(ROUTES.length);
  });

  test("the committed docs/openapi.json is what the schemas generate", () => {
    expect(buildOpenApi(committed.info.version)).toEqual(committed);
  });
});
