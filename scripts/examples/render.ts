/**
 * Writes an example (./spec.ts) as a program in TypeScript (the `pulumi-privnet` package), Python
 * (`pulumi_privnet`), Go (`sdk/go/privnet`) and YAML, with the names each SDK gives the schema's resources,
 * functions, properties and types. The Python and Go renderings follow the package schema's types (an object is
 * its `<Type>Args`, a list of numbers a `pulumi.IntArray`); TypeScript and YAML write values as literals.
 *
 * `program` gives a whole program (what tests/e2e/api-examples.test.ts compiles, and runs or previews); `snippet` the
 * part a reader needs (what the schema's descriptions carry).
 *
 * Why not Pulumi's own converter (`pulumi convert --from yaml --language ...`, which writes a YAML program in the
 * other languages): it runs each target language's program generator inside that language's plugin, and the
 * plugins that carry them are not available to these machines' builds (the Node and Go language hosts are refused
 * by the module proxy, the Python one is built by hand outside CI; docs/languages.md). Java's is (the Java language
 * host, pulumi-java v0.19.0, the one version the proxy serves), with pulumi-yaml's converter plugin: on this
 * package's examples it writes Java that does not compile (every class imported from com.pulumi.privnet whatever
 * the schema's java.basePackage says, a list of one reference written as the bare reference, a nested input type
 * used without its import, an optional config value passed as the value), and the CLI then fails the conversion
 * (the host lacks the `Link` method the engine calls), so Java has no rendering here. What this file writes is
 * compiled in each language by tests/e2e/api-examples.test.ts, and run or previewed, so a wrong rendering fails there.
 */
import type { FunctionSchemaSpec, PackageSchema, PropertySpec } from "../schemagen";
import { isConfig, isRef, type ConfigValue, type Example, type Ref, type Value } from "./spec";

export const LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type Language = (typeof LANGUAGES)[number];

/** What rendering needs of a lookup beyond the schema: the TypeScript package's signature. */
export interface FunctionShape {
  name: string;
  /** TypeScript takes this one argument as a plain value (`getPeerByName("gw")`). */
  positional?: string;
  /** TypeScript returns the list itself, not `{ items }`. */
  many: boolean;
}

const pascal = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
/** Python's name of a camelCase name (`portRanges` -> `port_ranges`). */
export const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
/** Python's keywords: the Python SDK's generator gives a property named one a trailing `_` (`from` -> `from_`). */
const PY_KEYWORDS = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for from " +
    "global if import in is lambda nonlocal not or pass raise return try while with yield"
  ).split(" "),
);
const pyArg = (s: string) => (PY_KEYWORDS.has(snake(s)) ? `${snake(s)}_` : snake(s));
/** Items written on one line when they fit in this many characters (and hold no object). */
const INLINE = 60;
const inline = (parts: string[], open: string, close: string): string | undefined => {
  const text = parts.join(", ");
  return text.length <= INLINE && !text.includes("\n") ? `${open}${text}${close}` : undefined;
};
/** Go `key: value,` lines as gofmt writes them: the values of a run of one-line entries start in one column. */
function gofmtLines(fields: { key: string; value: string }[], inner: string): string[] {
  const lines: string[] = [];
  for (let i = 0; i < fields.length;) {
    let j = i;
    while (j < fields.length && !fields[j]!.value.includes("\n")) j++;
    if (j === i) {
      lines.push(`${inner}${fields[i]!.key} ${fields[i]!.value},`);
      i++;
      continue;
    }
    const width = Math.max(...fields.slice(i, j).map((f) => f.key.length));
    for (const f of fields.slice(i, j)) lines.push(`${inner}${f.key.padEnd(width)} ${f.value},`);
    i = j;
  }
  return lines;
}

const typeOfRef = (spec: PropertySpec) => spec.$ref?.replace("#/types/privnet:index:", "");

export class Renderer {
  constructor(
    private readonly schema: PackageSchema,
    private readonly functions: ReadonlyMap<string, FunctionShape>,
  ) {}

