/**
 * Extracts facts from the service's own OpenAPI document (the reference's `shared/management/http/api/openapi.yml`)
 * for the conformance test (tests/unit/reference-conformance.test.ts): per operation, its success status codes
 * and, for its request body and its success answer, which fields are required and which exist, at every depth.
 * Facts only: no descriptions, no examples, no text of the document.
 *
 *   node dist/scripts/reference-facts.js --document FILE --tag v0.77.1 --family NAME --prefix /api/reverse-proxies
 *     [--prefix ...]
 *
 * writes tests/fixtures/reference/NAME.json. The document is read from wherever it is given (a fetched copy of the
 * service's repository); the tests read only the committed fixture, so nothing outside the repository is needed
 * to run them. Re-run when the service's version changes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { root } from "./format";

type Json = Record<string, unknown>;

/** Required and existing fields of one object of a schema, by its path (`""`, `targets[]`, `auth.password_auth`). */
export interface ObjectFacts {
  required: string[];
  properties: string[];
}

export interface OperationFacts {
  method: string;
  path: string;
  /** The 2xx status codes the document gives. */
  success: number[];
  /** The request body's objects, when there is one. */
  request?: Record<string, ObjectFacts>;
  /** The first success answer's objects (array answers: their items), when it has a schema. */
  response?: Record<string, ObjectFacts>;
}

export interface FactsFile {
  source: string;
  /** The service's release the document was taken from. */
  tag: string;
  operations: OperationFacts[];
}

function isJson(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Follows `$ref`s and merges `allOf` parts into one object schema. */
function resolve(doc: Json, schema: unknown, seen = new Set<string>()): Json {
  if (!isJson(schema)) return {};
  const ref = schema.$ref;
  if (typeof ref === "string") {
    if (seen.has(ref)) return {};
    const target = ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((o, k) => (isJson(o) ? o[k] : undefined), doc);
    return resolve(doc, target, new Set([...seen, ref]));
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((p) => resolve(doc, p, seen));
    return {
      type: "object",
      properties: Object.assign({}, ...parts.map((p) => (isJson(p.properties) ? p.properties : {}))),
      required: parts.flatMap((p) => (Array.isArray(p.required) ? p.required : [])),
    };
  }
  return schema;
}

/** The facts of every object reachable from `schema`, by path. */
function objects(doc: Json, schema: unknown, at: string, out: Record<string, ObjectFacts>, depth = 0): void {
  if (depth > 8) return;
  const s = resolve(doc, schema);
  if (s.type === "array" || s.items !== undefined) {
    objects(doc, s.items, `${at}[]`, out, depth + 1);
    return;
  }
  if (!isJson(s.properties)) return;
  out[at] = {
    required: (Array.isArray(s.required) ? (s.required as string[]) : []).slice().sort(),
    properties: Object.keys(s.properties).sort(),
  };
  for (const [name, prop] of Object.entries(s.properties))
    objects(doc, prop, at === "" ? name : `${at}.${name}`, out, depth + 1);
}

function bodySchema(doc: Json, holder: unknown): unknown {
  const content = isJson(holder) ? resolve(doc, holder).content : undefined;
  const json = isJson(content) ? content["application/json"] : undefined;
  return isJson(json) ? json.schema : undefined;
}

/** The facts of the document's operations under the given path prefixes. */
export function extractFacts(doc: Json, prefixes: readonly string[]): OperationFacts[] {
  const out: OperationFacts[] = [];
  const paths = isJson(doc.paths) ? doc.paths : {};
  for (const [p, item] of Object.entries(paths)) {
    if (!prefixes.some((x) => p === x || p.startsWith(`${x}/`)) || !isJson(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "put", "delete", "patch"].includes(method) || !isJson(op)) continue;
      const responses = isJson(op.responses) ? op.responses : {};
      const success = Object.keys(responses)
        .filter((c) => /^2\d\d$/.test(c))
        .map(Number)
        .sort();
      const facts: OperationFacts = { method: method.toUpperCase(), path: p, success };
      const req = bodySchema(doc, op.requestBody);
      if (req !== undefined) objects(doc, req, "", (facts.request = {}));
      const first = success[0];
      const res = first === undefined ? undefined : bodySchema(doc, responses[String(first)]);
      if (res !== undefined) {
        facts.response = {};
        objects(doc, res, "", facts.response);
      }
      out.push(facts);
    }
  }
  return out.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

function main(argv: string[]): void {
  let document: string | undefined;
  let family: string | undefined;
  let tag: string | undefined;
  const prefixes: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const v = argv[++i];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    if (flag === "--document") document = v;
    else if (flag === "--family") family = v;
    else if (flag === "--tag") tag = v;
    else if (flag === "--prefix") prefixes.push(v);
    else throw new Error(`unknown argument ${flag}`);
  }
  if (!document || !family || !tag || !prefixes.length)
    throw new Error(
      "usage: reference-facts --document FILE --tag TAG --family NAME --prefix PATH [--prefix PATH]...",
    );
  const doc = YAML.parse(fs.readFileSync(document, "utf8"), { maxAliasCount: -1 }) as Json;
  const facts: FactsFile = {
    source: "the service's OpenAPI document (shared/management/http/api/openapi.yml)",
    tag,
    operations: extractFacts(doc, prefixes),
  };
  const file = path.join(root, "tests", "fixtures", "reference", `${family}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(facts, null, 2)}\n`);
  process.stdout.write(
    `reference-facts: ${facts.operations.length} operations -> ${path.relative(root, file)}\n`,
  );
}

if (require.main === module) main(process.argv.slice(2));
