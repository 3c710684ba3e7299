/**
 * Generates the typed resource classes (sdk/resources/*.ts) and the reference docs (docs/reference/*.md) from the
 * resource specs and the api/ schemas, so types, docs and behaviour cannot drift apart.
 */
import type { z } from "zod";
import { OPEN_ENUMS } from "../api/common";
import { KIND_INPUT } from "../provider/spec";
import { ADOPT_INPUT, canAdopt, checkSchema, inputNames } from "../provider/lifecycle";
import { renameFields, snakeNames } from "../model/mapping";
import { PROVIDERS } from "../provider/registry";
import { camel, describe, isOptional, shapeOf } from "../model/schema";
import type { ResourceSpec } from "../provider/spec";
import { formatted } from "./format";
import { docComment, mdEscape, schemaType } from "./text";

type Mode = "input" | "output";

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

interface Field {
  name: string;
  type: string;
  outputType: string;
  optional: boolean;
  doc: string;
  notes: string[];
}

/** Field descriptions in Pulumi's names (`peer_groups` -> `peerGroups`). */
function pulumiNames(spec: ResourceSpec, text: string | undefined): string {
  return text ? renameFields(text, snakeNames(checkSchema(spec))) : "";
}

function inputFields(spec: ResourceSpec): Field[] {
  const shape = shapeOf(spec.input) ?? {};
  const replace = new Set(spec.replaceOnChange ?? []);
  const secret = new Set(spec.secretInputs ?? []);
  const writeOnly = new Set(spec.writeOnly ?? []);
  const names = new Set(inputNames(spec));
  const fields: Field[] = [];
  for (const p of spec.parents ?? []) {
    fields.push({
      name: p.input,
      type: "string",
      outputType: "string",
      optional: false,
      doc: p.description,
      notes: replace.has(p.input) ? ["replaces on change"] : [],
    });
  }
  for (const [key, s] of Object.entries(shape)) {
    const name = camel(key);
    if (!names.has(name)) continue;
    const notes: string[] = [];
    if (replace.has(name)) notes.push("replaces on change");
    if (secret.has(name)) notes.push("secret");
    if (writeOnly.has(name)) notes.push("write-only: kept from state, the API never returns it");
    const def = spec.defaults?.[name];
    if (def !== undefined && typeof def !== "object") notes.push(`default ${JSON.stringify(def)}`);
    fields.push({
      name,
      type: tsType(s, "input"),
      outputType: tsType(s, "output"),
      optional: isOptional(s) || (spec.defaults !== undefined && name in spec.defaults),
      doc: pulumiNames(spec, describe(s)),
      notes,
    });
  }
  if (canAdopt(spec)) {
    fields.push({
      name: ADOPT_INPUT,
      type: "string",
      outputType: "string",
      optional: true,
      doc:
        `Id of an existing ${spec.name} to bring under management: create reads it and updates it to match ` +
        "these inputs instead of creating a new one. Used at create only",
      notes: [],
    });
  }
  return fields;
}

function outputFields(spec: ResourceSpec, inputs: Field[]): Field[] {
  const byName = new Map(inputs.map((f) => [f.name, f]));
  const fields: Field[] = [];
  const seen = new Set<string>();
  const secretOut = new Set(spec.secretOutputs ?? []);
  for (const [key, s] of Object.entries(shapeOf(spec.output) ?? {})) {
    const name = camel(key);
    if (name === "id") continue;
    seen.add(name);
    const input = byName.get(name);
    fields.push({
      name,
      type: input ? input.outputType : tsType(s, "output"),
      outputType: "",
      optional: input ? input.optional : isOptional(s),
      doc: input?.doc || pulumiNames(spec, describe(s)),
      notes: secretOut.has(name) ? ["secret"] : [],
    });
  }
  for (const f of inputs) {
    if (seen.has(f.name) || f.name === ADOPT_INPUT) continue;
    seen.add(f.name);
    fields.push({ ...f, type: f.outputType, notes: f.notes.filter((n) => n === "secret") });
  }
  for (const [name, x] of Object.entries(spec.extraOutputs ?? {})) {
    if (seen.has(name)) continue;
    fields.push({
      name,
      type: x.type,
      outputType: "",
      optional: true,
      doc: x.description,
      notes: secretOut.has(name) ? ["secret"] : [],
    });
  }
  return fields;
}

