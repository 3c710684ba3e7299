/**
 * Shared building blocks of the API contract (spec part 2.1 and 2.2).
 *
 * Conventions used across api/:
 * - `XSchema` is the object as the service returns it (snake_case, strict: an unexpected field is a bug,
 *   which is how a leaked secret would show up in tests).
 * - `XCreateSchema` / `XUpdateSchema` are request bodies. Unknown fields are stripped, as the service ignores them.
 * - Every field carries a `.describe()` taken from the spec; docs and OpenAPI are generated from it.
 * - Validation messages never repeat the field path: {@link formatIssues} prefixes it, so every message names
 *   the field (`metric: must be between 1 and 9999`). Cross-field messages name the other field as well.
 */
import { z } from "zod";

export { z };

/** Opaque string identifier. */
export const idString = () => z.string().min(1, { error: "must not be empty" });

/**
 * An id given to the API (a lookup's argument), in any form a server answers ids with: servers answer the same
 * kind's ids as strings or as integers (setup keys and integrations: integers here, strings on another server).
 * Sent as its text.
 */
export const anyId = () =>
  z.union([idString(), z.number().int({ error: "must be a string or an integer" })], {
    error: (iss) => (iss.input === undefined ? "is required" : "must be a string or an integer"),
  });

/** ISO 8601 / RFC 3339 UTC timestamp. */
export const timestamp = () => z.string().min(1);

/** An integer within [min, max], with a message that states the bounds. */
export function intRange(min: number, max: number, unit = "") {
  const suffix = unit ? ` ${unit}` : "";
  return z
    .number()
    .int({ error: "must be an integer" })
    .min(min, { error: `must be between ${min} and ${max}${suffix}` })
    .max(max, { error: `must be between ${min} and ${max}${suffix}` });
}

/**
 * The longest duration in seconds the service computes with correctly: it counts durations in nanoseconds in a
 * 64-bit integer, so a longer one wraps (a setup key's expiry "in the past", an invite expiring in 1759, an
 * inactivity expiration stored negative). About 292 years; lifetimes beyond it are refused.
 */
export const MAX_LIFETIME_SECONDS = 9223372036;

/**
 * An email address as the service takes it: any text that is not empty. Text that is not an address is an
 * advisory: the service stores it (with the embedded identity provider it becomes the login name).
 */
export const emailString = () =>
  z
    .string()
    .min(1, { error: "must not be empty" })
    .superRefine((s, ctx) => {
      if (!z.email().safeParse(s).success)
        advise(ctx, [], `${JSON.stringify(s)} is not an email address: no invitation can reach it`);
    });

/** An integer >= min. */
export function intMin(min: number, unit = "") {
  const suffix = unit ? ` ${unit}` : "";
  return z
    .number()
    .int({ error: "must be an integer" })
    .min(min, { error: `must be at least ${min}${suffix}` });
}

/** A string of min..max characters. */
export function strLen(min: number, max: number) {
  const msg = min === max ? `must be ${min} characters` : `must be ${min} to ${max} characters long`;
  return z
    .string()
    .min(min, { error: min === 1 ? "must not be empty" : msg })
    .max(max, { error: msg });
}

/**
 * Characters a name must not contain: C0 and C1 control characters (NUL, tab, line breaks, ESC, ...), DEL, the
 * bidirectional formatting characters (which make a name display differently from what it is) and the invisible
 * U+200B zero width space, U+2060 word joiner and U+FEFF byte order mark.
 */
const NAME_FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\u2028\u2029\ufeff]/u;

const INVISIBLE = new RegExp(NAME_FORBIDDEN.source, "gu");

/**
 * `s` with each control (but line feed and tab), bidirectional or invisible character written as `\uXXXX`. Servers
 * store names with such characters as given; what prints them to a terminal (where an escape sequence acts) or
 * writes them into source code (where a bidi override hides what the code says) shows them this way. Inside a
 * JSON or JavaScript string literal the result means the same text.
 */
export function visibleText(s: string): string {
  return s.replace(INVISIBLE, (c) =>
    c === "\n" || c === "\t" ? c : `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`,
  );
}

