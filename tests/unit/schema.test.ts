/**
 * The package schema the resource plugin serves and the other languages' SDKs are generated from
 * (plugin/schema.json, written by scripts/schemagen.ts): checked as committed against the registry, the lookup
 * table and the TypeScript sdk's generated classes, which are read with the TypeScript compiler, so that the two
 * hostings publish the same inputs, outputs and required fields.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { camel, shapeOf } from "../../model/schema";
import { COMPONENTS } from "../../components/registry";
import { PROVIDERS } from "../../provider/registry";
import { LOOKUP_SPECS } from "../../sdk/lookups/table";
import type { PackageSchema, PropertySpec } from "../../scripts/schemagen";

const root = path.resolve(__dirname, "..", "..");
const schema = JSON.parse(fs.readFileSync(path.join(root, "plugin", "schema.json"), "utf8")) as PackageSchema;
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
const kinds = PROVIDERS.map((p) => p.spec);

function resourceOf(kind: string) {
  const r = schema.resources[`privnet:index:${kind}`];
  if (!r) throw new Error(`no resource privnet:index:${kind}`);
  return r;
}

/** The members of an interface of a generated sdk class file: name -> optional. */
function interfaceMembers(file: string, name: string): Map<string, boolean> {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(path.join(root, "sdk", "resources", `${file}.ts`), "utf8"),
    ts.ScriptTarget.Latest,
  );
  const found = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
  );
  if (!found) throw new Error(`sdk/resources/${file}.ts declares no interface ${name}`);
  return new Map(
    found.members.flatMap((m) =>
      ts.isPropertySignature(m) && ts.isIdentifier(m.name)
        ? [[m.name.text, m.questionToken !== undefined]]
        : [],
    ),
  );
}

/** Whether a type node is a union with `undefined` (`pulumi.Output<T | undefined>`'s `T | undefined`). */
function admitsUndefined(type: ts.TypeNode | undefined): boolean {
  return (
    type !== undefined &&
    ts.isUnionTypeNode(type) &&
    type.types.some((t) => t.kind === ts.SyntaxKind.UndefinedKeyword)
  );
}

/** The output properties of a generated sdk class: name -> whether its `pulumi.Output<T>` admits undefined. */
function classOutputs(file: string, name: string): Map<string, boolean> {
  const text = fs.readFileSync(path.join(root, "sdk", "resources", `${file}.ts`), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  const cls = source.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === name,
  );
  if (!cls) throw new Error(`sdk/resources/${file}.ts declares no class ${name}`);
  return new Map(
    cls.members.flatMap((m) =>
      ts.isPropertyDeclaration(m) &&
      ts.isIdentifier(m.name) &&
      m.modifiers?.some((x) => x.kind === ts.SyntaxKind.DeclareKeyword) &&
      m.type &&
      ts.isTypeReferenceNode(m.type)
        ? [[m.name.text, admitsUndefined(m.type.typeArguments?.[0])]]
        : [],
    ),
  );
}

/** Every `$ref` in a value of the schema. */
function refs(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refs);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => (k === "$ref" && typeof v === "string" ? [v] : refs(v)));
}

test("the package is privnet at package.json's version", () => {
  expect(schema.name).toBe("privnet");
  expect(schema.version).toBe(pkg.version);
  expect(schema.language.python?.packageName).toBe("pulumi_privnet");
});

test("every registry kind and every component is a resource privnet:index:<Name>, and nothing else is", () => {
  expect(Object.keys(schema.resources).sort()).toEqual(
    [...kinds.map((k) => k.name), ...COMPONENTS.map((c) => c.name)].map((n) => `privnet:index:${n}`).sort(),
  );
});

test("the components, and only they, are component resources (the plugin's Construct makes them)", () => {
  const components = Object.entries(schema.resources)
    .filter(([, r]) => (r as { isComponent?: boolean }).isComponent)
    .map(([t]) => t);
  expect(components.sort()).toEqual(COMPONENTS.map((c) => `privnet:index:${c.name}`).sort());
  expect(resourceOf("Segment").properties.setupKey?.secret).toBe(true);
});

test("the provider's token is secret in the config and as a provider argument; the other settings are not", () => {
  expect(schema.config.variables.token?.secret).toBe(true);
  expect(schema.provider.inputProperties.token?.secret).toBe(true);
  expect(schema.provider.properties.token?.secret).toBe(true);
  expect(Object.keys(schema.config.variables).sort()).toEqual(["apiUrl", "batchReads", "rateLimit", "token"]);
  for (const name of ["apiUrl", "rateLimit", "batchReads"]) {
    expect(schema.config.variables[name]?.secret).toBeUndefined();
  }
  expect(schema.config.variables.batchReads?.type).toBe("boolean");
});

test("SetupKey: the key is a secret output; the fields the API cannot update replace on change", () => {
  const key = resourceOf("SetupKey");
  expect(key.properties.key?.secret).toBe(true);
  expect(key.inputProperties.key).toBeUndefined();
  const replacing = (props: Record<string, PropertySpec>) =>
    Object.keys(props)
      .filter((n) => props[n]?.replaceOnChanges)
      .sort();
  const expected = ["allowExtraDnsLabels", "ephemeral", "expiresIn", "name", "type", "usageLimit"];
  expect(replacing(key.inputProperties)).toEqual(expected);
  expect(replacing(key.properties)).toEqual(expected);
  // revoked and autoGroups change in place.
  expect(key.inputProperties.revoked?.replaceOnChanges).toBeUndefined();
  expect(key.inputProperties.autoGroups?.replaceOnChanges).toBeUndefined();
});

