/**
 * The generated program (index.ts) from a {@link Plan}: lookups first, then one section per kind with a comment
 * line, one `const` per object, references to other objects as expressions (`sources: [engineering.id]`), secrets
 * from stack config. The text is formatted with prettier's API (its default options, so `prettier --check` in the
 * project passes).
 */
import * as estree from "prettier/plugins/estree";
import * as markdown from "prettier/plugins/markdown";
import * as typescript from "prettier/plugins/typescript";
import * as prettier from "prettier/standalone";
import type { Plan, PlannedResource } from "./plan";
import { Commented, SecretValue } from "./plan";
import type { Props } from "../provider/spec";
import { kindOf, recordValueOf, shapeOf, elementOf, camel } from "../model/schema";
import { token } from "../model/hidden-inputs";
import type { z } from "zod";
import { visibleText } from "../api/common";

const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

function key(k: string): string {
  return IDENTIFIER.test(k) ? k : visibleText(JSON.stringify(k));
}

interface RenderContext {
  plan: Plan;
  resource: PlannedResource;
  /** Set when the program needs `pulumi` (config secrets, pulumi.all). */
  usesPulumi: { value: boolean };
}

function ref(ctx: RenderContext, s: string): string | undefined {
  if (ctx.resource.spec.name === "Peer" && s === ctx.resource.found.id) return undefined; // its own peerId
  return ctx.plan.refs.get(s);
}

/** A parameter name for a reference used as a record key (`engineering.id` -> `engineeringId`). */
function paramOf(expression: string): string {
  return expression.endsWith(".id") ? `${expression.slice(0, -3)}Id` : expression;
}

function render(value: unknown, schema: z.ZodType | undefined, ctx: RenderContext): string {
  if (value instanceof SecretValue) {
    ctx.usesPulumi.value = true;
    const k = ctx.plan.secretKeys.get(`${ctx.resource.found.id} ${value.field}`);
    if (!k) throw new Error(`privnet-import: no config key for the secret ${value.field}`);
    return `config.${value.secret ? "requireSecret" : "require"}(${JSON.stringify(k)})`;
  }
  if (value instanceof Commented) return render(value.value, schema, ctx);
  if (value === null || value === undefined) return "undefined";
  // A name with a bidi override or an invisible character is written escaped: the program reads as it is.
  if (typeof value === "string") return ref(ctx, value) ?? visibleText(JSON.stringify(value));
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    const el = schema ? elementOf(schema) : undefined;
    return `[${value.map((v) => render(v, el, ctx)).join(", ")}]`;
  }
  const entries = Object.entries(value as Props);
  const isRecord = schema !== undefined && kindOf(schema) === "record";
  if (isRecord) {
    const vs = recordValueOf(schema);
    const keyRefs = entries.map(([k]) => ref(ctx, k));
    const body = entries
      .map(([k, v], i) => {
        const r = keyRefs[i];
        return `${r ? `[${paramOf(r)}]` : key(k)}: ${render(v, vs, ctx)},`;
      })
      .join(" ");
    const used = keyRefs.filter((r): r is string => r !== undefined);
    if (used.length === 0) return `{ ${body} }`;
    // Ids as keys: known only when the objects exist, so the record is built from their outputs.
    ctx.usesPulumi.value = true;
    return `pulumi.all([${used.join(", ")}]).apply(([${used.map(paramOf).join(", ")}]) => ({ ${body} }))`;
  }
  const shape = schema ? (shapeOf(schema) ?? {}) : {};
  const byCamel = new Map(Object.entries(shape).map(([k, s]) => [camel(k), s]));
  return `{ ${entries.map(([k, v]) => `${key(k)}: ${render(v, byCamel.get(k), ctx)},`).join(" ")} }`;
}

/** Text for a `//` comment: one line whatever it holds (JavaScript also ends a line at U+2028 and U+2029). */
export function commentText(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, " ");
}

function entry(k: string, v: unknown, schema: z.ZodType | undefined, ctx: RenderContext): string {
  const line = `${key(k)}: ${render(v, schema, ctx)},`;
  return v instanceof Commented ? `${line} // ${commentText(v.comment)}` : line;
}

function resourceStatement(r: PlannedResource, plan: Plan, usesPulumi: { value: boolean }): string {
  const ctx: RenderContext = { plan, resource: r, usesPulumi };
  const shape = r.spec.input.shape as Record<string, z.ZodType>;
  const byCamel = new Map(Object.entries(shape).map(([k, s]) => [camel(k), s]));
  const parents = (r.spec.parents ?? []).map((p) => p.input);
  const names = [...parents, ...Object.keys(r.inputs).filter((n) => !parents.includes(n))];
  const lines: string[] = [];
  if (r.adoptId !== undefined) lines.push(`adoptId: ${JSON.stringify(r.adoptId)},`);
  for (const n of names)
    if (r.inputs[n] !== undefined) lines.push(entry(n, r.inputs[n], byCamel.get(n), ctx));
  const args = lines.length ? `{\n${lines.join("\n")}\n}` : "{}";
  const note = r.referencedOnly ? " // referred to by the objects asked for" : "";
  return `const ${r.varName} = new privnet.${r.spec.name}(${JSON.stringify(r.resourceName)}, ${args});${note}`;
}

