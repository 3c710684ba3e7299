/**
 * Helpers for the end-to-end tests of the examples: a local server that records every request, Pulumi projects
 * copied from the repo into temp dirs and installed the way the README says (scripts/install-example.sh: the
 * package as a copy), and a thin driver of the real CLI on one stack.
 *
 *   const server = await startE2EServer();
 *   const project = await copyProject(["Pulumi.yaml", "examples/network"], work, "examples/network");
 *   const stack = await PulumiStack.init({ project, work, name: "dev", server });
 *   const preview = await stack.preview();            // parsed `pulumi preview --json`
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import * as zlib from "node:zlib";
import { run as accessCli } from "../../access/cli";
import { PrivnetClient } from "../../client";
import { readInventory, type Inventory } from "../../scripts/inventory";
import type { RequestLogEntry } from "../../server/context";
import { ensureBuilt } from "../support/package-copy";
import { startTestServer, type TestServer } from "../support/server";
import type { RunPulumiResult } from "./engine";
import { engineEnv, ensureEngine, repoRoot, runPulumi } from "./engine";

/** Timeout of one CLI command (a preview or an up of the network example takes 5-15 s). */
export const COMMAND_TIMEOUT_MS = 180_000;
/** Timeout of a jest test that runs a few CLI commands. */
export const TEST_TIMEOUT_MS = 10 * 60_000;
/**
 * Timeout of a `beforeAll` that starts the engine: on a cold machine the first test file to need it waits for
 * scripts/engine.sh to build the CLI (7-20 min on 2 cores; other files wait on its lock, then take < 1 s).
 */
export const SETUP_TIMEOUT_MS = 50 * 60_000;

/** A temp dir for one test file; removed by {@link removeWork} unless PRIVNET_KEEP_E2E is set. */
export function makeWork(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `privnet-e2e-${prefix}-`));
}

export function removeWork(dir: string): void {
  if (!dir) return;
  if (process.env.PRIVNET_KEEP_E2E) {
    process.stdout.write(`kept ${dir}\n`);
    return;
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

// --- the server ---------------------------------------------------------------------------------------------

/** A fresh privnet-server (in this process, temp database, simulated agent) that records its requests. */
export interface E2EServer {
  server: TestServer;
  url: string;
  /** The owner's token: the programs' `privnet:token`. */
  token: string;
  /** A client with the owner's token, for out-of-band changes and counting. */
  client: PrivnetClient;
  /** Every request served so far, in order. */
  requests: RequestLogEntry[];
  /** Requests served since `mark` (an index into `requests`, e.g. `requests.length` taken before). */
  since(mark: number): RequestLogEntry[];
  inventory(): Promise<Inventory>;
  close(): Promise<void>;
}

export async function startE2EServer(): Promise<E2EServer> {
  const requests: RequestLogEntry[] = [];
  const server = await startTestServer({ simulate: true, onRequest: (e) => requests.push(e) });
  // No client-side pacing: the tests count requests, they do not test the rate limit.
  const client = new PrivnetClient({ apiUrl: server.url, token: server.token, rateLimit: false });
  return {
    server,
    url: server.url,
    token: server.token,
    client,
    requests,
    since: (mark) => requests.slice(mark),
    inventory: () => readInventory(client),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** Requests that change something (anything but GET), as `METHOD route` lines. */
export function writes(entries: RequestLogEntry[]): string[] {
  return entries
    .filter((e) => e.method !== "GET" && e.method !== "HEAD")
    .map((e) => `${e.method} ${e.route}`);
}

/**
 * Enrolls peers with the simulated agent, as agents would: a setup key made through the API, then one
 * `POST /sim/enroll` per host name. Returns the peers' ids by host name.
 */
export async function enrollPeers(s: E2EServer, hostnames: string[]): Promise<Record<string, string>> {
  const key = await s.client.call<{ key: string }>("createSetupKey", {
    body: { name: "e2e enrollment", type: "reusable", expires_in: 86400, auto_groups: [], usage_limit: 0 },
  });
  const ids: Record<string, string> = {};
  for (const hostname of hostnames) {
    const res = await s.server.raw("POST", "/sim/enroll", {
      body: JSON.stringify({ setup_key: key.key, hostname }),
      headers: { "Content-Type": "application/json" },
    });
    if (res.status !== 200) throw new Error(`enroll ${hostname}: ${res.status} ${JSON.stringify(res.body)}`);
    ids[hostname] = (res.body as { id: string }).id;
  }
  return ids;
}

// --- projects -----------------------------------------------------------------------------------------------

function run(cmd: string, args: string[], opts: { cwd: string; timeoutMs?: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      {
        cwd: opts.cwd,
        env: {
          ...process.env,
          PATH: `${path.join(repoRoot, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
        },
        timeout: opts.timeoutMs ?? 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${cmd} ${args.join(" ")} failed: ${err.message}\n${stdout}\n${stderr}`));
        else resolve(stdout + stderr);
      },
    );
  });
}

function copyTree(from: string, to: string): void {
  const st = fs.statSync(from);
  if (!st.isDirectory()) {
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
    return;
  }
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    // The sources only: no installed packages, no stack config files of somebody's stacks.
    if (e.name === "node_modules" || /^Pulumi\..+\.yaml$/.test(e.name)) continue;
    copyTree(path.join(from, e.name), path.join(to, e.name));
  }
}

