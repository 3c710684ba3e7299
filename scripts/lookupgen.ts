/**
 * Generates the lookup functions (sdk/lookups/functions.ts), their argument and result types
 * (sdk/lookups/types.ts) and their reference page (docs/reference/lookups.md) from the lookup table
 * (sdk/lookups/table.ts) and the api/ schemas, so signatures, types and docs cannot drift apart.
 *
 * The TypeScript is formatted with prettier on the way out (scripts/format.ts); only the doc comments are wrapped
 * here, as prettier leaves comments alone.
 */
import type { z } from "zod";
import { renameFields, snakeNames } from "../model/mapping";
import {
  camel,
  describe,
  elementOf,
  enumValues,
  isOptional,
  kindOf,
  peel,
  recordValueOf,
  shapeOf,
} from "../model/schema";
import { unionOptions, zodKind } from "../model/zod";
import {
  argsOptional,
  argsTypeName,
  infoOf,
  parameterList,
  returnType,
  type LookupSpec,
  type ResultType,
} from "../sdk/lookups/spec";
import { LOOKUP_SPECS, NESTED_TYPES } from "../sdk/lookups/table";
import { formatted } from "./format";

const WIDTH = 110;

/** True when the type of `s` is written as a union (so an array of it needs parentheses). */
function isUnion(s: z.ZodType): boolean {
  const { schema, nullable } = peel(s);
  const values = enumValues(schema);
  return nullable || (values !== undefined && values.length > 1) || zodKind(schema) === "union";
}

function comment(text: string | undefined, indent: string): string {
  return text ? `${indent}/** ${text.replace(/\*\//g, "*\\/")} */\n` : "";
}

/** Renders TypeScript types of API values with camelCase keys, naming the schemas in `named`. */
class TypeWriter {
  constructor(
    private readonly named: Map<z.ZodType, string>,
    /** snake_case field names, rewritten to camelCase in descriptions. */
    private readonly snake: Set<string>,
  ) {}

  doc(s: z.ZodType): string | undefined {
    const d = describe(s);
    return d ? renameFields(d, this.snake) : undefined;
  }

  /** The type of `s`; multi-line object types are indented for a member at `indent`. */
  type(s: z.ZodType, indent: string): string {
    const { schema, nullable } = peel(s);
    const t = this.bare(schema, indent);
    return nullable ? `${t} | null` : t;
  }

  private bare(s: z.ZodType, indent: string): string {
    const name = this.named.get(s);
    if (name) return name;
    const values = enumValues(s);
    if (values) return values.map((v) => JSON.stringify(v)).join(" | ");
    const kind = kindOf(s);
    switch (kind) {
      case "string":
      case "number":
      case "boolean":
        return kind;
      case "array": {
        const element = elementOf(s) as z.ZodType;
        const inner = this.type(element, indent);
        return isUnion(element) ? `(${inner})[]` : `${inner}[]`;
      }
      case "record": {
        const valueSchema = recordValueOf(s) as z.ZodType;
        const value = this.type(valueSchema, `${indent}  `);
        return `Record<string, ${value}>`;
      }
      case "object":
        return `{\n${this.members(s, `${indent}  `)}\n${indent}}`;
      default: {
        const options = unionOptions(s);
        if (options) return [...new Set(options.map((o) => this.type(o, indent)))].join(" | ");
        return "unknown";
      }
    }
  }

  /** The members of an object type, one per line with their descriptions, at `indent`. */
  members(s: z.ZodType, indent: string): string {
    return Object.entries(shapeOf(s) ?? {})
      .map(([key, field]) => {
        const head = `${indent}${camel(key)}${isOptional(field) ? "?" : ""}:`;
        const type = this.type(field, indent);
        return `${comment(this.doc(field), indent)}${head} ${type};`;
      })
      .join("\n");
  }
}

/** Every named result type, in table order, checked for one schema per name. */
function resultTypes(): ResultType[] {
  const byName = new Map<string, ResultType>();
  for (const t of [...LOOKUP_SPECS.map((s) => s.result), ...NESTED_TYPES]) {
    const seen = byName.get(t.name);
    if (seen && seen.schema !== t.schema) throw new Error(`lookupgen: two schemas named ${t.name}`);
    byName.set(t.name, t);
  }
  return [...byName.values()];
}

function namedMap(): Map<z.ZodType, string> {
  return new Map(resultTypes().map((t) => [t.schema, t.name]));
}

