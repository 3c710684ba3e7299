/**
 * Helpers for end-to-end tests that drive the real Pulumi CLI (built by scripts/engine.sh) with our language
 * host (engine/language-host.js) and the real dynamic-provider plugin.
 *
 *   const bin = await ensureEngine();                    // builds/locates the engine once per process
 *   const env = engineEnv({ binDir: bin, backendDir, pulumiHome });
 *   const r = await runPulumi(["up"], { cwd: projectDir, env, yes: true });
 */
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** Absolute path of the repository root. */
export const repoRoot = path.resolve(__dirname, "..", "..");

/** Version of the @pulumi/pulumi SDK installed in the repo (the engine is built at the same version). */
export function sdkVersion(): string {
  const pkgFile = path.join(repoRoot, "node_modules", "@pulumi", "pulumi", "package.json");
  return (JSON.parse(fs.readFileSync(pkgFile, "utf8")) as { version: string }).version;
}

/** The engine cache directory, as scripts/engine.sh computes it. */
export function engineCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.PRIVNET_ENGINE_CACHE || path.join(env.HOME || "/tmp", ".cache", "pulumi-privnet", "engine");
}

/** The engine bin dir scripts/engine.sh installs into (it may not exist yet: see ensureEngine). */
export function defaultEngineBinDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.PRIVNET_ENGINE_BIN || path.join(engineCacheDir(env), `v${sdkVersion()}`, "bin");
}

let ensured: Promise<string> | undefined;

/**
 * Runs scripts/engine.sh once per process (it is idempotent and takes < 1 s when the engine is built; a cold
 * build takes minutes, so CI should run `npm run engine` before the tests) and returns the engine bin dir.
 */
