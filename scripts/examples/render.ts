/**
 * Writes an example (./spec.ts) as a program in TypeScript (the `pulumi-privnet` package), Python
 * (`pulumi_privnet`), Go (`sdk/go/privnet`), Java (`io.github.pulumiprivnet.privnet`, sdk/java) and YAML, with the
 * names each SDK gives the schema's resources, functions, properties and types. The Python, Go and Java renderings
 * follow the package schema's types (an object is its `<Type>Args`, a list of numbers a `pulumi.IntArray`);
 * TypeScript and YAML write values as literals.
 *
 * Java follows the generated SDK: a resource's inputs go through `<Kind>Args.builder()`, a nested object through
 * its `inputs.<Type>Args` builder, a lookup is `PrivnetFunctions.<fn>(Get<Fn>Args)` and returns one Output of its
 * result class (read with `applyValue`); config is `ctx.config()`, a secret from it an Output
 * (`config.requireSecret`). Each setter takes a plain value or an Output, but a list or a map is one value as a
 * whole: a plain list is the setter's varargs (`.ports("22", "443")`), a list holding an Output is
 * `Output.all(...)`, a map holding one `Output.<V>mapBuilder()`. Pulumi's Java SDK (0.19.0) serializes no object of
 * the SDK's output classes, so a stack output holding one is exported as its JSON (Gson, a dependency of the SDK).
 *
 * `snippet` gives what the schema's descriptions carry: in Go and Java a whole program (Java's `App.java` of package
 * `myproject`, as docs/languages.md lays a project out), in YAML the program's sections. `javaProgram` writes the
 * Java one in any package, and `yamlSections` the YAML one as data: tests/e2e/api-examples.test.ts compiles every
 * example in each language, and runs or previews them, so a wrong rendering fails there.
 *
 * Why not Pulumi's own converter (`pulumi convert --from yaml --language ...`, which writes a YAML program in the
 * other languages): it runs each target language's program generator inside that language's plugin, and the
 * plugins that carry them are not available to these machines' builds (the Node and Go language hosts are refused
 * by the module proxy, the Python one is built by hand outside CI; docs/languages.md). Java's is (the Java language
 * host, pulumi-java v0.19.0, the one version the proxy serves), with pulumi-yaml's converter plugin: on this
 * package's examples it writes Java that does not compile (every class imported from com.pulumi.privnet whatever
 * the schema's java.basePackage says, a list of one reference written as the bare reference, a nested input type
 * used without its import, an optional config value passed as the value), and the CLI then fails the conversion
 * (the host lacks the `Link` method the engine calls). So Java is rendered here as the other languages are.
 */
import type { FunctionSchemaSpec, PackageSchema, PropertySpec } from "../schemagen";
import { isConfig, isRef, type ConfigValue, type Example, type Ref, type Value } from "./spec";

export const LANGUAGES = ["typescript", "python", "go", "java", "yaml"] as const;
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

/** Java's reserved words, literals and `var`: the Java SDK's generator suffixes a name that is one with `_`. */
const JAVA_RESERVED = new Set(
  (
    "abstract assert boolean break byte case catch char class const continue default do double else enum extends " +
    "final finally float for if goto implements import instanceof int interface long native new package private " +
    "protected public return short static strictfp super switch synchronized this throw throws transient try void " +
    "volatile while _ false null true var"
  ).split(" "),
);
/** Methods of every object and of the builders: a property so named has its setter and getter suffixed too. */
const JAVA_OBJECT_METHODS = new Set(
  "notify notifyAll toString clone equals hashCode getClass wait finalize builder".split(" "),
);
/** Methods of every resource: an output so named is read with a trailing `_` (`private_()`, `urn_()`). */
const JAVA_RESOURCE_METHODS = new Set(
  "getResourceType getResourceName getChildResources getUrn getId pulumiResourceType pulumiResourceName pulumiChildResources urn id".split(
    " ",
  ),
);
/** A name as the Java SDK's generator makes it an identifier (`private` -> `private_`). */
const javaIdent = (s: string): string => {
  let id = [...s]
    .filter((c) => c !== "-")
    .map((c) => (/[\p{L}\p{Nd}_$]/u.test(c) ? c : "_"))
    .join("");
  if (!/^[\p{L}_$]/u.test(id)) id = `_${id}`;
  return JAVA_RESERVED.has(id) ? `${id}_` : id;
};
/** A builder's setter and an object's getter of a property. */
const javaSetter = (prop: string): string => {
  const f = javaIdent(prop);
  return JAVA_OBJECT_METHODS.has(f) ? `${f}_` : f;
};
const javaGetter = javaSetter;
const javaResourceGetter = (prop: string): string => {
  const g = javaGetter(prop);
  return JAVA_RESOURCE_METHODS.has(g) ? `${g}_` : g;
};
/** A class of the SDK: the token's name, capitalised (`Policy`, `PolicyRuleArgs`, `GetGroupArgs`). */
const javaClass = (name: string): string => javaIdent(pascal(name));
/** A local variable for a name of the example (`Policy-ops` -> `policyOps`). */
const javaLocal = (name: string): string => {
  const parts = name.split(/[^A-Za-z0-9_$]+/).filter(Boolean);
  const camel = parts.map((x, i) => (i ? pascal(x) : `${x.charAt(0).toLowerCase()}${x.slice(1)}`)).join("");
  return javaIdent(camel || "_");
};
const OUTPUT = "com.pulumi.core.Output";

