/**
 * Generates the Pulumi package schema (plugin/schema.json): what the resource plugin serves in GetSchema and what
 * the SDKs of the other languages are generated from (scripts/gen-sdks.sh). It is derived from the same sources
 * as the TypeScript sdk: the resource specs (provider/registry.ts) through ./fields.ts, the lookup table
 * (sdk/lookups/table.ts) and the api/ schemas, so every hosting and every language says the same.
 *
 * Choices:
 * - Tokens: `privnet:index:<Kind>` for resources, `privnet:index:<lookup>` for functions, `privnet:index:<Name>`
 *   for object types. An object type is named for ONE element, after the path that holds it, as the bridged
 *   providers name theirs: its owner's name and the property's, in the singular where the property holds many
 *   (a list or a map): `Policy.rules` -> `PolicyRule`, its `portRanges` -> `PolicyRulePortRange`, a single object
 *   as its property (`PostureCheck.checks` -> `PostureCheckChecks`). A function's types start with the function's
 *   name (`getGroup`'s `peers` -> `GetGroupPeer`, `getPeers`' `items` -> `GetPeersItem`); its result itself is the
 *   SDKs' `Get<Name>Result`. The same API schema under two paths is two types, as in the bridged SDKs; two
 *   schemas never share a name (the generator refuses), nor does a type take a name an SDK gives a resource or a
 *   function (`<Kind>`, `<Kind>Args`, `Get<Name>Result`, ...).
 * - Enums are strings whose description lists the values (closed sets: "one of"; the open sets of
 *   `OPEN_ENUMS`: "known values"), so a value the service adds later never breaks a generated SDK.
 * - A lookup that returns a list is a function whose result is `{ items: [...] }`: a Pulumi function returns an
 *   object.
 * - `id` and `urn` are every resource's own: no kind may declare them as properties (the generator refuses).
 * - Defaults are documented, not declared: the provider applies them, so the SDKs need not send them.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import pluralize from "pluralize";
import type { z } from "zod";
import { OPEN_ENUMS } from "../api/common";
import { DEFAULT_API_URL } from "../model/credentials";
import { snakeNames, renameFields } from "../model/mapping";
import {
  camel,
  describe,
  elementOf,
  enumValues,
  isInteger,
  isOptional,
  kindOf,
  peel,
  recordValueOf,
  shapeOf,
} from "../model/schema";
import { unionOptions } from "../model/zod";
import { COMPONENTS } from "../components/registry";
import type { ComponentSpec } from "../components/spec";
import { checkSchema } from "../provider/lifecycle";
import { PROVIDERS } from "../provider/registry";
import type { ResourceSpec } from "../provider/spec";
import type { LookupSpec } from "../sdk/lookups/spec";
import { LOOKUP_SPECS } from "../sdk/lookups/table";
import { PACKAGE, token } from "../model/hidden-inputs";
import { stringify } from "yaml";
import { FUNCTION_EXAMPLES } from "./examples/functions";
import { exampleRenderer } from "./examples";
import { exampleBlock, examplesSection, LANGUAGES, type Language, type Renderer } from "./examples/render";
import { RESOURCE_EXAMPLES } from "./examples/resources";
import type { Example } from "./examples/spec";
import { fieldDoc, inputFields, outputFields, type Field } from "./fields";
import { root } from "./format";

export { PACKAGE, token };

/** Go import path of the generated Go SDK's package (its module is the directory above: sdk/go). */
export const GO_IMPORT_PATH = "github.com/pulumi-privnet/pulumi-privnet/sdk/go/privnet";

/** Python package of the generated Python SDK. */
export const PYTHON_PACKAGE = "pulumi_privnet";

/** The parts of Pulumi's package schema this generator writes. */
export interface PropertySpec {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
}

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

export interface ResourceSchemaSpec {
  /** A component resource: the plugin's Construct makes its children (components/). */
  isComponent?: boolean;
  description: string;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
  properties: Record<string, PropertySpec>;
  required: string[];
}

export interface FunctionSchemaSpec {
  description: string;
  inputs?: ObjectTypeSpec;
  outputs: ObjectTypeSpec;
}

