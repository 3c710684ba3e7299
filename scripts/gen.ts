/**
 * Writes the generated files: docs/openapi.json, the access tests' JSON Schema, the route table without schemas
 * (api/operation-table.ts), the sdk resource classes and their lazy indexes, the provider's table of kinds, the
 * reference docs and the package schema plugin/schema.json.
 * Then the Python and Go SDKs from that schema (scripts/gen-sdks.sh), and the API docs docs/api/ (scripts/apidocs.ts).
 * With --check, writes nothing and fails when a committed file differs from what would be generated.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { apiDocsFiles } from "./apidocs";
import { formatted, root } from "./format";
import { operationTableSource } from "./operationsgen";

// package.json is ours: only its version is read.
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };

const OPERATION_TABLE = "api/operation-table.ts";

/**
 * Every generated file but the operation table: repo-relative path -> content. Imported only once the compiled
 * operation table is current: the lookups' table (loaded by the access tests' schema and the lookups' generator)
 * reads it when it loads, and fails on an operation it does not have.
 */
async function generatedFiles(): Promise<Map<string, string>> {
  const { testsJsonSchema } = await import("../access/expectations");
  const { buildOpenApi } = await import("../api/openapi");
  const { lookupFiles } = await import("./lookupgen");
  const { schemaFiles } = await import("./schemagen");
  const { sdkFiles } = await import("./sdkgen");
  const files = new Map<string, string>();
  files.set("docs/openapi.json", `${JSON.stringify(buildOpenApi(pkg.version), null, 2)}\n`);
  files.set("docs/access-tests.schema.json", `${JSON.stringify(testsJsonSchema(), null, 2)}\n`);
  for (const [k, v] of await sdkFiles()) files.set(k, v);
  for (const [k, v] of await lookupFiles()) files.set(k, v);
  for (const [k, v] of await formatted(schemaFiles())) files.set(k, v);
  return files;
}

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const stale: string[] = [];
  // The operation table first: when a route was added, the compiled table the other generators load is stale, so
  // write it, compile again and start over.
  const [[, table]] = [...(await formatted(new Map([[OPERATION_TABLE, operationTableSource()]])))] as [
    [string, string],
  ];
  const tableFile = path.join(root, OPERATION_TABLE);
  if (!fs.existsSync(tableFile) || fs.readFileSync(tableFile, "utf8") !== table) {
    if (check) {
      process.stderr.write(`gen: stale generated files (run npm run gen and commit): ${OPERATION_TABLE}\n`);
      process.exit(1);
    }
    fs.writeFileSync(tableFile, table);
    process.stdout.write(`gen: wrote ${OPERATION_TABLE}; compiling again\n`);
    const again = (cmd: string, args: string[]) =>
      spawnSync(cmd, args, { cwd: root, stdio: "inherit" }).status ?? 1;
    const built = again("npm", ["run", "--silent", "build"]);
    process.exit(built || again(process.execPath, [__filename, ...process.argv.slice(2)]));
  }
  for (const [rel, content] of await generatedFiles()) {
    const file = path.join(root, rel);
    const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
    if (current === content) continue;
    if (check) stale.push(rel);
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      process.stdout.write(`gen: wrote ${rel}\n`);
    }
  }
  const sdks = otherSdks(check);
  stale.push(...apiDocs(check));
  if (stale.length) {
    process.stderr.write(`gen: stale generated files (run npm run gen and commit): ${stale.join(", ")}\n`);
  }
  if (stale.length || !sdks) process.exit(1);
  if (check) process.stdout.write("gen: generated files are up to date\n");
}

/**
 * docs/api/ from plugin/schema.json as written (with --check: compared, a page too many included). Its generator is
 * built with Go: without Go the pages are left as they are, and the check says so. The stale pages' paths.
 */
function apiDocs(check: boolean): string[] {
  const files = apiDocsFiles();
  if (!files) {
    process.stderr.write("gen: Go is not installed: docs/api is not generated or checked\n");
    return [];
  }
  const dir = path.join(root, "docs", "api");
  const present = fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => `docs/api/${f}`) : [];
  const stale = present.filter((rel) => !files.has(rel));
  for (const [rel, content] of files) {
    const file = path.join(root, rel);
    if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === content) continue;
    stale.push(rel);
  }
  if (check) return stale;
  for (const rel of stale) {
    const content = files.get(rel);
    const file = path.join(root, rel);
    if (content === undefined) fs.rmSync(file);
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
  }
  if (stale.length) process.stdout.write(`gen: wrote docs/api (${stale.length} pages changed)\n`);
  return [];
}

/**
 * The Python and Go SDKs, generated from plugin/schema.json by scripts/gen-sdks.sh (with --check: compared).
 * Their generator is built with Go: without Go they are left as they are, and the check says so. True when they
 * are fresh (or were written).
 */
function otherSdks(check: boolean): boolean {
  if (spawnSync("go", ["version"], { stdio: "ignore" }).status !== 0) {
    process.stderr.write("gen: Go is not installed: sdk/python and sdk/go are not generated or checked\n");
    return true;
  }
  const args = [path.join(root, "scripts", "gen-sdks.sh"), ...(check ? ["--check"] : [])];
  return spawnSync("bash", args, { stdio: "inherit" }).status === 0;
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`gen: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