/** Why `s` may not read as what it is when shown as a name, or undefined when it reads as it is. */
export function nameProblem(s: string): string | undefined {
  const bad = NAME_FORBIDDEN.exec(s);
  if (bad) {
    const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
    return `contains a control, bidirectional or invisible character (U+${code} at position ${bad.index}): it displays differently from what it is`;
  }
  if (/^\s|\s$/u.test(s))
    return `starts or ends with white space: ${JSON.stringify(s)} is another name than ${JSON.stringify(s.trim())}`;
  return undefined;
}

/** How {@link nameString} treats a name: its length bounds and whether an empty name is refused or warned of. */
export interface NameRules {
  /** The most characters, where the spec states a bound (the service sets none elsewhere). */
  max?: number;
  /** `"warn"` where the service stores an empty name: an advisory (see {@link advise}), not a refusal. */
  empty?: "refuse" | "warn";
}

/**
 * A name. The service stores names as given, so the rules that keep a name readable are advisories: a control,
 * bidirectional or invisible character, or leading or trailing white space (`" All"` is not the built-in `All`)
 * is reported at preview and stored as sent. An empty name is refused where the service refuses it (the
 * default), warned of where it stores it. Inner spaces and every script are fine.
 */
export function nameString(rules: NameRules = {}) {
  const { max, empty = "refuse" } = rules;
  let s = z.string();
  if (empty === "refuse") s = s.min(1, { error: "must not be empty" });
  if (max !== undefined)
    s = s.max(max, { error: `must be ${empty === "refuse" ? 1 : 0} to ${max} characters long` });
  return s.superRefine((v, ctx) => {
    if (v === "" && empty === "warn")
      advise(ctx, [], "is empty: the service stores an object without a name");
    const problem = nameProblem(v);
    if (problem) advise(ctx, [], problem);
  });
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** True when `s` is a dotted-quad IPv4 address. */
export function isIPv4(s: string): boolean {
  return IPV4.test(s);
}

/** True when `s` is an IPv6 address (textual form, no zone). */
export function isIPv6(s: string): boolean {
  if (!s.includes(":") || s.length > 45) return false;
  const parts = s.split("::");
  if (parts.length > 2) return false;
  const groups = (p: string) => (p === "" ? [] : p.split(":"));
  const head = groups(parts[0] ?? "");
  const tail = parts.length === 2 ? groups(parts[1] ?? "") : [];
  const all = [...head, ...tail];
  let count = all.length;
  const last = all[all.length - 1];
  if (last !== undefined && last.includes(".")) {
    if (!isIPv4(last)) return false;
    all.pop();
    count += 1;
  }
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return parts.length === 2 ? count < 8 : count === 8;
}

/** True when `s` is an IPv4 or IPv6 address. */
export function isIP(s: string): boolean {
  return isIPv4(s) || isIPv6(s);
}

/** Parses `a.b.c.d/n` or `v6/n`; returns undefined when not a CIDR range. */
export function parseCidr(s: string): { ip: string; bits: number; family: 4 | 6 } | undefined {
  const slash = s.indexOf("/");
  if (slash < 0) return undefined;
  const ip = s.slice(0, slash);
  const bitsText = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsText)) return undefined;
  const bits = Number(bitsText);
  if (isIPv4(ip) && bits <= 32) return { ip, bits, family: 4 };
  if (isIPv6(ip) && bits <= 128) return { ip, bits, family: 6 };
  return undefined;
}

