/**
 * What the importer's end-to-end tests share (tests/e2e/import.test.ts against a local server, the acceptance
 * tier against any target): running the installed `privnet-import`, installing the project it wrote as its
 * README says, the secrets its README lists, and the objects an account holds per kind.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import type { PrivnetClient } from "../../client";
import { listObjects } from "../../provider/list";
import { PROVIDERS } from "../../provider/registry";

const repoRoot = path.resolve(__dirname, "..", "..");

export interface Exec {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function exec(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Exec> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd, env, timeout: 180_000, maxBuffer: 32 * 1024 * 1024 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === "number" ? err.code : null) : 0, stdout, stderr });
      },
    );
  });
}

/** The repo's tools first on PATH (its Node, tsc). */
export const IMPORT_PATH = `${path.join(repoRoot, "node_modules", ".bin")}:${process.env.PATH ?? ""}`;

/**
 * Runs the installed command (`bin/privnet-import --api-url URL --token-file FILE --out DIR ...args`), then
 * installs the project as its README says. Throws with the command's output when either fails.
 */
export async function importProject(o: {
  apiUrl: string;
  tokenFile: string;
  dir: string;
  args?: string[];
  cwd: string;
}): Promise<Exec> {
  const run = await exec(
    process.execPath,
    [
      path.join(repoRoot, "bin", "privnet-import"),
      "--api-url",
      o.apiUrl,
      "--token-file",
      o.tokenFile,
      "--out",
      o.dir,
      ...(o.args ?? []),
    ],
    o.cwd,
    { PATH: IMPORT_PATH },
  );
  if (run.code !== 0) throw new Error(`privnet-import failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
  const install = await exec(
    "bash",
    [path.join(repoRoot, "scripts", "install-example.sh"), o.dir],
    repoRoot,
    {
      ...process.env,
      PATH: IMPORT_PATH,
    },
  );
  if (install.code !== 0) throw new Error(`install failed:\n${install.stdout}\n${install.stderr}`);
  return run;
}

/** `config.requireSecret` keys and what they are (`Kind "label": field`), from the generated README's table. */
export function secretsOf(readme: string): { key: string; what: string }[] {
  return [...readme.matchAll(/^\| `([^`]+)` +\| (.+?) +\|$/gm)].map((m) => ({
    key: m[1] as string,
    what: m[2] as string,
  }));
}

/**
 * Objects per kind (of `kinds`, default every kind), read as the importer and the provider read them
 * (provider/list.ts): singletons count 1 when configured.
 */
export async function countObjects(
  client: PrivnetClient,
  kinds: string[] = PROVIDERS.map((p) => p.spec.name),
): Promise<Record<string, number>> {
  const ctx = { client, batchReads: false };
  const counts = await Promise.all(
    kinds.map(async (kind) => {
      const spec = PROVIDERS.find((p) => p.spec.name === kind)?.spec;
      if (!spec) throw new Error(`no kind ${kind}`);
      return [kind, (await listObjects(spec, ctx)).length] as const;
    }),
  );
  return Object.fromEntries(counts);
}
