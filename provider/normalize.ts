/**
 * Value normalisation for diffs, and the projection of API responses back to the shape of inputs.
 *
 * Normalised, these are all "absent": undefined, null, "", false, [], {} — so a user who leaves a field out and
 * a server that answers with its zero value agree. Defaults the server applies to absent inputs (a DNS zone is
 * enabled unless told otherwise) are applied before normalising. Id lists (and lists declared as sets) are
 * compared order-insensitively.
 */
import isEqual from "lodash/isEqual";
import type { z } from "zod";
import { EXACT_OBJECTS, ID_LISTS } from "../api/common";
import { camel, elementOf, kindOf, recordValueOf, shapeOf, unwrap } from "../model/schema";
import { isRecord } from "./spec";

/** True when the schema is one of the api/ id lists. */
export function isIdList(schema: z.ZodType): boolean {
  const el = elementOf(unwrap(schema));
  return el !== undefined && ID_LISTS.has(el);
}

function sortKey(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * A server's normal form of a string value: two values with the same normal form mean the same thing (a host
 * `10.0.0.5` and `10.0.0.5/32`, a domain in any letter case). Applied to a string field, or to each string of a
 * list.
 */
export type NormalForm = (value: string) => string;

/**
 * Normalises a value of the given input schema (API form) held in Pulumi form (camelCase keys).
 * `asSet` marks a list compared as a set; `form` is the field's normal form, if it has one.
 */
export function normalize(
  value: unknown,
  schema: z.ZodType | undefined,
  asSet = false,
  form?: NormalForm,
): unknown {
  if (value === undefined || value === null || value === "" || value === false) return undefined;
  if (typeof value === "string" && form) return form(value);
  if (Array.isArray(value)) {
    const el = schema ? elementOf(schema) : undefined;
    const items = value.map((v) => normalize(v, el, false, form)).filter((v) => v !== undefined);
    if (items.length === 0) return undefined;
    if (asSet || (schema && isIdList(schema))) {
      return [...new Map(items.map((v) => [sortKey(v), v])).entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, v]) => v);
    }
    return items;
  }
  if (isRecord(value)) {
    const kind = schema ? kindOf(schema) : undefined;
    const out: Record<string, unknown> = {};
    if (kind === "record") {
      const vs = schema ? recordValueOf(schema) : undefined;
      for (const [k, v] of Object.entries(value)) {
        const n = normalize(v, vs);
        if (n !== undefined) out[k] = n;
      }
    } else {
      const shape = schema ? (shapeOf(schema) ?? {}) : {};
      const exact = schema !== undefined && EXACT_OBJECTS.has(unwrap(schema));
      const byCamel = new Map(Object.entries(shape).map(([k, s]) => [camel(k), s]));
      for (const [k, v] of Object.entries(value)) {
        const n = exact && v === false ? false : normalize(v, byCamel.get(k));
        if (n !== undefined) out[k] = n;
      }
    }
    return Object.keys(out).length ? out : undefined;
  }
  return value;
}

/** Whether two values of a field are the same once normalised. */
export function sameValue(
  a: unknown,
  b: unknown,
  schema: z.ZodType | undefined,
  asSet = false,
  form?: NormalForm,
): boolean {
  return isEqual(normalize(a, schema, asSet, form), normalize(b, schema, asSet, form));
}

/**
 * Projects a response value (Pulumi form) onto the shape of the input schema: object members the input does not
 * have are dropped, and `[{id, ...}]` lists where the input takes ids become id lists (a policy rule's
 * `sources`, a network resource's `groups`).
 */
export function project(value: unknown, schema: z.ZodType): unknown {
  if (value === undefined || value === null) return value;
  const kind = kindOf(schema);
  if (kind === "array" && Array.isArray(value)) {
    const el = elementOf(schema);
    if (el && kindOf(el) === "string") {
      return value.map((v) => (v && typeof v === "object" && "id" in v ? String(v.id) : v));
    }
    return el ? value.map((v) => project(v, el)) : value;
  }
  if (kind === "object" && isRecord(value)) {
    const shape = shapeOf(schema) ?? {};
    const src = value;
    const out: Record<string, unknown> = {};
    for (const [key, s] of Object.entries(shape)) {
      const c = camel(key);
      if (src[c] !== undefined) out[c] = project(src[c], s);
    }
    return out;
  }
  if (kind === "record" && isRecord(value)) {
    const vs = recordValueOf(schema);
    return vs ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, project(v, vs)])) : value;
  }
  return value;
}
