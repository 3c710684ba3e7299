/**
 * Generates the typed resource classes (sdk/resources/*.ts) and the reference docs (docs/reference/*.md) from the
 * resource specs and the api/ schemas, so types, docs and behaviour cannot drift apart.
 */
import type { z } from "zod";
import { OPEN_ENUMS } from "../api/common";
import { COMPONENTS } from "../components/registry";
import type { ComponentSpec } from "../components/spec";
import { KIND_INPUT } from "../provider/spec";
import { formerNamesOf, PROVIDERS } from "../provider/registry";
import { deprecationOf } from "../provider/lifecycle";
import { TYPE_PREFIX, token } from "../model/hidden-inputs";
import { camel, describe, isOptional, shapeOf } from "../model/schema";
import { renameFields, snakeNames } from "../model/mapping";
import type { ResourceSpec } from "../provider/spec";
import { fieldDoc, fieldNotes, inputFields, outputFields, type Field } from "./fields";
import { formatted } from "./format";
import { docComment, mdEscape, schemaType } from "./text";

type Mode = "input" | "output";

/** The type prefix of the classes through the resource plugin (the dynamic providers' is TYPE_PREFIX). */
const PLUGIN_PREFIX = token("");

/** TypeScript type of a schema's value, camelCase keys; inputs wrap members in pulumi.Input. */
export function tsType(schema: z.ZodType, mode: Mode): string {
  return schemaType(schema, {
    ...(mode === "input" ? { wrap: (t: string) => `pulumi.Input<${t}>` } : {}),
    // An open set (the spec shows some values): the known ones for completion, any other string accepted.
    open: (s) => OPEN_ENUMS.has(s),
    doc: describe,
    nullable: false,
    parenthesize: (_, type) => type.includes("|"),
  });
}

function pascalToKebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/** The TypeScript type of a field: its schema's, a declared one, or a plain string (parent ids, adoptId). */
function fieldType(f: Field, mode: Mode): string {
  return f.schema ? tsType(f.schema, mode) : (f.declaredType ?? "string");
}

/** What both classes of a kind declare: output properties, their names, the secret inputs' wrapping. */
function classParts(spec: ResourceSpec) {
  const inputs = inputFields(spec);
  const outputs = outputFields(spec, inputs);
  const outLines = outputs
    .map(
      (f) =>
        `${docComment(fieldDoc(f, "output"))}declare readonly ${f.name}: pulumi.Output<${fieldType(f, "output")}${f.optional ? " | undefined" : ""}>;`,
    )
    .join("\n");
  const outKeys = outputs.map((f) => `  ${f.name}: undefined,`).join("\n");
  const secretWraps = (spec.secretInputs ?? [])
    .map((n) => `    ${n}: args.${n} === undefined ? undefined : pulumi.secret(args.${n}),`)
    .join("\n");
  const parents = spec.parents ?? [];
  const getDoc = parents.length
    ? `The id is the ${spec.name}'s own id with its ${parents.map((p) => `\`${p.input}\``).join(", ")} in \`state\`, or ` +
      `the composite id \`${[...parents.map((p) => `<${p.input}>`), "<id>"].join("/")}\`.`
    : "";
  const secrets = [...new Set([...(spec.secretOutputs ?? []), ...(spec.secretInputs ?? [])])];
  return { inputs, outputs, outLines, outKeys, secretWraps, getDoc, secrets };
}

/**
 * The types a kind's class names as aliases: for a kind with earlier names, each earlier type (`prefix` + name), so
 * that a resource moved from a deprecated kind is the same resource; through the plugin (`privnet:index:`), also the
 * dynamic providers' types of the kind and of its earlier names, so that a TypeScript stack made with
 * `pulumi-privnet`'s classes moves to `pulumi-privnet/plugin`'s in place (docs/plugin.md).
 */
function aliasTypesOf(spec: ResourceSpec, prefix: string): string[] {
  const former = formerNamesOf(spec);
  const types = former.map((n) => `${prefix}${n}`);
  if (prefix === PLUGIN_PREFIX) types.push(...[spec.name, ...former].map((n) => `${TYPE_PREFIX}${n}`));
  return types;
}

/** The options a kind's constructor registers with: its secrets and its aliases ({@link aliasTypesOf}). */
function optionsOf(spec: ResourceSpec, prefix: string, secrets: string[]): string {
  const types = aliasTypesOf(spec, prefix);
  const opts = types.length ? `withAliases(opts, ${JSON.stringify(types)})` : "opts";
  return `withSecrets(${opts}, ${JSON.stringify(secrets)})`;
}