/** The declaration of an arguments type: an interface, or a union type for "one of" arguments. */
function argsDeclaration(spec: LookupSpec, named: Map<z.ZodType, string>): string {
  const args = spec.args as z.ZodType;
  const w = new TypeWriter(named, snakeNames(args));
  const name = argsTypeName(spec.name);
  const options = unionOptions(args);
  const head = `/** Arguments of {@link ${spec.name}}${options ? ": one of these" : ""}. */\n`;
  if (options) {
    const members = options.map((o) => `  | {\n${w.members(o, "      ")}\n    }`);
    return `${head}export type ${name} =\n${members.join("\n")};\n`;
  }
  return `${head}export interface ${name} {\n${w.members(args, "  ")}\n}\n`;
}

function resultDeclaration(t: ResultType, named: Map<z.ZodType, string>): string {
  const own = new Map(named);
  own.delete(t.schema);
  const w = new TypeWriter(own, snakeNames(t.schema));
  return `${comment(w.doc(t.schema), "")}export interface ${t.name} {\n${w.members(t.schema, "  ")}\n}\n`;
}

const HEADER = "// Generated by `npm run gen` from sdk/lookups/table.ts and the api/ schemas. Do not edit.\n";

/** sdk/lookups/types.ts: the argument and result types. */
export function typesSource(): string {
  const named = namedMap();
  const args = LOOKUP_SPECS.filter((s) => s.args && !s.positional).map((s) => argsDeclaration(s, named));
  const results = resultTypes().map((t) => resultDeclaration(t, named));
  const inputs = `import type * as pulumi from "@pulumi/pulumi";

/** The arguments of a lookup's Output form: each member may be a value, a promise or an output. */
export type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };
`;
  return `${HEADER}${inputs}\n${[...args, ...results].join("\n")}`;
}

function docLines(spec: LookupSpec): string[] {
  const info = infoOf(spec);
  const lines = [spec.description, "", `Calls ${info.operations.map((o) => `\`${o}\``).join(", ")}.`];
  if (info.cloudOnly) lines.push("Available in the cloud offering only.");
  if (info.embeddedIdpOnly) lines.push("Available with the embedded identity provider only.");
  lines.push("");
  if (spec.positional && spec.args) {
    const field = shapeOf(spec.args)?.[spec.positional] as z.ZodType;
    lines.push(`@param ${spec.positional} - ${describe(field) ?? ""}`);
  } else if (spec.args) {
    lines.push(`@param args - See {@link ${argsTypeName(spec.name)}}.`);
  }
  lines.push(
    "@param opts - Invoke options (`provider`, `parent`) and an API URL and token; by default the provider's, " +
      "else stack config, then the environment.",
  );
  lines.push(`@returns ${spec.many ? "An array of " : ""}{@link ${spec.result.name}}.`);
  return lines;
}

function wrapDoc(text: string, indent: string): string[] {
  // TSDoc lines are wrapped at the print width (prettier leaves comments alone; this keeps them readable).
  const out: string[] = [];
  for (const para of text.split("\n")) {
    if (para === "") {
      out.push("");
      continue;
    }
    let line = "";
    for (const word of para.split(" ")) {
      if (line && `${indent} * ${line} ${word}`.length > WIDTH) {
        out.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(line);
  }
  return out;
}

/** A function declaration (prettier lays out its parameters). */
function declaration(name: string, params: string[], ret: string, body: string): string {
  return `export function ${name}(${params.join(", ")}): ${ret} {\n${body}\n}\n`;
}

/** The lookup in its two forms: `getX(args, opts)` -> Promise and `getXOutput(inputs, opts)` -> Output. */
function functionSource(spec: LookupSpec): string {
  const params = parameterList(spec);
  const ret = returnType(spec);
  const resultT = `${spec.result.name}${spec.many ? "[]" : ""}`;
  const withDefault =
    spec.args && !spec.positional && argsOptional(spec)
      ? params.replace("args?:", "args:") + " = {}"
      : params;
  const argExpr = !spec.args ? "undefined" : spec.positional ? `{ ${spec.positional} }` : "args";
  const doc = docLines(spec)
    .flatMap((l) => wrapDoc(l, ""))
    .map((l) => (l ? ` * ${l}` : " *"));
  const promiseForm = declaration(
    spec.name,
    [withDefault, "opts?: LookupOptions"].filter(Boolean),
    ret,
    `  return runLookup<${resultT}>(${JSON.stringify(spec.name)}, ${argExpr}, opts);`,
  );
  // The Output form takes inputs (values, promises or outputs) and waits for them.
  const outputParams = !spec.args
    ? ""
    : spec.positional
      ? params.replace(/: (.+)$/, ": pulumi.Input<$1>")
      : `args${argsOptional(spec) ? "?" : ""}: Inputs<${argsTypeName(spec.name)}>`;
  const outputDefault =
    spec.args && !spec.positional && argsOptional(spec)
      ? outputParams.replace("args?:", "args:") + " = {}"
      : outputParams;
  const outputForm = declaration(
    `${spec.name}Output`,
    [outputDefault, "opts?: LookupOptions"].filter(Boolean),
    `pulumi.Output<${resultT}>`,
    `  return runLookupOutput<${resultT}>(${JSON.stringify(spec.name)}, ${argExpr}, opts);`,
  );
  const outputDoc = wrapDoc(
    `The Output form of {@link ${spec.name}}: takes inputs (outputs of other resources too), runs once they are ` +
      "known, and yields an unknown value while they are not (in a preview).",
    "",
  ).map((l) => ` * ${l}`);
  return `/**\n${doc.join("\n")}\n */\n${promiseForm}\n/**\n${outputDoc.join("\n")}\n */\n${outputForm}`;
}

/** sdk/lookups/functions.ts: one typed function per lookup. */
export function functionsSource(): string {
  const typeNames = new Set<string>(["Inputs"]);
  for (const s of LOOKUP_SPECS) {
    if (s.args && !s.positional) typeNames.add(argsTypeName(s.name));
    typeNames.add(s.result.name);
  }
  const imports = [...typeNames].sort().map((n) => `  ${n},`);
  return `${HEADER}import type * as pulumi from "@pulumi/pulumi";
