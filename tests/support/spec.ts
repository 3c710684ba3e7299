/** Reads the API description the project implements (a copy in tests/fixtures/spec, see its README). */
import * as fs from "node:fs";
import * as path from "node:path";

export const SPEC_DIR = path.resolve(__dirname, "..", "fixtures", "spec");

export interface SpecOperation {
  method: string;
  path: string;
}

function readOperations(file: string): SpecOperation[] {
  const text = fs.readFileSync(path.join(SPEC_DIR, file), "utf8");
  const [header, ...rows] = text.trim().split("\n");
  if (header?.trim() !== "method\tpath") throw new Error(`unexpected ${file} header: ${header}`);
  return rows.map((r) => {
    const [method, p] = r.trim().split("\t");
    return { method: method as string, path: p as string };
  });
}

/** The rows of operations.tsv: the spec's operations. */
export function specOperations(): SpecOperation[] {
  return readOperations("operations.tsv");
}

/**
 * The rows of operations-beyond-spec.tsv: operations the spec does not describe that we serve, as the service's
 * own OpenAPI document describes them (tests/fixtures/service-openapi/facts.json has their facts).
 */
export function beyondSpecOperations(): SpecOperation[] {
  return readOperations("operations-beyond-spec.tsv");
}

/** Every operation we serve: the spec's, then those beyond it. */
export function servedOperations(): SpecOperation[] {
  return [...specOperations(), ...beyondSpecOperations()];
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
