/**
 * Registry completeness: a resource kind is declared in its own files (api schema, route entries, server handler
 * module, provider spec, test fixture); every list that must name it is either derived from those or checked
 * here, and each failure says which kind is missing where (docs/adding-a-kind.md walks through the steps).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as api from "../../api";
import { z } from "../../api/common";
import { OBJECTS } from "../../api/objects";
import { FAMILIES, ROUTES } from "../../api/routes";
import { KINDS as IMPORTER_KINDS } from "../../importer/kinds";
import { KIND_MODULES } from "../../provider/kind-modules";
import { listRouteOf } from "../../provider/list";
import { PROVIDERS } from "../../provider/registry";
import { LOOKUP_SPECS } from "../../sdk/lookups/table";
import { HANDLER_MODULES } from "../../server/handlers";
import { INTERNAL_ROUTES } from "../../server/internal-routes";
import { fixtures, type FixtureTarget } from "../support/provider";

const root = path.resolve(__dirname, "..", "..");

/** The .ts files of a directory of the repository, without the extension (index.ts left out). */
function modulesIn(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith(".ts") && f !== "index.ts")
    .map((f) => f.slice(0, -3))
    .sort();
}

const kinds = PROVIDERS.map((p) => p.spec);

describe("api/", () => {
  test("index.ts re-exports every schema file", () => {
    const missing: string[] = [];
    for (const file of modulesIn("api")) {
      const mod = require(path.join(root, "api", file)) as Record<string, unknown>;
      const lost = Object.keys(mod).filter((k) => (api as Record<string, unknown>)[k] !== mod[k]);
      if (lost.length)
        missing.push(
          `api/${file}.ts: ${lost.join(", ")} not exported by api/index.ts (export * from "./${file}")`,
        );
    }
    expect(missing).toEqual([]);
  });

  test("objects.ts registers every schema a route takes or returns", () => {
    const registered = new Set<z.ZodType>(
      OBJECTS.flatMap((o) => [...(o.schema ? [o.schema] : []), ...Object.values(o.requests)]),
    );
    const element = (s: z.ZodType) => (s instanceof z.ZodArray ? (s.element as z.ZodType) : s);
    const missing: string[] = [];
    for (const r of ROUTES) {
      if (r.body && !registered.has(element(r.body)))
        missing.push(`${r.operationId}: its body is not an object of OBJECTS in api/objects.ts`);
      if (r.response && r.response !== api.EmptySchema && !registered.has(element(r.response)))
        missing.push(`${r.operationId}: its response is not an object of OBJECTS in api/objects.ts`);
    }
    expect(missing).toEqual([]);
  });

  test("every family of FAMILIES (api/routes.ts) has routes", () => {
    const used = new Set(ROUTES.map((r) => r.family));
    const stale = Object.keys(FAMILIES).filter((f) => !used.has(f as keyof typeof FAMILIES));
    expect(stale.map((f) => `family ${f} is in FAMILIES of api/routes.ts but no route has it`)).toEqual([]);
  });
});

describe("server/handlers/", () => {
  test("every handler module is in HANDLER_MODULES of server/handlers/index.ts", () => {
    const listed = new Set<unknown>(HANDLER_MODULES.map((m) => m.handlers));
    const missing = modulesIn("server/handlers").filter((file) => {
      const mod = require(path.join(root, "server", "handlers", file)) as { handlers?: unknown };
      return !listed.has(mod.handlers);
    });
    expect(
      missing.map((f) => `server/handlers/${f}.ts is not in HANDLER_MODULES of server/handlers/index.ts`),
    ).toEqual([]);
  });

  test("each operation has exactly one handler, and each stored kind one module declaring it", () => {
    const problems: string[] = [];
    const servedBy = new Map<string, number>();
    const declaredBy = new Map<string, number>();
    for (const m of HANDLER_MODULES) {
      for (const op of Object.keys(m.handlers)) servedBy.set(op, (servedBy.get(op) ?? 0) + 1);
      for (const kind of Object.keys(m.kinds)) declaredBy.set(kind, (declaredBy.get(kind) ?? 0) + 1);
    }
    const routes = [...ROUTES, ...INTERNAL_ROUTES];
    for (const r of routes) {
      const n = servedBy.get(r.operationId) ?? 0;
      if (n !== 1) problems.push(`${r.operationId}: ${n} handlers in server/handlers (want exactly one)`);
    }
    for (const op of servedBy.keys())
      if (!routes.some((r) => r.operationId === op))
        problems.push(`${op}: a handler for no route of api/routes.ts or server/internal-routes.ts`);
    for (const [kind, n] of declaredBy)
      if (n > 1) problems.push(`kind ${kind}: declared by ${n} handler modules (one owns it)`);
    expect(problems).toEqual([]);
  });
});

