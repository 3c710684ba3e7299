/**
 * Pieces of generated text both generators write: the TypeScript type of a schema, doc comments and markdown
 * table cells. Layout is prettier's business (scripts/format.ts), so nothing here indents.
 */
import type { z } from "zod";
import {
  camel,
  elementOf,
  enumValues,
  isOptional,
  kindOf,
  peel,
  recordValueOf,
  shapeOf,
} from "../model/schema";
import { unionOptions } from "../model/zod";

/** `/** text *\/` and a line break, or nothing for no text. */
export function docComment(text: string | undefined): string {
  return text ? `/** ${text.replace(/\*\//g, "*\\/")} */\n` : "";
}

/** Text for a markdown table cell: pipes escaped, one line. */
export function mdEscape(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n\s*/g, " ");
}

/** The members of an object schema's type, camelCase, one per line with their descriptions. */
export function objectMembers(
  schema: z.ZodType,
  typeOf: (field: z.ZodType) => string,
  docOf: (field: z.ZodType) => string | undefined,
): string {
  return Object.entries(shapeOf(schema) ?? {})
    .map(
      ([key, field]) =>
        `${docComment(docOf(field))}${camel(key)}${isOptional(field) ? "?" : ""}: ${typeOf(field)};`,
    )
    .join("\n");
}

/** How a generator writes the TypeScript type of a schema. */
export interface TypeStyle {
  /** The text of a member's or element's type (`pulumi.Input<T>` for resource inputs). */
  wrap?: (type: string) => string;
  /** The name of a type declared for this (unwrapped) schema, written instead of its members. */
  named?: (schema: z.ZodType) => string | undefined;
  /** An enum that also accepts other strings (written `| (string & {})`). */
  open?: (schema: z.ZodType) => boolean;
  /** A member's doc comment. */
  doc: (schema: z.ZodType) => string | undefined;
  /** Writes `| null` for a nullable schema. */
  nullable: boolean;
  /** Whether an array's element type, written `type`, needs parentheses before `[]`. */
  parenthesize: (element: z.ZodType, type: string) => boolean;
}

/** The TypeScript type of a schema's value with camelCase keys, in `style`. */
export function schemaType(schema: z.ZodType, style: TypeStyle): string {
  const { schema: s, nullable } = peel(schema);
  const t = valueType(s, style);
  return nullable && style.nullable ? `${t} | null` : t;
}

function valueType(s: z.ZodType, style: TypeStyle): string {
  const name = style.named?.(s);
  if (name) return name;
  const wrap = style.wrap ?? ((t: string) => t);
  const values = enumValues(s);
  if (values)
    return [...values.map((v) => JSON.stringify(v)), ...(style.open?.(s) ? ["(string & {})"] : [])].join(
      " | ",
    );
  const kind = kindOf(s);
  switch (kind) {
    case "string":
    case "number":
    case "boolean":
      return kind;
    case "array": {
      const element = elementOf(s);
      if (!element) return "unknown[]";
      const inner = schemaType(element, style);
      return `${wrap(style.parenthesize(element, inner) ? `(${inner})` : inner)}[]`;
    }
    case "record": {
      const value = recordValueOf(s);
      return `Record<string, ${wrap(value ? schemaType(value, style) : "unknown")}>`;
    }
    case "object":
      return `{\n${objectMembers(s, (field) => wrap(schemaType(field, style)), style.doc)}\n}`;
    default: {
      const options = unionOptions(s);
      if (options) return [...new Set(options.map((o) => schemaType(o, style)))].join(" | ");
      return "unknown";
    }
  }
}