/** The class comment's deprecation line (empty for a kind in use). */
function deprecatedTag(spec: ResourceSpec): string {
  return spec.deprecatedBy
    ? `\n *\n * @deprecated ${spec.name}: ${deprecationOf(spec).replace(/\*\//g, "*\\/")}`
    : "";
}

/** The import of the options helpers (sdk/resource-options.ts) a kind's class uses. */
function optionsImport(spec: ResourceSpec, prefix: string): string {
  const names = aliasTypesOf(spec, prefix).length ? "withAliases, withSecrets" : "withSecrets";
  return `import { ${names} } from "../resource-options";`;
}

/**
 * The constructor's body: the registered properties (`props`, which may make outputs: secret inputs, the owner of
 * a child resource) and the `super(...)` call, both made without per-promise stack traces (sdk/quiet-stacks.ts).
 */
function registration(props: string, superArgs: string): string {
  return `    // Registered without per-promise stack traces: see sdk/quiet-stacks.ts.
    const limit = quietStacks();
    try {
      const props = {
${props}
      };
      super(${superArgs});
    } catch (err) {
      throw restoreStacks(limit, err, new.target);
    }
    restoreStacks(limit);
`;
}

/** What both classes of a kind end with: \`get\` and \`isInstance\`. */
function classTail(spec: ResourceSpec, getDoc: string): string {
  return `
  /**
   * Reads an existing ${spec.name} into the program without managing it (the engine calls read only; destroy
   * leaves it). ${getDoc}
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: ${spec.name}State, opts?: pulumi.CustomResourceOptions): ${spec.name} {
    return new ${spec.name}(name, (state ?? {}) as ${spec.name}Args, { ...opts, id });
  }

  /** True when \`obj\` is a ${spec.name}, also one made by another copy of this package. */
  static override isInstance(obj: unknown): obj is ${spec.name} {
    return typeof obj === "object" && obj !== null && (obj as { __pulumiType?: unknown }).__pulumiType === ${spec.name}.__pulumiType;
  }
}
`;
}

/**
 * The class of one resource kind through the resource plugin (`pulumi-privnet/plugin`): a plain CustomResource of
 * type `privnet:index:<Kind>`, served by bin/pulumi-resource-privnet. Same arguments (imported from the default
 * class's module) and outputs; no dynamic provider, so no `__provider`, `__kind` or owner input: the plugin gets
 * the resource's URN and kind from the engine.
 */
export function pluginResourceSource(spec: ResourceSpec): string {
  const { outLines, outKeys, secretWraps, getDoc, secrets } = classParts(spec);
  return `// Generated by \`npm run gen\` from provider/resources/${spec.file}.ts and the api/ schemas. Do not edit.
import * as pulumi from "@pulumi/pulumi";
import type { ${spec.name}Args, ${spec.name}State } from "../resources/${spec.file}";
import { quietStacks, restoreStacks } from "../quiet-stacks";
${optionsImport(spec, PLUGIN_PREFIX)}

export type { ${spec.name}Args, ${spec.name}State };

/** Output property names, registered so the engine fills them in. */
const OUTPUTS = {
${outKeys}
};

/**
 * ${spec.description.replace(/\*\//g, "*\\/")}
 *
 * Through the resource plugin: the program's Pulumi.yaml names it (\`plugins.providers\`, see the README).${deprecatedTag(spec)}
 */
export class ${spec.name} extends pulumi.CustomResource {
  /** The resource's type token. */
  static readonly __pulumiType = "privnet:index:${spec.name}";

${outLines}

  constructor(name: string, args: ${spec.name}Args, opts?: pulumi.CustomResourceOptions) {
${registration(
  `      ...OUTPUTS,
      ...args,
${secretWraps}`,
  `${spec.name}.__pulumiType, name, props, ${optionsOf(spec, PLUGIN_PREFIX, secrets)}`,
)}  }
${classTail(spec, getDoc)}`;
}

