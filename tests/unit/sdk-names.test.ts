/**
 * The names of the nested types in the generated SDKs (sdk/python, sdk/go, sdk/java, sdk/dotnet) follow Pulumi's naming,
 * as bridged providers name theirs: a type is named for ONE element, after the path that holds it (`Policy.rules`
 * -> `PolicyRule`, its `portRanges` -> `PolicyRulePortRange`), a function's types after the function
 * (`getGroup`'s `peers` -> `GetGroupPeer`). Read from the committed schema and the committed generated files, for
 * every object type: the SDKs declare the singular name and never the plural one (no `PolicyRulesArgs`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import pluralize from "pluralize";
import type { PackageSchema, PropertySpec } from "../../scripts/schemagen";

const root = path.resolve(__dirname, "..", "..");
const schema = JSON.parse(fs.readFileSync(path.join(root, "plugin", "schema.json"), "utf8")) as PackageSchema;

const pythonDir = path.join(root, "sdk", "python", "pulumi_privnet");
const python = ["_inputs.py", "outputs.py"]
  .map((f) => fs.readFileSync(path.join(pythonDir, f), "utf8"))
  .join("\n");
const goDir = path.join(root, "sdk", "go", "privnet");
const go = fs
  .readdirSync(goDir)
  .filter((f) => f.endsWith(".go"))
  .map((f) => fs.readFileSync(path.join(goDir, f), "utf8"))
  .join("\n");

const javaDir = path.join(
  root,
  "sdk",
  "java",
  "src",
  "main",
  "java",
  "io",
  "github",
  "pulumiprivnet",
  "privnet",
);
const dotnetDir = path.join(root, "sdk", "dotnet");
/** The classes of a generated SDK's inputs and outputs folders (`PolicyRuleArgs`, `PolicyRule`), by file name. */
const classes = (dir: string, inputs: string, outputs: string, ext: string) =>
  new Set(
    [inputs, outputs].flatMap((sub) =>
      fs.existsSync(path.join(dir, sub))
        ? fs
            .readdirSync(path.join(dir, sub))
            .filter((f) => f.endsWith(ext))
            .map((f) => f.slice(0, -ext.length))
        : [],
    ),
  );
const javaClasses = classes(javaDir, "inputs", "outputs", ".java");
const dotnetClasses = classes(dotnetDir, "Inputs", "Outputs", ".cs");

