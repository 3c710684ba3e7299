/**
 * Every resource kind (provider/registry.ts) and every lookup (sdk/lookups/table.ts) has its example
 * (scripts/examples), which the schema's descriptions, the SDKs' doc comments and docs/api show in each language;
 * a kind or a lookup without one is named here. tests/e2e/api-examples.test.ts compiles and runs them.
 */
import { FUNCTION_EXAMPLES } from "../../scripts/examples/functions";
import { RESOURCE_EXAMPLES } from "../../scripts/examples/resources";
import { PROVIDERS } from "../../provider/registry";
import { LOOKUP_SPECS } from "../../sdk/lookups/table";

describe("examples", () => {
  it("every resource kind has one", () => {
    const missing = PROVIDERS.map((p) => p.spec.name).filter((k) => !(k in RESOURCE_EXAMPLES));
    expect(missing.map((k) => `${k}: no example in scripts/examples/resources.ts`)).toEqual([]);
  });

  it("every lookup has one", () => {
    const missing = LOOKUP_SPECS.map((l) => l.name).filter((f) => !(f in FUNCTION_EXAMPLES));
    expect(missing.map((f) => `${f}: no example in scripts/examples/functions.ts`)).toEqual([]);
  });

  it("none is for a kind or a lookup that does not exist", () => {
    const kinds = new Set(PROVIDERS.map((p) => p.spec.name));
    const lookups = new Set(LOOKUP_SPECS.map((l) => l.name));
    expect(Object.keys(RESOURCE_EXAMPLES).filter((k) => !kinds.has(k))).toEqual([]);
    expect(Object.keys(FUNCTION_EXAMPLES).filter((f) => !lookups.has(f))).toEqual([]);
  });

  it("each example of a kind declares the kind, and each example of a lookup calls it", () => {
    for (const [kind, e] of Object.entries(RESOURCE_EXAMPLES)) {
      expect([kind, (e.resources ?? []).some((r) => r.kind === kind)]).toEqual([kind, true]);
    }
    for (const [fn, e] of Object.entries(FUNCTION_EXAMPLES)) {
      expect([fn, (e.calls ?? []).some((c) => c.fn === fn)]).toEqual([fn, true]);
    }
  });
});
