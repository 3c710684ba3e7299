/**
 * Extracts facts (no text) from the service's own OpenAPI document for the families this project serves beyond
 * its spec, into tests/fixtures/service-openapi/facts.json, which tests/unit/service-conformance.test.ts compares
 * with our generated document. Per operation: the success status codes, and of the request and response bodies
 * whether there is one, whether it is a list, their required fields and their field names, and those of every
 * object nested in them (scripts/body-facts.ts, the same walk the test makes of ours). Descriptions,
 * examples and summaries are left out: the document is a source of facts, not of text.
 *
 *   node dist/scripts/service-facts.js <openapi.yml> [--tag v0.77.1]
 *
 * The document comes from a checkout of the service's repository (shared/management/http/api/openapi.yml at the
 * tag named), e.g. `git -C <mirror> show v0.77.1:shared/management/http/api/openapi.yml > /tmp/openapi.yml`.
 * The tests never read it: a clone with nothing beside it checks against the committed facts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { nestedOf, objectOf, type BodyFacts } from "./body-facts";
import { formatted, root } from "./format";

export type { BodyFacts, ObjectFacts } from "./body-facts";

/** The paths whose operations are extracted: the families served beyond the spec (a prefix each). */
export const SERVICE_PATH_PREFIXES = [
  "/api/integrations/scim-idp",
  "/api/integrations/okta-scim-idp",
  "/api/integrations/notifications/",
  "/api/reverse-proxies/",
  "/api/agent-network/",
];

export const FACTS_FILE = path.join(root, "tests", "fixtures", "service-openapi", "facts.json");

type Json = Record<string, unknown>;

export interface OperationFacts {
  success: string[];
  request: BodyFacts | null;
  response: BodyFacts | null;
}

export interface ServiceFacts {
  source: string;
  prefixes: string[];
  operations: Record<string, OperationFacts>;
}

function resolver(doc: Json) {
  const deref = (s: unknown): Json => {
    let cur = s as Json;
    for (let i = 0; i < 20 && typeof cur?.$ref === "string"; i++) {
      const parts = (cur.$ref as string).replace(/^#\//, "").split("/");
      cur = parts.reduce<Json>((o, p) => (o?.[p] ?? {}) as Json, doc);
    }
    return cur ?? {};
  };
  const body = (schema: unknown): BodyFacts | null => {
    if (schema === undefined) return null;
    const s = deref(schema);
    const list = s.type === "array";
    const f = objectOf(list ? s.items : s, deref);
    return {
      list,
      required: [...f.required].sort(),
      properties: [...f.properties.keys()].sort(),
      nested: nestedOf(f.properties, deref),
    };
  };
  return { deref, body };
}

export function extractFacts(doc: Json, source: string): ServiceFacts {
  const { deref, body } = resolver(doc);
  const operations: Record<string, OperationFacts> = {};
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  for (const p of Object.keys(paths).sort()) {
    if (!SERVICE_PATH_PREFIXES.some((prefix) => p.startsWith(prefix))) continue;
    for (const method of ["get", "post", "put", "delete"]) {
      const op = paths[p]?.[method] as Json | undefined;
      if (!op) continue;
      const responses = (op.responses ?? {}) as Record<string, unknown>;
      const success = Object.keys(responses)
        .filter((c) => /^2\d\d$/.test(c))
        .sort();
      const ok = deref(responses[success[0] ?? ""]);
      const json = (x: Json) => (x.content as Json | undefined)?.["application/json"] as Json | undefined;
      const requestBody = op.requestBody ? deref(op.requestBody) : undefined;
      operations[`${method.toUpperCase()} ${p}`] = {
        success,
        request: requestBody ? body(json(requestBody)?.schema) : null,
        response: body(json(ok)?.schema),
      };
    }
  }
  return { source, prefixes: SERVICE_PATH_PREFIXES, operations };
}

async function main(): Promise<void> {
  const [file] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const tagAt = process.argv.indexOf("--tag");
  const tag = tagAt > 0 ? process.argv[tagAt + 1] : "v0.77.1";
  if (!file) {
    process.stderr.write("usage: node dist/scripts/service-facts.js <openapi.yml> [--tag v0.77.1]\n");
    process.exit(2);
  }
  const doc = parse(fs.readFileSync(file, "utf8")) as Json;
  const facts = extractFacts(doc, `the service's OpenAPI document at ${tag}`);
  fs.mkdirSync(path.dirname(FACTS_FILE), { recursive: true });
  const rel = path.relative(root, FACTS_FILE);
  const text = (await formatted(new Map([[rel, `${JSON.stringify(facts, null, 2)}\n`]]))).get(rel) as string;
  fs.writeFileSync(FACTS_FILE, text);
  process.stdout.write(`${Object.keys(facts.operations).length} operations -> ${FACTS_FILE}\n`);
}

if (require.main === module)
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