/** A Pulumi project copied into a temp dir and installed. */
export interface Project {
  /** Where Pulumi.yaml is (the CLI's cwd). */
  dir: string;
  /** The program's directory (= dir, or the `main:` directory of Pulumi.yaml). */
  programDir: string;
}

/**
 * Copies repo paths (files or directories, repo-relative) into `<work>/<name>` keeping their layout, then
 * installs the program in `programDir` (repo-relative, inside the copied paths) with scripts/install-example.sh,
 * exactly as the README and the main job do. The project's Pulumi.yaml must be among the copied paths, at the
 * root of the copy (the root program) or inside `programDir`.
 */
export async function copyProject(paths: string[], work: string, programDir: string): Promise<Project> {
  const name = path.basename(programDir);
  const dest = path.join(work, `${name}-project`);
  for (const p of paths) copyTree(path.join(repoRoot, p), path.join(dest, p));
  const programAbs = path.join(dest, programDir);
  ensureBuilt(); // the install packs dist/: rebuild it first if a source is newer (npm test has built it)
  await run("bash", [path.join(repoRoot, "scripts", "install-example.sh"), programAbs], { cwd: repoRoot });
  const dir = fs.existsSync(path.join(dest, "Pulumi.yaml")) ? dest : programAbs;
  return { dir, programDir: programAbs };
}

/** Where a project with the package installed as a copy names the resource plugin, as the README says. */
export const INSTALLED_PLUGIN = "./node_modules/pulumi-privnet/bin";

/**
 * Pulumi.yaml's `plugins` lines naming this package's resource plugin at `pluginPath` (default: this checkout's
 * launcher directory, bin/).
 */
export function pluginsYaml(pluginPath = path.join(repoRoot, "bin")): string {
  return `plugins:\n  providers:\n    - name: privnet\n      path: ${pluginPath}\n`;
}

/**
 * A Pulumi YAML project (its Pulumi.yaml text) written into `<work>/<name>`, with `plugins.providers` pointing at
 * this checkout's resource plugin launcher (bin/pulumi-resource-privnet): YAML programs need no install.
 */
export function yamlProject(work: string, name: string, text: string): Project {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `${text}\n${pluginsYaml()}`);
  return { dir, programDir: dir };
}

// --- the CLI on one stack -----------------------------------------------------------------------------------

/** A step of `pulumi preview --json`. */
export interface PreviewStep {
  op: string;
  urn: string;
}

export interface PreviewJson {
  steps: PreviewStep[];
  changeSummary: Record<string, number>;
  diagnostics?: { message?: string; severity?: string }[];
}

/** `Type::name` of a URN, with the type's package prefix dropped for our resources (`Group::engineering`). */
export function shortUrn(urn: string): string {
  const parts = urn.split("::");
  // A child's type is prefixed by its parents' (`Parent$Child`): the resource's own type is the last one.
  const type = (parts[parts.length - 2] ?? "")
    .split("$")
    .pop()!
    .replace(/^pulumi-nodejs:dynamic\/privnet:/, "");
  return `${type}::${parts[parts.length - 1]}`;
}

/**
 * Steps that change nothing: `same`, and reads (a StackReference's, or an object read with `X.get`, done on every
 * run).
 */
function isNoChange(op: string, _urn: string): boolean {
  return op === "same" || op === "read";
}