const DOMAIN =
  /^(\*\.)?([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)*[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.?$/;

/** The same with labels of any script (internationalized names as written, not punycoded). */
const IDN_DOMAIN =
  /^(\*\.)?([\p{L}\p{N}]([\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?\.)*[\p{L}\p{N}]([\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?\.?$/u;

/**
 * True when `s` is a DNS name (optionally a wildcard `*.example.com`), at most 255 characters. With `unicode`,
 * labels may be in any script (`bücher.example`), as the service accepts them in route domains, nameserver
 * match domains and network resource addresses.
 */
export function isDomain(s: string, allowWildcard = false, unicode = false): boolean {
  if (s.length === 0 || s.length > 255) return false;
  if (!allowWildcard && s.startsWith("*.")) return false;
  if (isIPv4(s)) return false;
  return (unicode ? IDN_DOMAIN : DOMAIN).test(s);
}

/** The bytes of an IP address: 4 for IPv4, 16 for IPv6 (the text must pass {@link isIP}). */
export function ipBytes(ip: string): number[] {
  return isIPv4(ip) ? ip.split(".").map(Number) : ipv6Bytes(ip);
}

/** The 16 bytes of an IPv6 address (textual form already checked by {@link isIPv6}). */
function ipv6Bytes(ip: string): number[] {
  let text = ip;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  const last = text.slice(lastColon + 1);
  if (last.includes(".")) {
    tail.push(...last.split(".").map(Number));
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head = "", rest] = text.split("::");
  const groups = (p: string) => (p === "" ? [] : p.split(":").map((g) => parseInt(g, 16)));
  const h = groups(head);
  const t = rest === undefined ? [] : groups(rest);
  const all = [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
  const bytes = all.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/**
 * The canonical form of a CIDR range is its network address: every bit after the prefix length is zero
 * (10.0.0.0/8, not 10.0.0.1/8; the only /0 ranges are 0.0.0.0/0 and ::/0). IPv4 is written as a dotted quad
 * without leading zeros; IPv6 in any valid textual form (fd00:1::/64 or fd00:1:0::/64), host bits zero.
 * Returns the network address when `s` has host bits set (for the message), undefined when it is canonical.
 */
export function cidrHostBitsSet(c: { ip: string; bits: number; family: 4 | 6 }): string | undefined {
  const bytes = ipBytes(c.ip);
  const masked = bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, c.bits - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
  if (masked.every((b, i) => b === bytes[i])) return undefined;
  if (c.family === 4) return `${masked.join(".")}/${c.bits}`;
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push((((masked[i] ?? 0) << 8) | (masked[i + 1] ?? 0)).toString(16));
  // The longest run of zero groups becomes "::".
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8;) {
    if (groups[i] !== "0") {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > best.len && j - i > 1) best = { at: i, len: j - i };
    i = j;
  }
  const text =
    best.at < 0
      ? groups.join(":")
      : `${groups.slice(0, best.at).join(":")}::${groups.slice(best.at + best.len).join(":")}`;
  return `${text}/${c.bits}`;
}

/** `s` with its host bits cleared (`10.0.0.1/8` -> `10.0.0.0/8`) when it is a CIDR range; else `s` itself. */
export function canonicalCidr(s: string): string {
  const c = parseCidr(s);
  return (c && cidrHostBitsSet(c)) ?? s;
}

/**
 * A CIDR range such as 10.0.0.0/16. A range whose address has host bits set (`10.0.0.1/8`) is an advisory: the
 * service accepts it (and, for routes and the account's range, stores it with the host bits cleared).
 */
export const cidr = () =>
  z.string().superRefine((s, ctx) => {
    const c = parseCidr(s);
    if (!c) {
      ctx.addIssue({ code: "custom", message: "must be a CIDR range such as 10.0.0.0/16" });
      return;
    }
    const network = cidrHostBitsSet(c);
    if (network)
      advise(
        ctx,
        [],
        `has host bits set after /${c.bits}: the range ${s} is ${network}, the form the service may store`,
      );
  });

/** An IP address (v4 or v6). */
export const ipAddress = () => z.string().refine(isIP, { error: "must be an IP address" });

/** A domain name; `unicode` also accepts labels in any script (see {@link isDomain}). */
export const domainName = (allowWildcard = false, unicode = false) =>
  z.string().refine((s) => isDomain(s, allowWildcard, unicode), {
    error: allowWildcard
      ? "must be a domain name (a wildcard *.example.com is allowed)"
      : "must be a domain name",
  });

/**
 * Element schemas registered here make their arrays lists of ids, which the service treats as sets: the
 * provider compares them order-insensitively. (The element is registered, not the array: `.describe()` and
 * `.optional()` copy the array schema but keep its element.)
 */
export const ID_LISTS = z.registry<Record<string, never>>();

/**
 * A list of ids. The service treats these lists as sets; an id listed twice is an advisory (some servers store
 * it twice, some once), not a refusal.
 */
export const idList = () => {
  const element = idString();
  ID_LISTS.add(element, {});
  return z.array(element).superRefine((a, ctx) => {
    const seen = new Set<string>();
    for (const [i, id] of a.entries()) {
      if (seen.has(id))
        advise(ctx, [i], `lists ${id} again: the list is a set, so the second mention adds nothing`);
      seen.add(id);
    }
  });
};

/**
 * Enums whose full set of values the spec does not show ("`tcp` appears; full set not shown"). The local server
 * accepts the values listed; the provider's check lets other values through and leaves the verdict to the server
 * it talks to, which may know more of them (see {@link openEnum}).
 */
export const OPEN_ENUMS = z.registry<Record<string, never>>();

/** An enum of the values the spec names, registered in {@link OPEN_ENUMS}. */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T, description: string) {
  const e = z.enum(values).describe(description);
  OPEN_ENUMS.add(e, {});
  return e;
}

/**
 * Objects compared member by member as given: an optional boolean set to `false` is a value (a filter that
 * requires "not infected"), not the same as leaving it out. Elsewhere `false` and absent compare equal.
 */
export const EXACT_OBJECTS = z.registry<Record<string, never>>();

/** Group `issued` values: how the group came to exist. */
export const GroupIssued = z.enum(["api", "integration", "jwt"]).describe("How the group was created");

/** Resource reference types; the type of a network resource is derived from its address. */
export const ResourceType = openEnum(
  ["host", "subnet", "domain", "peer"],
  "Resource type, derived from the address: host, subnet or domain; peer for a peer resource",
);

export const GroupSummarySchema = z
  .strictObject({
    id: idString().describe("Group id"),
    name: z.string().describe("Group name"),
    peers_count: z.number().int().describe("Number of peers in the group"),
    resources_count: z.number().int().describe("Number of network resources in the group"),
    issued: GroupIssued,
  })
  .describe("A group as other objects refer to it");

export const ResourceRefSchema = z
  .strictObject({
    id: idString().describe("Resource id"),
    type: ResourceType,
  })
  .describe("A reference to a network resource (or a peer) by id and type");

/** The request form of a resource reference (unknown keys ignored). */
export const ResourceRefInputSchema = z
  .object({
    id: idString().describe("Resource id"),
    type: ResourceType,
  })
  .describe("A reference to a network resource (or a peer) by id and type");

export const ErrorBodySchema = z
  .strictObject({
    message: z.string().describe("What went wrong; validation errors name the field"),
    code: z.number().int().describe("The HTTP status code"),
  })
  .describe("Error response");

/** DELETE and a few other operations answer with an empty object. */
export const EmptySchema = z.strictObject({}).describe("Empty object");

/** A port number as the API carries it in rule port lists: a string of 1..65535. */
export const portString = () =>
  z.string().refine((s) => /^\d{1,5}$/.test(s) && Number(s) >= 1 && Number(s) <= 65535, {
    error: "must be a port number between 1 and 65535",
  });

/** A `{start, end}` port range with 1 <= start <= end <= 65535. */
export const PortRangeSchema = z
  .object({
    start: intRange(1, 65535).describe("First port of the range"),
    end: intRange(1, 65535).describe("Last port of the range (inclusive)"),
  })
  .superRefine((r, ctx) => {
    // The service stores a reversed range as given; it holds no port.
    if (typeof r.start === "number" && typeof r.end === "number" && r.start > r.end) {
      advise(ctx, ["end"], `is lower than start (${r.start}-${r.end}): the range holds no port`);
    }
  })
  .describe("Port range, inclusive");

/**
 * Messages for the generic cases (missing field, wrong type, unknown enum value), used for every parse so that
 * each message reads well after the field path.
 */
export const errorMap: z.core.$ZodErrorMap = (iss) => {
  if (iss.code === "invalid_type") {
    if (iss.input === undefined) return "is required";
    if (iss.input === null) return "must not be null";
    const expected =
      iss.expected === "int" ? "an integer" : `${article(String(iss.expected))} ${iss.expected}`;
    return `must be ${expected}`;
  }
  if (iss.code === "invalid_value") {
    return `must be one of ${iss.values.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  if (iss.code === "unrecognized_keys") return `unknown field(s): ${iss.keys.join(", ")}`;
  if (iss.code === "invalid_union") return "does not match any accepted shape";
  if (iss.code === "invalid_format") return `must be a valid ${iss.format}`;
  return undefined;
};

function article(word: string): string {
  return /^[aeiou]/.test(word) ? "an" : "a";
}

/**
 * Advisories: what the documents or good sense ask of a value but the service does not enforce (it stores the
 * value as given, or in its own normal form). A schema raises one with {@link advise}; {@link validate} returns
 * them apart from the errors and does not fail for them. The server stores the value, as the service would; the
 * provider's check reports each one as a warning at preview, naming the property.
 *
 * An advisory is a zod issue marked in its `params`, raised only while {@link validate} collects them: a plain
 * `safeParse` of the same schema passes such a value. Parsing is synchronous, so the flag below is never seen by
 * another parse.
 */
let advising = false;

/**
 * Raises an advisory at `path` (relative to the value being refined); see above. With an empty path it is about
 * that value alone (`local`): a reader may judge it whatever the value's neighbours are.
 */
export function advise(ctx: z.RefinementCtx, path: (string | number)[], message: string): void {
  if (advising)
    ctx.addIssue({ code: "custom", path, message, params: { advisory: true, local: !path.length } });
}

type AdvisoryParams = { params?: { advisory?: unknown; local?: unknown } };

/** True when `i` was raised by {@link advise}. */
export function isAdvisory(i: z.core.$ZodIssue): boolean {
  return i.code === "custom" && (i as AdvisoryParams).params?.advisory === true;
}

/** True when `i` is an advisory about its value alone (raised with an empty path; see {@link advise}). */
export function isLocalAdvisory(i: z.core.$ZodIssue): boolean {
  return isAdvisory(i) && (i as AdvisoryParams).params?.local === true;
}

/** The result of {@link validate}: the value or the errors, and the advisories either way. */
export type Validation<T> = (
  { ok: true; value: T } | { ok: false; issues: z.core.$ZodIssue[]; message: string }
) & { advice: z.core.$ZodIssue[] };

/**
 * `__proto__` as an own key of the input (JSON.parse makes one). No field and no id is called that, and a parsed
 * object cannot hold it as an own key: zod skips it, so a map such as a rule's `authorized_groups` would be
 * stored without it, silently. It is refused wherever it appears instead. Iterative, so no input nests deep
 * enough to overflow the stack.
 */
function protoKeyIssues(data: unknown): z.core.$ZodIssue[] {
  const issues: z.core.$ZodIssue[] = [];
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: data, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop() as { value: unknown; path: PropertyKey[] };
    if (typeof value !== "object" || value === null) continue;
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, path: [...path, i] }));
      continue;
    }
    for (const key of Object.keys(value)) {
      if (key === "__proto__") {
        issues.push({
          code: "custom",
          path: [...path, key],
          message: "is not an allowed key",
          input: undefined,
        } as z.core.$ZodIssue);
        continue;
      }
      stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return issues;
}

/**
 * Parses `data` with `schema`; on failure the message names every offending field. Advisories (see
 * {@link advise}) never fail it: they come back in `advice`.
 */
export function validate<S extends z.ZodType>(schema: S, data: unknown): Validation<z.output<S>> {
  const proto = protoKeyIssues(data);
  advising = true;
  let r: z.ZodSafeParseResult<z.output<S>>;
  try {
    r = schema.safeParse(data, { error: errorMap });
  } finally {
    advising = false;
  }
  const found = r.success ? [] : r.error.issues;
  const advice = found.filter(isAdvisory);
  let issues = [...proto, ...found.filter((i) => !isAdvisory(i))];
  if (!issues.length) {
    if (r.success) return { ok: true, value: r.data, advice };
    // Only advisories failed the parse: the value is what the same parse gives without them.
    const plain = schema.safeParse(data, { error: errorMap });
    if (plain.success) return { ok: true, value: plain.data, advice };
    issues = plain.error.issues;
  }
  return { ok: false, issues, message: formatIssues(issues), advice };
}

/**
 * Renders zod issues as one line per issue, each starting with the field path
 * (`rules[0].ports: cannot be set together with port_ranges`).
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => `${pathString(i.path)}${pathString(i.path) ? ": " : ""}${i.message}`).join("; ");
}

/** `["rules", 0, "ports"]` -> `rules[0].ports`. */
export function pathString(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}

/** Adds a custom issue at `path` (used by cross-field rules). */
export function issue(ctx: z.RefinementCtx, path: (string | number)[], message: string): void {
  ctx.addIssue({ code: "custom", path, message });
}

/** True when the value is set (not undefined / null). */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** True when a list-valued field is set and not empty. */
export function hasItems(v: unknown): boolean {
  return Array.isArray(v) && v.length > 0;
}