/** A Java expression and whether it is an Output (else a plain value). */
interface JavaValue {
  code: string;
  output: boolean;
}

/** The arguments of a Java call, rendered at `indent` plus 4: on one line when short, else one per line. */
function javaArgs(items: string[], indent: string): string {
  const one = inline(items, "", "");
  if (one !== undefined) return one;
  // One multi-line argument (a builder) starts on the call's line: its lines move 4 to the left.
  if (items.length === 1) return items[0]!.replace(/\n {4}/g, "\n");
  return `\n${items.map((x) => `${indent}    ${x}`).join(",\n")}`;
}

/** What a Java program being written holds: its imports and the locals the example's names became. */
class JavaProgram {
  private readonly locals = new Map<string, string>();
  private readonly imported = new Map<string, string>([
    ["Context", "com.pulumi.Context"],
    ["Pulumi", "com.pulumi.Pulumi"],
  ]);

  constructor(readonly e: Example) {
    const taken = new Set(["ctx", "config", "args"]);
    for (const name of [...(e.resources ?? []), ...(e.calls ?? [])].map((x) => x.name)) {
      let local = javaLocal(name);
      while (taken.has(local)) local = `${local}_`;
      taken.add(local);
      this.locals.set(name, local);
    }
  }

  /** The local variable of a resource or a call. */
  local(name: string): string {
    const local = this.locals.get(name);
    if (!local) throw new Error(`examples: ${name} is neither a resource nor a call of the example`);
    return local;
  }

  /** A lambda's parameter, named after what it holds, clear of the locals (a lambda cannot shadow one). */
  lambda(base: string): string {
    const taken = new Set([...this.locals.values(), "ctx", "config", "args"]);
    let name = javaLocal(base);
    while (taken.has(name)) name = `${name}_`;
    return name;
  }

  /** A class by its qualified name: imported, and written by its simple name (`App` is the program's own). */
  use(qualified: string): string {
    const simple = qualified.slice(qualified.lastIndexOf(".") + 1);
    if (simple === "App") throw new Error(`examples: Java: ${qualified} has the name of the program's class`);
    const had = this.imported.get(simple);
    if (had !== undefined && had !== qualified)
      throw new Error(`examples: Java: ${qualified} and ${had} have one simple name`);
    this.imported.set(simple, qualified);
    return simple;
  }

