/**
 * A number where a kind's schema has a string is taken as its decimal text by check, for every kind and at any
 * depth: Pulumi YAML turns a digits-only config value into a number even when the config is declared a string
 * (`pin: ${pin}` with pin 123456), and bridged providers take such a number as its text. Check answers the inputs
 * with the text, so diff, create and update see a string; both hostings call this one check (the resource plugin's
 * Check and the dynamic providers' check). Table-driven from the registry.
 */
import { elementOf, kindOf, shapeOf, camel } from "../../model/schema";
import { ADOPT_INPUT, checkSchema } from "../../provider/lifecycle";
import { PROVIDERS } from "../../provider/registry";
import type { Props } from "../../provider/spec";
import type { z } from "zod";

const DIGITS = 2024;

/** A value of `schema` with DIGITS at every string leaf (objects, and one element of each list), and those paths. */
function numbered(schema: z.ZodType, at: string, depth: number, paths: string[]): unknown {
  const kind = kindOf(schema);
  if (kind === "string") {
    paths.push(at);
    return DIGITS;
  }
  if (depth > 4) return undefined;
  if (kind === "object") {
    const out: Props = {};
    for (const [k, s] of Object.entries(shapeOf(schema) ?? {})) {
      const v = numbered(s, at ? `${at}.${camel(k)}` : camel(k), depth + 1, paths);
      if (v !== undefined) out[camel(k)] = v;
    }
    return out;
  }
  if (kind === "array") {
    const el = elementOf(schema);
    const v = el ? numbered(el, `${at}[0]`, depth + 1, paths) : undefined;
    return v === undefined ? undefined : [v];
  }
  return undefined;
}

function valueAt(v: unknown, path: string): unknown {
  let cur = v;
  for (const seg of path.split(/\.|\[(\d+)\]/).filter((s) => s !== undefined && s !== "")) {
    cur = cur === null || typeof cur !== "object" ? undefined : (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

describe.each(PROVIDERS.map((p) => [p.spec.name, p] as const))("%s", (_name, provider) => {
  test("every string input given as a number is checked and answered as its decimal text", async () => {
    const paths: string[] = [];
    const news = numbered(checkSchema(provider.spec), "", 0, paths) as Props;
    news[ADOPT_INPUT] = DIGITS;
    paths.push(ADOPT_INPUT);
    const result = await provider.check({}, news);
    for (const p of paths) expect([p, valueAt(result.inputs, p)]).toEqual([p, String(DIGITS)]);
    // Other rules may refuse "2024" (not an address, not one of a set), but not for being a number.
    for (const f of result.failures ?? []) expect(f.reason).not.toMatch(/must be a string|expected string/i);
  });
});

test("a number whose text is not its digits any more (beyond 2^53) is refused, named as a number", async () => {
  const group = PROVIDERS.find((p) => p.spec.name === "Group")!;
  const exact = await group.check({}, { name: 9007199254740991 });
  expect(exact.inputs?.name).toBe("9007199254740991");
  expect(exact.failures).toEqual([]);
  // What Pulumi YAML hands over for the config value 12345678901234567890 (ParseFloat: the last digits are lost).
  const lossy = await group.check({}, { name: Number("12345678901234567890") });
  expect(lossy.failures).toEqual([
    {
      property: "name",
      reason: expect.stringMatching(
        /^name: must be a string \(got the number 12345678901234567000: a number this large no longer holds/,
      ),
    },
  ]);
});
