/**
 * A throw-away Pulumi project driven by the real CLI: the built package installed as a copy (as a user's
 * `npm install` would lay it out), a JavaScript program from bench/programs, a file state backend and a
 * passphrase-encrypted stack whose config points the provider at a server.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { engineEnv, runPulumi, type RunPulumiResult } from "../../tests/e2e/engine";
import { installPackageCopy } from "../../tests/support/package-copy";

export interface BenchProject {
  dir: string;
  env: Record<string, string>;
  /** Writes `bench-input.json`, which the program reads (phase, fixture ids, counts). */
  setInput(input: unknown): void;
  /** Removes the stack without touching the server (`stack rm --force`) and makes it again, config included. */
  resetStack(): Promise<void>;
  /** Runs `pulumi <args>` with `env`; throws with the output unless the exit code is 0 (or `allowFail`). */
  pulumi(
    args: string[],
    opts?: { allowFail?: boolean; timeoutMs?: number; yes?: boolean },
  ): Promise<RunPulumiResult>;
}

export interface BenchProjectOptions {
  /** Parent directory; the project, state and PULUMI_HOME go under it. */
  workDir: string;
  name: string;
  /** The program file under bench/programs/. */
  program: string;
  binDir: string;
  /** Provider config; undefined: no privnet config (a program that needs none). */
  server?: { url: string; token: string };
  /** Also install bench/programs/noop-provider.js as the package `bench-noop-provider`. */
  noopProvider?: boolean;
  /** A TypeScript program instead (`program` is then ignored): index.ts and tsconfig.json, as written here. */
  typescript?: { program: string; tsconfig: string };
}

/** Installs bench/programs/noop-provider.js as `<dir>/node_modules/bench-noop-provider` (a real directory). */
export function installNoopProvider(dir: string): void {
  const pkg = path.join(dir, "node_modules", "bench-noop-provider");
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, "package.json"), '{"name":"bench-noop-provider","main":"index.js"}\n');
  fs.copyFileSync(path.join(__dirname, "..", "programs", "noop-provider.js"), path.join(pkg, "index.js"));
}

export async function createProject(opts: BenchProjectOptions): Promise<BenchProject> {
  const dir = path.join(opts.workDir, opts.name);
  fs.mkdirSync(dir, { recursive: true });
  const main = opts.typescript ? "index.ts" : "index.js";
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: ${opts.name}\nruntime:\n  name: nodejs\n  options:\n    typescript: ${opts.typescript ? "true" : "false"}\nmain: ${main}\n`,
  );
  fs.writeFileSync(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name: opts.name, private: true, main }, null, 2)}\n`,
  );
  installPackageCopy({
    dir,
    projectName: opts.name,
    writeProject: false,
    // A TypeScript project's devDependencies, as the examples have them.
    extraLinks: opts.typescript ? ["typescript", "@types/node"] : undefined,
  });
  if (opts.typescript) {
    fs.writeFileSync(path.join(dir, "index.ts"), opts.typescript.program);
    fs.writeFileSync(path.join(dir, "tsconfig.json"), opts.typescript.tsconfig);
  } else {
    fs.copyFileSync(path.join(__dirname, "..", "programs", opts.program), path.join(dir, "index.js"));
  }
  // The up300 programs share their graph; a program that does not use it ignores the file.
  fs.copyFileSync(path.join(__dirname, "..", "programs", "graph-shape.js"), path.join(dir, "graph-shape.js"));
  if (opts.noopProvider) installNoopProvider(dir);
  const env = engineEnv({
    binDir: opts.binDir,
    backendDir: path.join(opts.workDir, `${opts.name}-state`),
    pulumiHome: path.join(opts.workDir, "pulumi-home"),
    passphrase: "bench-passphrase",
    // The provider must take its settings from the stack config, not from the caller's environment.
    extra: {
      PRIVNET_API_URL: undefined,
      PRIVNET_TOKEN: undefined,
      PRIVNET_RATE_LIMIT: undefined,
      PRIVNET_BATCH_READS: undefined,
    },
  });
  const project: BenchProject = {
    dir,
    env,
    setInput(input) {
      fs.writeFileSync(path.join(dir, "bench-input.json"), JSON.stringify(input));
    },
    async resetStack() {
      await project.pulumi(["stack", "rm", "bench", "--force"], { yes: true });
      await initStack();
    },
    async pulumi(args, o = {}) {
      const r = await runPulumi(args, {
        cwd: dir,
        env: project.env,
        yes: o.yes,
        timeoutMs: o.timeoutMs ?? 300_000,
      });
      if (r.code !== 0 && !o.allowFail) {
        throw new Error(
          `pulumi ${args.join(" ")} (${opts.name}) exited ${r.code}${r.timedOut ? " (timed out)" : ""}\n` +
            `--- stdout\n${r.stdout.slice(-6000)}\n--- stderr\n${r.stderr.slice(-4000)}`,
        );
      }
      return r;
    },
  };
  const initStack = async () => {
    await project.pulumi(["stack", "init", "bench", "--secrets-provider", "passphrase"]);
    if (opts.server) {
      await project.pulumi(["config", "set", "privnet:apiUrl", opts.server.url]);
      // Secrets through stdin, never on a command line.
      const r = await runPulumi(["config", "set", "--secret", "privnet:token"], {
        cwd: dir,
        env: project.env,
        input: opts.server.token,
      });
      if (r.code !== 0) throw new Error(`pulumi config set --secret privnet:token: ${r.stderr}`);
    }
  };
  project.setInput({});
  await initStack();
  return project;
}

/** Resource ids by type token (`privnet:index:Group` style tail: the kind) from `pulumi stack export`. */
export async function stateResources(
  project: BenchProject,
): Promise<{ kind: string; name: string; id: string; outputs: Record<string, unknown> }[]> {
  const r = await project.pulumi(["stack", "export"]);
  const state = JSON.parse(r.stdout) as {
    deployment?: {
      resources?: { type: string; urn: string; id?: string; outputs?: Record<string, unknown> }[];
    };
  };
  return (state.deployment?.resources ?? [])
    .filter((res) => res.type.startsWith("pulumi-nodejs:dynamic/"))
    .map((res) => ({
      kind: res.type.slice(res.type.lastIndexOf(":") + 1),
      name: res.urn.slice(res.urn.lastIndexOf("::") + 2),
      id: res.id ?? "",
      outputs: res.outputs ?? {},
    }));
}
