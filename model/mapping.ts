/**
 * The one place where the API's snake_case meets Pulumi's camelCase. Mapping is driven by the schemas: object
 * keys are renamed, record keys (data such as authorized_groups or event-streaming config) are left alone.
 */
import type { z } from "zod";
import { camel, elementOf, kindOf, recordValueOf, shapeOf } from "./schema";
import { UNKNOWN } from "./unknown";

/** Pulumi's marker for a value not known during preview. */
export { UNKNOWN };

export function isUnknown(v: unknown): boolean {
  return v === UNKNOWN;
}

/** True when `v` is or contains the unknown marker. */
export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v && typeof v === "object") return Object.values(v).some(containsUnknown);
  return false;
}

/** Whether `v` is a JSON object (not null, not an array): the shape of inputs, outputs and one API object. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Pulumi inputs (camelCase) -> API body (snake_case), following `schema`. Keys the schema does not know are
 * dropped; undefined and null are omitted. Unknown markers are kept as values (check needs to see them).
 */
export function toApi(value: unknown, schema: z.ZodType): unknown {
  if (value === null || value === undefined || value === UNKNOWN) return value ?? undefined;
  const kind = kindOf(schema);
  if (kind === "object" && isRecord(value)) {
    const shape = shapeOf(schema) ?? {};
    const out: Record<string, unknown> = {};
    for (const [key, fieldSchema] of Object.entries(shape)) {
      const v = value[camel(key)] !== undefined ? value[camel(key)] : value[key];
      if (v === undefined || v === null) continue;
      out[key] = toApi(v, fieldSchema);
    }
    return out;
  }
  if (kind === "array" && Array.isArray(value)) {
    const el = elementOf(schema);
    return el ? value.map((v) => toApi(v, el)) : value;
  }
  if (kind === "record" && isRecord(value)) {
    const vs = recordValueOf(schema);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || v === null) continue;
      // An own property even for a key such as `__proto__` (plain assignment would set the prototype), so
      // validation sees the key as written and refuses it by name.
      Object.defineProperty(out, k, {
        value: vs ? toApi(v, vs) : v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/**
 * A number's decimal text, when that text is the number exactly: integers up to 2^53 and decimals written
 * without an exponent. Beyond, the digits a user wrote are already lost (`12345678901234567890` arrives as
 * 12345678901234567000): undefined.
 */
export function decimalText(n: number): string | undefined {
  if (!Number.isFinite(n)) return undefined;
  if (Number.isInteger(n)) return Number.isSafeInteger(n) ? String(n) : undefined;
  const text = String(n);
  return /e/i.test(text) ? undefined : text;
}

/**
 * Inputs with each number where `schema` has a string replaced by its decimal text ({@link decimalText}), at any
 * depth; keys in Pulumi's names or the API's, members the schema does not know kept as they are.
 *
 * Pulumi YAML turns a digits-only config value into a number even when the config is declared a string (a PIN, a
 * name such as `2024`); bridged providers take such a number as its text, and so does check (docs/languages.md).
 * A number whose text would not be exact is left as it is, for validation to refuse.
 */
export function numbersAsText(value: unknown, schema: z.ZodType | undefined): unknown {
  if (value === null || value === undefined || value === UNKNOWN || !schema) return value;
  // Plain data only: an object of a class (a resource handed to a component) is passed on as it is.
  if (isRecord(value) && ![Object.prototype, null].includes(Object.getPrototypeOf(value) as object | null))
    return value;
  const kind = kindOf(schema);
  if (typeof value === "number") return kind === "string" ? (decimalText(value) ?? value) : value;
  if (kind === "array" && Array.isArray(value)) {
    const el = elementOf(schema);
    return value.map((v) => numbersAsText(v, el));
  }
  if (kind === "record" && isRecord(value)) {
    const vs = recordValueOf(schema);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, {
        value: numbersAsText(v, vs),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  if (kind === "object" && isRecord(value)) {
    const fields = new Map<string, z.ZodType>();
    for (const [k, s] of Object.entries(shapeOf(schema) ?? {})) {
      fields.set(k, s);
      fields.set(camel(k), s);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, {
        value: numbersAsText(v, fields.get(k)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return value;
}

/**
 * API value (snake_case) -> Pulumi outputs (camelCase), following `schema` where it knows the field; fields the
 * schema does not know (a newer service) are camel-cased too.
 *
 * Read liberally: servers differ in how they spell the same thing, and a read must not fail on it. A `null`
 * where the schema has a list is an empty list (`"peers": null`); a number where the schema has a string is that
 * number's text (ids are strings on one server and integers on another); members the schema does not know are
 * kept.
 */
export function fromApi(value: unknown, schema: z.ZodType | undefined): unknown {
  return readLiberally(value, schema, camel);
}

/**
 * An API value read liberally but kept in API form (snake_case, unknown members as they are): what a client sends
 * back whole. `null` where the schema has a list is an empty list, a number where it has a string is its text.
 */
export function tolerate(value: unknown, schema: z.ZodType | undefined): unknown {
  return readLiberally(value, schema, (key) => key);
}

/** {@link fromApi} and {@link tolerate}: object members named by `name` (record keys are data: kept). */
function readLiberally(
  value: unknown,
  schema: z.ZodType | undefined,
  name: (key: string) => string,
): unknown {
  const kind = schema ? kindOf(schema) : undefined;
  if (value === null && kind === "array") return [];
  if (value === null || value === undefined) return value;
  if (typeof value === "number" && kind === "string") return String(value);
  if (Array.isArray(value)) {
    const el = schema && kind === "array" ? elementOf(schema) : undefined;
    return value.map((v) => readLiberally(v, el, name));
  }
  if (isRecord(value)) {
    if (schema && kind === "record") {
      const vs = recordValueOf(schema);
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, readLiberally(v, vs, name)]));
    }
    const shape = schema ? (shapeOf(schema) ?? {}) : {};
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [name(k), readLiberally(v, shape[k], name)]),
    );
  }
  return value;
}

/** An API path (`["rules", 0, "port_ranges"]`) as a Pulumi property path (`rules[0].portRanges`). */
export function propertyPath(path: readonly PropertyKey[], schema: z.ZodType): string {
  let out = "";
  let cur: z.ZodType | undefined = schema;
  for (const seg of path) {
    if (typeof seg === "number") {
      out += `[${seg}]`;
      cur = cur ? elementOf(cur) : undefined;
      continue;
    }
    const key = String(seg);
    const kind = cur ? kindOf(cur) : undefined;
    if (kind === "record") {
      out += `[${JSON.stringify(key)}]`;
      cur = cur ? recordValueOf(cur) : undefined;
      continue;
    }
    const name = kind === "object" || cur === undefined ? camel(key) : key;
    out += out ? `.${name}` : name;
    cur = cur ? shapeOf(cur)?.[key] : undefined;
  }
  return out;
}

/** Every snake_case field name a schema mentions (for rewriting messages in Pulumi's names). */
export function snakeNames(
  schema: z.ZodType,
  out = new Set<string>(),
  seen = new Set<unknown>(),
): Set<string> {
  if (seen.has(schema)) return out;
  seen.add(schema);
  const shape = shapeOf(schema);
  if (shape) {
    for (const [k, v] of Object.entries(shape)) {
      if (k.includes("_")) out.add(k);
      snakeNames(v, out, seen);
    }
  }
  const el = elementOf(schema);
  if (el) snakeNames(el, out, seen);
  const rv = recordValueOf(schema);
  if (rv) snakeNames(rv, out, seen);
  return out;
}

/** Rewrites the API's field names in a message to Pulumi's (`peer_groups` -> `peerGroups`). */
export function renameFields(message: string, names: Set<string>): string {
  let out = message;
  for (const n of [...names].sort((a, b) => b.length - a.length)) {
    out = out.replace(new RegExp(`\\b${n}\\b`, "g"), camel(n));
  }
  return out;
}