  private resourceInputs(kind: string): Record<string, PropertySpec> {
    const r = this.schema.resources[`privnet:index:${kind}`];
    if (!r) throw new Error(`examples: no resource ${kind} in the schema`);
    return r.inputProperties;
  }

  private fn(name: string): { spec: FunctionSchemaSpec; shape: FunctionShape } {
    const spec = this.schema.functions[`privnet:index:${name}`];
    const shape = this.functions.get(name);
    if (!spec || !shape) throw new Error(`examples: no function ${name}`);
    return { spec, shape };
  }

  private typeProps(spec: PropertySpec): Record<string, PropertySpec> {
    const t = typeOfRef(spec);
    const type = t ? this.schema.types[`privnet:index:${t}`] : undefined;
    if (!type) throw new Error(`examples: no object type for ${JSON.stringify(spec)}`);
    return type.properties;
  }

  /** Go's name of a function: `Lookup<X>` where a resource `X` exists (`getGroup`), else `Get<X>`. */
  private goFunction(name: string): string {
    const x = name.slice(3);
    return this.schema.resources[`privnet:index:${x}`] ? `Lookup${x}` : pascal(name);
  }

  private configKeys(e: Example): ConfigValue[] {
    const found = new Map<string, ConfigValue>();
    const walk = (v: Value): void => {
      if (isConfig(v)) found.set(v.$config, v);
      else if (Array.isArray(v)) v.forEach(walk);
      else if (typeof v === "object" && !isRef(v)) Object.values(v).forEach(walk);
    };
    for (const r of e.resources ?? []) walk(r.inputs);
    for (const c of e.calls ?? []) walk(c.args ?? {});
    return [...found.values()];
  }

  /** The names of resources and calls that something later uses. */
  private used(e: Example): Set<string> {
    const names = new Set<string>();
    const walk = (v: Value): void => {
      if (isRef(v)) names.add(v.$ref);
      else if (Array.isArray(v)) v.forEach(walk);
      else if (typeof v === "object" && !isConfig(v)) Object.values(v).forEach(walk);
    };
    for (const r of e.resources ?? []) walk(r.inputs);
    for (const c of e.calls ?? []) walk(c.args ?? {});
    for (const o of Object.values(e.outputs ?? {})) walk(o);
    return names;
  }

  private isCall(e: Example, name: string): boolean {
    return (e.calls ?? []).some((c) => c.name === name);
  }

  // --- TypeScript ------------------------------------------------------------------------------------------

  private ts(v: Value, indent: string): string {
    if (isRef(v)) return `${v.$ref}.${v.attr}`;
    if (isConfig(v)) return `config.${v.secret ? "requireSecret" : "require"}(${JSON.stringify(v.$config)})`;
    if (Array.isArray(v)) {
      if (!v.length) return "[]";
      const inner = `${indent}  `;
      const items = v.map((x) => this.ts(x, inner));
      const one = v.every((x) => typeof x !== "object" || isRef(x) || isConfig(x)) && inline(items, "[", "]");
      return one || `[\n${items.map((x) => `${inner}${x},`).join("\n")}\n${indent}]`;
    }
    if (typeof v === "object") return this.tsObject(v, indent);
    return JSON.stringify(v);
  }

  private tsObject(o: Record<string, Value>, indent: string): string {
    const entries = Object.entries(o);
    if (!entries.length) return "{}";
    const inner = `${indent}  `;
    const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
    const parts = entries.map(([k, x]) => `${key(k)}: ${this.ts(x, inner)}`);
    const one = indent !== "" && inline(parts, "{ ", " }");
    return one || `{\n${parts.map((p) => `${inner}${p},`).join("\n")}\n${indent}}`;
  }