/** The changes of a preview as sorted `op Type::name` lines (steps that change nothing left out). */
export function changesOf(preview: PreviewJson): string[] {
  return preview.steps
    .filter((s) => !isNoChange(s.op, s.urn))
    .map((s) => `${s.op} ${shortUrn(s.urn)}`)
    .sort();
}

/**
 * The gained and lost access lines in a command's output (`privnet-access diff`'s, or the access guard's in a
 * `pulumi preview`), trimmed and sorted.
 */
export function accessLinesOf(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^[+-] .+ → .+ \(policy /.test(l))
    .sort();
}

/** The lines about what reverse-proxy services publish (`+ published: ...`), sorted. */
export function publishedLinesOf(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^[+-] published: /.test(l))
    .sort();
}

/** An access tests file of `tests` (YAML flow entries) in `work`, and the guard's pack config naming it; its path. */
export function packConfig(work: string, name: string, tests: string[]): string {
  const file = path.join(work, `${name}.yaml`);
  fs.writeFileSync(file, ["tests:", ...tests.map((t) => `  - ${t}`), ""].join("\n"));
  const config = path.join(work, `${name}.json`);
  fs.writeFileSync(config, JSON.stringify({ "access-tests": { testsFile: file } }));
  return config;
}

/** `privnet-access diff`'s output (the offline twin) for a stack's pending change; a non-zero exit throws. */
export async function twinDiff(project: Project, stack: PulumiStack): Promise<string> {
  let out = "";
  let err = "";
  const code = await accessCli(["diff", "--cwd", project.dir, "--stack", stack.name], {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    env: stack.env,
  });
  if (code !== 0) throw new Error(`privnet-access diff exited ${code}\n${err}\n${out}`);
  return out;
}

/**
 * What a refresh would change (`pulumi refresh --preview-only --json`): its steps are all `refresh`, so the
 * resources whose read-back outputs or inputs differ from the state's, as sorted `Type::name` lines, and the
 * resources the refresh would drop (gone on the server).
 *
 * The CLI's JSON shows a resource whose outputs changed on the server with its OLD outputs as `newState` (its text
 * display and the change summary show the change): changes the summary counts beyond those the steps show come
 * as one more line, `(N more in the change summary: update N)`, so an empty result really means no drift.
 */
export function driftOf(preview: PreviewJson): string[] {
  const changed: string[] = [];
  for (const step of preview.steps as (PreviewStep & {
    oldState?: { inputs?: unknown; outputs?: unknown };
    newState?: { inputs?: unknown; outputs?: unknown };
  })[]) {
    if (step.urn.includes("::pulumi:pulumi:Stack::")) continue;
    const same =
      step.op === "same" ||
      (step.op === "refresh" &&
        step.newState !== undefined &&
        isDeepStrictEqual(step.oldState?.outputs, step.newState.outputs) &&
        isDeepStrictEqual(step.oldState?.inputs, step.newState.inputs));
    if (!same) changed.push(shortUrn(step.urn));
  }
  const counted = Object.entries(preview.changeSummary ?? {})
    .filter(([op, n]) => op !== "same" && n > 0)
    .sort(([a], [b]) => a.localeCompare(b));
  const total = counted.reduce((sum, [, n]) => sum + n, 0);
  if (total > changed.length) {
    const ops = counted.map(([op, n]) => `${op} ${n}`).join(", ");
    changed.push(`(${total - changed.length} more in the change summary: ${ops})`);
  }
  return changed.sort();
}

/** What `pulumi up|refresh|destroy --json --skip-preview` reported: its summary and the steps it applied. */
export interface UpdateResult {
  /** `summaryEvent.resourceChanges`, e.g. `{create: 20}`. */
  resourceChanges: Record<string, number>;
  /** Applied steps other than `same`, as sorted `op Type::name` lines. */
  changes: string[];
  raw: RunPulumiResult;
}

/** Parses the JSON event stream (one event per line) of an update. */
function parseEvents(r: RunPulumiResult): UpdateResult {
  let resourceChanges: Record<string, number> | undefined;
  const changes: string[] = [];
  for (const line of r.stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let ev: {
      summaryEvent?: { resourceChanges?: Record<string, number> };
      resOutputsEvent?: { metadata?: { op?: string; urn?: string } };
    };
    try {
      ev = JSON.parse(line) as typeof ev;
    } catch {
      continue;
    }
    if (ev.summaryEvent) resourceChanges = ev.summaryEvent.resourceChanges ?? {};
    const meta = ev.resOutputsEvent?.metadata;
    if (meta?.op && meta.urn && !isNoChange(meta.op, meta.urn))
      changes.push(`${meta.op} ${shortUrn(meta.urn)}`);
  }
  if (!resourceChanges) throw new Error(`no summary event in the output:\n${r.stdout}\n${r.stderr}`);
  return { resourceChanges, changes: changes.sort(), raw: r };
}