/** The sdk class of one resource kind. */
export function resourceSource(spec: ResourceSpec): string {
  const inputs = inputFields(spec);
  const outputs = outputFields(spec, inputs);
  const secrets = [...new Set([...(spec.secretOutputs ?? []), ...(spec.secretInputs ?? [])])];
  const argsLines = inputs
    .map((f) => {
      const notes = f.notes.length ? ` (${f.notes.join("; ")})` : "";
      return `${docComment(`${f.doc}${notes}`)}${f.name}${f.optional ? "?" : ""}: pulumi.Input<${f.type}>;`;
    })
    .join("\n");
  const outLines = outputs
    .map(
      (f) =>
        `${docComment(`${f.doc}${f.notes.length ? ` (${f.notes.join("; ")})` : ""}`)}declare readonly ${f.name}: pulumi.Output<${f.type}${f.optional ? " | undefined" : ""}>;`,
    )
    .join("\n");
  const outKeys = outputs.map((f) => `  ${f.name}: undefined,`).join("\n");
  const stateLines = outputs
    .map((f) => `${docComment(f.doc)}${f.name}?: pulumi.Input<${f.type}>;`)
    .join("\n");
  const parents = spec.parents ?? [];
  const getDoc = parents.length
    ? `The id is the ${spec.name}'s own id with its ${parents.map((p) => `\`${p.input}\``).join(", ")} in \`state\`, or ` +
      `the composite id \`${[...parents.map((p) => `<${p.input}>`), "<id>"].join("/")}\`.`
    : "";
  const secretWraps = (spec.secretInputs ?? [])
    .map((n) => `    ${n}: args.${n} === undefined ? undefined : pulumi.secret(args.${n}),`)
    .join("\n");
  return `// Generated by \`npm run gen\` from provider/resources/${spec.file}.ts and the api/ schemas. Do not edit.
import * as pulumi from "@pulumi/pulumi";
import provider = require("../../provider/entry");
import { ownerInput } from "../owner";

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
 */
export class ${spec.name} extends pulumi.dynamic.Resource {
  /** The resource's type token. */
  static readonly __pulumiType = "pulumi-nodejs:dynamic/privnet:${spec.name}";

${outLines}

  constructor(name: string, args: ${spec.name}Args, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...OUTPUTS,
      ...args,
${secretWraps}
      ${KIND_INPUT}: "${spec.name}",
      // Which stack and resource a create is for: an object an interrupted run created is taken over.
      ...ownerInput(name, "${spec.name}", opts),
    };
    super(provider, name, props, withSecrets(opts, ${JSON.stringify(secrets)}), "privnet", "${spec.name}");
  }

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

function withSecrets(opts: pulumi.CustomResourceOptions | undefined, secrets: string[]): pulumi.CustomResourceOptions {
  if (!secrets.length) return opts ?? {};
  return { ...opts, additionalSecretOutputs: [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secrets])] };
}
`;
}

/** The reference page of one resource kind. */
export function resourceDoc(spec: ResourceSpec): string {
  const inputs = inputFields(spec);
  const outputs = outputFields(spec, inputs);
  const row = (f: Field, withRequired: boolean) =>
    `| \`${f.name}\` | \`${mdEscape(f.type.replace(/pulumi\.Input<([^<>]*)>/g, "$1"))}\` |${withRequired ? ` ${f.optional ? "no" : "yes"} |` : ""} ${mdEscape(f.doc)}${f.notes.length ? ` _(${f.notes.join("; ")})_` : ""} |`;
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
${inputs.map((f) => row(f, true)).join("\n")}

## Outputs

All inputs are also outputs. Besides them:

| Property | Type | Description |
|---|---|---|
${outputs
  .filter((f) => !inputs.some((i) => i.name === f.name))
  .map((f) => row(f, false))
  .join("\n")}
`;
}

/** Every generated sdk/doc file: path -> content, formatted. */
export async function sdkFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const specs = PROVIDERS.map((p) => p.spec);
  for (const spec of specs) {
    files.set(`sdk/resources/${spec.file}.ts`, resourceSource(spec));
    files.set(`docs/reference/resources/${spec.file}.md`, resourceDoc(spec));
    if (pascalToKebab(spec.name) !== spec.file)
      throw new Error(`${spec.name}: file should be ${pascalToKebab(spec.name)}`);
  }
  files.set(
    "sdk/resources/index.ts",
    `// Generated by \`npm run gen\` from provider/registry.ts. Do not edit.\n${specs
      .map((s) => `export { ${s.name}, type ${s.name}Args } from "./${s.file}";`)
      .join("\n")}\n`,
  );
  return formatted(files);
}