export interface ProgramMeta {
  apiUrl: string;
}

/** index.ts before formatting. */
export function renderProgram(plan: Plan, meta: ProgramMeta): string {
  const usesPulumi = { value: false };
  const body: string[] = [];
  if (plan.lookups.length) {
    body.push("// Looked up, not managed: the built-in All group and the enrolled peers referred to");
    for (const l of plan.lookups)
      body.push(`const ${l.varName} = ${l.expression};${l.comment ? ` // ${commentText(l.comment)}` : ""}`);
    body.push("");
  }
  for (const s of plan.sections) {
    body.push(`// ${s.def.title}`);
    for (const r of s.resources) body.push(resourceStatement(r, plan, usesPulumi));
    body.push("");
  }
  const count = plan.sections.reduce((n, s) => n + s.resources.length, 0);
  const head = [
    `// Generated by privnet-import from ${meta.apiUrl}: ${count} objects of the account, adopted as they are.`,
    "// On the first `pulumi up` each resource reads its object (by `adoptId`; singletons and peers by themselves)",
    "// and updates it to match this program, keeping its id: nothing is created. From then on they are ordinary",
    "// resources: edit this file to change them, and `pulumi destroy` deletes them. See README.md.",
    ...(usesPulumi.value || plan.secrets.length ? [`import * as pulumi from "@pulumi/pulumi";`] : []),
    `import * as privnet from "pulumi-privnet";`,
    "",
    ...(plan.secrets.length
      ? [
          "// Values the API never returns: set each with `pulumi config set [--secret] <key>` (README.md).",
          "const config = new pulumi.Config();",
          "",
        ]
      : []),
  ];
  return `${[...head, ...body].join("\n").trimEnd()}\n`;
}

/**
 * Formats TypeScript with prettier's defaults. The standalone build with its parser plugins: the same formatter
 * as the prettier command, loadable with `require` (the main entry point loads ES modules dynamically).
 */
export async function formatTypeScript(text: string): Promise<string> {
  return prettier.format(text, { parser: "typescript", plugins: [estree, typescript] });
}

/** Whether prettier (its defaults) would leave a TypeScript text unchanged. */
export async function isFormatted(text: string): Promise<boolean> {
  return prettier.check(text, { parser: "typescript", plugins: [estree, typescript] });
}

/** Formats Markdown with prettier's defaults. */
export async function formatMarkdown(text: string): Promise<string> {
  return prettier.format(text, { parser: "markdown", plugins: [markdown] });
}

/**
 * Ids of other objects written literally in a program: for each object the plan refers to, occurrences of its
 * id as a string literal beyond its own `adoptId` (or a peer's `peerId`). Empty for a correct program.
 */
export function literalIds(text: string, plan: Plan): string[] {
  // How often each id may appear: once per resource it is the own id of (a peer's id is also its EDR bypass').
  const own = new Map<string, number>();
  for (const s of plan.sections)
    for (const r of s.resources)
      if (r.adoptId !== undefined || r.spec.name === "Peer")
        own.set(r.found.id, (own.get(r.found.id) ?? 0) + 1);
  const out: string[] = [];
  for (const id of plan.refs.keys()) {
    if (id === "") continue;
    const count = text.split(JSON.stringify(id)).length - 1;
    if (count > (own.get(id) ?? 0)) out.push(id);
  }
  return out;
}

/** One entry of a `pulumi import --file` file. */
export interface ImportFileEntry {
  /** The resource plugin's type token: `privnet:index:Group`. */
  type: string;
  /** The resource name, as in the TypeScript program. */
  name: string;
  /** The id `pulumi import` takes: the object's id, `<parentId>/<id>` for a child kind, a singleton's id. */
  id: string;
}

/**
 * The import file for `pulumi import --file import.json` (any Pulumi language, through the resource plugin): one
 * entry per resource of the plan, in the program's order (objects before those that refer to them).
 */
export function renderImportFile(plan: Plan): string {
  const resources: ImportFileEntry[] = [];
  for (const section of plan.sections) {
    for (const r of section.resources) {
      const parents = r.spec.parents ?? [];
      // A peer is its own parent (`peerId`): its id alone.
      const parentIds = r.spec.name === "Peer" ? [] : parents.map((p) => r.found.parents[p.input] ?? "");
      resources.push({
        type: token(r.spec.name),
        name: r.resourceName,
        id: [...parentIds, r.found.id].join("/"),
      });
    }
  }
  return `${JSON.stringify({ resources }, null, 2)}\n`;
}
