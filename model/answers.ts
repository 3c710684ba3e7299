/**
 * How the API's answers are read where servers differ in their shape: one reader each, shared by the provider,
 * the lookups and the importer (which reads through the provider). Servers answer an empty list as `null` (or
 * with no body), and the DNS settings either wrapped in `items` (as the spec writes them) or as the plain object.
 */
import { isRecord } from "./mapping";

type Props = Record<string, unknown>;

function describeValue(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "a list" : v === undefined ? "no body" : `a ${typeof v}`;
}

/**
 * A value that must be an object (an API answer, or what the mappings make of an object); anything else is an
 * error saying what it was: `expectRecord(answer, "the answer to getGroup")`.
 */
export function expectRecord(value: unknown, what: string): Props {
  if (isRecord(value)) return value;
  throw new Error(`privnet: ${what} is ${describeValue(value)}, not an object`);
}

/** An API answer that must be a list (`null` and no body are an empty one): its objects. */
export function listAnswer(answer: unknown, operation: string): Props[] {
  if (answer === null || answer === undefined) return [];
  if (Array.isArray(answer)) return answer.filter(isRecord);
  throw new Error(`privnet: ${operation}: the server answered a list with ${describeValue(answer)}`);
}

/** The settings in an answer to `getDnsSettings`: `{ items: {...} }` as the spec writes it, or the plain object. */
export function dnsSettingsAnswer(answer: unknown): Props {
  const envelope =
    answer === null || answer === undefined ? {} : expectRecord(answer, "the answer to getDnsSettings");
  return isRecord(envelope.items) ? envelope.items : envelope;
}
