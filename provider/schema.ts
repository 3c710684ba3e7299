/**
 * Reading zod schemas structurally: the provider maps names, normalises values and finds id lists by walking
 * the api/ schemas instead of repeating field lists per resource.
 */
import type { z } from "zod";

type Def = { type: string; [k: string]: unknown };

function defOf(s: z.ZodType): Def {
  return (s as unknown as { _zod: { def: Def } })._zod.def;
}

/** Strips optional / nullable / default / readonly / pipe wrappers down to the value's schema. */
export function unwrap(s: z.ZodType): z.ZodType {
  let cur = s;
  for (let i = 0; i < 20; i++) {
    const d = defOf(cur);
    if (
      d.type === "optional" ||
      d.type === "nullable" ||
      d.type === "default" ||
      d.type === "readonly" ||
      d.type === "prefault" ||
      d.type === "nonoptional" ||
      d.type === "catch"
    ) {
      cur = d.innerType as z.ZodType;
    } else if (d.type === "pipe") {
      // z.coerce.number().pipe(int) and transforms: the output side describes the value.
      const out = d.out as z.ZodType;
      cur = defOf(out).type === "transform" ? (d.in as z.ZodType) : out;
    } else return cur;
  }
  return cur;
}

export type Shape = Record<string, z.ZodType>;

/** The object shape of a schema (after unwrapping), or undefined for non-objects. */
export function shapeOf(s: z.ZodType): Shape | undefined {
  const u = unwrap(s);
  const d = defOf(u);
  if (d.type === "object") return (u as unknown as z.ZodObject).shape as Shape;
  if (d.type === "union") {
    // A union of objects (none in our API today): merge the shapes.
    const shapes = (d.options as z.ZodType[]).map(shapeOf).filter(Boolean) as Shape[];
    return shapes.length ? Object.assign({}, ...shapes) : undefined;
  }
  return undefined;
}

/** The element schema of an array, or undefined. */
export function elementOf(s: z.ZodType): z.ZodType | undefined {
  const u = unwrap(s);
  const d = defOf(u);
  return d.type === "array" ? (d.element as z.ZodType) : undefined;
}

/** The value schema of a record, or undefined. */
export function recordValueOf(s: z.ZodType): z.ZodType | undefined {
  const u = unwrap(s);
  const d = defOf(u);
  return d.type === "record" ? (d.valueType as z.ZodType) : undefined;
}

/** The JSON-ish kind of a schema's value. */
export function kindOf(
  s: z.ZodType,
): "object" | "array" | "record" | "string" | "number" | "boolean" | "other" {
  const u = unwrap(s);
  const t = defOf(u).type;
  if (t === "object") return "object";
  if (t === "array") return "array";
  if (t === "record") return "record";
  if (t === "string" || t === "enum" || t === "literal" || t === "email" || t === "url") return "string";
  if (t === "number" || t === "int") return "number";
  if (t === "boolean") return "boolean";
  if (t === "union") {
    const kinds = new Set((defOf(u).options as z.ZodType[]).map(kindOf));
    return kinds.size === 1 ? ([...kinds][0] as ReturnType<typeof kindOf>) : "other";
  }
  return "other";
}

/** True when the schema accepts undefined (optional or has a default). */
export function isOptional(s: z.ZodType): boolean {
  const t = defOf(s).type;
  return t === "optional" || t === "default" || t === "prefault";
}

/** A field's description, looking through wrappers. */
export function describe(s: z.ZodType): string | undefined {
  let cur: z.ZodType | undefined = s;
  for (let i = 0; cur && i < 20; i++) {
    if (cur.description) return cur.description;
    const d = defOf(cur);
    cur = (d.innerType ?? (d.type === "pipe" ? d.in : undefined)) as z.ZodType | undefined;
  }
  return undefined;
}

/** snake_case -> camelCase (`peer_groups` -> `peerGroups`; already camel names pass through). */
export function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Enum values of an enum schema (after unwrapping). */
export function enumValues(s: z.ZodType): string[] | undefined {
  const u = unwrap(s);
  const d = defOf(u);
  if (d.type === "enum") return Object.values(d.entries as Record<string, string>);
  if (d.type === "literal") return (d.values as unknown[]).map(String);
  return undefined;
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
