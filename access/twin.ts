/**
 * The offline twin of `privnet-access diff`: the account cloned into an in-memory privnet-server (ids kept, peers
 * and their metadata as the API shows them), and the stack's program run against it with a throw-away copy of
 * the stack's state, so that the provider code of a real `pulumi up` computes the account after the change.
 *
 * What reaches the real account: only the reads of the clone. What is read of the real stack: `pulumi stack
 * export` and `pulumi config` (read-only; they need the stack's passphrase, as `pulumi preview` does). Everything
 * else happens in a private temporary directory (mode 0700) that is removed at the end, whatever happens:
 *   1. the project's files are copied there (its `node_modules` linked, not copied), and a fresh stack of the same
 *      name is made in a file backend inside it, with a random passphrase and a PULUMI_HOME of its own there (the
 *      user's plugins linked in), so that no log or workspace file of the twin's run stays behind;
 *   2. the stack config is copied with `privnet:apiUrl` and `privnet:token` pointing at the twin; other secrets
 *      are set through `pulumi config set --secret` reading stdin (never on a command line);
 *   3. the exported state is imported through stdin (`pulumi stack import`), never written to a file;
 *   4. `pulumi up` runs with `PRIVNET_TWIN_API_URL` / `PRIVNET_TWIN_TOKEN` set: every provider and lookup of the
 *      program, explicit providers included, talks to the twin whatever its arguments say
 *      (model/credentials.ts).
 * The real stack's state, config and lock are never written: no command runs with the real backend but the two
 * reads above.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import YAML from "yaml";
import { ImportError } from "../importer/read";
import { startServer, type RunningServer, type Seed } from "../server";

export interface PulumiRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `pulumi ARGS` in `cwd`; `input` goes to its stdin. */
export function pulumi(
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string; onLine?: (line: string) => void },
): Promise<PulumiRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", args, { cwd: opts.cwd, env: opts.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let pending = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (!opts.onLine) return;
      pending += d.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const l of lines) opts.onLine(l);
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", (err: NodeJS.ErrnoException) =>
      reject(
        err.code === "ENOENT"
          ? new ImportError(
              "privnet-access diff needs the Pulumi CLI (`pulumi`) on PATH, as `pulumi preview` does",
            )
          : err,
      ),
    );
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? "");
  });
}

/** The first meaningful line of a failed command's output. */
export function firstError(r: PulumiRun): string {
  const lines = `${r.stderr}\n${r.stdout}`
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !/^[=-]{5,}$/.test(l));
  return (lines.find((l) => /^error:/i.test(l)) ?? lines[0] ?? `exit ${r.code}`).replace(/^error:\s*/i, "");
}

/** The project's Pulumi.yaml, or a one-line error. */
export function checkProject(cwd: string): void {
  let st: fs.Stats;
  try {
    st = fs.statSync(cwd);
  } catch {
    throw new ImportError(`--cwd ${cwd}: no such directory`, 2);
  }
  if (!st.isDirectory()) throw new ImportError(`--cwd ${cwd}: not a directory`, 2);
  if (!fs.existsSync(path.join(cwd, "Pulumi.yaml")) && !fs.existsSync(path.join(cwd, "Pulumi.yml")))
    throw new ImportError(`--cwd ${cwd}: no Pulumi project there (no Pulumi.yaml)`, 2);
}

/** What the real stack holds, read once (export and config). */
export interface StackRead {
  /** `pulumi stack export --show-secrets`, parsed. */
  exported: { version: number; deployment: Record<string, unknown> };
  /** `pulumi config --json --show-secrets`. */
  config: Record<string, { value?: string; objectValue?: unknown; secret: boolean }>;
}

/** Reads the real stack: state and config. Refuses a stack with pending operations. */
export async function readStack(cwd: string, stack: string, env: NodeJS.ProcessEnv): Promise<StackRead> {
  const exp = await pulumi(["stack", "export", "--show-secrets", "--stack", stack, "--non-interactive"], {
    cwd,
    env,
  });
  if (exp.code !== 0) throw new ImportError(`cannot read stack ${stack}: ${firstError(exp)}`);
  const exported = JSON.parse(exp.stdout) as StackRead["exported"];
  const pending = (exported.deployment?.pending_operations as unknown[] | undefined) ?? [];
  if (pending.length)
    throw new ImportError(
      `stack ${stack} has ${pending.length} pending operation${pending.length === 1 ? "" : "s"} (an interrupted update): ` +
        "resolve them first (pulumi refresh, or pulumi stack export/import as the Pulumi docs say)",
    );
  const cfg = await pulumi(["config", "--json", "--show-secrets", "--stack", stack, "--non-interactive"], {
    cwd,
    env,
  });
  if (cfg.code !== 0) throw new ImportError(`cannot read the config of stack ${stack}: ${firstError(cfg)}`);
  return { exported, config: JSON.parse(cfg.stdout || "{}") as StackRead["config"] };
}

/** Copies a project for the twin: sources copied, `node_modules` linked, stack config files left out. */
function copyProject(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, e.name);
    const dst = path.join(to, e.name);
    if (e.name === "node_modules") fs.symlinkSync(fs.realpathSync(src), dst, "dir");
    else if (e.name === ".git" || e.name === ".pulumi" || /^Pulumi\..+\.ya?ml$/.test(e.name)) continue;
    else if (e.isDirectory()) copyProject(src, dst);
    else if (e.isFile()) fs.copyFileSync(src, dst);
    else if (e.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(src), dst);
  }
}

