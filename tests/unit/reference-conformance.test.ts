/**
 * Conformance with the service's own API document, for the operations taken from it (tests/fixtures/reference,
 * extracted by scripts/reference-facts.ts): the generated docs/openapi.json answers with the same success status
 * and has, in every object of the request body and of the success answer, the same required fields and the same
 * fields. The facts are read from the repository, never from the document itself.
 *
 * Where the document is wrong about the service it describes, the difference is listed below with what running
 * the service showed; nothing else may differ.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { referenceOperations, type ObjectFacts } from "../support/spec";

type Json = Record<string, unknown>;

const doc = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../docs/openapi.json"), "utf8")) as {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
};

/** Differences from the document, by `METHOD path` and what they concern, with the reason. */
const KNOWN: Record<string, { part: "response"; reason: string }> = {
  "POST /api/reverse-proxies/domains": {
    part: "response",
    reason:
      "the document names a service as the answer to a domain's create; the service answers the new domain " +
      "(checked by running v0.77.1: {id, domain, target_cluster, type, validated})",
  },
};

function isJson(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function resolve(schema: unknown): Json {
  if (!isJson(schema)) return {};
  const ref = schema.$ref;
  if (typeof ref === "string") return resolve(doc.components.schemas[ref.split("/").pop() as string]);
  // An optional member may come as `anyOf: [X, null]`-like wrappers: take the one object among them.
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const parts = schema[key];
    if (Array.isArray(parts)) {
      const objects = parts.map(resolve).filter((p) => isJson(p.properties) || p.type === "array");
      if (objects.length === 1) return objects[0] as Json;
    }
  }
  return schema;
}

/** The same facts as scripts/reference-facts.ts extracts, from our generated schema. */
function objects(schema: unknown, at: string, out: Record<string, ObjectFacts>, depth = 0): void {
  if (depth > 8) return;
  const s = resolve(schema);
  if (s.type === "array") {
    objects(s.items, `${at}[]`, out, depth + 1);
    return;
  }
  if (!isJson(s.properties)) return;
  out[at] = {
    required: (Array.isArray(s.required) ? (s.required as string[]) : []).slice().sort(),
    properties: Object.keys(s.properties).sort(),
  };
  for (const [name, prop] of Object.entries(s.properties))
    objects(prop, at === "" ? name : `${at}.${name}`, out, depth + 1);
}

function bodyFacts(holder: unknown): Record<string, ObjectFacts> | undefined {
  const content = isJson(holder) && isJson(holder.content) ? holder.content : undefined;
  const json = content?.["application/json"];
  if (!isJson(json)) return undefined;
  const out: Record<string, ObjectFacts> = {};
  objects(json.schema, "", out);
  return out;
}

/** Where two fact maps disagree, over the objects both have (one side's extra nesting is a fields difference). */
function disagreements(theirs: Record<string, ObjectFacts>, ours: Record<string, ObjectFacts>): string[] {
  const out: string[] = [];
  for (const [at, t] of Object.entries(theirs)) {
    const o = ours[at];
    const where = at === "" ? "(body)" : at;
    if (!o) {
      out.push(`${where}: no such object in ours`);
      continue;
    }
    if (t.required.join() !== o.required.join())
      out.push(`${where}: required [${t.required.join(", ")}] vs ours [${o.required.join(", ")}]`);
    if (t.properties.join() !== o.properties.join())
      out.push(`${where}: fields [${t.properties.join(", ")}] vs ours [${o.properties.join(", ")}]`);
  }
  return out;
}

const operations = referenceOperations();

describe("conformance with the service's own API document", () => {
  test("there are facts to compare with (tests/fixtures/reference)", () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  test.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))("%s", (key, facts) => {
    const op = doc.paths[facts.path]?.[facts.method.toLowerCase()];
    expect(op).toBeDefined();
    const responses = (op?.responses ?? {}) as Record<string, Json>;
    const ours = Object.keys(responses)
      .filter((c) => /^2\d\d$/.test(c))
      .map(Number);
    expect({ success: ours }).toEqual({ success: facts.success });
    const problems: string[] = [];
    if (facts.request) {
      const mine = bodyFacts(op?.requestBody);
      if (!mine) problems.push("request: ours has no body schema");
      else problems.push(...disagreements(facts.request, mine).map((d) => `request ${d}`));
    }
    if (facts.response && KNOWN[key]?.part !== "response") {
      const mine = bodyFacts(responses[String(facts.success[0])]);
      if (!mine) problems.push("response: ours has no body schema");
      else problems.push(...disagreements(facts.response, mine).map((d) => `response ${d}`));
    }
    expect(problems).toEqual([]);
  });

  test("every known difference is still one (a fixed document or schema removes its entry)", () => {
    for (const [key, { reason }] of Object.entries(KNOWN)) {
      const [method, p] = key.split(" ") as [string, string];
      const facts = operations.find((o) => o.method === method && o.path === p);
      expect(facts?.response).toBeDefined();
      const ours = bodyFacts(
        (doc.paths[p]?.[method.toLowerCase()]?.responses as Record<string, Json>)[String(facts?.success[0])],
      );
      expect({ key, reason, differs: disagreements(facts?.response ?? {}, ours ?? {}).length > 0 }).toEqual({
        key,
        reason,
        differs: true,
      });
    }
  });
});