test.each(kinds.map((k) => [k.name, k] as const))(
  "%s: secret and replacing fields as its spec declares",
  (name, spec) => {
    const r = resourceOf(name);
    for (const n of spec.secretInputs ?? []) {
      expect([n, r.inputProperties[n]?.secret]).toEqual([n, true]);
      if (r.properties[n]) expect([n, r.properties[n]?.secret]).toEqual([n, true]);
    }
    for (const n of spec.secretOutputs ?? []) expect([n, r.properties[n]?.secret]).toEqual([n, true]);
    for (const n of spec.replaceOnChange ?? []) {
      expect([n, r.inputProperties[n]?.replaceOnChanges]).toEqual([n, true]);
      expect([n, r.properties[n]?.replaceOnChanges]).toEqual([n, true]);
    }
  },
);

test.each(kinds.map((k) => [k.name, k.file] as const))(
  "%s: inputs, required inputs and outputs are the sdk class's",
  (name, file) => {
    const r = resourceOf(name);
    const args = interfaceMembers(file, `${name}Args`);
    expect(Object.keys(r.inputProperties).sort()).toEqual([...args.keys()].sort());
    const requiredArgs = [...args].filter(([, optional]) => !optional).map(([n]) => n);
    expect([...r.requiredInputs].sort()).toEqual(requiredArgs.sort());

    const state = interfaceMembers(file, `${name}State`);
    expect(Object.keys(r.properties).sort()).toEqual([...state.keys()].sort());
    const outputs = classOutputs(file, name);
    const requiredOutputs = [...outputs].filter(([, optional]) => !optional).map(([n]) => n);
    expect([...r.required].sort()).toEqual(requiredOutputs.sort());
  },
);

test("no resource declares id or urn, which every Pulumi resource has", () => {
  const clashes = Object.entries(schema.resources).flatMap(([t, r]) =>
    ["id", "urn"].filter((n) => n in r.inputProperties || n in r.properties).map((n) => `${t}.${n}`),
  );
  expect(clashes).toEqual([]);
});

test("pulumi import ids are documented: composite for child kinds, the singleton's for singletons", () => {
  expect(resourceOf("DnsRecord").description).toContain(
    "`pulumi import privnet:index:DnsRecord <name> <zoneId>/<id>`",
  );
  expect(resourceOf("NetworkResource").description).toContain("<networkId>/<id>");
  expect(resourceOf("DnsSettings").description).toContain("its id is `dns-settings`");
  expect(resourceOf("EdrIntune").description).toContain("its id is `intune`");
  expect(resourceOf("Group").description).toContain("`pulumi import privnet:index:Group <name> <id>`");
});

test("every lookup is a function privnet:index:<lookup>, with inputs exactly when it takes arguments", () => {
  expect(Object.keys(schema.functions).sort()).toEqual(
    LOOKUP_SPECS.map((l) => `privnet:index:${l.name}`).sort(),
  );
  for (const l of LOOKUP_SPECS) {
    const f = schema.functions[`privnet:index:${l.name}`];
    expect([l.name, f?.inputs !== undefined]).toEqual([l.name, l.args !== undefined]);
    const fields = Object.keys(shapeOf(l.result.schema) ?? {})
      .map(camel)
      .sort();
    if (l.many) {
      // A list: `{ items }`, whose elements are the type `Get<Name>Item` (one element of `items`).
      const item = `Get${l.name.slice(3)}Item`;
      expect(f?.outputs.required).toEqual(["items"]);
      expect([l.name, f?.outputs.properties.items?.items?.$ref]).toEqual([
        l.name,
        `#/types/privnet:index:${item}`,
      ]);
      const element = schema.types[`privnet:index:${item}`];
      expect([l.name, Object.keys(element?.properties ?? {}).sort()]).toEqual([l.name, fields]);
    } else {
      expect([l.name, Object.keys(f?.outputs.properties ?? {}).sort()]).toEqual([l.name, fields]);
    }
  }
  expect(Object.keys(schema.functions["privnet:index:getPeerByName"]?.inputs?.properties ?? {})).toEqual([
    "name",
  ]);
  expect(schema.functions["privnet:index:getPeerByName"]?.inputs?.required).toEqual(["name"]);
  // "One of" arguments: neither is required.
  expect(schema.functions["privnet:index:getGroup"]?.inputs?.required).toBeUndefined();
});

test("every type reference resolves, and every name is camelCase", () => {
  const dangling = refs(schema)
    .filter((r) => r !== "pulumi.json#/Any")
    .filter((r) => !(r.replace(/^#\/types\//, "") in schema.types));
  expect(dangling).toEqual([]);
  const objects: [string, Record<string, PropertySpec>][] = [
    ...Object.entries(schema.types).map(([t, o]): [string, Record<string, PropertySpec>] => [
      t,
      o.properties,
    ]),
    ...Object.entries(schema.resources).flatMap(([t, r]): [string, Record<string, PropertySpec>][] => [
      [`${t} inputs`, r.inputProperties],
      [`${t} outputs`, r.properties],
    ]),
  ];
  const snake = objects.flatMap(([t, properties]) =>
    Object.keys(properties)
      .filter((n) => n.includes("_"))
      .map((n) => `${t}.${n}`),
  );
  expect(snake).toEqual([]);
});
