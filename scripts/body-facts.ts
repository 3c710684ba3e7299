/**
 * The facts of a request or response body that scripts/service-facts.ts extracts from the service's OpenAPI
 * document and tests/unit/service-conformance.test.ts from ours: required fields and field names, of the body and
 * of every object nested in it. Pure (no formatter, no file access), so the test can run the same walk.
 */

type Json = Record<string, unknown>;

/** An object's required fields and field names. */
export interface ObjectFacts {
  required: string[];
  properties: string[];
}

/**
 * A body's facts: a list or an object, with the object's (or list item's) required fields and field names, and
 * those of every object nested in it, by path (`targets[]` the items of `targets`, `auth.pin_auth`).
 */
export interface BodyFacts extends ObjectFacts {
  list: boolean;
  nested: Record<string, ObjectFacts>;
}

export type Deref = (s: unknown) => Json;

/**
 * An object schema's required fields and properties, through `allOf`. A `oneOf` / `anyOf` of objects (a target
 * whose shape depends on a type) has the fields of every option, and requires what every option requires.
 */
export function objectOf(
  s: unknown,
  deref: Deref,
): { required: Set<string>; properties: Map<string, unknown> } {
  const o = deref(s);
  const required = new Set<string>((o.required as string[] | undefined) ?? []);
  const properties = new Map<string, unknown>(Object.entries((o.properties as Json | undefined) ?? {}));
  for (const part of (o.allOf as unknown[] | undefined) ?? []) {
    const f = objectOf(part, deref);
    f.required.forEach((r) => required.add(r));
    f.properties.forEach((v, k) => properties.set(k, v));
  }
  for (const key of ["oneOf", "anyOf"]) {
    const options = ((o[key] as unknown[] | undefined) ?? [])
      .map(deref)
      .filter((x) => x.type !== "null")
      .map((x) => objectOf(x, deref))
      .filter((x) => x.properties.size > 0);
    if (!options.length) continue;
    for (const f of options) f.properties.forEach((v, k) => properties.set(k, v));
    for (const r of options[0]?.required ?? []) if (options.every((f) => f.required.has(r))) required.add(r);
  }
  return { required, properties };
}

/** The objects nested in a body's object, by path, to a depth of 6. */
export function nestedOf(
  properties: Map<string, unknown>,
  deref: Deref,
  at = "",
  out: Record<string, ObjectFacts> = {},
  depth = 0,
): Record<string, ObjectFacts> {
  if (depth > 6) return out;
  for (const [name, schema] of properties) {
    let path = at ? `${at}.${name}` : name;
    let s = deref(schema);
    const options = [...((s.oneOf as unknown[]) ?? []), ...((s.anyOf as unknown[]) ?? [])]
      .map(deref)
      .filter((x) => x.type !== "null");
    if (options.length === 1) s = options[0] as Json;
    if (s.type === "array") {
      path = `${path}[]`;
      s = deref(s.items);
    }
    const o = objectOf(s, deref);
    if (!o.properties.size) continue;
    out[path] = { required: [...o.required].sort(), properties: [...o.properties.keys()].sort() };
    nestedOf(o.properties, deref, path, out, depth + 1);
  }
  return out;
}

/**
 * Path parameters the document names otherwise than our routes do: the facts use our names, so that a key is the
 * route's `METHOD path` (every other peer route names its peer `peerId`).
 */
export const PARAM_NAMES: Record<string, string> = { "peer-id": "peerId" };

/** A document path with our parameter names. */
export function ourPath(p: string): string {
  return p.replace(/\{([^}]+)\}/g, (m, name: string) => (PARAM_NAMES[name] ? `{${PARAM_NAMES[name]}}` : m));
}

/**
 * Whether a path (our parameter names) is one the facts cover: a prefix ending in `/` covers what is under it;
 * any other covers itself and what is under it as a path segment (`/api/instance` covers `/api/instance/version`,
 * `/api/networks/routers` is not every network's routers).
 */
export function underPrefixes(p: string, prefixes: readonly string[]): boolean {
  return prefixes.map(ourPath).some((x) => p === x || p.startsWith(x.endsWith("/") ? x : `${x}/`));
}
