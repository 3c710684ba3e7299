/**
 * The layers of docs/architecture.md, checked on the import specifiers of every file: api -> netmap -> server,
 * api -> client -> model -> provider -> sdk | importer | plugin | access -> policy, each importing only those below it. The sdk (hand-written and generated) reaches the
 * provider only through its public entry, `provider/entry.ts` (`pulumi-privnet/provider`), so the provider's
 * files can change without the sdk noticing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

const root = path.resolve(__dirname, "..", "..");

function tsFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(rel);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [rel] : [];
  });
}

/** Every module a file imports, re-exports or requires, as written. */
function specifiers(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(path.join(root, file), "utf8"), true, true);
  return info.importedFiles.map((f) => f.fileName);
}

/** The repo-relative path a specifier names (`provider/entry`), or undefined for a package. */
function target(file: string, spec: string): string | undefined {
  if (spec.startsWith(".")) return path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  const own = /^pulumi-privnet(?:\/(.*))?$/.exec(spec);
  if (!own) return undefined;
  if (own[1] === undefined) return "sdk/index";
  if (own[1] === "provider") return "provider/entry";
  return own[1].replace(/^dist\//, "").replace(/\.js$/, "");
}

const top = (p: string) => p.split("/")[0];

/** A file of `from` may import these top-level directories (besides its own). */
const ALLOWED: Record<string, string[]> = {
  api: [],
  client: ["api"],
  netmap: ["api"],
  server: ["api", "netmap"],
  model: ["api", "client"],
  provider: ["api", "client", "model"],
  // The components: one definition each and the builder both hostings run, over the kinds' checks.
  components: ["api", "client", "model", "provider"],
  sdk: ["api", "client", "model", "provider", "components"],
  // The resource plugin: a second transport over the provider's lifecycle; of the sdk it runs the lookups, and its
  // Construct declares a component's children with pulumi-privnet/plugin's classes.
  plugin: ["api", "client", "model", "provider", "components", "sdk"],
  // privnet-import reads each kind through the provider's readers and plans with its lifecycle: it sits beside
  // the sdk, above the provider, and nothing imports it.
  importer: ["api", "client", "model", "provider"],
  // privnet-access reads like the importer, computes with the network map and runs its offline twin on the
  // server: a tool at the top that only the policy pack imports.
  access: ["api", "client", "model", "provider", "importer", "netmap", "server"],
  // The access guard (a policy pack): access's reads, tests and diff on the account after a stack's change.
  policy: ["api", "client", "model", "provider", "importer", "netmap", "access"],
};

/** Imports breaking the layers in the files under `dir`: `file: specifier (why)`. */
function violations(dir: string): string[] {
  const out: string[] = [];
  for (const file of tsFiles(dir)) {
    for (const spec of specifiers(file)) {
      const t = target(file, spec);
      if (t === undefined) continue;
      const layer = top(t) ?? "";
      if (layer === dir) continue;
      if (!(ALLOWED[dir] ?? []).includes(layer))
        out.push(`${file}: ${spec} (${dir}/ may not import ${layer}/)`);
      else if (dir === "sdk" && layer === "provider" && t !== "provider/entry")
        out.push(`${file}: ${spec} (the sdk imports the provider's public entry only, provider/entry)`);
      else if (
        dir === "plugin" &&
        layer === "sdk" &&
        !t.startsWith("sdk/lookups/") &&
        !(file === "plugin/construct.ts" && t === "sdk/plugin")
      )
        out.push(`${file}: ${spec} (the plugin takes only the lookups from the sdk, sdk/lookups/)`);
    }
  }
  return out;
}

describe("layers", () => {
  test("the checks see the sdk's generated files, whose classes name the provider without importing it", () => {
    const files = tsFiles("sdk");
    expect(files).toContain("sdk/resources/group.ts");
    expect(files).toContain("sdk/lookups/functions.ts");
    // A resource class registers the entry's serialized form (sdk/serialized-provider.ts), not the entry itself.
    expect(specifiers("sdk/resources/group.ts")).toContain("../serialized-provider");
    expect(
      specifiers("sdk/resources/group.ts").filter((s) =>
        target("sdk/resources/group.ts", s)?.startsWith("provider/"),
      ),
    ).toEqual([]);
  });

  test("a deep import of the provider from the sdk is named", () => {
    expect(target("sdk/lookups/runner.ts", "../../provider/config")).toBe("provider/config");
    expect(target("sdk/owner.ts", "pulumi-privnet/dist/provider/recovery.js")).toBe("provider/recovery");
    expect(target("sdk/owner.ts", "pulumi-privnet/provider")).toBe("provider/entry");
  });

  test.each(Object.keys(ALLOWED))("%s/ imports only the layers below it", (dir) => {
    expect(violations(dir)).toEqual([]);
  });
});