export interface StackOptions {
  project: Project;
  /** Temp dir of the test file: holds the state backend and PULUMI_HOME. */
  work: string;
  /** Stack name. */
  name: string;
  /** Sets privnet:apiUrl and the secret privnet:token for this server (a local one, or any live server). */
  server?: { url: string; token: string };
  /** The passphrase of the stack's secrets (default the e2e tier's): a fixture's stack names its own. */
  passphrase?: string;
}

/** One stack of a project, in the test file's file backend, with a passphrase secrets provider. */
export class PulumiStack {
  /** Wall time of every command, for the test output. */
  readonly timings: { label: string; ms: number }[] = [];
  /**
   * What every command printed, for the secrets check: a user sees this output. Commands that ask for secrets
   * (`--show-secrets`) are left out: printing them is their purpose.
   */
  readonly transcript: string[] = [];

  private constructor(
    readonly project: Project,
    readonly name: string,
    readonly env: Record<string, string>,
  ) {}

  private static async env(
    work: string,
    backendDir: string,
    passphrase = "e2e-passphrase",
  ): Promise<Record<string, string>> {
    return engineEnv({
      binDir: await ensureEngine(),
      backendDir,
      pulumiHome: path.join(work, "pulumi-home"),
      passphrase,
      // Credentials come from stack config only, never from the environment of whoever runs the tests.
      extra: {
        PRIVNET_API_URL: undefined,
        PRIVNET_TOKEN: undefined,
        PRIVNET_RATE_LIMIT: undefined,
        PRIVNET_BATCH_READS: undefined,
      },
    });
  }

  /** Creates the stack (`pulumi stack init`) and, with `server`, its credentials config. */
  static async init(opts: StackOptions): Promise<PulumiStack> {
    const env = await PulumiStack.env(opts.work, path.join(opts.work, "state"), opts.passphrase);
    const stack = new PulumiStack(opts.project, opts.name, env);
    await stack.cli(["stack", "init", opts.name, "--secrets-provider", "passphrase"], { stackFlag: false });
    if (opts.server) {
      await stack.config("privnet:apiUrl", opts.server.url);
      await stack.config("privnet:token", opts.server.token, { secret: true });
    }
    return stack;
  }

  /**
   * An existing stack, from another copy of the project with its own PULUMI_HOME, as a fresh CI machine sees
   * it: only the state backend (`backendDir`, the `state` dir of the `work` the stack was made in) and the
   * stack's config file (from the repository) carry over.
   */
  static async open(opts: StackOptions & { backendDir: string }): Promise<PulumiStack> {
    return new PulumiStack(
      opts.project,
      opts.name,
      await PulumiStack.env(opts.work, opts.backendDir, opts.passphrase),
    );
  }

  /**
   * Runs `pulumi <args> --stack <name> --non-interactive` in the project. Fails with the whole output unless the
   * exit code is `expect` (default 0; "nonzero" for any failure).
   */
  async cli(
    args: string[],
    opts: { expect?: number | "nonzero"; yes?: boolean; input?: string; stackFlag?: boolean } = {},
  ): Promise<RunPulumiResult> {
    const full = opts.stackFlag === false ? args : [...args, "--stack", this.name];
    const r = await runPulumi(full, {
      cwd: this.project.dir,
      env: this.env,
      yes: opts.yes,
      input: opts.input,
      timeoutMs: COMMAND_TIMEOUT_MS,
    });
    this.timings.push({ label: args.slice(0, 2).join(" "), ms: r.durationMs });
    if (!full.includes("--show-secrets"))
      this.transcript.push(`$ pulumi ${full.join(" ")}\n${r.stdout}\n${r.stderr}`);
    const expect = opts.expect ?? 0;
    const ok = expect === "nonzero" ? r.code !== 0 && r.code !== null : r.code === expect;
    if (!ok || r.timedOut) {
      throw new Error(
        `pulumi ${full.join(" ")} exited ${r.code}${r.timedOut ? " (timed out)" : ""}, expected ${expect}\n` +
          `--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`,
      );
    }
    return r;
  }