export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  license: string;
  meta: { supportPack: boolean };
  language: Record<string, Record<string, unknown>>;
  config: { variables: Record<string, PropertySpec>; defaults?: string[] };
  provider: {
    description: string;
    inputProperties: Record<string, PropertySpec>;
    properties: Record<string, PropertySpec>;
  };
  resources: Record<string, ResourceSchemaSpec>;
  functions: Record<string, FunctionSchemaSpec>;
  types: Record<string, ObjectTypeSpec>;
}

/** A value of any type (the engine's built-in `Any`). */
const ANY: PropertySpec = { $ref: "pulumi.json#/Any" };

/** Names every resource owns: a kind that declared one as a property would clash in every SDK. */
const RESERVED = new Set(["id", "urn"]);

function pascal(name: string): string {
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** `text`, then `note` after a semicolon; either may be empty. */
function joined(text: string | undefined, note: string): string | undefined {
  return [text, note].filter(Boolean).join("; ") || undefined;
}

/** The values of an enum (or of the enum elements of a list), as a note for the description. */
function valuesNote(s: z.ZodType): string {
  const inner = peel(s).schema;
  const element = kindOf(inner) === "array" ? elementOf(inner) : undefined;
  const e = element ? peel(element).schema : inner;
  const values = enumValues(e);
  if (!values) return "";
  const list = values.map((v) => `\`${v}\``).join(", ");
  const each = element ? "each " : "";
  return OPEN_ENUMS.has(e) ? `${each}known values ${list} (others are accepted)` : `${each}one of ${list}`;
}

/**
 * One element of a property that holds many (`rules` -> `rule`). `data` is a mass noun here (a page's entries), not
 * the plural of `datum`.
 */
const singular = (() => {
  const p = pluralize;
  p.addUncountableRule("data");
  return (word: string): string => p.singular(word);
})();

/** The object types of the package, each named for one element after the path that holds it. */
class Types {
  readonly specs: Record<string, ObjectTypeSpec> = {};
  private readonly owners = new Map<string, z.ZodType>();

  /**
   * A property `prop` of the object named `owner`, of schema `s`: its type, and its description with the values
   * of an enum.
   */
  property(s: z.ZodType, owner: string, prop: string, rename: Set<string>, doc = describe(s)): PropertySpec {
    const description = joined(doc && renameFields(doc, rename), valuesNote(s));
    return { ...this.typeOf(s, owner, prop, rename), ...(description ? { description } : {}) };
  }

  /**
   * The type of schema `s`, the value of property `prop` of `owner`: an object is the type `<owner><Prop>`, the
   * element of a list or a map the type `<owner><one Prop>`.
   */
  typeOf(s: z.ZodType, owner: string, prop: string, rename: Set<string>): PropertySpec {
    const inner = peel(s).schema;
    if (enumValues(inner)) return { type: "string" };
    switch (kindOf(inner)) {
      case "string":
        return { type: "string" };
      case "number":
        return { type: isInteger(inner) ? "integer" : "number" };
      case "boolean":
        return { type: "boolean" };
      case "array": {
        const element = elementOf(inner);
        return { type: "array", items: element ? this.typeOf(element, owner, singular(prop), rename) : ANY };
      }
      case "record": {
        const value = recordValueOf(inner);
        return {
          type: "object",
          additionalProperties: value ? this.typeOf(value, owner, singular(prop), rename) : ANY,
        };
      }
      case "object":
        return { $ref: `#/types/${token(this.object(inner, `${owner}${pascal(prop)}`, rename))}` };
      default: {
        // A scalar union (an integer id given as a number or its decimal text) is written as its text.
        const kinds = new Set((unionOptions(inner) ?? []).map(kindOf));
        return kinds.has("string") && !kinds.has("object") ? { type: "string" } : ANY;
      }
    }
  }

  /** The object type `name` of `s` (an object schema, or a union of objects), declared on first use. */
  object(s: z.ZodType, name: string, rename: Set<string>): string {
    const inner = peel(s).schema;
    const owner = this.owners.get(name);
    if (owner === inner) return name;
    if (owner) throw new Error(`schemagen: two different objects would be named ${name}`);
    this.owners.set(name, inner);
    const own = new Set([...rename, ...snakeNames(inner)]);
    const shape = shapeOf(inner) ?? {};
    const spec: ObjectTypeSpec = { type: "object", properties: {} };
    const description = describe(inner);
    if (description) spec.description = renameFields(description, own);
    this.specs[token(name)] = spec;
    for (const [key, field] of Object.entries(shape)) {
      spec.properties[camel(key)] = this.property(field, name, camel(key), own);
    }
    // Members of a union of objects are each optional: which ones are present depends on the option.
    const required = unionOptions(inner)
      ? []
      : Object.entries(shape)
          .filter(([, f]) => !isOptional(f))
          .map(([k]) => camel(k));
    if (required.length) spec.required = required;
    return name;
  }

  /**
   * Fails when an object type would take a name an SDK gives a resource or a function, or their arguments and
   * results: the generated code would not compile, or one name would shadow the other.
   */
  checkNames(resources: readonly string[], functions: readonly string[]): void {
    const taken = new Set([
      ...resources.flatMap((r) => [r, `${r}Args`, `${r}State`]),
      ...functions.flatMap((f) => [`${pascal(f)}Result`, `${pascal(f)}Args`, `${pascal(f)}OutputArgs`]),
    ]);
    for (const name of this.owners.keys()) {
      if (taken.has(name))
        throw new Error(`schemagen: the object type ${name} has a name the SDKs already use`);
    }
  }
}

/** How `pulumi import` names an object of the kind: the resource description's last paragraph. */
export function importDoc(spec: ResourceSpec): string {
  const t = token(spec.name);
  if (spec.singleton) {
    if (!spec.singletonId) throw new Error(`schemagen: singleton ${spec.name} declares no singletonId`);
    return `One per account; its id is ${spec.singletonId}: \`pulumi import ${t} <name> <id>\` adopts it.`;
  }
  // A parent that names the object itself (a peer's peerId) is its id, not part of a composite one.
  const parents = (spec.parents ?? []).filter((p) => p.param !== spec.idParam);
  const own = spec.parents?.find((p) => p.param === spec.idParam);
  if (own) return `Its id is its \`${own.input}\`: \`pulumi import ${t} <name> <${own.input}>\`.`;
  if (!parents.length) return `Import an existing one by its id: \`pulumi import ${t} <name> <id>\`.`;
  const composite = [...parents.map((p) => `<${p.input}>`), "<id>"].join("/");
  return (
    `Import an existing one by its composite id, the id of its parent, a slash and its own id: ` +
    `\`pulumi import ${t} <name> ${composite}\`.`
  );
}

function resource(spec: ResourceSpec, types: Types): ResourceSchemaSpec {
  const inputs = inputFields(spec);
  const outputs = outputFields(spec, inputs);
  const rename = snakeNames(checkSchema(spec));
  const replaced = new Set(inputs.filter((f) => f.replace).map((f) => f.name));
  const property = (f: Field, doc: string): PropertySpec => {
    if (RESERVED.has(f.name)) throw new Error(`schemagen: ${spec.name}.${f.name}: a reserved property name`);
    const type = f.schema
      ? types.property(f.schema, spec.name, f.name, rename, doc)
      : { ...declaredType(spec, f), description: doc };
    return {
      ...type,
      ...(f.secret ? { secret: true } : {}),
      ...(replaced.has(f.name) ? { replaceOnChanges: true } : {}),
    };
  };
  return {
    // The examples go between the text and the import section once the schema is whole (see withExamples).
    description: `${spec.description}\n\n## Import\n\n${importDoc(spec)}`,
    inputProperties: Object.fromEntries(inputs.map((f) => [f.name, property(f, fieldDoc(f, "input"))])),
    requiredInputs: inputs.filter((f) => !f.optional).map((f) => f.name),
    properties: Object.fromEntries(outputs.map((f) => [f.name, property(f, fieldDoc(f, "output"))])),
    required: outputs.filter((f) => !f.optional).map((f) => f.name),
  };
}

/**
 * A component (components/): its inputs from its input schema, as a kind's are (object types named after the
 * component: `Segment.allow` -> `SegmentAllow`), its outputs as it declares them.
 */
function component(spec: ComponentSpec, types: Types): ResourceSchemaSpec {
  const shape = shapeOf(spec.inputs) ?? {};
  const rename = snakeNames(spec.inputs);
  const output = (o: ComponentSpec["outputs"][string]): PropertySpec => ({
    ...(o.type === "string" ? { type: "string" } : { type: "array", items: { type: "string" } }),
    description: o.description,
    ...(o.secret ? { secret: true } : {}),
  });
  return {
    isComponent: true,
    description: spec.description,
    inputProperties: Object.fromEntries(
      Object.entries(shape).map(([k, s]) => [camel(k), types.property(s, spec.name, camel(k), rename)]),
    ),
    requiredInputs: Object.entries(shape)
      .filter(([, s]) => !isOptional(s))
      .map(([k]) => camel(k)),
    properties: Object.fromEntries(Object.entries(spec.outputs).map(([k, o]) => [k, output(o)])),
    required: Object.entries(spec.outputs)
      .filter(([, o]) => !o.optional)
      .map(([k]) => k),
  };
}

/** The schema type of a field without an API schema: a parent id or `adoptId`, or a declared extra output. */
function declaredType(spec: ResourceSpec, f: Field): PropertySpec {
  switch (f.declaredType ?? "string") {
    case "string":
      return { type: "string" };
    case "boolean":
      return { type: "boolean" };
    case "Record<string, unknown>":
      return { type: "object", additionalProperties: ANY };
    default:
      throw new Error(`schemagen: ${spec.name}.${f.name}: no schema type for ${f.declaredType}`);
  }
}

function lookupFunction(spec: LookupSpec, types: Types): FunctionSchemaSpec {
  const notes: string[] = [];
  /** What the function's object types start with (`getGroup` -> `GetGroup`). */
  const owner = pascal(spec.name);
  let inputs: ObjectTypeSpec | undefined;
  if (spec.args) {
    const shape = shapeOf(spec.args) ?? {};
    const options = unionOptions(peel(spec.args).schema);
    const none = new Set<string>();
    inputs = {
      type: "object",
      properties: Object.fromEntries(
        Object.entries(shape).map(([k, s]) => [camel(k), types.property(s, owner, camel(k), none)]),
      ),
    };
    const required = options ? [] : Object.keys(shape).filter((k) => !isOptional(shape[k] as z.ZodType));
    if (required.length) inputs.required = required.map(camel);
    if (options) {
      const sets = options.map((o) =>
        Object.keys(shapeOf(o) ?? {})
          .map((k) => `\`${camel(k)}\``)
          .join(" and "),
      );
      notes.push(`Takes one of: ${sets.join("; or ")}.`);
    }
  }
  const result = spec.result;
  const rename = snakeNames(result.schema);
  let outputs: ObjectTypeSpec;
  if (spec.many) {
    const element = types.object(result.schema, `${owner}Item`, rename);
    outputs = {
      type: "object",
      properties: {
        items: {
          type: "array",
          items: { $ref: `#/types/${token(element)}` },
          description: `The objects found, each a \`${element}\``,
        },
      },
      required: ["items"],
    };
    notes.push("The result's `items` lists the objects found (a function returns one object).");
  } else {
    const shape = shapeOf(result.schema) ?? {};
    outputs = {
      type: "object",
      properties: Object.fromEntries(
        Object.entries(shape).map(([k, s]) => [camel(k), types.property(s, owner, camel(k), rename)]),
      ),
      required: Object.keys(shape)
        .filter((k) => !isOptional(shape[k] as z.ZodType))
        .map(camel),
    };
    const description = describe(result.schema);
    if (description) outputs.description = renameFields(description, rename);
  }
  return { description: [spec.description, ...notes].join("\n\n"), ...(inputs ? { inputs } : {}), outputs };
}

/** The provider's configuration: stack config `privnet:<name>` and the arguments of an explicit provider. */
export const CONFIG: Record<string, PropertySpec> = {
  apiUrl: {
    type: "string",
    description:
      "Base URL of the service's management API, such as `https://api.example.com`. Left out: the environment " +
      `variable \`PRIVNET_API_URL\`, then \`${DEFAULT_API_URL}\` (a local \`privnet-server\`).`,
  },
  token: {
    type: "string",
    secret: true,
    description:
      "Personal access token (or `Bearer <token>`), kept as a secret: `pulumi config set --secret privnet:token " +
      "<token>`. Left out: the environment variable `PRIVNET_TOKEN`.",
  },
  rateLimit: {
    type: "string",
    description:
      "Client-side rate limit, `PER_MIN:BURST` (default `120:1200`, the hosted service's limit) or `off`. Left " +
      "out: the environment variable `PRIVNET_RATE_LIMIT`.",
  },
  batchReads: {
    type: "boolean",
    description:
      "Whether the reads of a refresh share one list request per kind (default true). Left out: the environment " +
      "variable `PRIVNET_BATCH_READS` (`0` or `false` turns it off).",
  },
};

// package.json is ours: its version and license are the package's.
function packageJson(): { version: string; license: string } {
  return JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    version: string;
    license: string;
  };
}