describe("every resource kind", () => {
  test("has its provider spec file in provider/registry.ts PROVIDERS", () => {
    const listed = new Set<unknown>(PROVIDERS);
    const missing = modulesIn("provider/resources").filter(
      (file) => !listed.has(require(path.join(root, "provider", "resources", file))),
    );
    expect(
      missing.map((f) => `provider/resources/${f}.ts is not in PROVIDERS of provider/registry.ts`),
    ).toEqual([]);
    const misnamed = kinds.filter((s) => !modulesIn("provider/resources").includes(s.file));
    expect(misnamed.map((s) => `${s.name}: spec.file ${s.file} is not a file of provider/resources`)).toEqual(
      [],
    );
    expect(new Set(kinds.map((s) => s.name)).size).toBe(kinds.length);
  });

  test("has a lookup calling its read operation (sdk/lookups/table.ts)", () => {
    const called = new Set(LOOKUP_SPECS.flatMap((l) => l.operationIds));
    const missing = kinds.filter((s) => !called.has(s.ops.read));
    expect(
      missing.map((s) => `${s.name}: no lookup in sdk/lookups/table.ts calls ${s.ops.read}, the kind's read`),
    ).toEqual([]);
  });

  test("has a test fixture (tests/support/provider.ts)", async () => {
    const unused = (): never => {
      throw new Error("fixtures are only listed here, not built");
    };
    const target: FixtureTarget = {
      call: unused,
      peer: unused,
      oidcIssuer: "",
      geoLocation: false,
      proxyCluster: unused,
    };
    const have = Object.keys(await fixtures(target));
    expect(
      kinds
        .filter((s) => !have.includes(s.name))
        .map((s) => `${s.name}: no fixture in tests/support/provider.ts`),
    ).toEqual([]);
    expect(
      have.filter((k) => !kinds.some((s) => s.name === k)).map((k) => `fixture ${k}: no such kind`),
    ).toEqual([]);
  });

  test("has an entry in the importer's kind table (importer/kinds.ts)", () => {
    const have = new Set(IMPORTER_KINDS.map((k) => k.kind));
    expect(
      kinds.filter((s) => !have.has(s.name)).map((s) => `${s.name}: no entry in importer/kinds.ts KINDS`),
    ).toEqual([]);
  });

  test("can be listed: a list route of its collection (provider/list.ts), or a list hook", () => {
    expect(
      kinds
        .filter((s) => !s.hooks?.list && !listRouteOf(s))
        .map(
          (s) => `${s.name}: no list route of ${s.ops.read}'s collection in api/routes.ts and no list hook`,
        ),
    ).toEqual([]);
    // The collection of a nested kind, and a kind whose read is its list.
    expect(listRouteOf(kinds.find((s) => s.name === "DnsRecord")!)?.operationId).toBe("listDnsRecords");
    expect(listRouteOf(kinds.find((s) => s.name === "User")!)?.operationId).toBe("listUsers");
    expect(listRouteOf(kinds.find((s) => s.name === "DnsSettings")!)).toBeUndefined();
  });

  test("has its generated sdk class and reference page (npm run gen)", () => {
    const sdkIndex = fs.readFileSync(path.join(root, "sdk", "resources", "index.ts"), "utf8");
    const missing: string[] = [];
    for (const s of kinds) {
      if (
        !fs.existsSync(path.join(root, "sdk", "resources", `${s.file}.ts`)) ||
        !sdkIndex.includes(`"./${s.file}"`)
      )
        missing.push(`${s.name}: no sdk/resources/${s.file}.ts in sdk/resources/index.ts (run npm run gen)`);
      if (!fs.existsSync(path.join(root, "docs", "reference", "resources", `${s.file}.md`)))
        missing.push(`${s.name}: no docs/reference/resources/${s.file}.md (run npm run gen)`);
      // The provider entry and the plugin load a kind by this table: a kind missing there is unknown to both.
      const load = Object.hasOwn(KIND_MODULES, s.name) ? KIND_MODULES[s.name] : undefined;
      if (load?.() !== PROVIDERS.find((p) => p.spec.name === s.name))
        missing.push(`${s.name}: not in provider/kind-modules.ts, or not its module there (run npm run gen)`);
    }
    expect(missing).toEqual([]);
  });

  test("is in docs/provider.md's list of resources, and the README's counts are current", () => {
    const page = fs.readFileSync(path.join(root, "docs", "provider.md"), "utf8");
    const list = /^- \*\*Resources\*\* \(reference: .*?\)\): ([\s\S]*?)\. Arguments/m.exec(page);
    expect(list).not.toBeNull();
    const listed = (list?.[1] ?? "").split(/,\s*/);
    expect({
      "missing from docs/provider.md's list of resources": kinds
        .map((s) => s.name)
        .filter((n) => !listed.includes(n)),
      "in docs/provider.md's list of resources but no kind": listed.filter(
        (n) => !kinds.some((s) => s.name === n),
      ),
    }).toEqual({
      "missing from docs/provider.md's list of resources": [],
      "in docs/provider.md's list of resources but no kind": [],
    });
    expect(listed).toEqual(kinds.map((s) => s.name));
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8").replace(/\s+/g, " ");
    expect(readme).toContain(
      `management API (${kinds.length} kinds) and ${LOOKUP_SPECS.length} lookup functions`,
    );
    expect(readme).toContain(`(all ${ROUTES.length} operations)`);
  });
});