  /**
   * Runs another command (e.g. a script of the repo) in the project directory with this stack's environment: the
   * engine on PATH, the backend, the passphrase. Pass `--stack` yourself where the command needs it.
   */
  async exec(cmd: string, args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        cmd,
        args,
        { cwd: this.project.dir, env: this.env, timeout: COMMAND_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
        (err, stdout, stderr) => {
          if (err)
            reject(
              new Error(`${cmd} ${args.join(" ")} failed: ${err.message}
${stdout}
${stderr}`),
            );
          else resolve(stdout + stderr);
        },
      );
    });
  }

  /** `pulumi config set [--secret] [--path] key value`; a secret goes through stdin, never the command line. */
  async config(key: string, value: string, opts: { secret?: boolean; path?: boolean } = {}): Promise<void> {
    const flags = [...(opts.secret ? ["--secret"] : []), ...(opts.path ? ["--path"] : [])];
    if (opts.secret) await this.cli(["config", "set", ...flags, key], { input: value });
    else await this.cli(["config", "set", ...flags, key, value]);
  }

  async configRemove(key: string): Promise<void> {
    await this.cli(["config", "rm", key]);
  }

  /** `pulumi preview --json`, parsed. */
  async preview(): Promise<PreviewJson> {
    const r = await this.cli(["preview", "--json"]);
    return JSON.parse(r.stdout) as PreviewJson;
  }

  /** `pulumi preview --json` that must fail; returns the raw result (the CLI prints the diagnostics). */
  async previewFailing(): Promise<RunPulumiResult> {
    return this.cli(["preview", "--json"], { expect: "nonzero" });
  }

  /** `pulumi up --yes --skip-preview --json`. */
  async up(): Promise<UpdateResult> {
    return parseEvents(await this.cli(["up", "--skip-preview", "--json"], { yes: true }));
  }

  /** `pulumi refresh --preview-only --json`: what a refresh would change in the state. */
  async refreshPreview(): Promise<PreviewJson> {
    const r = await this.cli(["refresh", "--preview-only", "--json"]);
    return JSON.parse(r.stdout) as PreviewJson;
  }

  /** `pulumi refresh --yes --skip-preview --json`. */
  async refresh(): Promise<UpdateResult> {
    return parseEvents(await this.cli(["refresh", "--skip-preview", "--json"], { yes: true }));
  }

  /** `pulumi destroy --yes --skip-preview --json`. */
  async destroy(): Promise<UpdateResult> {
    return parseEvents(await this.cli(["destroy", "--skip-preview", "--json"], { yes: true }));
  }

  /** `pulumi stack output --json [--show-secrets]`. */
  async outputs(showSecrets = false): Promise<Record<string, any>> {
    const r = await this.cli(["stack", "output", "--json", ...(showSecrets ? ["--show-secrets"] : [])]);
    return JSON.parse(r.stdout) as Record<string, any>;
  }

  /** `pulumi stack export` (secrets stay encrypted), as text. */
  async exportText(): Promise<string> {
    return (await this.cli(["stack", "export"])).stdout;
  }

  /** The resources of the state (parsed `pulumi stack export`). */
  async stateResources(): Promise<
    { urn: string; type: string; id?: string; external?: boolean; inputs?: any; outputs?: any }[]
  > {
    const state = JSON.parse(await this.exportText()) as { deployment: { resources?: any[] } };
    return state.deployment.resources ?? [];
  }

  /** One resource's outputs from the state, by `Type::name`. */
  async stateOutputs(short: string): Promise<Record<string, any>> {
    const r = (await this.stateResources()).find((x) => shortUrn(x.urn) === short);
    if (!r) throw new Error(`${short} is not in the state`);
    return r.outputs as Record<string, any>;
  }

  /** One line of timings, for the test output. */
  timingLine(): string {
    return this.timings.map((t) => `${t.label}=${(t.ms / 1000).toFixed(1)}s`).join(" ");
  }
}

/** Every file under `dir`, recursively, as `[path, text]`, gzip files unpacked (for secret scans). */
export function readAllFiles(dir: string): [string, string][] {
  const out: [string, string][] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const buf = fs.readFileSync(p);
        const gz = buf.length > 2 && buf[0] === 0x1f && buf[1] === 0x8b;
        out.push([p, (gz ? zlib.gunzipSync(buf) : buf).toString("latin1")]);
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}