  private typescript(e: Example): { head: string; body: string } {
    const used = this.used(e);
    const config = this.configKeys(e).length > 0;
    const head = [
      ...(config ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
      'import * as privnet from "pulumi-privnet";',
    ];
    const body: string[] = [];
    if (config) body.push("const config = new pulumi.Config();");
    for (const r of e.resources ?? []) {
      const decl = used.has(r.name) || e.outputs ? `const ${r.name} = ` : "";
      body.push(`${decl}new privnet.${r.kind}(${JSON.stringify(r.name)}, ${this.tsObject(r.inputs, "")});`);
    }
    for (const c of e.calls ?? []) {
      const { shape } = this.fn(c.fn);
      let args = "";
      if (shape.positional && c.args) args = this.ts(c.args[shape.positional]!, "");
      else if (c.args && Object.keys(c.args).length) args = this.tsObject(c.args, "");
      body.push(`const ${c.name} = privnet.${c.fn}Output(${args});`);
    }
    for (const [name, r] of Object.entries(e.outputs ?? {})) {
      const call = (e.calls ?? []).find((c) => c.name === r.$ref);
      // The TypeScript lookups that list return the list itself.
      const value =
        call && r.attr === "items" && this.fn(call.fn).shape.many ? r.$ref : `${r.$ref}.${r.attr}`;
      body.push(`export const ${name} = ${value};`);
    }
    return { head: head.join("\n"), body: body.join("\n") };
  }

  // --- Python ----------------------------------------------------------------------------------------------

  private py(v: Value, spec: PropertySpec | undefined, indent: string): string {
    if (isRef(v)) return `${snake(v.$ref)}.${snake(v.attr)}`;
    if (isConfig(v)) return `config.${v.secret ? "require_secret" : "require"}(${JSON.stringify(v.$config)})`;
    if (Array.isArray(v)) {
      if (!v.length) return "[]";
      const inner = `${indent}    `;
      const items = v.map((x) => this.py(x, spec?.items, inner));
      const one = v.every((x) => typeof x !== "object" || isRef(x) || isConfig(x)) && inline(items, "[", "]");
      return one || `[\n${items.map((x) => `${inner}${x},`).join("\n")}\n${indent}]`;
    }
    if (typeof v === "boolean") return v ? "True" : "False";
    if (typeof v === "object") {
      const t = spec && typeOfRef(spec);
      if (t) return `privnet.${t}Args(${this.pyKwargs(v, this.typeProps(spec!), indent)})`;
      // A map: its keys are data, as they are.
      const inner = `${indent}    `;
      const entries = Object.entries(v).map(
        ([k, x]) => `${inner}${JSON.stringify(k)}: ${this.py(x, spec?.additionalProperties, inner)},`,
      );
      return `{\n${entries.join("\n")}\n${indent}}`;
    }
    return JSON.stringify(v);
  }

  private pyKwargs(o: Record<string, Value>, props: Record<string, PropertySpec>, indent: string): string {
    const inner = `${indent}    `;
    const args = Object.entries(o).map(([k, x]) => {
      if (!props[k]) throw new Error(`examples: no property ${k} (Python)`);
      return `${inner}${pyArg(k)}=${this.py(x, props[k], inner)},`;
    });
    return args.length ? `\n${args.join("\n")}\n${indent}` : "";
  }

  private python(e: Example): { head: string; body: string } {
    const used = this.used(e);
    const config = this.configKeys(e).length > 0;
    const body: string[] = [];
    if (config) body.push("config = pulumi.Config()");
    for (const r of e.resources ?? []) {
      const decl = used.has(r.name) ? `${snake(r.name)} = ` : "";
      const args = this.pyKwargs(r.inputs, this.resourceInputs(r.kind), "");
      body.push(`${decl}privnet.${r.kind}(${JSON.stringify(r.name)},${args})`);
    }
    for (const c of e.calls ?? []) {
      const { spec } = this.fn(c.fn);
      const args = c.args ? this.pyKwargs(c.args, spec.inputs?.properties ?? {}, "") : "";
      body.push(`${snake(c.name)} = privnet.${snake(c.fn)}_output(${args})`);
    }
    for (const [name, r] of Object.entries(e.outputs ?? {})) {
      body.push(`pulumi.export(${JSON.stringify(name)}, ${snake(r.$ref)}.${snake(r.attr)})`);
    }
    return { head: "import pulumi\nimport pulumi_privnet as privnet", body: body.join("\n") };
  }

  // --- Go --------------------------------------------------------------------------------------------------

  private goRef(e: Example, r: Ref, asInput: boolean): string {
    if (this.isCall(e, r.$ref)) return `${r.$ref}.${pascal(r.attr)}()`;
    if (r.attr === "id") return asInput ? `${r.$ref}.ID().ToStringOutput()` : `${r.$ref}.ID()`;
    return `${r.$ref}.${pascal(r.attr)}`;
  }

  private go(e: Example, v: Value, spec: PropertySpec, indent: string): string {
    if (isRef(v)) return this.goRef(e, v, true);
    if (isConfig(v))
      return v.secret
        ? `cfg.RequireSecret(${JSON.stringify(v.$config)})`
        : `pulumi.String(cfg.Require(${JSON.stringify(v.$config)}))`;
    const inner = `${indent}\t`;
    if (Array.isArray(v)) {
      const items = spec.items ?? {};
      const t = typeOfRef(items);
      const arrayType = this.goType({ type: "array", items });
      if (!v.length) return `${arrayType}{}`;
      const parts = v.map((x) => this.go(e, x, items, inner));
      const one = !t && inline(parts, `${arrayType}{`, "}");
      return one || `${arrayType}{\n${parts.map((x) => `${inner}${x},`).join("\n")}\n${indent}}`;
    }
    if (typeof v === "object") {
      const t = typeOfRef(spec);
      if (t) return `&privnet.${t}Args{${this.goFields(e, v, this.typeProps(spec), indent)}}`;
      const value = spec.additionalProperties ?? {};
      const entries = Object.entries(v).map(([k, x]) => ({
        key: `${JSON.stringify(k)}:`,
        value: this.go(e, x, value, inner),
      }));
      const mapType = this.goType({ type: "object", additionalProperties: value });
      return `${mapType}{\n${gofmtLines(entries, inner).join("\n")}\n${indent}}`;
    }
    return `pulumi.${this.goScalar(spec)}(${JSON.stringify(v)})`;
  }

  /** The Go input type of a list or a map of this type (`pulumi.StringArray`, `pulumi.StringArrayMap`, ...). */
  private goType(spec: PropertySpec): string {
    const t = typeOfRef(spec);
    if (t) return `privnet.${t}`;
    if (spec.type === "array") return `${this.goType(spec.items ?? {})}Array`;
    if (spec.type === "object") return `${this.goType(spec.additionalProperties ?? {})}Map`;
    return `pulumi.${this.goScalar(spec)}`;
  }

  private goScalar(spec: PropertySpec): string {
    switch (spec.type) {
      case "integer":
        return "Int";
      case "number":
        return "Float64";
      case "boolean":
        return "Bool";
      case "string":
        return "String";
      default:
        throw new Error(`examples: no Go input for ${JSON.stringify(spec)}`);
    }
  }

  private goFields(
    e: Example,
    o: Record<string, Value>,
    props: Record<string, PropertySpec>,
    indent: string,
  ) {
    const inner = `${indent}\t`;
    const fields = Object.entries(o).map(([k, x]) => {
      if (!props[k]) throw new Error(`examples: no property ${k} (Go)`);
      return { key: `${pascal(k)}:`, value: this.go(e, x, props[k], inner) };
    });
    const lines = gofmtLines(fields, inner);
    return lines.length ? `\n${lines.join("\n")}\n${indent}` : "";
  }

  private golang(e: Example): { head: string; body: string } {
    const used = this.used(e);
    const config = this.configKeys(e).length > 0;
    const imports = [
      '\t"github.com/pulumi-privnet/pulumi-privnet/sdk/go/privnet"',
      '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
      ...(config ? ['\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"'] : []),
    ];
    const body: string[] = [];
    if (config) body.push('cfg := config.New(ctx, "")');
    for (const r of e.resources ?? []) {
      const args = `&privnet.${r.kind}Args{${this.goFields(e, r.inputs, this.resourceInputs(r.kind), "")}}`;
      const call = `privnet.New${r.kind}(ctx, ${JSON.stringify(r.name)}, ${args})`;
      if (used.has(r.name)) body.push(`${r.name}, err := ${call}\nif err != nil {\n\treturn err\n}`);
      else body.push(`if _, err := ${call}; err != nil {\n\treturn err\n}`);
    }
    for (const c of e.calls ?? []) {
      const { spec } = this.fn(c.fn);
      const name = this.goFunction(c.fn);
      const args = c.args
        ? `, privnet.${name}OutputArgs{${this.goFields(e, c.args, spec.inputs?.properties ?? {}, "")}}`
        : "";
      body.push(`${c.name} := privnet.${name}Output(ctx${args})`);
    }
    for (const [name, r] of Object.entries(e.outputs ?? {})) {
      body.push(`ctx.Export(${JSON.stringify(name)}, ${this.goRef(e, r, false)})`);
    }
    body.push("return nil");
    return { head: `import (\n${imports.join("\n")}\n)`, body: body.join("\n") };
  }

  // --- YAML ------------------------------------------------------------------------------------------------

  private yamlValue(v: Value): unknown {
    if (isRef(v)) return `\${${v.$ref}.${v.attr}}`;
    if (isConfig(v)) return `\${${v.$config}}`;
    if (Array.isArray(v)) return v.map((x) => this.yamlValue(x));
    if (typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.yamlValue(x)]));
    return v;
  }

  /** The YAML program's sections (`config`, `resources`, `variables`, `outputs`), as data. */
  yamlSections(e: Example): Record<string, unknown> {
    const sections: Record<string, unknown> = {};
    const keys = this.configKeys(e);
    if (keys.length) {
      sections.config = Object.fromEntries(
        keys.map((k) => [k.$config, { type: "string", ...(k.secret ? { secret: true } : {}) }]),
      );
    }
    if (e.resources?.length) {
      sections.resources = Object.fromEntries(
        e.resources.map((r) => [
          r.name,
          {
            type: `privnet:${r.kind}`,
            ...(Object.keys(r.inputs).length ? { properties: this.yamlValue(r.inputs) } : {}),
          },
        ]),
      );
    }
    if (e.calls?.length) {
      sections.variables = Object.fromEntries(
        e.calls.map((c) => [
          c.name,
          {
            "fn::invoke": {
              function: `privnet:${c.fn}`,
              ...(c.args && Object.keys(c.args).length ? { arguments: this.yamlValue(c.args) } : {}),
            },
          },
        ]),
      );
    }
    if (e.outputs) {
      sections.outputs = Object.fromEntries(
        Object.entries(e.outputs).map(([k, r]) => [k, this.yamlValue(r)]),
      );
    }
    return sections;
  }

  // --- the whole and the part ------------------------------------------------------------------------------

  /** What a reader needs: the imports and the statements (YAML: the program's sections). */
  snippet(e: Example, lang: Language, yamlStringify: (v: unknown) => string): string {
    switch (lang) {
      case "typescript": {
        const { head, body } = this.typescript(e);
        return `${head}\n\n${body}\n`;
      }
      case "python": {
        const { head, body } = this.python(e);
        return `${head}\n\n${body}\n`;
      }
      case "go": {
        const { head, body } = this.golang(e);
        const indented = body
          .split("\n")
          .map((l) => (l ? `\t\t${l}` : l))
          .join("\n");
        return `package main\n\n${head}\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n${indented}\n\t})\n}\n`;
      }
      case "yaml":
        return yamlStringify(this.yamlSections(e));
    }
  }
}

/**
 * An example as Pulumi's per-language example block for a schema description: each SDK's generator keeps the
 * fence of its language, the docs generator shows each under its language.
 */
export function exampleBlock(title: string, snippets: Record<Language, string>): string {
  const fences = LANGUAGES.map((l) => `\`\`\`${l}\n${snippets[l].trimEnd()}\n\`\`\``);
  return `{{% example %}}\n### ${title}\n\n${fences.join("\n")}\n{{% /example %}}`;
}

/** The examples section of a description. */
export function examplesSection(blocks: string[]): string {
  return `{{% examples %}}\n## Example Usage\n\n${blocks.join("\n")}\n{{% /examples %}}`;
}
