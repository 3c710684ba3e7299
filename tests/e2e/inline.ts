/**
 * Automation API inline programs for the resource plugin's tests (and bench/peer.ts), in Python (tests/e2e/programs/python-inline,
 * with a venv holding `pulumi` at the engine's version and the generated SDK sdk/python) and Go
 * (tests/e2e/programs/go-inline, on the generated SDK sdk/go), run against a server (the e2e tier's own, or the
 * acceptance target). Both go through the same life and report the same steps.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { engineCacheDir, engineEnv, ensureEngine, repoRoot, sdkVersion } from "./engine";

export function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 600_000,
  cwd?: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { env, cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${cmd} ${args.join(" ")} failed: ${err.message}\n${stdout}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

/**
 * A venv with `pulumi` at the engine's version and setuptools (cached beside the engine: pip downloads from PyPI
 * once), and the generated SDK installed from a copy of sdk/python (a build writes into its source directory).
 */
export async function pythonWithSdk(work: string): Promise<string> {
  const venv = path.join(engineCacheDir(), `v${sdkVersion()}`, "python-venv");
  const python = path.join(venv, "bin", "python");
  // setuptools >= 70.1 builds wheels without the `wheel` package (the venv's own is older).
  // The generated SDK depends on parver and semver besides pulumi.
  const requirements = [`pulumi==${sdkVersion()}`, "setuptools>=70.1", "parver>=0.2.1", "semver>=2.8.1"];
  const ready = path.join(venv, ".ready");
  if (!fs.existsSync(ready) || fs.readFileSync(ready, "utf8") !== requirements.join(" ")) {
    fs.rmSync(venv, { recursive: true, force: true });
    await run("python3", ["-m", "venv", venv], process.env);
    await run(python, ["-m", "pip", "install", "--quiet", ...requirements], process.env);
    fs.writeFileSync(ready, requirements.join(" "));
  }
  const sdk = path.join(work, "sdk-python");
  fs.cpSync(path.join(repoRoot, "sdk", "python"), sdk, {
    recursive: true,
    filter: (src) => !/(^|\/)(build|[^/]*\.egg-info)$/.test(src),
  });
  await run(
    python,
    ["-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--force-reinstall", sdk],
    process.env,
  );
  return python;
}

/** One step the program reports (`STEP {...}` lines). */
export interface InlineStep {
  step: string;
  /** What a command printed (the access guard's steps). */
  stdout?: string;
  ok?: boolean;
  changes?: Record<string, number>;
  outputs?: Record<string, { secret: boolean; value: unknown }>;
  teamGroupId?: string;
}

/**
 * The environment of an inline program run against `server` in `work`: the CLI and the plugin (from this checkout)
 * on PATH, the state backend `<work>/state`, the project directory `<work>/project` (PRIVNET_TEST_WORK), the
 * server as PRIVNET_TEST_URL / PRIVNET_TEST_TOKEN, and `extra`.
 */
export async function inlineEnv(
  work: string,
  server: { url: string; token: string },
  extra: Record<string, string> = {},
): Promise<Record<string, string>> {
  const project = path.join(work, "project");
  fs.mkdirSync(project, { recursive: true });
  const binDir = await ensureEngine();
  return engineEnv({
    binDir,
    backendDir: path.join(work, "state"),
    pulumiHome: path.join(work, "pulumi-home"),
    passphrase: "inline-passphrase",
    extra: {
      // The plugin from this checkout, found on PATH as `pulumi-resource-privnet`.
      PATH: `${path.join(repoRoot, "bin")}:${engineEnv({ binDir }).PATH}`,
      PRIVNET_API_URL: undefined,
      PRIVNET_TOKEN: undefined,
      PRIVNET_TEST_URL: server.url,
      PRIVNET_TEST_TOKEN: server.token,
      PRIVNET_TEST_WORK: project,
      ...extra,
    },
  });
}

/** The `STEP {...}` lines a program printed, by step name. */
export function stepsOf(out: string): Record<string, InlineStep> {
  return Object.fromEntries(
    out
      .split("\n")
      .filter((l) => l.startsWith("STEP "))
      .map((l) => JSON.parse(l.slice(5)) as InlineStep)
      .map((s) => [s.step, s]),
  );
}

/**
 * Runs an inline program (`command args`) against `server` with the CLI and the plugin (on PATH) in `work` (the
 * state backend is `<work>/state`); returns its steps by name.
 */
export async function runInline(
  command: string,
  args: string[],
  work: string,
  server: { url: string; token: string },
  vars: Record<string, string> = {},
): Promise<Record<string, InlineStep>> {
  return stepsOf(await run(command, args, await inlineEnv(work, server, vars)));
}

/** The Python program (network.py) with the generated SDK. */
export async function runPythonNetwork(
  work: string,
  server: { url: string; token: string },
): Promise<Record<string, InlineStep>> {
  const python = await pythonWithSdk(work);
  return runInline(python, [path.join(__dirname, "programs", "python-inline", "network.py")], work, server);
}

/**
 * Another Python program of tests/e2e/programs/python-inline (`file`), with the generated SDK; `vars` are more
 * environment variables for it.
 */
export async function runPythonProgram(
  file: string,
  work: string,
  server: { url: string; token: string },
  vars: Record<string, string> = {},
): Promise<Record<string, InlineStep>> {
  const python = await pythonWithSdk(work);
  return runInline(python, [path.join(__dirname, "programs", "python-inline", file)], work, server, vars);
}

/** The Go program (go-inline), built with the Go toolchain on PATH (modules from the Go module proxy). */
export async function runGoNetwork(
  work: string,
  server: { url: string; token: string },
): Promise<Record<string, InlineStep>> {
  const exe = path.join(work, "go-inline");
  await run(
    "go",
    ["build", "-o", exe, "."],
    { ...process.env, GOFLAGS: "-mod=mod" },
    900_000,
    path.join(__dirname, "programs", "go-inline"),
  );
  return runInline(exe, [], work, server);
}