export interface TwinRun {
  twin: RunningServer;
  token: string;
  close(): Promise<void>;
}

/**
 * Starts the twin: an in-memory privnet-server seeded with the account, with the account's proxy clusters as shared
 * clusters (so that the program's reverse-proxy services can be published on them there too).
 */
export async function startTwin(seed: Seed, proxyClusters: string[] = []): Promise<TwinRun> {
  const twin = await startServer({ db: ":memory:", seed, port: 0, proxyClusters });
  return { twin, token: twin.ownerToken as string, close: () => twin.close() };
}

/**
 * Runs the stack's program against the twin (see the module comment). `env` is the environment the user's
 * `pulumi` commands run in (PATH, PULUMI_HOME, the passphrase for the real stack). Returns how long the
 * program's own `pulumi up` took (ms).
 */
export async function runAgainstTwin(opts: {
  cwd: string;
  stack: string;
  read: StackRead;
  twinUrl: string;
  twinToken: string;
  env: NodeJS.ProcessEnv;
  progress: (line: string) => void;
}): Promise<number> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "privnet-access-twin-"));
  fs.chmodSync(tmp, 0o700);
  try {
    const project = path.join(tmp, "project");
    copyProject(path.resolve(opts.cwd), project);
    fs.mkdirSync(path.join(tmp, "state"));
    // The twin's commands keep their logs and workspace files in a PULUMI_HOME of their own, inside the
    // temporary directory; the plugins the user has installed are linked in.
    const home = path.join(tmp, "pulumi-home");
    fs.mkdirSync(home);
    const realHome = opts.env.PULUMI_HOME || path.join(os.homedir(), ".pulumi");
    if (fs.existsSync(path.join(realHome, "plugins")))
      fs.symlinkSync(path.join(realHome, "plugins"), path.join(home, "plugins"), "dir");
    const env: NodeJS.ProcessEnv = {
      ...opts.env,
      PULUMI_HOME: home,
      PULUMI_BACKEND_URL: `file://${path.join(tmp, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: randomBytes(24).toString("hex"),
      PULUMI_CONFIG_PASSPHRASE_FILE: undefined,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_ACCESS_TOKEN: undefined,
      PRIVNET_API_URL: undefined,
      PRIVNET_TOKEN: undefined,
      PRIVNET_TWIN_API_URL: opts.twinUrl,
      PRIVNET_TWIN_TOKEN: opts.twinToken,
    };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
    const run = async (args: string[], input?: string, onLine?: (l: string) => void) => {
      const r = await pulumi([...args, "--stack", opts.stack, "--non-interactive"], {
        cwd: project,
        env,
        input,
        onLine,
      });
      if (r.code !== 0)
        throw new ImportError(`the twin's pulumi ${args.slice(0, 2).join(" ")} failed: ${firstError(r)}`);
      return r;
    };
    const init = await pulumi(
      ["stack", "init", opts.stack, "--no-select", "--secrets-provider", "passphrase"],
      {
        cwd: project,
        env,
      },
    );
    if (init.code !== 0) throw new ImportError(`the twin's pulumi stack init failed: ${firstError(init)}`);
    // Plain config goes into the copy's stack file; secrets through stdin, one at a time.
    const stackFile = path.join(project, `Pulumi.${opts.stack}.yaml`);
    const doc = (YAML.parse(fs.readFileSync(stackFile, "utf8")) as Record<string, unknown> | null) ?? {};
    const config: Record<string, unknown> = {};
    const secrets: [string, string][] = [];
    for (const [key, v] of Object.entries(opts.read.config)) {
      if (key === "privnet:apiUrl" || key === "privnet:token") continue;
      const value = v.objectValue ?? v.value;
      if (!v.secret) config[key] = value;
      else if (typeof v.value === "string") secrets.push([key, v.value]);
      else throw new ImportError(`stack config ${key} is a structured secret: the twin cannot copy it`);
    }
    config["privnet:apiUrl"] = opts.twinUrl;
    fs.writeFileSync(stackFile, YAML.stringify({ ...doc, config }));
    secrets.push(["privnet:token", opts.twinToken]);
    for (const [key, value] of secrets) await run(["config", "set", "--secret", key], value);
    // The state's secret values are plain (exported with --show-secrets): the twin's stack takes them with its
    // own secrets provider (the engine cannot import plain secrets without one), which encrypts them.
    const own = await run(["stack", "export"]);
    const secretsProviders = (JSON.parse(own.stdout) as StackRead["exported"]).deployment.secrets_providers;
    const deployment = { ...opts.read.exported.deployment, secrets_providers: secretsProviders };
    await run(["stack", "import"], JSON.stringify({ ...opts.read.exported, deployment }));
    opts.progress("running the program against the twin (pulumi up)");
    const started = Date.now();
    await run(["up", "--yes", "--skip-preview", "--suppress-progress"], undefined, (line) => {
      const m =
        /^\s*([+~-]|\+-)\s+(\S+)\s+(\S+)\s+(created|updated|deleted|replaced|creating|updating|deleting)/.exec(
          line,
        );
      if (m) opts.progress(`  ${line.trim()}`);
    });
    return Date.now() - started;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