import { runLookup, runLookupOutput, type LookupOptions } from "./runner";
import type {
${imports.join("\n")}
} from "./types";

${LOOKUP_SPECS.map(functionSource).join("\n")}`;
}

function mdEscape(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n\s*/g, " ");
}

function anchor(name: string): string {
  return name.toLowerCase();
}

/**
 * Rows of a field table: property, type, (required,) description. Members of nested objects get rows of their
 * own with a dotted path (`settings.extra.peerApprovalEnabled`, `rules[].ports`); named types are linked.
 */
function fieldRows(
  s: z.ZodType,
  named: Map<z.ZodType, string>,
  withRequired: boolean,
  w = new TypeWriter(named, snakeNames(s)),
  prefix = "",
): string[] {
  return Object.entries(shapeOf(s) ?? {}).flatMap(([key, field]) => {
    const path = `${prefix}${camel(key)}`;
    const inner = peel(field).schema;
    const element = kindOf(inner) === "array" ? peel(elementOf(inner) as z.ZodType).schema : undefined;
    const value = kindOf(inner) === "record" ? peel(recordValueOf(inner) as z.ZodType).schema : undefined;
    const nestedObject = (x: z.ZodType | undefined) =>
      x !== undefined && !named.has(x) && kindOf(x) === "object";
    let typeCell: string;
    let nested: string[] = [];
    if (nestedObject(inner)) {
      typeCell = "object";
      nested = fieldRows(inner, named, withRequired, w, `${path}.`);
    } else if (nestedObject(element)) {
      typeCell = "object array";
      nested = fieldRows(element as z.ZodType, named, withRequired, w, `${path}[].`);
    } else if (nestedObject(value)) {
      typeCell = "map of object";
      nested = fieldRows(value as z.ZodType, named, withRequired, w, `${path}[key].`);
    } else {
      typeCell = typeCellOf(w.type(field, "").replace(/\s*\n\s*/g, " "));
    }
    const req = withRequired ? ` ${isOptional(field) ? "no" : "yes"} |` : "";
    return [`| \`${path}\` | ${typeCell} |${req} ${mdEscape(w.doc(field) ?? "")} |`, ...nested];
  });
}

/** A type in a table cell: a link when it is a named result type (or an array of one), else code. */
function typeCellOf(type: string): string {
  const m = /^(\w+Result)(\[\])?$/.exec(type);
  if (m) return `[\`${m[1]}\`](#${anchor(m[1] as string)})${m[2] ? " array" : ""}`;
  return `\`${mdEscape(type)}\``;
}