/** An example in each language (YAML: its sections), as a description shows them. */
export function exampleSnippets(renderer: Renderer, e: Example): Record<Language, string> {
  return Object.fromEntries(LANGUAGES.map((l) => [l, renderer.snippet(e, l, stringify)])) as Record<
    Language,
    string
  >;
}

/**
 * Every resource's and function's description with its example (./examples): after the text, before the import
 * section. A kind or a function without one fails here, naming it.
 */
function withExamples(schema: PackageSchema): void {
  const renderer = exampleRenderer(schema);
  const add = (description: string, e: Example): string => {
    const block = examplesSection([exampleBlock(e.title, exampleSnippets(renderer, e))]);
    const [text, imports] = description.split("\n\n## Import\n\n");
    return imports === undefined ? `${text}\n\n${block}` : `${text}\n\n${block}\n\n## Import\n\n${imports}`;
  };
  for (const [tok, r] of Object.entries(schema.resources)) {
    const kind = tok.split(":")[2]!;
    const e = RESOURCE_EXAMPLES[kind];
    if (!e) throw new Error(`schemagen: ${kind}: no example in scripts/examples/resources.ts`);
    r.description = add(r.description, e);
  }
  for (const [tok, f] of Object.entries(schema.functions)) {
    const fn = tok.split(":")[2]!;
    const e = FUNCTION_EXAMPLES[fn];
    if (!e) throw new Error(`schemagen: ${fn}: no example in scripts/examples/functions.ts`);
    f.description = add(f.description, e);
  }
}

