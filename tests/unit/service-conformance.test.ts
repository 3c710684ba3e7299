/**
 * Conformance with the service's own OpenAPI document, for the operations we serve beyond the spec: our generated
 * document (api/openapi.ts, the same as docs/openapi.json) has each operation of the facts extracted from the
 * service's document (tests/fixtures/service-openapi/facts.json, see scripts/service-facts.ts) with the same
 * success status, and request and response bodies of the same form (a list or an object) with the same required
 * fields and the same field names, in the body and in every object nested in it (`targets[]`, `auth.pin_auth`).
 *
 * Where the document is wrong about the service it describes, the difference is listed in {@link KNOWN} with what
 * running the service showed; nothing else may differ.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildOpenApi } from "../../api/openapi";
import { ROUTES } from "../../api/routes";
import { nestedOf, objectOf, type BodyFacts } from "../../scripts/body-facts";
import type { ServiceFacts } from "../../scripts/service-facts";
import { beyondSpecOperations } from "../support/spec";

type Json = Record<string, unknown>;

const facts = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, "../fixtures/service-openapi/facts.json"), "utf8"),
) as ServiceFacts;
const doc = buildOpenApi("conformance") as {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
};

/** Where the service answers otherwise than its document says (checked by running v0.77.1), by operation. */
const KNOWN: Record<string, { part: "response"; reason: string }> = {
  "POST /api/reverse-proxies/domains": {
    part: "response",
    reason:
      "the document names a service as the answer to a domain's create; the service answers the new domain " +
      "({id, domain, target_cluster, type, validated, ...})",
  },
  ...Object.fromEntries(
    [
      "DELETE /api/reverse-proxies/services/{serviceId}",
      "DELETE /api/reverse-proxies/proxy-tokens/{tokenId}",
      "DELETE /api/reverse-proxies/clusters/{clusterAddress}",
      "DELETE /api/agent-network/settings",
      "DELETE /api/agent-network/providers/{providerId}",
      "DELETE /api/agent-network/policies/{policyId}",
      "DELETE /api/agent-network/guardrails/{guardrailId}",
    ].map((k) => [
      k,
      {
        part: "response" as const,
        reason: "the document gives no body; the service answers 200 with {} as every other delete",
      },
    ]),
  ),
};

/**
 * Requests the service takes with less than its document requires (checked by running v0.77.1): it fills in what
 * is left out, so our schemas leave those fields optional. Field names must still agree, and every field we
 * require the document requires too.
 */
const LENIENT_REQUESTS: Record<string, string> = {
  ...Object.fromEntries(
    ["POST /api/agent-network/policies", "PUT /api/agent-network/policies/{policyId}"].map((k) => [
      k,
      "limits left out (or a limit given as {enabled: true} alone) read as both limits off with zeros",
    ]),
  ),
  ...Object.fromEntries(
    ["POST /api/agent-network/budget-rules", "PUT /api/agent-network/budget-rules/{ruleId}"].map((k) => [
      k,
      "a rule without limits is stored with both limits off; a limit's missing members read as 0 or false",
    ]),
  ),
  ...Object.fromEntries(
    ["POST /api/agent-network/guardrails", "PUT /api/agent-network/guardrails/{guardrailId}"].map((k) => [
      k,
      "checks left out, or partly given, are filled in off (an allowlist of no models, no capture)",
    ]),
  ),
  ...Object.fromEntries(
    ["POST /api/agent-network/providers", "PUT /api/agent-network/providers/{providerId}"].map((k) => [
      k,
      "a model without prices is stored with prices 0",
    ]),
  ),
  "PUT /api/agent-network/settings":
    "a replace without the toggles is taken, and the toggles left out become false (the retention 0)",
};

/** A body's facts without its required lists (for the requests above). */
function fieldsOnly(b: BodyFacts | null): unknown {
  if (!b) return b;
  return {
    ...b,
    required: [],
    nested: Object.fromEntries(Object.entries(b.nested).map(([k, v]) => [k, { ...v, required: [] }])),
  };
}

/** Every required list of ours is part of theirs. */
function requiresNoMore(mine: BodyFacts | null, theirs: BodyFacts | null): string[] {
  const extra = (a: string[], b: string[] | undefined) => a.filter((x) => !(b ?? []).includes(x));
  const out = extra(mine?.required ?? [], theirs?.required);
  for (const [k, v] of Object.entries(mine?.nested ?? {}))
    out.push(...extra(v.required, theirs?.nested[k]?.required).map((f) => `${k}.${f}`));
  return out;
}

