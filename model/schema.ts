/**
 * Reading zod schemas structurally: the provider maps names, normalises values and finds id lists, the sdk's
 * lookups and the generators write types and docs, by walking the api/ schemas instead of repeating field lists
 * per resource. The walks are built on model/zod.ts, which alone reads zod's internals.
 */
import type { z } from "zod";
import {
  arrayElement,
  enumOrLiteralValues,
  isIntegerNumber,
  objectShape,
  pipeSides,
  recordValue,
  unionOptions,
  wrapped,
  zodKind,
  type Shape,
  type WrapperKind,
} from "./zod";

/** The wrappers {@link unwrap} looks through: they stand for their inner schema's value. */
const VALUE_WRAPPERS = new Set<WrapperKind>([
  "optional",
  "nullable",
  "default",
  "readonly",
  "prefault",
  "nonoptional",
  "catch",
]);

/**
 * Strips optional / nullable / default / readonly / pipe wrappers down to the value's schema, noting whether one
 * of them admits null.
 */
export function peel(s: z.ZodType): { schema: z.ZodType; nullable: boolean } {
  let cur = s;
  let nullable = false;
  for (let i = 0; i < 20; i++) {
    const w = wrapped(cur);
    const pipe = pipeSides(cur);
    if (w && VALUE_WRAPPERS.has(w.kind)) {
      if (w.kind === "nullable") nullable = true;
      cur = w.inner;
    } else if (pipe) {
      // z.coerce.number().pipe(int) and transforms: the output side describes the value.
      cur = zodKind(pipe.out) === "transform" ? pipe.in : pipe.out;
    } else break;
  }
  return { schema: cur, nullable };
}

/** Strips optional / nullable / default / readonly / pipe wrappers down to the value's schema. */
export function unwrap(s: z.ZodType): z.ZodType {
  return peel(s).schema;
}

/** The object shape of a schema (after unwrapping), or undefined for non-objects. */
export function shapeOf(s: z.ZodType): Shape | undefined {
  const u = unwrap(s);
  const shape = objectShape(u);
  if (shape) return shape;
  const options = unionOptions(u);
  if (options) {
    // A union of objects (none in our API today): merge the shapes.
    const shapes = options.map(shapeOf).filter((x) => x !== undefined);
    return shapes.length ? Object.assign({}, ...shapes) : undefined;
  }
  return undefined;
}

/** The element schema of an array, or undefined. */
export function elementOf(s: z.ZodType): z.ZodType | undefined {
  return arrayElement(unwrap(s));
}

/** The value schema of a record, or undefined. */
export function recordValueOf(s: z.ZodType): z.ZodType | undefined {
  return recordValue(unwrap(s));
}

/** The JSON-ish kind of a schema's value. */
export type ValueKind = "object" | "array" | "record" | "string" | "number" | "boolean" | "other";

/** The JSON-ish kind of a schema's value. */
export function kindOf(s: z.ZodType): ValueKind {
  const u = unwrap(s);
  const t = zodKind(u);
  if (t === "object") return "object";
  if (t === "array") return "array";
  if (t === "record") return "record";
  // z.email(), z.url() and the like are strings with a format; z.int() is a number with one.
  if (t === "string" || t === "enum" || t === "literal") return "string";
  if (t === "number" || t === "int") return "number";
  if (t === "boolean") return "boolean";
  if (t === "union") {
    const kinds = new Set((unionOptions(u) ?? []).map(kindOf));
    const [only] = kinds;
    return kinds.size === 1 && only !== undefined ? only : "other";
  }
  return "other";
}

/** True when the schema's value is an integer (after unwrapping). */
export function isInteger(s: z.ZodType): boolean {
  return isIntegerNumber(unwrap(s));
}

/** True when the schema accepts undefined (optional or has a default). */
export function isOptional(s: z.ZodType): boolean {
  const t = zodKind(s);
  return t === "optional" || t === "default" || t === "prefault";
}

/** A field's description, looking through wrappers. */
export function describe(s: z.ZodType): string | undefined {
  let cur: z.ZodType | undefined = s;
  for (let i = 0; cur && i < 20; i++) {
    if (cur.description) return cur.description;
    cur = wrapped(cur)?.inner ?? pipeSides(cur)?.in;
  }
  return undefined;
}

/** snake_case -> camelCase (`peer_groups` -> `peerGroups`; already camel names pass through). */
export function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Enum values of an enum schema (after unwrapping). */
export function enumValues(s: z.ZodType): string[] | undefined {
  return enumOrLiteralValues(unwrap(s));
}

/** The schema of the value at `path` (API names and indexes) inside `schema`, or undefined when unknown. */
export function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let cur: z.ZodType | undefined = schema;
  for (const seg of path) {
    if (!cur) return undefined;
    if (typeof seg === "number") cur = elementOf(cur);
    else if (kindOf(cur) === "record") cur = recordValueOf(cur);
    else cur = shapeOf(cur)?.[String(seg)];
  }
  return cur;
}