/** The sdk class of one resource kind. */
export function resourceSource(spec: ResourceSpec): string {
  const { inputs, outputs, outLines, outKeys, secretWraps, getDoc, secrets } = classParts(spec);
  const argsLines = inputs
    .map(
      (f) =>
        `${docComment(fieldDoc(f, "input"))}${f.name}${f.optional ? "?" : ""}: pulumi.Input<${fieldType(f, "input")}>;`,
    )
    .join("\n");
  const stateLines = outputs
    .map((f) => `${docComment(f.doc)}${f.name}?: pulumi.Input<${fieldType(f, "output")}>;`)
    .join("\n");
  return `// Generated by \`npm run gen\` from provider/resources/${spec.file}.ts and the api/ schemas. Do not edit.
import * as pulumi from "@pulumi/pulumi";
import { ownerInput } from "../owner";
import { quietStacks, restoreStacks } from "../quiet-stacks";
${optionsImport(spec, TYPE_PREFIX)}
import { PROVIDER_PROPERTY, SERIALIZED_PROVIDER } from "../serialized-provider";

/** Arguments of {@link ${spec.name}}. */
export interface ${spec.name}Args {
${argsLines}
}

/** What is known of an existing {@link ${spec.name}}: every output, each optional (see {@link ${spec.name}.get}). */
export interface ${spec.name}State {
${stateLines}
}

/** Output property names, registered so the engine fills them in. */
const OUTPUTS = {
${outKeys}
};

/**
 * ${spec.description.replace(/\*\//g, "*\\/")}
 *
 * A dynamic resource (type \`pulumi-nodejs:dynamic/privnet:${spec.name}\`) served by the package's provider entry,
 * \`pulumi-privnet/provider\`, which the resource names in its serialized form (sdk/serialized-provider.ts).${deprecatedTag(spec)}
 */
export class ${spec.name} extends pulumi.CustomResource {
  /** The resource's type token. */
  static readonly __pulumiType = "pulumi-nodejs:dynamic/privnet:${spec.name}";

${outLines}

  constructor(name: string, args: ${spec.name}Args, opts?: pulumi.CustomResourceOptions) {
${registration(
  `      ...OUTPUTS,
      ...args,
${secretWraps}
      ${KIND_INPUT}: "${spec.name}",
      // Which stack and resource a create is for: an object an interrupted run created is taken over.
      ...ownerInput(name, "${spec.name}", opts),
      // The provider, as \`pulumi.dynamic.Resource\` would serialize it (see sdk/serialized-provider.ts).
      [PROVIDER_PROPERTY]: SERIALIZED_PROVIDER,`,
  `${spec.name}.__pulumiType, name, props, ${optionsOf(spec, TYPE_PREFIX, secrets)}`,
)}  }
${classTail(spec, getDoc)}`;
}

/** The reference page of one resource kind. */
export function resourceDoc(spec: ResourceSpec): string {
  const inputs = inputFields(spec);
  const outputs = outputFields(spec, inputs);
  const row = (f: Field, kind: "input" | "output") => {
    const notes = fieldNotes(f, kind);
    const type = fieldType(f, kind).replace(/pulumi\.Input<([^<>]*)>/g, "$1");
    const required = kind === "input" ? ` ${f.optional ? "no" : "yes"} |` : "";
    return `| \`${f.name}\` | \`${mdEscape(type)}\` |${required} ${mdEscape(f.doc)}${notes.length ? ` _(${notes.join("; ")})_` : ""} |`;
  };
  return `<!-- Generated by \`npm run gen\` from provider/resources/${spec.file}.ts. Do not edit. -->
# ${spec.name}

${spec.description}

\`\`\`ts
import * as privnet from "pulumi-privnet";
const x = new privnet.${spec.name}("name", { /* inputs below */ });
\`\`\`

Type token: \`pulumi-nodejs:dynamic/privnet:${spec.name}\`. API operations: ${Object.entries(spec.ops)
    .map(([k, v]) => `${k} \`${v}\``)
    .join(", ")}.

## Inputs

| Property | Type | Required | Description |
|---|---|---|---|
${inputs.map((f) => row(f, "input")).join("\n")}

## Outputs

All inputs are also outputs. Besides them:

| Property | Type | Description |
|---|---|---|
${outputs
  .filter((f) => !inputs.some((i) => i.name === f.name))
  .map((f) => row(f, "output"))
  .join("\n")}