/** The package schema. */
export function packageSchema(): PackageSchema {
  const pkg = packageJson();
  const types = new Types();
  const resources = Object.fromEntries([
    ...PROVIDERS.map((p) => [token(p.spec.name), resource(p.spec, types)] as const),
    ...COMPONENTS.map((c) => [token(c.name), component(c, types)] as const),
  ]);
  const functions = Object.fromEntries(LOOKUP_SPECS.map((l) => [token(l.name), lookupFunction(l, types)]));
  types.checkNames(
    [...PROVIDERS.map((p) => p.spec.name), ...COMPONENTS.map((c) => c.name)],
    LOOKUP_SPECS.map((l) => l.name),
  );
  const sorted = Object.fromEntries(Object.entries(types.specs).sort(([a], [b]) => a.localeCompare(b)));
  const schema: PackageSchema = {
    name: PACKAGE,
    displayName: "privnet",
    version: pkg.version,
    description:
      "Manages a private overlay network (peers, groups, access policies, routes, networks, DNS, setup keys, " +
      "users and integrations) through its management API.",
    keywords: ["pulumi", "privnet", "category/network"],
    license: pkg.license,
    meta: { supportPack: true },
    language: {
      python: { packageName: PYTHON_PACKAGE, respectSchemaVersion: true, pyproject: { enabled: true } },
      go: { importBasePath: GO_IMPORT_PATH, respectSchemaVersion: true },
      nodejs: { packageName: "@pulumi-privnet/privnet", respectSchemaVersion: true },
      csharp: { rootNamespace: "PulumiPrivnet", respectSchemaVersion: true },
      // No `buildFiles`: a Gradle build needs the schema's `repository` (POM rules), which the package has not.
      java: { basePackage: "io.github.pulumiprivnet" },
    },
    config: { variables: CONFIG },
    provider: {
      description:
        "The privnet provider: one per account. The default provider takes stack config (`privnet:apiUrl`, " +
        "`privnet:token`, ...), then the environment; an explicit one takes its arguments.",
      inputProperties: CONFIG,
      // The engine keeps a provider's outputs as strings: the string settings only.
      properties: Object.fromEntries(Object.entries(CONFIG).filter(([, p]) => p.type === "string")),
    },
    resources,
    functions,
    types: sorted,
  };
  withExamples(schema);
  return schema;
}

/** plugin/schema.json's text (formatted by the caller). */
export function schemaFiles(): Map<string, string> {
  return new Map([["plugin/schema.json", `${JSON.stringify(packageSchema(), null, 2)}\n`]]);
}
