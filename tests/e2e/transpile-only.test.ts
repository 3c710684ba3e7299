/**
 * TypeScript programs under PULUMI_NODEJS_TRANSPILE_ONLY=true (ts-node without type-checking: the faster start the
 * README recommends), with the real CLI.
 *
 * Why a tsconfig can break there: Pulumi's Node runtime registers ts-node with its own defaults, `module` and
 * `moduleResolution` both `nodenext` on a TypeScript >= 4.7, overridden by what the project's tsconfig.json says.
 * A tsconfig that sets `module: commonjs` but leaves `moduleResolution` out ends up with commonjs + nodenext,
 * which TypeScript rejects (TS5110). A type-checking run never reports it (ts-node asks the language service for
 * the file's diagnostics only); transpile-only compiles each file with `transpileModule`, which reports option
 * errors, so the program fails to start. The examples' tsconfig and privnet-import's generated one set both.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { tsconfigJson } from "../../importer/project";
import { installPackageCopy } from "../support/package-copy";
import { engineEnv, ensureEngine, repoRoot, runPulumi } from "./engine";
import { makeWork, removeWork, SETUP_TIMEOUT_MS, TEST_TIMEOUT_MS } from "./project";

/** A program that loads pulumi-privnet and registers a component (no provider, no server needed). */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as privnet from "pulumi-privnet";

const kinds = [privnet.Group, privnet.Policy, privnet.SetupKey];
new pulumi.ComponentResource("check:index:Loaded", "loaded", { kinds: kinds.length });
export const loaded = kinds.length;
`;

describe("TypeScript programs with PULUMI_NODEJS_TRANSPILE_ONLY=true", () => {
  let work = "";
  let binDir = "";

  beforeAll(async () => {
    work = makeWork("transpile");
    binDir = await ensureEngine();
  }, SETUP_TIMEOUT_MS);

  afterAll(() => removeWork(work));

  async function preview(name: string, tsconfig: string) {
    const dir = path.join(work, name);
    installPackageCopy({ dir, projectName: name, extraLinks: ["typescript", "@types/node"] });
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\nmain: index.ts\n`,
    );
    fs.writeFileSync(path.join(dir, "index.ts"), PROGRAM);
    fs.writeFileSync(path.join(dir, "tsconfig.json"), tsconfig);
    const env = engineEnv({
      binDir,
      backendDir: path.join(work, `${name}-state`),
      pulumiHome: path.join(work, "pulumi-home"),
      passphrase: "transpile-only",
      extra: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
    });
    const init = await runPulumi(["stack", "init", "dev"], { cwd: dir, env });
    expect(init.code).toBe(0);
    const r = await runPulumi(["preview"], { cwd: dir, env, timeoutMs: 240_000 });
    return { code: r.code, output: `${r.stdout}\n${r.stderr}` };
  }

  const examplesTsconfig = fs.readFileSync(
    path.join(repoRoot, "examples", "network", "tsconfig.json"),
    "utf8",
  );

  it.each([
    ["the examples' tsconfig.json", "examples", examplesTsconfig],
    ["privnet-import's generated tsconfig.json", "imported", tsconfigJson()],
  ])(
    "a program with %s runs",
    async (_label, name, tsconfig) => {
      const r = await preview(name, tsconfig);
      expect(r.output).not.toContain("TS5110");
      expect({ code: r.code, tail: r.code === 0 ? "" : r.output.slice(-2000) }).toEqual({
        code: 0,
        tail: "",
      });
      expect(r.output).toMatch(/\+ 2 to create|2 to create/);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the cause: module commonjs without moduleResolution fails with TS5110 (so ours always set both)",
    async () => {
      const cfg = JSON.parse(examplesTsconfig) as { compilerOptions: Record<string, unknown> };
      delete cfg.compilerOptions.moduleResolution;
      const r = await preview("no-module-resolution", `${JSON.stringify(cfg, null, 2)}\n`);
      expect(r.code).not.toBe(0);
      expect(r.output).toContain("TS5110");
      for (const text of [examplesTsconfig, tsconfigJson()]) {
        const options = (JSON.parse(text) as { compilerOptions: Record<string, unknown> }).compilerOptions;
        expect(options).toMatchObject({ module: "commonjs", moduleResolution: "node10" });
      }
    },
    TEST_TIMEOUT_MS,
  );
});