`;
}

/** A component's input fields as TypeScript `Args` members, in Pulumi's names. */
function componentArgs(spec: ComponentSpec): string {
  const names = snakeNames(spec.inputs);
  return Object.entries(shapeOf(spec.inputs) ?? {})
    .map(([key, s]) => {
      const doc = describe(s);
      return `${docComment(doc && renameFields(doc, names))}${camel(key)}${isOptional(s) ? "?" : ""}: pulumi.Input<${tsType(s, "input")}>;`;
    })
    .join("\n");
}

/** A component's outputs as the class's members. */
function componentOutputs(spec: ComponentSpec, declare: boolean): string {
  return Object.entries(spec.outputs)
    .map(([k, o]) => {
      const type = `${o.type}${o.optional ? " | undefined" : ""}`;
      const doc = docComment(o.description);
      return `${doc}${declare ? "declare " : ""}readonly ${k}: pulumi.Output<${type}>;`;
    })
    .join("\n");
}

const componentSecrets = (spec: ComponentSpec) =>
  Object.entries(spec.outputs)
    .filter(([, o]) => o.secret)
    .map(([k]) => k);

/**
 * The class of a component for programs on the dynamic providers (`pulumi-privnet`): a ComponentResource whose
 * children are the kinds' classes of `pulumi-privnet`, declared by components/build.ts from the component's
 * definition, the same code the resource plugin's Construct runs.
 */
export function componentSource(spec: ComponentSpec): string {
  const assigns = Object.entries(spec.outputs)
    .map(
      ([k, o]) =>
        `    this.${k} = pulumi.output(data.then((d) => d.${k})) as pulumi.Output<${o.type}${o.optional ? " | undefined" : ""}>;`,
    )
    .join("\n");
  const constName = spec.name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
  return `// Generated by \`npm run gen\` from components/${spec.file}.ts and the api/ schemas. Do not edit.
import * as pulumi from "@pulumi/pulumi";
import { buildComponent } from "../../components/build";
import { ${constName} } from "../../components/${spec.file}";
import { CHILD_CLASSES } from "./children";

/** Arguments of {@link ${spec.name}}. */
export interface ${spec.name}Args {
${componentArgs(spec)}
}

/** The arguments of the component being made, for its \`initialize\` (which runs inside the base constructor). */
const PENDING = new WeakMap<object, ${spec.name}Args>();

/**
 * ${spec.description.replace(/\*\//g, "*\\/").replace(/\n/g, "\n * ")}
 */
export class ${spec.name} extends pulumi.ComponentResource<Record<string, unknown>> {
  /** The component's type token (the same through the resource plugin). */
  static readonly __pulumiType = "privnet:index:${spec.name}";

${componentOutputs(spec, false)}

  constructor(name: string, args: ${spec.name}Args, opts?: pulumi.ComponentResourceOptions) {
    // The inputs go to the children, not into the component's own state (as through the resource plugin): an
    // entry moved in a list, which changes no child, shows no change at all.
    const state = {};
    PENDING.set(state, args);
    super(${spec.name}.__pulumiType, name, state, opts);
    // Known once the children are declared (see initialize).
    const data = this.getData();
${assigns}
  }

  /** Declares the children (components/build.ts) and registers the outputs; runs as the component is made. */
  protected override async initialize(
    state: pulumi.Inputs,
    _opts?: pulumi.ComponentResourceOptions,
    name?: string,
  ): Promise<Record<string, unknown>> {
    const args = (PENDING.get(state) ?? {}) as pulumi.Inputs;
    const outputs = await buildComponent(${constName}, this, name ?? "", args, CHILD_CLASSES);
    this.registerOutputs(outputs);
    return outputs;
  }

  /** True when \`obj\` is a ${spec.name}, also one made by another copy of this package. */
  static override isInstance(obj: unknown): obj is ${spec.name} {
    return typeof obj === "object" && obj !== null && (obj as { __pulumiType?: unknown }).__pulumiType === ${spec.name}.__pulumiType;
  }
}
`;
}

/**
 * The class of a component through the resource plugin (\`pulumi-privnet/plugin\`): a remote ComponentResource of
 * type \`privnet:index:<Name>\`, which the plugin's Construct makes (plugin/construct.ts), as a YAML, Python or Go
 * program's does. Same arguments as the class of \`pulumi-privnet\`.
 */
export function pluginComponentSource(spec: ComponentSpec): string {
  const outKeys = Object.keys(spec.outputs)
    .map((k) => `  ${k}: undefined,`)
    .join("\n");
  const secrets = componentSecrets(spec);
  return `// Generated by \`npm run gen\` from components/${spec.file}.ts and the api/ schemas. Do not edit.
import * as pulumi from "@pulumi/pulumi";
import type { ${spec.name}Args } from "../components/${spec.file}";

export type { ${spec.name}Args };

/** Output property names, registered so the engine fills them in. */
const OUTPUTS = {
${outKeys}
};

/**
 * ${spec.description.replace(/\*\//g, "*\\/").replace(/\n/g, "\n * ")}
 *
 * Through the resource plugin: the program's Pulumi.yaml names it (\`plugins.providers\`, see the README); the
 * plugin makes the children.
 */
export class ${spec.name} extends pulumi.ComponentResource {
  /** The component's type token. */
  static readonly __pulumiType = "privnet:index:${spec.name}";

${componentOutputs(spec, true)}

