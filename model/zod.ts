/**
 * The one module that reads zod's internals (`schema._zod.def`). Everything else that walks a schema's structure
 * (model/schema.ts, the generators, the tests) asks these functions, so a zod upgrade that moves the internals is
 * fixed here alone. Each function looks at one schema, without unwrapping: model/schema.ts builds the walks
 * (unwrap, kinds, paths) on top.
 *
 * The schemas returned are the classic `z.ZodType` that api/ builds; a schema of zod's other flavours (zod/mini)
 * is refused by name rather than mistyped.
 */
import { z } from "zod";

/** The definition of a schema, as a union discriminated by `type`. */
type Def = z.core.$ZodTypes["_zod"]["def"];

/** What a schema is, in zod's words: `"object"`, `"optional"`, `"pipe"`, ... */
export type ZodKind = z.core.$ZodTypeDef["type"];

/** The wrappers that hold one schema (`innerType`) and stand for its value. */
export type WrapperKind = Extract<Def, { innerType: unknown }>["type"];

function defOf(s: z.core.$ZodType): Def {
  // zod types `_zod.def` as the common base of all definitions; every schema is one of $ZodTypes, whose defs
  // are discriminated by `type`.
  return (s as z.core.$ZodTypes)._zod.def;
}

/** `s` as the classic schema type api/ uses, or an error naming what it is. */
function classic(s: z.core.$ZodType): z.ZodType {
  if (s instanceof z.ZodType) return s;
  throw new Error(`model/zod: a ${defOf(s).type} schema that is not a classic zod schema (zod/mini?)`);
}

/** The kind of `s` itself (no unwrapping). */
export function zodKind(s: z.ZodType): ZodKind {
  return defOf(s).type;
}

/** The schema inside a wrapper (optional, nullable, default, catch, readonly, ...) with the wrapper's kind. */
export function wrapped(s: z.ZodType): { kind: WrapperKind; inner: z.ZodType } | undefined {
  const d = defOf(s);
  return "innerType" in d ? { kind: d.type, inner: classic(d.innerType) } : undefined;
}

/** Both sides of a pipe (`a.pipe(b)`, coercions, transforms: `in` is parsed first, `out` gives the value). */
export function pipeSides(s: z.ZodType): { in: z.ZodType; out: z.ZodType } | undefined {
  const d = defOf(s);
  return d.type === "pipe" ? { in: classic(d.in), out: classic(d.out) } : undefined;
}

/** The options of a union. */
export function unionOptions(s: z.ZodType): z.ZodType[] | undefined {
  const d = defOf(s);
  return d.type === "union" ? d.options.map(classic) : undefined;
}

/** The element of an array. */
export function arrayElement(s: z.ZodType): z.ZodType | undefined {
  const d = defOf(s);
  return d.type === "array" ? classic(d.element) : undefined;
}

/** The value schema of a record. */
export function recordValue(s: z.ZodType): z.ZodType | undefined {
  const d = defOf(s);
  return d.type === "record" ? classic(d.valueType) : undefined;
}

/** An object's fields: name -> schema. */
export type Shape = Record<string, z.ZodType>;

const classicShapes = new WeakSet<object>();

function isClassicShape(shape: z.core.$ZodShape): shape is Shape {
  if (classicShapes.has(shape)) return true;
  for (const v of Object.values(shape)) classic(v);
  classicShapes.add(shape);
  return true;
}

/** The fields of an object schema (zod's own shape object, not a copy). */
export function objectShape(s: z.ZodType): Shape | undefined {
  const d = defOf(s);
  return d.type === "object" && isClassicShape(d.shape) ? d.shape : undefined;
}

/** The values of an enum, or of a literal (as text). */
export function enumOrLiteralValues(s: z.ZodType): string[] | undefined {
  const d = defOf(s);
  // Entries are numbers only in a numeric native enum, which api/ does not use: as text, like a literal's.
  if (d.type === "enum") return Object.values(d.entries).map(String);
  if (d.type === "literal") return d.values.map(String);
  return undefined;
}

/** True for a number schema that accepts integers only (`z.number().int()`, `z.int()`). */
export function isIntegerNumber(s: z.ZodType): boolean {
  // Number formats: safeint, int32, uint32 (integers), float32, float64.
  return s instanceof z.ZodNumber && s.format !== null && s.format.includes("int");
}
