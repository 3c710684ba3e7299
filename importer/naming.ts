/**
 * Names in the generated program: one variable per object, derived from the object's name (readable, valid,
 * unique), and the Pulumi resource name (a slug of the same name, unique per resource type).
 *
 *   identifierWords("Engineering Team")  -> ["engineering", "team"]    -> engineeringTeam
 *   identifierWords("Überwachung")       -> ["uberwachung"]             -> uberwachung
 *   identifierWords("2024 interns")      -> ["2024", "interns"]         -> group2024Interns (prefixed: a digit
 *                                                                          cannot start an identifier)
 *   "default" (a reserved word)          -> defaultGroup
 */

/** Words that cannot name a variable, or that would shadow what the generated program or Node itself uses. */
export const RESERVED = new Set([
  // ECMAScript reserved words, strict-mode and module reserved words
  "await",
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "implements",
  "import",
  "in",
  "instanceof",
  "interface",
  "let",
  "new",
  "null",
  "package",
  "private",
  "protected",
  "public",
  "return",
  "static",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "yield",
  // Not reserved, but declaring them would break or confuse the program
  "arguments",
  "eval",
  "undefined",
  "globalThis",
  "global",
  "require",
  "module",
  "exports",
  "process",
  "console",
  "__dirname",
  "__filename",
  // What the generated program itself declares or imports
  "pulumi",
  "privnet",
  "config",
]);

/** Longest variable name derived from a name (longer names are cut at a word boundary). */
export const MAX_IDENTIFIER_LENGTH = 48;

const ID_START = /^[\p{ID_Start}$_]$/u;
const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

/** True when `s` is a valid JavaScript identifier that {@link RESERVED} does not hold. */
export function isUsableIdentifier(s: string): boolean {
  return IDENTIFIER.test(s) && !RESERVED.has(s);
}

/** Letters without their accents (`Ü` -> `U`), compatibility forms folded (`ﬁ` -> `fi`). */
function fold(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}+/gu, "");
}

/**
 * The words of a name, lowercased: split at anything that is not a letter or digit, and at camelCase and
 * acronym boundaries (`myGroup` -> my, group; `HTTPServer` -> http, server). Characters that cannot be part of an
 * identifier (emoji, punctuation) separate words.
 */
export function identifierWords(text: string): string[] {
  return fold(text)
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .map((w) => [...w].filter((c) => /\p{ID_Continue}/u.test(c)).join(""))
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

function capitalize(w: string): string {
  const [first = "", ...rest] = [...w];
  return first.toUpperCase() + rest.join("");
}

/** camelCase of words (`["engineering", "team"]` -> `engineeringTeam`). */
export function camelWords(words: string[]): string {
  return words.map((w, i) => (i === 0 ? w : capitalize(w))).join("");
}

/** Cuts a list of words so that their camelCase stays within `max` characters (keeps at least one word). */
function cut(words: string[], max: number): string[] {
  const out: string[] = [];
  let length = 0;
  for (const w of words) {
    if (out.length > 0 && length + w.length > max) break;
    out.push(w);
    length += w.length;
  }
  const first = out[0];
  if (out.length === 1 && first !== undefined && first.length > max)
    out[0] = [...first].slice(0, max).join("");
  return out;
}

/**
 * The variable name a name suggests, before uniqueness: camelCase of its words; a name that starts with a digit
 * is prefixed with `kindWord` (`2024 interns` -> `group2024Interns`); a name without any usable character
 * (`🚀`, `---`) gives `kindWord` itself.
 */
export function baseIdentifier(name: string, kindWord: string): string {
  const words = cut(identifierWords(name), MAX_IDENTIFIER_LENGTH);
  if (words.length === 0) return kindWord;
  const id = camelWords(words);
  const first = [...id][0] ?? "";
  return ID_START.test(first) ? id : camelWords([kindWord, ...words]);
}

/** `Group` -> `group`, `DnsRecord` -> `dnsRecord`, `EdrVendorA` -> `edrVendorA`. */
export function kindWord(kind: string): string {
  return kind.charAt(0).toLowerCase() + kind.slice(1);
}

/**
 * Hands out unique variable names. A name that is taken or reserved gets the kind appended (`ops` for a group,
 * then `opsPolicy` for a policy named the same), then a number (`opsPolicy2`).
 */
export class IdentifierAllocator {
  private readonly taken = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const r of reserved) this.taken.add(r);
  }

  /** Marks a name as used (by the program's own declarations). */
  reserve(name: string): void {
    this.taken.add(name);
  }

  has(name: string): boolean {
    return this.taken.has(name) || RESERVED.has(name);
  }

  /** A unique identifier for an object of `kind` named `name`. */
  allocate(name: string, kind: string): string {
    const word = kindWord(kind);
    const base = baseIdentifier(name, word);
    const candidates = [base];
    // A base that already ends with the kind (`dnsSettings`, `edrVendorA`) gets a number, not the kind twice.
    if (!base.toLowerCase().endsWith(kind.toLowerCase())) candidates.push(`${base}${kind}`);
    for (const c of candidates) {
      if (!this.has(c) && isUsableIdentifier(c)) return this.take(c);
    }
    const stem = candidates[candidates.length - 1] as string;
    for (let n = 2; ; n++) {
      const c = `${stem}${n}`;
      if (!this.has(c) && isUsableIdentifier(c)) return this.take(c);
    }
  }

  private take(name: string): string {
    this.taken.add(name);
    return name;
  }
}

/**
 * A Pulumi resource name from an object's name: lowercase words joined by `-` (`Ops SSH` -> `ops-ssh`), made
 * unique per resource type by the caller.
 */
export function slug(name: string): string {
  return fold(name)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "")
    .join("-")
    .slice(0, 100)
    .replace(/-+$/, "");
}

/** Hands out Pulumi resource names, unique per resource type (`ops`, `ops-2`). */
export class ResourceNameAllocator {
  private readonly taken = new Map<string, Set<string>>();

  allocate(kind: string, name: string, fallback: string): string {
    let set = this.taken.get(kind);
    if (!set) this.taken.set(kind, (set = new Set()));
    const base = slug(name) || fallback;
    let candidate = base;
    for (let n = 2; set.has(candidate); n++) candidate = `${base}-${n}`;
    set.add(candidate);
    return candidate;
  }
}