  imports(): string[] {
    return [...this.imported.values()].sort();
  }
}

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

  // --- Java ------------------------------------------------------------------------------------------------

  /** The Java SDK's package (`io.github.pulumiprivnet.privnet`): the schema's `java.basePackage` and its name. */
  private javaPackage(): string {
    const base = this.schema.language.java?.basePackage;
    return typeof base === "string" && base
      ? `${base}.${this.schema.name}`
      : `com.pulumi.${this.schema.name}`;
  }

  /** Whether a value of this type holds an object of the SDK's output classes (`GetGroupsItem`, ...). */
  private holdsObject(spec: PropertySpec | undefined): boolean {
    if (!spec) return false;
    if (typeOfRef(spec)) return true;
    return this.holdsObject(spec.items) || this.holdsObject(spec.additionalProperties);
  }

  /**
   * An output of a resource or a call, as an input (`ops.id()`) or as a stack output. Pulumi's Java SDK (0.19.0)
   * serializes no object of the SDK's output classes (a stack output of one fails the run): such an output is
   * exported as its JSON (Gson, which the SDK depends on), as the other languages export it.
   */
  private javaRef(p: JavaProgram, r: Ref, use: "input" | "export"): string {
    const local = p.local(r.$ref);
    const call = (p.e.calls ?? []).find((c) => c.name === r.$ref);
    /** The value read from a plain `v` (`v.items()`), unwrapped where optional, JSON where an object. */
    const read = (v: string, spec: PropertySpec, optional: boolean) => {
      const json = use === "export" && this.holdsObject(spec);
      const value = `${v}${optional && (use === "input" || json) ? ".orElse(null)" : ""}`;
      return json ? `new ${p.use("com.google.gson.Gson")}().toJsonTree(${value})` : value;
    };
    if (call) {
      // A lookup's result is one Output of its result class: the value is read inside it.
      const { spec } = this.fn(call.fn);
      const out = spec.outputs.properties[r.attr];
      if (!out) throw new Error(`examples: ${call.fn} has no output ${r.attr}`);
      const optional = !(spec.outputs.required ?? []).includes(r.attr);
      const result = p.lambda("result");
      return `${local}.applyValue(${result} -> ${read(`${result}.${javaGetter(r.attr)}()`, out, optional)})`;
    }
    const decl = (p.e.resources ?? []).find((x) => x.name === r.$ref);
    if (!decl) throw new Error(`examples: ${r.$ref} is neither a resource nor a call of the example`);
    const resource = this.schema.resources[`privnet:index:${decl.kind}`]!;
    if (r.attr === "id") {
      if (resource.isComponent) throw new Error(`examples: ${decl.kind} is a component: it has no id`);
      return `${local}.id()`;
    }
    const out = resource.properties[r.attr];
    if (!out) throw new Error(`examples: ${decl.kind} has no output ${r.attr}`);
    const getter = `${local}.${javaResourceGetter(r.attr)}()`;
    // An output the resource may leave unset is an Output<Optional<T>>; an input takes the value or nothing.
    const value = p.lambda("value");
    const read1 = read(value, out, !resource.required.includes(r.attr));
    return read1 === value ? getter : `${getter}.applyValue(${value} -> ${read1})`;
  }

  /** The Java type of an input of this schema type (a nested object is its `...Args` class). */
  private javaType(p: JavaProgram, spec: PropertySpec | undefined): string {
    if (!spec || spec.$ref === "pulumi.json#/Any") return "Object";
    const t = typeOfRef(spec);
    if (t) return p.use(`${this.javaPackage()}.inputs.${t}Args`);
    switch (spec.type) {
      case "string":
        return "String";
      case "integer":
        return "Integer";
      case "number":
        return "Double";
      case "boolean":
        return "Boolean";
      case "array":
        return `${p.use("java.util.List")}<${this.javaType(p, spec.items)}>`;
      case "object":
        return `${p.use("java.util.Map")}<String,${this.javaType(p, spec.additionalProperties)}>`;
      default:
        throw new Error(`examples: no Java type for ${JSON.stringify(spec)}`);
    }
  }

  /**
   * A value as a Java expression: a plain value (`"ops"`, `List.of(...)`, `PolicyRuleArgs.builder()...build()`)
   * or an Output (`ops.id()`, `config.requireSecret(...)`, a list or a map holding one). Each builder setter of
   * the SDK takes either; a list or a map with an Output in it is one Output as a whole (`Output.all(...)`).
   */
  private java(p: JavaProgram, v: Value, spec: PropertySpec | undefined, indent: string): JavaValue {
    if (isRef(v)) return { code: this.javaRef(p, v, "input"), output: true };
    if (isConfig(v)) {
      // Pulumi's Java Config: a value as a String, a secret as an Output<String>.
      const key = JSON.stringify(v.$config);
      return { code: `config.${v.secret ? "requireSecret" : "require"}(${key})`, output: v.secret };
    }
    const untyped = !spec || spec.$ref === "pulumi.json#/Any";
    if (Array.isArray(v)) {
      if (!untyped && spec.type !== "array") throw new Error(`examples: a list for ${JSON.stringify(spec)}`);
      const items = v.map((x) => this.java(p, x, spec?.items, `${indent}    `));
      if (items.some((x) => x.output)) {
        const outputs = items.map((x) => (x.output ? x.code : `${p.use(OUTPUT)}.of(${x.code})`));
        return { code: `${p.use(OUTPUT)}.all(${javaArgs(outputs, indent)})`, output: true };
      }
      return {
        code: `${p.use("java.util.List")}.of(${javaArgs(
          items.map((x) => x.code),
          indent,
        )})`,
        output: false,
      };
    }
    if (typeof v === "object") {
      const t = untyped ? undefined : typeOfRef(spec);
      if (t) {
        const props = this.typeProps(spec!);
        const builder = `${p.use(`${this.javaPackage()}.inputs.${t}Args`)}.builder()`;
        return { code: this.javaBuilder(p, builder, v, props, indent), output: false };
      }
      if (!untyped && spec.type !== "object") throw new Error(`examples: a map for ${JSON.stringify(spec)}`);
      // A map: its keys are data, as they are.
      const inner = `${indent}    `;
      const value = untyped ? undefined : spec.additionalProperties;
      const entries = Object.entries(v).map(([k, x]) => ({
        key: JSON.stringify(k),
        ...this.java(p, x, value, inner),
      }));
      if (entries.some((x) => x.output)) {
        const puts = entries.map((x) => `\n${inner}.put(${x.key}, ${x.code})`).join("");
        const type = this.javaType(p, value);
        return { code: `${p.use(OUTPUT)}.<${type}>mapBuilder()${puts}\n${inner}.build()`, output: true };
      }
      const map = p.use("java.util.Map");
      if (entries.length > 10) {
        const all = entries.map((x) => `${map}.entry(${x.key}, ${x.code})`);
        return { code: `${map}.ofEntries(${javaArgs(all, indent)})`, output: false };
      }
      return {
        code: `${map}.of(${javaArgs(
          entries.map((x) => `${x.key}, ${x.code}`),
          indent,
        )})`,
        output: false,
      };
    }
    if (typeof v === "number") {
      if (spec?.type === "integer" && !Number.isInteger(v)) throw new Error(`examples: ${v} is no integer`);
      if (spec?.type === "number") return { code: Number.isInteger(v) ? `${v}.0` : `${v}`, output: false };
      return { code: `${v}`, output: false };
    }
    return { code: JSON.stringify(v), output: false };
  }

  /** `<builder>` with one setter per input, then `.build()`: the SDK's builders take a plain value or an Output. */
  private javaBuilder(
    p: JavaProgram,
    builder: string,
    o: Record<string, Value>,
    props: Record<string, PropertySpec>,
    indent: string,
  ): string {
    const inner = `${indent}    `;
    const setters = Object.entries(o).map(([k, x]) => {
      const spec = props[k];
      if (!spec) throw new Error(`examples: no property ${k} (Java)`);
      const setter = javaSetter(k);
      // A list of plain values is the setter's varargs (`.ports("22", "443")`).
      if (Array.isArray(x) && x.length && spec.type === "array") {
        const items = x.map((i) => this.java(p, i, spec.items, `${inner}    `));
        if (!items.some((i) => i.output))
          return `\n${inner}.${setter}(${javaArgs(
            items.map((i) => i.code),
            inner,
          )})`;
      }
      return `\n${inner}.${setter}(${this.java(p, x, spec, inner).code})`;
    });
    return `${builder}${setters.join("")}\n${inner}.build()`;
  }

  /** The Java program: a class `App` of package `pkg` whose `stack` declares the example (Pulumi.run(App::stack)). */
  javaProgram(e: Example, pkg: string): string {
    const p = new JavaProgram(e);
    const sdk = this.javaPackage();
    const indent = "        ";
    const statements: string[] = [];
    if (this.configKeys(e).length) statements.push("var config = ctx.config();");
    for (const r of e.resources ?? []) {
      const kind = p.use(`${sdk}.${javaClass(r.kind)}`);
      const args = Object.keys(r.inputs).length
        ? `, ${this.javaBuilder(p, `${p.use(`${sdk}.${javaClass(r.kind)}Args`)}.builder()`, r.inputs, this.resourceInputs(r.kind), indent)}`
        : "";
      statements.push(`var ${p.local(r.name)} = new ${kind}(${JSON.stringify(r.name)}${args});`);
    }
    for (const c of e.calls ?? []) {
      const { spec } = this.fn(c.fn);
      const functions = p.use(`${sdk}.${javaClass(this.schema.name)}Functions`);
      const args =
        c.args && Object.keys(c.args).length
          ? this.javaBuilder(
              p,
              `${p.use(`${sdk}.inputs.${javaClass(c.fn)}Args`)}.builder()`,
              c.args,
              spec.inputs?.properties ?? {},
              indent,
            )
          : "";
      statements.push(`var ${p.local(c.name)} = ${functions}.${javaIdent(c.fn)}(${args});`);
    }
    const exports = Object.entries(e.outputs ?? {}).map(
      ([name, r]) => `${indent}ctx.export(${JSON.stringify(name)}, ${this.javaRef(p, r, "export")});`,
    );
    // Each statement's first line at the method's indentation (the builders' lines are already indented).
    const blocks = statements.map((s) => `${indent}${s}`);
    if (exports.length) blocks.push(exports.join("\n"));
    const body = blocks.join("\n\n");
    return [
      `package ${pkg};`,
      "",
      p
        .imports()
        .map((i) => `import ${i};`)
        .join("\n"),
      "",
      "public class App {",
      "    public static void main(String[] args) {",
      "        Pulumi.run(App::stack);",
      "    }",
      "",
      "    public static void stack(Context ctx) {",
      body,
      "    }",
      "}",
      "",
    ].join("\n");
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
      case "java":
        return this.javaProgram(e, "myproject");
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
