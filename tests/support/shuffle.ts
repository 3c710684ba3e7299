/** Inputs with every id list reordered: a diff must not see a change in them (the service treats them as sets). */
import type { z } from "zod";
import { isIdList } from "../../provider/normalize";
import { camel, elementOf, kindOf, shapeOf } from "../../model/schema";
import type { Props, ResourceSpec } from "../../provider/spec";

/**
 * A copy of `value` with every id list reversed, at any depth (a policy rule's sources too), found from the
 * input schema; `sets` are further top-level lists the spec compares as sets.
 */
function shuffled(value: unknown, schema: z.ZodType, sets: string[] = []): unknown {
  if (Array.isArray(value)) {
    const el = elementOf(schema);
    const items = el ? value.map((v) => shuffled(v, el)) : value;
    return isIdList(schema) ? [...items].reverse() : items;
  }
  if (value && typeof value === "object" && kindOf(schema) === "object") {
    const shape = shapeOf(schema) ?? {};
    const out: Props = { ...(value as Props) };
    for (const [k, s] of Object.entries(shape)) {
      const c = camel(k);
      if (out[c] === undefined) continue;
      out[c] = shuffled(out[c], s);
      if (sets.includes(c) && Array.isArray(out[c])) out[c] = [...(out[c] as unknown[])].reverse();
    }
    return out;
  }
  return value;
}

/** The inputs of a spec with their id lists (and the spec's set lists) reversed. */
export function shuffledInputs(spec: ResourceSpec, inputs: Props): Props {
  return shuffled(inputs, spec.input, spec.setLists ?? []) as Props;
}