function deref(s: unknown): Json {
  let cur = (s ?? {}) as Json;
  for (let i = 0; i < 20 && typeof cur.$ref === "string"; i++) {
    cur = doc.components.schemas[(cur.$ref as string).replace("#/components/schemas/", "")] ?? {};
  }
  return cur;
}

/** Our body in the facts' terms. */
function bodyFacts(schema: unknown): BodyFacts | null {
  if (schema === undefined) return null;
  const s = deref(schema);
  const list = s.type === "array";
  const o = objectOf(list ? s.items : s, deref);
  return {
    list,
    required: [...o.required].sort(),
    properties: [...o.properties.keys()].sort(),
    nested: nestedOf(o.properties, deref),
  };
}

function ours(key: string): { success: string[]; request: BodyFacts | null; response: BodyFacts | null } {
  const [method, p] = key.split(" ") as [string, string];
  const op = doc.paths[p]?.[method.toLowerCase()] as
    { requestBody?: Json; responses: Record<string, Json> } | undefined;
  if (!op) throw new Error(`${key}: not in our document`);
  const success = Object.keys(op.responses).filter((c) => /^2\d\d$/.test(c));
  const json = (x: Json | undefined) =>
    ((x?.content as Json | undefined)?.["application/json"] as Json | undefined)?.schema;
  return {
    success,
    request: op.requestBody ? bodyFacts(json(op.requestBody)) : null,
    response: bodyFacts(json(op.responses[success[0] ?? ""])),
  };
}

describe("conformance with the service's own OpenAPI document", () => {
  test("the facts cover exactly the operations served beyond the spec", () => {
    expect(Object.keys(facts.operations).sort()).toEqual(
      beyondSpecOperations()
        .map((o) => `${o.method} ${o.path}`)
        .sort(),
    );
    // Every route under the facts' paths is one of them (nothing of ours hides beside them).
    const under = ROUTES.filter((r) => facts.prefixes.some((p) => r.path.startsWith(p))).map(
      (r) => `${r.method} ${r.path}`,
    );
    expect(under.sort()).toEqual(Object.keys(facts.operations).sort());
  });

  test.each(Object.entries(facts.operations))("%s", (key, theirs) => {
    const mine = ours(key);
    expect({ success: mine.success }).toEqual({ success: theirs.success });
    if (LENIENT_REQUESTS[key]) {
      expect({ request: fieldsOnly(mine.request) }).toEqual({ request: fieldsOnly(theirs.request) });
      expect({ requiredBeyondTheDocument: requiresNoMore(mine.request, theirs.request) }).toEqual({
        requiredBeyondTheDocument: [],
      });
    } else expect({ request: mine.request }).toEqual({ request: theirs.request });
    if (KNOWN[key]?.part !== "response")
      expect({ response: mine.response }).toEqual({ response: theirs.response });
  });

  test("every known difference is still one (a fixed document or schema removes its entry)", () => {
    for (const [key, { reason }] of Object.entries(KNOWN)) {
      const theirs = facts.operations[key];
      expect({ key, known: theirs !== undefined }).toEqual({ key, known: true });
      const differs = JSON.stringify(ours(key).response) !== JSON.stringify(theirs?.response);
      expect({ key, reason, differs }).toEqual({ key, reason, differs: true });
    }
  });

  test("every lenient request still differs from the document in its required fields", () => {
    for (const [key, reason] of Object.entries(LENIENT_REQUESTS)) {
      const theirs = facts.operations[key];
      const differs = JSON.stringify(ours(key).request) !== JSON.stringify(theirs?.request);
      expect({ key, reason, differs }).toEqual({ key, reason, differs: true });
    }
  });

  test("the comparison sees a difference: a required field more or less fails it", () => {
    const key = "POST /api/integrations/scim-idp";
    const theirs = facts.operations[key] as ServiceFacts["operations"][string];
    const mine = ours(key);
    expect(mine.request?.required).toEqual(["prefix", "provider"]);
    expect(mine.request).not.toEqual({ ...theirs.request, required: ["prefix"] });
    expect(mine.response).not.toEqual({ ...theirs.response, required: [] });
    // ...and inside the body: a target's required fields.
    const svc = "POST /api/reverse-proxies/services";
    const their = (facts.operations[svc] as ServiceFacts["operations"][string]).request;
    const myService = ours(svc).request;
    expect(myService?.nested["targets[]"]?.required).toContain("target_id");
    expect(myService).toEqual(their);
    const nested = their?.nested ?? {};
    expect(myService).not.toEqual({
      ...their,
      nested: { ...nested, "targets[]": { ...nested["targets[]"], required: ["port"] } },
    });
  });
});
