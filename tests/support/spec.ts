/** Reads the API description the project implements (a copy in tests/fixtures/spec, see its README). */
import * as fs from "node:fs";
import * as path from "node:path";

export const SPEC_DIR = path.resolve(__dirname, "..", "fixtures", "spec");

/** Facts of the service's own API document (scripts/reference-facts.ts writes them; see the README there). */
export const REFERENCE_DIR = path.resolve(__dirname, "..", "fixtures", "reference");

export interface SpecOperation {
  method: string;
  path: string;
}

/** The rows of operations.tsv. */
export function specOperations(): SpecOperation[] {
  const text = fs.readFileSync(path.join(SPEC_DIR, "operations.tsv"), "utf8");
  const [header, ...rows] = text.trim().split("\n");
  if (header?.trim() !== "method\tpath") throw new Error(`unexpected operations.tsv header: ${header}`);
  return rows.map((r) => {
    const [method, p] = r.trim().split("\t");
    return { method: method as string, path: p as string };
  });
}

export interface SpecEndpointRow {
  methods: string[];
  path: string;
  request: string;
  response: string;
}

/** The endpoint table rows of spec part 4 (`| METHOD | path | request | response |`). */
export function specEndpointRows(): SpecEndpointRow[] {
  const md = fs.readFileSync(path.join(SPEC_DIR, "management-api.md"), "utf8");
  const part4 = md.slice(md.indexOf("## 4. Endpoints"), md.indexOf("## 5. Authentication"));
  const rows: SpecEndpointRow[] = [];
  for (const line of part4.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    // ["", method, path, request, response, ""]
    if (cells.length < 6) continue;
    const [, method, p, request, response] = cells as [string, string, string, string, string];
    if (!/^(GET|POST|PUT|DELETE)/.test(method)) continue;
    rows.push({ methods: method.split(",").map((m) => m.trim()), path: p, request, response });
  }
  return rows;
}

/** Required and existing fields of one object, by its path in a body (`""`, `targets[]`, `auth.pin_auth`). */
export interface ObjectFacts {
  required: string[];
  properties: string[];
}

/** One operation of the service's own API document, as scripts/reference-facts.ts extracts it. */
export interface ReferenceOperation {
  method: string;
  path: string;
  success: number[];
  request?: Record<string, ObjectFacts>;
  response?: Record<string, ObjectFacts>;
}

/** Every operation of every facts file in tests/fixtures/reference, with the file's family name. */
export function referenceOperations(): (ReferenceOperation & { family: string; tag: string })[] {
  return fs
    .readdirSync(REFERENCE_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .flatMap((f) => {
      const facts = JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, f), "utf8")) as {
        tag: string;
        operations: ReferenceOperation[];
      };
      return facts.operations.map((o) => ({ ...o, family: f.slice(0, -".json".length), tag: facts.tag }));
    });
}
