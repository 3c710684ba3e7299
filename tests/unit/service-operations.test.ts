/**
 * Every operation of the service's v0.77.1 API document is one of ours: the document's operation list
 * (tests/fixtures/service-openapi/operations.tsv, written by scripts/service-facts.ts from the document) against
 * our generated OpenAPI document (api/openapi.ts, the same as docs/openapi.json). Paths compare with their
 * parameters unnamed (`/api/peers/{}/edr/bypass`): the document and we name some otherwise (`peer-id`, `peerId`).
 *
 * Left aside, and only these: billing (`/api/integrations/billing/...`) and the first-run setup
 * (`POST /api/setup`), which are the service's business and installation, not infrastructure a program manages.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildOpenApi } from "../../api/openapi";

const LIST = path.resolve(__dirname, "../fixtures/service-openapi/operations.tsv");

/** Why an operation of the document is not ours to serve, or undefined when it is. */
function asideBecause(method: string, p: string): string | undefined {
  if (p.startsWith("/api/integrations/billing/")) return "billing";
  if (method === "POST" && p === "/api/setup") return "first-run setup";
  return undefined;
}

const unnamed = (p: string) => p.replace(/\{[^}]+\}/g, "{}");

function theirs(): { method: string; path: string }[] {
  const [header, ...rows] = fs.readFileSync(LIST, "utf8").trim().split("\n");
  expect(header).toBe("method\tpath");
  return rows.map((r) => {
    const [method, p] = r.split("\t") as [string, string];
    return { method, path: p };
  });
}

function ours(): Set<string> {
  const doc = buildOpenApi("operations") as { paths: Record<string, Record<string, unknown>> };
  const out = new Set<string>();
  for (const [p, item] of Object.entries(doc.paths))
    for (const method of Object.keys(item)) out.add(`${method.toUpperCase()} ${unnamed(p)}`);
  return out;
}

describe("the service's v0.77.1 API document", () => {
  test("the list is the whole document: 236 operations, 12 of them aside (11 billing, the setup)", () => {
    const all = theirs();
    expect(all).toHaveLength(236);
    const aside = all.map((o) => asideBecause(o.method, o.path)).filter((x) => x !== undefined);
    expect({ billing: aside.filter((x) => x === "billing").length, setup: aside.length - 11 }).toEqual({
      billing: 11,
      setup: 1,
    });
  });

  test("every operation of it (billing and setup aside) is an operation of ours", () => {
    const mine = ours();
    const missing = theirs()
      .filter((o) => asideBecause(o.method, o.path) === undefined)
      .filter((o) => !mine.has(`${o.method} ${unnamed(o.path)}`))
      .map((o) => `${o.method} ${o.path}`);
    expect(missing).toEqual([]);
  });

  test("the comparison sees a missing operation", () => {
    const mine = ours();
    expect(mine.has("GET /api/groups/{}")).toBe(true);
    expect(mine.has("GET /api/integrations/billing/usage")).toBe(false);
  });
});