export function ensureEngine(timeoutMs = 45 * 60_000): Promise<string> {
  ensured ??= new Promise<string>((resolve, reject) => {
    const env = {
      ...process.env,
      PATH: `${path.join(repoRoot, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
    };
    execFile(
      "bash",
      [path.join(repoRoot, "scripts", "engine.sh")],
      { cwd: repoRoot, env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) {
          reject(new Error(`scripts/engine.sh failed: ${err.message}\n${stderr}`));
          return;
        }
        const lines = stdout.split("\n").filter((l) => l.trim() !== "");
        const bin = lines[lines.length - 1]?.trim();
        if (!bin || !fs.existsSync(path.join(bin, "pulumi"))) {
          reject(new Error(`scripts/engine.sh printed no usable bin dir:\n${stdout}\n${stderr}`));
          return;
        }
        resolve(bin);
      },
    );
  });
  return ensured;
}

/** Options for engineEnv. */
export interface EngineEnvOptions {
  /** Engine bin dir (default: PRIVNET_ENGINE_BIN or the engine.sh cache layout). */
  binDir?: string;
  /** If set: this directory is created and used as the file state backend (PULUMI_BACKEND_URL=file://...). */
  backendDir?: string;
  /** PULUMI_HOME (default: the caller's, else <engine cache>/pulumi-home). */
  pulumiHome?: string;
  /** PULUMI_CONFIG_PASSPHRASE (default: the caller's passphrase (file) if set, else ""). */
  passphrase?: string;
  /** Environment to start from (default: process.env). */
  base?: NodeJS.ProcessEnv;
  /** Extra variables, applied last; undefined removes a variable. */
  extra?: Record<string, string | undefined>;
}

/**
 * The environment for running the engine, like scripts/pulumi-env.sh: engine bin dir and the repo's
 * node_modules/.bin (Node 24) first on PATH, update checks and plugin downloads off, ts-node transpile-only.
 */
export function engineEnv(opts: EngineEnvOptions = {}): Record<string, string> {
  const base = opts.base ?? process.env;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined) env[k] = v;
  }
  const binDir = opts.binDir ?? defaultEngineBinDir(base);
  env.PRIVNET_ROOT = env.PRIVNET_ROOT ?? repoRoot;
  env.PRIVNET_ENGINE_BIN = binDir;
  env.PATH = [binDir, path.join(repoRoot, "node_modules", ".bin"), base.PATH ?? ""]
    .filter((p) => p)
    .join(":");
  env.PULUMI_SKIP_UPDATE_CHECK ??= "true";
  env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION ??= "true";
  env.PULUMI_NODEJS_TRANSPILE_ONLY ??= "true";
  env.PULUMI_HOME = opts.pulumiHome ?? env.PULUMI_HOME ?? path.join(engineCacheDir(base), "pulumi-home");
  if (opts.passphrase !== undefined) {
    env.PULUMI_CONFIG_PASSPHRASE = opts.passphrase;
    delete env.PULUMI_CONFIG_PASSPHRASE_FILE;
  } else if (env.PULUMI_CONFIG_PASSPHRASE === undefined && env.PULUMI_CONFIG_PASSPHRASE_FILE === undefined) {
    env.PULUMI_CONFIG_PASSPHRASE = "";
  }
  if (opts.backendDir !== undefined) {
    const dir = path.resolve(opts.backendDir);
    fs.mkdirSync(dir, { recursive: true });
    env.PULUMI_BACKEND_URL = `file://${dir}`;
  }
  for (const [k, v] of Object.entries(opts.extra ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Options for runPulumi. */
export interface RunPulumiOptions {
  /** Working directory (the Pulumi project). */
  cwd: string;
  /** Full environment, normally from engineEnv(). */
  env: Record<string, string>;
  /** Written to the CLI's stdin (stdin is closed either way). */
  input?: string;
  /** Add `--yes`. */
  yes?: boolean;
  /** Add `--skip-preview`. */
  skipPreview?: boolean;
  /** Kill the CLI (and its plugins) after this long; default 240 s. */
  timeoutMs?: number;
  /** Called with the CLI's pid once it runs: its process group is `-pid` (the CLI, the program, the plugins). */
  onSpawn?: (pid: number) => void;
}

/** Result of runPulumi. */
export interface RunPulumiResult {
  /** Exit code; null when killed by a signal (e.g. on timeout). */
  code: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
}

/**
 * Runs `pulumi <args> --non-interactive [--yes] [--skip-preview]` without a shell. The CLI runs in its own
 * process group so a timeout stops its plugins too (SIGINT, then SIGKILL 5 s later). Never rejects for a
 * non-zero exit: check `code`.
 */
export function runPulumi(args: string[], opts: RunPulumiOptions): Promise<RunPulumiResult> {
  const extra = ["--non-interactive"];
  if (opts.yes) extra.push("--yes");
  if (opts.skipPreview) extra.push("--skip-preview");
  // Flags go before a `--` (which passes the rest through, e.g. to `pulumi convert`).
  const dashDash = args.indexOf("--");
  const fullArgs =
    dashDash < 0 ? [...args, ...extra] : [...args.slice(0, dashDash), ...extra, ...args.slice(dashDash)];

  const binDir = opts.env.PRIVNET_ENGINE_BIN;
  const exe = binDir && fs.existsSync(path.join(binDir, "pulumi")) ? path.join(binDir, "pulumi") : "pulumi";
  const timeoutMs = opts.timeoutMs ?? 240_000;
  const started = Date.now();

  return new Promise<RunPulumiResult>((resolve) => {
    const child = spawn(exe, fullArgs, { cwd: opts.cwd, env: opts.env, detached: true, stdio: "pipe" });
    if (child.pid !== undefined) opts.onSpawn?.(child.pid);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.stdin.on("error", () => undefined); // the CLI may exit before reading its input
    child.stdin.end(opts.input ?? "");

    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const signalGroup = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup("SIGINT");
      killTimer = setTimeout(() => signalGroup("SIGKILL"), 5_000);
    }, timeoutMs);

    let settled = false;
    const finish = (code: number | null, extraErr = ""): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      resolve({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8") + extraErr,
        durationMs: Date.now() - started,
        timedOut,
      });
    };
    child.on("error", (e) => finish(null, `\nrunPulumi: could not start ${exe}: ${e.message}`));
    child.on("close", (code) => finish(code));
  });
}