const pythonClasses = new Set([...python.matchAll(/^class (\w+)[(:]/gm)].map((m) => m[1]!));
const goTypes = new Set([...go.matchAll(/^type (\w+) /gm)].map((m) => m[1]!));

/**
 * The Go name of a type: Go's generator appends `Type` to a type whose name is a resource's getter
 * (`GetAccountSettings` reads an AccountSettings resource, so getAccount's `settings` is `GetAccountSettingsType`).
 */
const kinds = Object.keys(schema.resources).map((t) => t.split(":")[2]!);
const goName = (name: string) => (kinds.some((k) => name === `Get${k}`) ? `${name}Type` : name);

const pascal = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
/** One element of a property that holds many; `data` (a page's entries) is a mass noun. */
const one = (prop: string) => (prop === "data" ? prop : pluralize.singular(prop));
const typeName = (ref: string) => ref.replace("#/types/privnet:index:", "");

interface Use {
  /** Where the type is used: `Policy.rules`. */
  where: string;
  /** The name the rule gives it. */
  expected: string;
  /** The name after the path's plural, where it differs (what the SDKs must not declare). */
  plural?: string;
  name: string;
  input: boolean;
}

/** Every use of an object type: the properties of resources, functions and types, followed into the types. */
function uses(): Use[] {
  const found: Use[] = [];
  const seen = new Set<string>();
  const visit = (
    owner: string,
    props: Record<string, PropertySpec> | undefined,
    input: boolean,
    at: string,
  ) => {
    for (const [prop, spec] of Object.entries(props ?? {})) {
      let value = spec;
      let many = false;
      while (value.items ?? value.additionalProperties) {
        value = (value.items ?? value.additionalProperties)!;
        many = true;
      }
      if (!value.$ref?.startsWith("#/types/")) continue;
      const name = typeName(value.$ref);
      const expected = `${owner}${pascal(many ? one(prop) : prop)}`;
      const plural = `${owner}${pascal(prop)}`;
      found.push({
        where: `${at}.${prop}`,
        expected,
        ...(plural !== expected ? { plural } : {}),
        name,
        input,
      });
      const key = `${name}:${input}`;
      if (seen.has(key)) continue;
      seen.add(key);
      visit(name, schema.types[`privnet:index:${name}`]?.properties, input, `${at}.${prop}`);
    }
  };
  for (const [tok, r] of Object.entries(schema.resources)) {
    const kind = tok.split(":")[2]!;
    visit(kind, r.inputProperties, true, kind);
    visit(kind, r.properties, false, kind);
  }
  for (const [tok, f] of Object.entries(schema.functions)) {
    const fn = tok.split(":")[2]!;
    visit(pascal(fn), f.inputs?.properties, true, fn);
    visit(pascal(fn), f.outputs.properties, false, fn);
  }
  return found;
}

const all = uses();

describe("nested type names in the generated SDKs", () => {
  it("the schema has nested types, and every one is used", () => {
    const used = new Set(all.map((u) => u.name));
    expect(used.size).toBeGreaterThan(20);
    expect(
      Object.keys(schema.types)
        .map((t) => t.split(":")[2])
        .filter((n) => !used.has(n!)),
    ).toEqual([]);
  });

  it("every type is named for one element, after the path that holds it", () => {
    const wrong = all
      .filter((u) => u.name !== u.expected)
      .map((u) => `${u.where}: ${u.name}, want ${u.expected}`);
    expect(wrong).toEqual([]);
  });

  it("Python and Go declare every type under its name, inputs as <Name>Args", () => {
    const missing: string[] = [];
    for (const u of all) {
      const py = u.input ? `${u.name}Args` : u.name;
      if (!pythonClasses.has(py)) missing.push(`python ${py} (${u.where})`);
      if (!goTypes.has(goName(u.name))) missing.push(`go ${goName(u.name)} (${u.where})`);
      if (u.input && !goTypes.has(`${goName(u.name)}Args`)) missing.push(`go ${u.name}Args (${u.where})`);
    }
    expect(missing).toEqual([]);
  });

  it("Java and .NET declare every type under its name, inputs as <Name>Args", () => {
    const missing: string[] = [];
    for (const u of all) {
      const name = u.input ? `${u.name}Args` : u.name;
      if (!javaClasses.has(name)) missing.push(`java ${name} (${u.where})`);
      if (!dotnetClasses.has(name)) missing.push(`dotnet ${name} (${u.where})`);
    }
    expect(missing).toEqual([]);
  });

  it("neither declares a type under the plural of its path (no PolicyRulesArgs)", () => {
    const plurals = [...new Set(all.flatMap((u) => (u.plural ? [u.plural] : [])))];
    expect(plurals.length).toBeGreaterThan(10);
    const found = plurals.flatMap((p) =>
      [p, `${p}Args`, `${p}ArgsDict`]
        .filter(
          (n) =>
            pythonClasses.has(n) ||
            goTypes.has(n) ||
            goTypes.has(`${n}Array`) ||
            javaClasses.has(n) ||
            dotnetClasses.has(n),
        )
        .map((n) => n),
    );
    expect(found).toEqual([]);
  });

  it.each([
    ["PolicyRuleArgs", "PolicyRulesArgs"],
    ["PolicyRulePortRangeArgs", "PolicyRulesPortRangesArgs"],
    ["NameserverGroupNameserverArgs", "NameserverGroupNameserversArgs"],
    ["PostureCheckChecksGeoLocationCheckLocationArgs", "PostureCheckChecksGeoLocationCheckLocationsArgs"],
    ["GroupResourceArgs", "GroupResourcesArgs"],
  ])("%s exists in Python, Go, Java and .NET; %s does not", (good, bad) => {
    const sdks = [pythonClasses, goTypes, javaClasses, dotnetClasses];
    expect(sdks.map((s) => s.has(good))).toEqual([true, true, true, true]);
    expect(sdks.map((s) => s.has(bad))).toEqual([false, false, false, false]);
  });

  it("a function's result is Get<Name>Result and its nested types start with Get<Name>", () => {
    const getGroup = fs.readFileSync(path.join(pythonDir, "get_group.py"), "utf8");
    expect(getGroup).toMatch(/^class GetGroupResult:/m);
    expect(goTypes.has("LookupGroupResult")).toBe(true); // Go names getGroup LookupGroup: a resource is Group
    expect([pythonClasses.has("GetGroupPeer"), goTypes.has("GetGroupPeer")]).toEqual([true, true]);
    expect([pythonClasses.has("GroupResultPeers"), goTypes.has("GroupResultPeers")]).toEqual([false, false]);
    const stray = all.filter((u) => !u.input && u.where.startsWith("get") && !u.name.startsWith("Get"));
    expect(stray.map((u) => u.where)).toEqual([]);
  });
});