function argsDoc(spec: LookupSpec, named: Map<z.ZodType, string>): string {
  if (!spec.args) return "Arguments: none.\n";
  const args = spec.args;
  const header = "| Argument | Type | Required | Description |\n|---|---|---|---|";
  if (spec.positional) {
    const field = shapeOf(args)?.[spec.positional] as z.ZodType;
    return `${header}\n| \`${spec.positional}\` | \`${kindOf(field)}\` | yes | ${mdEscape(describe(field) ?? "")} |\n`;
  }
  const options = unionOptions(args);
  if (options) {
    const tables = options.map((o) => `${header}\n${fieldRows(o, named, true).join("\n")}\n`);
    return `\`${argsTypeName(spec.name)}\`: one of\n\n${tables.join("\nor\n\n")}`;
  }
  return `\`${argsTypeName(spec.name)}\`${argsOptional(spec) ? " (every field optional)" : ""}:\n\n${header}\n${fieldRows(args, named, true).join("\n")}\n`;
}

/** docs/reference/lookups.md. */
export function lookupsDoc(): string {
  const named = namedMap();
  const sections = LOOKUP_SPECS.map((spec) => {
    const info = infoOf(spec);
    const notes = [
      info.cloudOnly ? "Cloud offering only." : "",
      info.embeddedIdpOnly ? "Embedded identity provider only." : "",
    ].filter(Boolean);
    const returns = `${spec.many ? "an array of " : ""}[\`${spec.result.name}\`](#${anchor(spec.result.name)})`;
    return `### ${spec.name}

\`\`\`ts
${info.signature}
\`\`\`

${spec.description}${notes.length ? ` _${notes.join(" ")}_` : ""}

API: ${info.operations.map((o) => `\`${o}\``).join(", ")}.

${argsDoc(spec, named)}
Returns: ${returns}.
`;
  });
  const types = resultTypes().map((t) => {
    const own = new Map(named);
    own.delete(t.schema);
    return `### ${t.name}

${describe(t.schema) ?? ""}

| Property | Type | Description |
|---|---|---|
${fieldRows(t.schema, own, false).join("\n")}
`;
  });
  return `<!-- Generated by \`npm run gen\` from sdk/lookups/table.ts. Do not edit. -->
# Lookups

Plain async functions that read objects from the service: they run in \`pulumi preview\` as well as \`up\`, and
outside Pulumi. Every result is a plain object with camelCase keys, like the resources' outputs.

\`\`\`ts
import * as privnet from "pulumi-privnet";

export = async () => {
  const admins = await privnet.getGroup({ name: "admins" });
  const web = await privnet.getPeerByName("web-1");
  new privnet.Group("web", { name: "web", peers: [web.id] });
  // ... admins.id in a policy's rule sources, and so on.
  return { adminsPeers: admins.peersCount };
};
\`\`\`

**Two forms.** \`getX(args, opts?)\` takes plain values and returns a Promise; \`getXOutput(args, opts?)\` takes
inputs (an output of another resource too), returns an Output, and while an input is unknown (a preview) yields
an unknown value instead of failing:
\`privnet.getGroupOutput({ name: team.name }).id\`.

**Credentials.** Every lookup takes an optional last argument \`opts\`: Pulumi's invoke options (\`provider\`: a
\`privnet.Provider\`, or a \`parent\` that passes one down) plus \`apiUrl\` and \`token\`, which override everything.
What they leave out comes from the provider's arguments, else stack config (\`privnet:apiUrl\`,
\`privnet:token\`), then the environment (\`PRIVNET_API_URL\`, \`PRIVNET_TOKEN\`), as for the resources; the URL
defaults to \`http://127.0.0.1:8080\`.

**Errors.** A lookup that finds nothing, or more than one object where it needs one, or gets invalid arguments,
throws a \`PrivnetLookupError\` that names the lookup and what it looked for
(\`privnet: getGroup: no group named "db"\`); \`isPrivnetLookupError(e)\` and \`e.reason\` (\`not-found\`,
\`ambiguous\`, \`invalid-arguments\`) tell them apart. Other API errors (401, 403, ...) pass through as the
client's \`PrivnetApiError\`.

${LOOKUP_SPECS.length} lookups:
${LOOKUP_SPECS.map((s) => `[\`${s.name}\`](#${anchor(s.name)})`).join(", ")}.

## Functions

${sections.join("\n")}
## Result types

${types.join("\n")}`;
}

/** Every generated lookup file: repo-relative path -> content, formatted. */
export async function lookupFiles(): Promise<Map<string, string>> {
  return formatted(
    new Map([
      ["sdk/lookups/types.ts", typesSource()],
      ["sdk/lookups/functions.ts", functionsSource()],
      ["docs/reference/lookups.md", lookupsDoc()],
    ]),
  );
}