  constructor(name: string, args: ${spec.name}Args, opts?: pulumi.ComponentResourceOptions) {
    // Secret outputs are marked as a generated SDK marks them (the plugin's answer marks them too).
    const options = { ...opts, additionalSecretOutputs: ${JSON.stringify(secrets)} } as pulumi.ComponentResourceOptions;
    super(${spec.name}.__pulumiType, name, { ...OUTPUTS, ...args }, options, true);
  }

  /** True when \`obj\` is a ${spec.name}, also one made by another copy of this package. */
  static override isInstance(obj: unknown): obj is ${spec.name} {
    return typeof obj === "object" && obj !== null && (obj as { __pulumiType?: unknown }).__pulumiType === ${spec.name}.__pulumiType;
  }
}
`;
}

/** `network-resource` -> `networkResource`: the name a generated index gives a module's types. */
function moduleAlias(file: string): string {
  return file.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * An index of classes, one module each, that loads a class's module when a program first uses the class
 * (sdk/utilities.ts's lazyLoad, the shape of Pulumi's generated SDKs): `import * as privnet from "pulumi-privnet"`
 * then loads nothing of the kinds, and `new privnet.Group(...)` loads the Group class alone. Names and types are
 * those of the modules: each class is a type (its instances) and a value (`typeof` the module's class), and its
 * `Args` type is re-exported.
 */
function lazyIndex(from: string, classes: { name: string; file: string }[]): string {
  const types = classes.map((c) => `import type * as ${moduleAlias(c.file)} from "./${c.file}";`).join("\n");
  const entries = classes
    .map(
      (c) => `export type { ${c.name}Args } from "./${c.file}";
export type ${c.name} = ${moduleAlias(c.file)}.${c.name};
export declare const ${c.name}: typeof ${moduleAlias(c.file)}.${c.name};
lazyLoad(exports, ["${c.name}"], () => require("./${c.file}"));`,
    )
    .join("\n\n");
  return `// Generated by \`npm run gen\` from ${from}. Do not edit.
// Each class loads when a program first uses it (see sdk/utilities.ts).
import { lazyLoad } from "../utilities";
${types}

${entries}
`;
}

/**
 * provider/kind-modules.ts: each kind's provider module by kind name, loaded when a call for the kind first comes.
 * The provider entry (pulumi-privnet/provider, in the dynamic-provider host) and the resource plugin dispatch by
 * it, so a process that serves groups loads the Group spec and its API schemas, not every kind's.
 */
function kindModulesSource(specs: ResourceSpec[]): string {
  const entries = specs.map((s) => `  ${s.name}: () => require("./resources/${s.file}"),`).join("\n");
  return `// Generated by \`npm run gen\` from provider/registry.ts. Do not edit.
import type { PrivnetProvider } from "./lifecycle";

/** Each kind's provider (its module under ./resources), loaded by the first call that needs it. */
export const KIND_MODULES: Readonly<Record<string, () => PrivnetProvider>> = {
${entries}
};
`;
}

/** Every generated sdk/doc file: path -> content, formatted. */
export async function sdkFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const specs = PROVIDERS.map((p) => p.spec);
  for (const spec of specs) {
    files.set(`sdk/resources/${spec.file}.ts`, resourceSource(spec));
    files.set(`sdk/plugin/${spec.file}.ts`, pluginResourceSource(spec));
    files.set(`docs/reference/resources/${spec.file}.md`, resourceDoc(spec));
    if (pascalToKebab(spec.name) !== spec.file)
      throw new Error(`${spec.name}: file should be ${pascalToKebab(spec.name)}`);
  }
  files.set(
    "sdk/resources/index.ts",
    lazyIndex(
      "provider/registry.ts",
      specs.map((s) => ({ name: s.name, file: s.file })),
    ),
  );
  files.set(
    "sdk/plugin/resources.ts",
    lazyIndex(
      "provider/registry.ts and components/registry.ts",
      [...specs, ...COMPONENTS].map((s) => ({ name: s.name, file: s.file })),
    ),
  );
  files.set("provider/kind-modules.ts", kindModulesSource(specs));
  for (const c of COMPONENTS) {
    files.set(`sdk/components/${c.file}.ts`, componentSource(c));
    files.set(`sdk/plugin/${c.file}.ts`, pluginComponentSource(c));
  }
  files.set(
    "sdk/components/index.ts",
    lazyIndex(
      "components/registry.ts",
      COMPONENTS.map((c) => ({ name: c.name, file: c.file })),
    ),
  );
  return formatted(files);
}
