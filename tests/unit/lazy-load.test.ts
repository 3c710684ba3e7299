/**
 * What each process loads of the built package (dist/, as installed): importing `pulumi-privnet` loads the names
 * only; a program that declares groups loads the Group class and the provider's entry, never another kind, the
 * lifecycle or zod; the provider entry loads a kind at its first call, and only that kind's API schemas (not the
 * route table of the whole API). Each case runs in a fresh Node process, whose require cache is the evidence.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { PROVIDERS } from "../../provider/registry";
import { COMPONENTS } from "../../components/registry";
import { LOOKUP_SPECS } from "../../sdk/lookups/table";
import { ensureBuilt, repoRoot } from "../support/package-copy";

const dist = path.join(repoRoot, "dist");

/** Runs `script` in a new Node process (cwd: the repo) and parses the JSON it prints last. */
function inFreshProcess<T>(script: string): T {
  const out = execFileSync(process.execPath, ["-e", script], {
    cwd: repoRoot,
    env: { ...process.env, NODE_OPTIONS: "" },
    encoding: "utf8",
    timeout: 60_000,
  });
  return JSON.parse(out.trim().split("\n").at(-1) as string) as T;
}

/** A script's helper: the files loaded since `before`, as paths under dist/ or `pkg:<name>` for packages. */
const LOADED = `
const loadedSince = (before) => Object.keys(require.cache).filter((f) => !before.has(f)).map((f) => {
  const nm = f.lastIndexOf("/node_modules/");
  if (nm >= 0) { const p = f.slice(nm + 14).split("/"); return "pkg:" + (p[0].startsWith("@") ? p[0] + "/" + p[1] : p[0]); }
  return f.startsWith(${JSON.stringify(dist + "/")}) ? f.slice(${dist.length + 1}) : f;
});
const snapshot = () => new Set(Object.keys(require.cache));
`;

beforeAll(() => ensureBuilt(), 300_000);

describe("the package (pulumi-privnet)", () => {
  test("importing it loads no kind, no lookup, no API schema and none of zod, lodash or undici", () => {
    const loaded = inFreshProcess<string[]>(`${LOADED}
      require("@pulumi/pulumi");
      const before = snapshot();
      require(${JSON.stringify(path.join(dist, "sdk", "index.js"))});
      console.log(JSON.stringify([...new Set(loadedSince(before))]));`);
    expect(loaded.filter((f) => /^(provider|api|client|components)\//.test(f))).toEqual([]);
    expect(loaded.filter((f) => /^sdk\/(resources|components|plugin)\/(?!index)/.test(f))).toEqual([]);
    expect(loaded.filter((f) => f.startsWith("sdk/lookups/") && !/exports|errors/.test(f))).toEqual([]);
    expect(loaded.filter((f) => f.startsWith("pkg:") && f !== "pkg:@pulumi/pulumi")).toEqual([]);
  });

  test("a program's first Group loads the Group class alone: no provider entry, nothing of the lifecycle", () => {
    const loaded = inFreshProcess<string[]>(`${LOADED}
      require("@pulumi/pulumi");
      const privnet = require(${JSON.stringify(path.join(dist, "sdk", "index.js"))});
      const before = snapshot();
      if (typeof privnet.Group !== "function") throw new Error("no Group class");
      console.log(JSON.stringify([...new Set(loadedSince(before))]));`);
    expect(loaded).toContain("sdk/resources/group.js");
    expect(loaded.filter((f) => f.startsWith("sdk/resources/") && f !== "sdk/resources/group.js")).toEqual(
      [],
    );
    // The class registers the entry by name (sdk/serialized-provider.ts): the program never loads the provider.
    expect(loaded.filter((f) => /^(api|client|provider)\//.test(f))).toEqual([]);
    expect(loaded.filter((f) => f.startsWith("pkg:") && f !== "pkg:@pulumi/pulumi")).toEqual([]);
  });

  test("every class, component and lookup is still a name of the package, enumerable, and loads when read", () => {
    const seen = inFreshProcess<{ keys: string[]; types: Record<string, string>; lookups: number }>(`
      const privnet = require(${JSON.stringify(path.join(dist, "sdk", "index.js"))});
      const keys = Object.keys(privnet);
      const types = Object.fromEntries(keys.map((k) => [k, typeof privnet[k]]));
      console.log(JSON.stringify({ keys, types, lookups: privnet.LOOKUPS.length }));`);
    const names = [
      ...PROVIDERS.map((p) => p.spec.name),
      ...COMPONENTS.map((c) => c.name),
      ...LOOKUP_SPECS.flatMap((l) => [l.name, `${l.name}Output`]),
      "Provider",
      "PrivnetLookupError",
      "isPrivnetLookupError",
    ];
    for (const n of names) expect([n, seen.types[n]]).toEqual([n, "function"]);
    expect(seen.keys).toEqual(expect.arrayContaining([...names, "LOOKUPS", "DEFAULT_API_URL"]));
    expect(seen.lookups).toBe(LOOKUP_SPECS.length);
  });
});

describe("the provider entry (pulumi-privnet/provider)", () => {
  test("loads nothing of the kinds until a call, then the called kind and its API schemas alone", () => {
    const seen = inFreshProcess<{ atLoad: string[]; atCall: string[] }>(`${LOADED}
      const before = snapshot();
      const entry = require(${JSON.stringify(path.join(dist, "provider", "entry.js"))});
      const atLoad = loadedSince(before);
      const loadedBefore = snapshot();
      entry.check({}, { __kind: "Group", name: "g" }).then(() => {
        console.log(JSON.stringify({ atLoad, atCall: loadedSince(loadedBefore) }));
      });`);
    expect(seen.atLoad.sort()).toEqual(["model/hidden-inputs.js", "provider/entry.js"]);
    expect(seen.atCall).toContain("provider/resources/group.js");
    expect(seen.atCall).toContain("api/group.js");
    expect(
      seen.atCall.filter((f) => f.startsWith("provider/resources/") && !f.endsWith("/group.js")),
    ).toEqual([]);
    // The route table builds every request and response schema of the API: the kind calls by the table without.
    expect(seen.atCall).not.toContain("api/routes.js");
    expect(seen.atCall).not.toContain("api/policy.js");
  });
});
