/**
 * Two sections that run the same resources through different hostings, side by side in one run, with the real
 * CLI (`--parallel` its default), the file backend a user gets (it rewrites the whole checkpoint at every step),
 * one privnet-server and its request log. Shapes are those of bench/programs/graph-shape.js.
 *
 * `plugin` (issue 21): N groups (300 and 1,000), `up`, no-change `preview`, `refresh`, `destroy`:
 *   - plugin-yaml: a YAML program through the resource plugin (bin/pulumi-resource-privnet);
 *   - noop-yaml: the same YAML program through a do-nothing Node plugin (bench/programs/noop-plugin.js) with the
 *     same package name and schema: the engine's floor. Target: plugin-yaml's `up` of 1,000 within 1.5x of it;
 *   - dynamic-ts: a TypeScript program through the dynamic providers (pulumi-privnet installed as a copy;
 *     once at 1,000, where each command takes minutes).
 * It also measures the launcher's spawn-to-port (target 300 ms) and the plugin's own cost (bench/plugin-calls.ts:
 * the first call after a spawn, CPU per check+diff pair). $PRIVNET_BEFORE_PLUGIN names another build's launcher
 * (`bin/pulumi-resource-privnet` of a built checkout, e.g. of the commit before a change to the plugin): it then runs
 * beside ours as before-yaml (in `plugin`, and in `peer` from 300 groups) and in the plugin's own cost.
 *
 * `peer` (issue 24): ours as above, as a Python Automation API inline program (plugin-python,
 * bench/programs/shape.py) and as the TypeScript program with `pulumi-privnet/plugin`'s classes (plugin-ts), against the native Go provider mbrav/pulumi-netbird v0.5.4 in YAML (peer-yaml): N
 * groups (100, 300; 1,000 for plugin-yaml and the peer only) and 300 of groups and policies (the mixed shape
 * without setup keys, which the peer cannot create against privnet-server: probed and reported). Also a
 * TypeScript program's time to its first registration with and without pulumi-privnet. Without the peer's build
 * (see {@link peerBinary}) the section says so and skips.
 *
 * Commands: `up --skip-preview`, `preview --expect-no-changes`, `refresh --skip-preview` (one read pass, as the
 * Automation API runs it), `destroy --skip-preview`, each `--yes` where it asks. Per command: wall time, the API
 * requests the server answered; after `up`, the checkpoint file's bytes per resource. Each figure is the minimum
 * over the repetitions (the machine is shared: the minimum is the run least disturbed; `preview` and `refresh` run
 * {@link RUNS_PER_REPETITION} times in each), with the 1-minute load average at the start of each repetition beside it.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { engineEnv, repoRoot, runPulumi, type RunPulumiResult } from "../tests/e2e/engine";
import { pythonWithSdk, run } from "../tests/e2e/inline";
import { load } from "./lib/cpu";
import { measurePluginCalls, summarizePluginCalls, type PluginCallFigures } from "./plugin-calls";
import { checkBudget, progress } from "./lib/progress";
import { createProject, type BenchProject } from "./lib/project";
import { RequestLog } from "./lib/request-log";
import { api, startServerProcess, type ServerProcess } from "./lib/server";

export const VARIANTS = [
  "plugin-yaml",
  "before-yaml",
  "plugin-python",
  "dynamic-ts",
  "plugin-ts",
  "noop-yaml",
  "peer-yaml",
] as const;
export type Variant = (typeof VARIANTS)[number];
export const COMMANDS = ["up", "preview", "refresh", "destroy"] as const;
export type Command = (typeof COMMANDS)[number];
/** graph-shape.js's shapes: N groups; groups, policies and setup keys; groups and policies. */
export type Shape = "groups" | "mixed" | "policies";

export const VARIANT_LABEL: Record<Variant, string> = {
  "plugin-yaml": "ours, plugin, YAML",
  "before-yaml": "ours, plugin, YAML: another build (PRIVNET_BEFORE_PLUGIN)",
  "plugin-python": "ours, plugin, Python (Automation API)",
  "dynamic-ts": "ours, dynamic providers, TypeScript",
  "plugin-ts": "ours, plugin, TypeScript (pulumi-privnet/plugin)",
  "noop-yaml": "do-nothing Node plugin, YAML (floor)",
  "peer-yaml": "peer (pulumi-netbird v0.5.4), YAML",
};

/**
 * Runs of each command per repetition. `preview` and `refresh` take 1-3 s, where a tenth of a second of either
 * side's start-up decides a ratio and one run moves by more than that on a shared machine: they run three times
 * in each repetition (the state they leave is the state they found), and the figure is the minimum of all runs.
 * `up` and `destroy` change the stack: once per repetition.
 */
export const RUNS_PER_REPETITION: Record<Command, number> = { up: 1, preview: 3, refresh: 3, destroy: 1 };

/** One (shape, N) measured for one variant: the minimum over repetitions of each command. */
export interface CaseFigures {
  variant: Variant;
  shape: Shape;
  n: number;
  /** Wall time per command, ms (minimum over repetitions); absent: not run. */
  ms: Partial<Record<Command, number>>;
  /** Every repetition's wall time per command, ms. */
  runs: Partial<Record<Command, number[]>>;
  /** API requests per command (the last repetition). */
  requests: Partial<Record<Command, number>>;
  /** The checkpoint file after `up`, bytes per resource of the shape. */
  stateBytesPerResource: number;
  /** Whether the no-change preview showed changes (a diff the provider should not report). */
  previewChanges: boolean;
  /** 1-minute load average at the start of each repetition. */
  loads: number[];
}

export interface PeerSectionResult {
  /** Undefined when the peer's build is missing: then `skipped` says why and nothing else ran. */
  skipped?: string;
  peerBinary?: string;
  repetitions: number;
  cases: CaseFigures[];
  notes: string[];
  /** The peer section: a TypeScript program's time to its first registration. */
  firstRegistration?: FirstRegistration;
}

export interface PluginSectionResult extends PeerSectionResult {
  /** Spawn-to-port of bin/pulumi-resource-privnet, ms, each spawn. */
  startupMs?: number[];
  /** The plugin's own cost (bench/plugin-calls.ts): this build's launcher, and the other build's when named. */
  calls?: PluginCallFigures[];
  /** The other build's launcher (PRIVNET_BEFORE_PLUGIN), when one was measured. */
  beforePlugin?: string;
}

/** The peer's release named in its YAML projects (its CHANGELOG's newest at the commit bench/README.md builds). */
const PEER_VERSION = "0.5.4";

/** This package's version, which its YAML projects name beside the plugin's path. */
const packageVersion = (): string =>
  (JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

/**
 * Names the resource plugin of the package installed as a copy in a TypeScript project's Pulumi.yaml, with its
 * version (as the README says), for the classes of `pulumi-privnet/plugin`.
 */
export function namePluginIn(projectDir: string): void {
  fs.appendFileSync(
    path.join(projectDir, "Pulumi.yaml"),
    "plugins:\n  providers:\n    - name: privnet\n      path: ./node_modules/pulumi-privnet/bin\n" +
      `      version: ${packageVersion()}\n`,
  );
}

/** The peer's plugin binary: $PRIVNET_PEER_PLUGIN, else the build documented in bench/README.md. */
export function peerBinary(): string {
  return (
    process.env.PRIVNET_PEER_PLUGIN ??
    path.join(os.homedir(), ".cache", "pulumi-privnet", "peer", "bin", "pulumi-resource-netbird")
  );
}

/**
 * Another build's plugin launcher to run beside this one (`before-yaml`, and in the plugin's own cost): the
 * `bin/pulumi-resource-privnet` of a built checkout named by $PRIVNET_BEFORE_PLUGIN, e.g. the commit before a change
 * to the plugin. Undefined when not set; an error when set to no file.
 */
export function beforePluginLauncher(): string | undefined {
  const p = process.env.PRIVNET_BEFORE_PLUGIN;
  if (!p) return undefined;
  if (!fs.existsSync(p)) throw new Error(`PRIVNET_BEFORE_PLUGIN names no file: ${p}`);
  return path.resolve(p);
}

const rel = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The YAML program of a shape, for our package (`privnet`) or the peer's (`netbird`). */
export function yamlProgram(pkg: "privnet" | "netbird", shape: Shape, n: number, suffix: string): string {
  const t = (kind: string) => (pkg === "privnet" ? `privnet:${kind}` : `netbird:resource:${kind}`);
  const lines = ["resources:"];
  const group = (i: number) =>
    lines.push(`  g${i}:`, `    type: ${t("Group")}`, `    properties:`, `      name: g-${suffix}-${i}`);
  if (shape === "groups") {
    for (let i = 0; i < n; i++) group(i);
    return n ? lines.join("\n") : "resources: {}";
  }
  const nPolicies = Math.floor(n / 4);
  const nGroups = shape === "policies" ? n - nPolicies : Math.floor(n / 2);
  const nKeys = n - nGroups - nPolicies;
  for (let i = 0; i < nGroups; i++) group(i);
  for (let i = 0; i < nPolicies; i++) {
    lines.push(
      `  p${i}:`,
      `    type: ${t("Policy")}`,
      `    properties:`,
      `      name: p-${suffix}-${i}`,
      `      enabled: true`,
      `      rules:`,
      `        - name: ssh`,
      `          enabled: true`,
      `          action: accept`,
      `          bidirectional: false`,
      `          protocol: tcp`,
      `          ports: ["22"]`,
      `          sources: ["\${g${(2 * i) % nGroups}.id}"]`,
      `          destinations: ["\${g${(2 * i + 1) % nGroups}.id}"]`,
    );
  }
  for (let i = 0; i < nKeys; i++) {
    lines.push(
      `  k${i}:`,
      `    type: ${t("SetupKey")}`,
      `    properties:`,
      `      name: k-${suffix}-${i}`,
      `      type: reusable`,
      `      expiresIn: 86400`,
      `      autoGroups: ["\${g${i % nGroups}.id}"]`,
      `      usageLimit: 0`,
      `      ephemeral: false`,
    );
  }
  return lines.join("\n");
}

/**
 * The TypeScript program of the dynamic-ts variant (graph-shape.js beside it, as every other variant uses); of the
 * plugin-ts variant with the classes of `pulumi-privnet/plugin`.
 */
const TS_PROGRAM = (entry: string) => `import * as privnet from "${entry}";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { readInput, buildGraph } = require("./graph-shape");
const classes = { Group: privnet.Group, Policy: privnet.Policy, SetupKey: privnet.SetupKey };
type Kind = keyof typeof classes;
const { count, suffix, shape } = readInput();
buildGraph(count, suffix, (kind: Kind, name: string, props: any) => new (classes[kind] as any)(name, props), shape);
`;

/** The tsconfig.json of the examples and of privnet-import's projects. */
export const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: "ES2022",
      module: "commonjs",
      moduleResolution: "node10",
      lib: ["ES2023"],
      types: ["node"],
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      noEmit: true,
    },
    files: ["index.ts"],
  },
  null,
  2,
)}\n`;

/** One stack of one variant: set the shape, run a command, measure the checkpoint. */
interface VariantStack {
  variant: Variant;
  setShape(shape: Shape, n: number, suffix: string): void;
  /** Runs the command; its wall time (ms) and whether it changed anything it should not have. */
  run(command: Command): Promise<{ ms: number; changes: boolean }>;
  checkpointBytes(): number;
}

/** The biggest `<stack>.json` under the backend directory (the stack's checkpoint). */
function checkpointBytes(backendDir: string): number {
  let best = 0;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== "history" && e.name !== "backups" && e.name !== "locks") walk(p);
      } else if (e.name === "bench.json") best = Math.max(best, fs.statSync(p).size);
    }
  };
  if (fs.existsSync(backendDir)) walk(backendDir);
  return best;
}

const ARGS: Record<Command, { args: string[]; yes: boolean }> = {
  up: { args: ["up", "--skip-preview"], yes: true },
  preview: { args: ["preview", "--expect-no-changes"], yes: false },
  refresh: { args: ["refresh", "--skip-preview"], yes: true },
  destroy: { args: ["destroy", "--skip-preview"], yes: true },
};

function failed(what: string, r: RunPulumiResult): Error {
  const tail = `${r.stdout}\n${r.stderr}`
    .split("\n")
    .filter((l) => l.trim())
    .slice(-25)
    .join("\n");
  return new Error(`${what} exited ${r.code}${r.timedOut ? " (timed out)" : ""}\n${tail}`);
}

/** A YAML project: ours through a plugin directory (the real one or the do-nothing one), or the peer. */
async function yamlStack(opts: {
  variant: Variant;
  workDir: string;
  binDir: string;
  server: ServerProcess;
  pkg: "privnet" | "netbird";
  pluginDir: string;
}): Promise<VariantStack> {
  const dir = path.join(opts.workDir, `peer-${opts.variant}`);
  const backendDir = path.join(opts.workDir, `peer-${opts.variant}-state`);
  fs.mkdirSync(dir, { recursive: true });
  const env = engineEnv({
    binDir: opts.binDir,
    backendDir,
    pulumiHome: path.join(opts.workDir, "pulumi-home"),
    passphrase: "bench-passphrase",
    extra: { PRIVNET_API_URL: undefined, PRIVNET_TOKEN: undefined },
  });
  // Each plugin is named with a version, as docs/plugin.md advises: the CLI then starts it once per command, not a
  // second time for the schema. The same for every hosting (ours, the other build, the floor, the peer).
  const version = opts.pkg === "privnet" ? packageVersion() : PEER_VERSION;
  // Pulumi YAML keeps the schema it read beside the plugin's directory and trusts it while that directory is older:
  // a build made in place since would be described by an earlier build's schema. Start every run from the plugin.
  fs.rmSync(path.join(path.dirname(opts.pluginDir), `schema-${opts.pkg}-${version}-.json`), { force: true });
  const header =
    `name: bench-${opts.variant}\nruntime: yaml\n` +
    `plugins:\n  providers:\n    - name: ${opts.pkg}\n      path: ${opts.pluginDir}\n      version: ${version}\n`;
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `${header}resources: {}\n`);
  const cli = async (args: string[], o: { yes?: boolean; input?: string } = {}) =>
    runPulumi(args, { cwd: dir, env, yes: o.yes, input: o.input, timeoutMs: 20 * 60_000 });
  const must = async (args: string[], o: { yes?: boolean; input?: string } = {}) => {
    const r = await cli(args, o);
    if (r.code !== 0) throw failed(`pulumi ${args.join(" ")} (${opts.variant})`, r);
    return r;
  };
  await must(["stack", "init", "bench", "--secrets-provider", "passphrase"]);
  const [urlKey, tokenKey] =
    opts.pkg === "privnet" ? ["privnet:apiUrl", "privnet:token"] : ["netbird:url", "netbird:token"];
  await must(["config", "set", urlKey, opts.server.url]);
  await must(["config", "set", "--secret", tokenKey], { input: opts.server.token });
  return {
    variant: opts.variant,
    setShape(shape, n, suffix) {
      fs.writeFileSync(
        path.join(dir, "Pulumi.yaml"),
        `${header}${yamlProgram(opts.pkg, shape, n, suffix)}\n`,
      );
    },
    async run(command) {
      const { args, yes } = ARGS[command];
      const r = await cli(args, { yes });
      if (
        command === "preview" &&
        r.code !== 0 &&
        /expect-no-changes|no changes were expected/i.test(r.stdout + r.stderr)
      )
        return { ms: r.durationMs, changes: true };
      if (r.code !== 0) throw failed(`pulumi ${command} (${opts.variant})`, r);
      return { ms: r.durationMs, changes: false };
    },
    checkpointBytes: () => checkpointBytes(backendDir),
  };
}

/**
 * The TypeScript program (pulumi-privnet installed as a copy) through the dynamic providers, or with `plugin` through
 * the resource plugin, which the project's Pulumi.yaml names at node_modules/pulumi-privnet/bin as the README says.
 */
async function tsStack(opts: {
  workDir: string;
  binDir: string;
  server: ServerProcess;
  plugin?: boolean;
}): Promise<VariantStack> {
  const variant: Variant = opts.plugin ? "plugin-ts" : "dynamic-ts";
  const project = await createProject({
    workDir: opts.workDir,
    name: `peer-${variant}`,
    program: "graph.js",
    binDir: opts.binDir,
    server: opts.server,
    typescript: {
      program: TS_PROGRAM(opts.plugin ? "pulumi-privnet/plugin" : "pulumi-privnet"),
      tsconfig: TSCONFIG,
    },
  });
  if (opts.plugin) namePluginIn(project.dir);
  const backendDir = path.join(opts.workDir, `peer-${variant}-state`);
  return {
    variant,
    setShape(shape, n, suffix) {
      project.setInput({ count: n, suffix, shape });
    },
    async run(command) {
      const { args, yes } = ARGS[command];
      const r = await project.pulumi(args, { yes, allowFail: true, timeoutMs: 20 * 60_000 });
      if (command === "preview" && r.code !== 0 && /no changes were expected/i.test(r.stdout + r.stderr))
        return { ms: r.durationMs, changes: true };
      if (r.code !== 0) throw failed(`pulumi ${command} (${variant})`, r);
      return { ms: r.durationMs, changes: false };
    },
    checkpointBytes: () => checkpointBytes(backendDir),
  };
}

/** The Python Automation API inline program through the plugin (found on PATH). */
async function pythonStack(opts: {
  workDir: string;
  binDir: string;
  server: ServerProcess;
}): Promise<VariantStack> {
  const python = await pythonWithSdk(opts.workDir);
  const dir = path.join(opts.workDir, "peer-plugin-python");
  const backendDir = path.join(opts.workDir, "peer-plugin-python-state");
  fs.mkdirSync(dir, { recursive: true });
  const base = engineEnv({ binDir: opts.binDir });
  const env = engineEnv({
    binDir: opts.binDir,
    backendDir,
    pulumiHome: path.join(opts.workDir, "pulumi-home"),
    passphrase: "bench-passphrase",
    extra: {
      PATH: `${path.join(repoRoot, "bin")}:${base.PATH}`,
      PRIVNET_API_URL: undefined,
      PRIVNET_TOKEN: undefined,
      PRIVNET_BENCH_WORK: dir,
    },
  });
  let configured = false;
  const script = path.join(__dirname, "programs", "shape.py");
  return {
    variant: "plugin-python",
    setShape(shape, n, suffix) {
      fs.writeFileSync(path.join(dir, "bench-input.json"), JSON.stringify({ count: n, suffix, shape }));
    },
    async run(command) {
      const e = configured
        ? env
        : { ...env, PRIVNET_BENCH_URL: opts.server.url, PRIVNET_BENCH_TOKEN: opts.server.token };
      const out = await run(python, [script, command], e, 20 * 60_000);
      configured = true;
      const line = out.split("\n").find((l) => l.startsWith("RESULT "));
      if (!line) throw new Error(`shape.py ${command}: no RESULT line\n${out.slice(-3000)}`);
      const r = JSON.parse(line.slice(7)) as { ms: number; changes: Record<string, number> };
      const changed = Object.entries(r.changes).some(([k, v]) => k !== "same" && v > 0);
      return { ms: r.ms, changes: command === "preview" && changed };
    },
    checkpointBytes: () => checkpointBytes(backendDir),
  };
}

/** A directory holding a `pulumi-resource-privnet` launcher of the do-nothing plugin (same schema as ours). */
function noopPluginDir(workDir: string): string {
  const dir = path.join(workDir, "noop-plugin-bin");
  fs.mkdirSync(dir, { recursive: true });
  const launcher = path.join(dir, "pulumi-resource-privnet");
  fs.writeFileSync(
    launcher,
    `#!/bin/sh\nexec "${process.execPath}" "${path.join(__dirname, "programs", "noop-plugin.js")}" ` +
      `"${path.join(repoRoot, "plugin", "schema.json")}" "$@"\n`,
  );
  fs.chmodSync(launcher, 0o755);
  return dir;
}

/** The plan of a section: which variants run which (shape, N), in order. */
export interface Plan {
  shape: Shape;
  n: number;
  variants: Variant[];
  commands: Command[];
}

async function runPlan(opts: {
  section: string;
  workDir: string;
  binDir: string;
  plan: Plan[];
  repetitions: number;
  peer?: string;
  /** Another build's plugin launcher (the `before-yaml` hosting). */
  before?: string;
  /** Runs once the stacks exist, before the plan (their commands are not measured). */
  probe?: (stacks: Map<Variant, VariantStack>, server: ServerProcess) => Promise<void>;
}): Promise<PeerSectionResult> {
  const S = opts.section;
  const result: PeerSectionResult = { repetitions: opts.repetitions, cases: [], notes: [] };
  const server = await startServerProcess({ dir: path.join(opts.workDir, `${S}-server`) });
  try {
    const log = new RequestLog(server.requestLog as string, server);
    const needed = new Set(opts.plan.flatMap((p) => p.variants));
    const stacks = new Map<Variant, VariantStack>();
    const common = { workDir: path.join(opts.workDir, S), binDir: opts.binDir, server };
    fs.mkdirSync(common.workDir, { recursive: true });
    for (const v of needed) {
      if (v === "plugin-yaml")
        stacks.set(
          v,
          await yamlStack({ ...common, variant: v, pkg: "privnet", pluginDir: path.join(repoRoot, "bin") }),
        );
      if (v === "noop-yaml")
        stacks.set(
          v,
          await yamlStack({
            ...common,
            variant: v,
            pkg: "privnet",
            pluginDir: noopPluginDir(common.workDir),
          }),
        );
      if (v === "before-yaml" && opts.before)
        stacks.set(
          v,
          await yamlStack({ ...common, variant: v, pkg: "privnet", pluginDir: path.dirname(opts.before) }),
        );
      if (v === "peer-yaml" && opts.peer)
        stacks.set(
          v,
          await yamlStack({ ...common, variant: v, pkg: "netbird", pluginDir: path.dirname(opts.peer) }),
        );
      if (v === "dynamic-ts") stacks.set(v, await tsStack(common));
      if (v === "plugin-ts") stacks.set(v, await tsStack({ ...common, plugin: true }));
      if (v === "plugin-python") {
        if (!fs.existsSync(path.join(repoRoot, "sdk", "python"))) {
          result.notes.push(
            "plugin-python skipped: no generated Python SDK at sdk/python (run `npm run gen`)",
          );
          continue;
        }
        stacks.set(v, await pythonStack(common));
      }
    }
    await opts.probe?.(stacks, server);
    let caseNo = 0;
    for (const p of opts.plan) {
      for (let rep = 0; rep < opts.repetitions; rep++) {
        // Alternate the order of the variants between repetitions.
        const order = rep % 2 ? runOrder(p.variants).reverse() : runOrder(p.variants);
        for (const v of order) {
          const stack = stacks.get(v);
          if (!stack) continue;
          // The dynamic providers at 1,000 take several minutes per command: one repetition keeps the run bounded.
          if (v === "dynamic-ts" && p.n >= 1000 && rep > 0) continue;
          checkBudget(`${S} ${v} ${p.shape} ${p.n}`);
          let c = result.cases.find((x) => x.variant === v && x.shape === p.shape && x.n === p.n);
          if (!c) {
            c = {
              variant: v,
              shape: p.shape,
              n: p.n,
              ms: {},
              runs: {},
              requests: {},
              stateBytesPerResource: NaN,
              previewChanges: false,
              loads: [],
            };
            result.cases.push(c);
          }
          stack.setShape(p.shape, p.n, `${S}${caseNo++}`);
          c.loads.push(load().load1);
          const parts: string[] = [];
          await log.mark();
          for (const command of p.commands) {
            const times: number[] = [];
            let requests = 0;
            let changes = false;
            for (let k = 0; k < RUNS_PER_REPETITION[command]; k++) {
              const r = await stack.run(command);
              requests = (await log.take(60_000)).filter((e) => e.route.startsWith("/api/")).length;
              times.push(r.ms);
              (c.runs[command] ??= []).push(r.ms);
              c.ms[command] = Math.min(c.ms[command] ?? Infinity, r.ms);
              c.requests[command] = requests;
              changes ||= r.changes;
              if (command === "preview" && r.changes) c.previewChanges = true;
            }
            if (command === "up") {
              const bytes = stack.checkpointBytes() / p.n;
              c.stateBytesPerResource = Number.isFinite(c.stateBytesPerResource)
                ? Math.min(c.stateBytesPerResource, bytes)
                : bytes;
            }
            parts.push(
              `${command} ${times.map(rel).join(" / ")} (${requests} req${changes ? ", CHANGES" : ""})`,
            );
          }
          progress(
            S,
            `${p.shape} ${p.n} #${rep + 1} ${v}: ${parts.join(", ")}; ${Math.round(c.stateBytesPerResource)} B/resource; load ${c.loads.at(-1)?.toFixed(1)}`,
          );
        }
      }
    }
    return result;
  } finally {
    await server.stop();
  }
}

/**
 * The order the variants of one (shape, N) run in (reversed every other repetition). The machine's speed drifts
 * over minutes, and a ratio is only as good as the closeness in time of its two runs: the peer sits between the
 * hostings compared with it (the plugin in YAML for `up`/`preview`/`refresh`/`destroy`, another build of it when
 * named, the TypeScript hostings for the per-resource `preview`), and the do-nothing plugin beside the plugin it is
 * the floor of.
 */
const RUN_ORDER: Variant[] = [
  "dynamic-ts",
  "plugin-ts",
  "before-yaml",
  "peer-yaml",
  "plugin-yaml",
  "noop-yaml",
  "plugin-python",
];

function runOrder(variants: Variant[]): Variant[] {
  return [...variants].sort((a, b) => RUN_ORDER.indexOf(a) - RUN_ORDER.indexOf(b));
}

const ALL_OURS_AND_PEER: Variant[] = ["plugin-yaml", "plugin-python", "dynamic-ts", "plugin-ts", "peer-yaml"];
const PLUGIN_VARIANTS: Variant[] = ["plugin-yaml", "noop-yaml", "dynamic-ts"];

/** Issue 21's plan: N groups through the plugin, the floor and the dynamic providers (and another build's plugin). */
function pluginPlan(counts: number[], before: boolean): Plan[] {
  const variants: Variant[] = before ? [...PLUGIN_VARIANTS, "before-yaml"] : PLUGIN_VARIANTS;
  return counts.map((n) => ({ shape: "groups", n, variants, commands: [...COMMANDS] }));
}

/**
 * Issue 24's plan: N groups in every hosting and the peer (1,000 only for the key comparison), and a mix; another
 * build's plugin beside ours from 300 groups on.
 */
function peerPlan(counts: number[], before: boolean): Plan[] {
  const plan: Plan[] = counts.map((n) => ({
    shape: "groups",
    n,
    variants: [
      ...(n >= 1000 ? (["plugin-yaml", "peer-yaml"] as Variant[]) : ALL_OURS_AND_PEER),
      ...(before && n >= 300 ? (["before-yaml"] as Variant[]) : []),
    ],
    commands: [...COMMANDS],
  }));
  // The mixed shape without its setup keys: the peer cannot create one against privnet-server (probed first).
  plan.push({
    shape: "policies",
    n: counts.includes(300) ? 300 : (counts[0] as number),
    variants: ALL_OURS_AND_PEER,
    commands: [...COMMANDS],
  });
  return plan;
}

/** Plans run together: one entry per (shape, N), with the union of their variants. */
function union(plans: Plan[][]): Plan[] {
  const out: Plan[] = [];
  for (const p of plans.flat()) {
    const at = out.find((q) => q.shape === p.shape && q.n === p.n);
    if (at) at.variants = [...new Set([...at.variants, ...p.variants])];
    else out.push({ ...p, variants: [...p.variants] });
  }
  return out.sort((a, b) => (a.shape === b.shape ? a.n - b.n : a.shape === "groups" ? -1 : 1));
}

/** Setup keys through the peer (the mixed shape of 4: 2 groups, a policy, a setup key); returns a note. */
async function probePeerSetupKeys(p: VariantStack, server: ServerProcess): Promise<string> {
  let note: string;
  p.setShape("mixed", 4, "probe");
  try {
    await p.run("up");
    note = "the peer created a setup key against privnet-server";
  } catch (err) {
    const line = /error: (creating setup key[^\n]*)/.exec(String((err as Error).message))?.[1];
    note =
      `setup keys are left out of the comparison with the peer: it could not create one against privnet-server ` +
      `(${line ?? "up failed"}); the API's setup key id is an integer (spec, section 1), which the peer's client ` +
      "reads as a string. The mixed shape here is therefore groups and policies";
  }
  // A key the peer made but lost track of holds its group: removed through the API, then the rest destroyed.
  for (const k of await api<{ id: number; name: string }[]>(server, "GET", "/api/setup-keys")) {
    if (k.name.startsWith("k-probe-")) await api(server, "DELETE", `/api/setup-keys/${k.id}`);
  }
  p.setShape("groups", 0, "probe");
  await p.run("destroy");
  return note;
}

/**
 * The `plugin` and `peer` sections. Run together they share one plan (the (shape, N) both need run once), and
 * each section's figures are its own variants and sizes out of it.
 */
export async function runHostingSections(opts: {
  sections: ("plugin" | "peer")[];
  workDir: string;
  binDir: string;
  repetitions: number;
  counts?: number[];
  /** Only these hostings (default all). */
  hostings?: Variant[];
}): Promise<{ plugin?: PluginSectionResult; peer?: PeerSectionResult }> {
  const wantPlugin = opts.sections.includes("plugin");
  let wantPeer = opts.sections.includes("peer");
  const out: { plugin?: PluginSectionResult; peer?: PeerSectionResult } = {};
  const peer = peerBinary();
  if (wantPeer && !fs.existsSync(peer)) {
    const why =
      `no peer build at ${peer}: the section is skipped (build it as bench/README.md says, or set ` +
      "PRIVNET_PEER_PLUGIN)";
    progress("peer", why);
    out.peer = { skipped: why, repetitions: opts.repetitions, cases: [], notes: [] };
    wantPeer = false;
  }
  const pluginCounts = opts.counts ?? [300, 1000];
  const peerCounts = opts.counts ?? [100, 300, 1000];
  const before = beforePluginLauncher();
  const launcher = path.join(repoRoot, "bin", "pulumi-resource-privnet");
  let startupMs: number[] | undefined;
  let calls: PluginCallFigures[] | undefined;
  if (wantPlugin) {
    startupMs = await spawnToPort(launcher, 10);
    progress("plugin", `spawn-to-port: ${startupMs.map((x) => x.toFixed(0)).join(", ")} ms`);
    // The plugin's own cost, this build against the other one when named, in alternating rounds.
    calls = await measurePluginCalls(
      [{ name: "this build", path: launcher }, ...(before ? [{ name: "other build", path: before }] : [])],
      { rounds: 4, pairs: 300, inflight: 4, spawns: 5 },
      (line) => progress("plugin", line),
    );
    for (const f of calls) progress("plugin", summarizePluginCalls(f));
  }
  const only = (plan: Plan[]): Plan[] =>
    plan
      .map((p) => ({ ...p, variants: p.variants.filter((v) => !opts.hostings || opts.hostings.includes(v)) }))
      .filter((p) => p.variants.length > 0);
  const plans: Plan[][] = [];
  if (wantPlugin) plans.push(only(pluginPlan(pluginCounts, before !== undefined)));
  if (wantPeer) plans.push(only(peerPlan(peerCounts, before !== undefined)));
  if (!plans.length) return out;
  const notes: string[] = [];
  const all = await runPlan({
    section: wantPlugin && wantPeer ? "plugin+peer" : wantPlugin ? "plugin" : "peer",
    workDir: opts.workDir,
    binDir: opts.binDir,
    repetitions: opts.repetitions,
    plan: union(plans),
    peer: wantPeer ? peer : undefined,
    before,
    probe: async (stacks, server) => {
      const p = stacks.get("peer-yaml");
      if (p) notes.push(await probePeerSetupKeys(p, server));
    },
  });
  const pick = (plan: Plan[]) =>
    all.cases.filter((c) =>
      plan.some((p) => p.shape === c.shape && p.n === c.n && p.variants.includes(c.variant)),
    );
  if (wantPlugin) {
    out.plugin = {
      repetitions: opts.repetitions,
      cases: pick(only(pluginPlan(pluginCounts, before !== undefined))),
      notes: all.notes.filter((n) => !n.startsWith("plugin-python")),
      startupMs,
      calls,
      ...(before ? { beforePlugin: before } : {}),
    };
  }
  if (wantPeer) {
    out.peer = {
      repetitions: opts.repetitions,
      cases: pick(only(peerPlan(peerCounts, before !== undefined))),
      notes: [...all.notes, ...notes],
      peerBinary: peer,
      // A TypeScript program's start: measured with the TypeScript hostings.
      ...(!opts.hostings || opts.hostings.some((v) => v === "dynamic-ts" || v === "plugin-ts")
        ? {
            firstRegistration: await firstRegistration({
              workDir: path.join(opts.workDir, "peer-first"),
              binDir: opts.binDir,
              repetitions: opts.repetitions,
            }),
          }
        : {}),
    };
  }
  return out;
}

/** Time from `pulumi preview`'s start to the program's first registration, with and without our package. */
export interface FirstRegistration {
  /** ms, minimum over repetitions, per program and TypeScript mode. */
  withoutPackage: { typeCheck: number; transpileOnly: number };
  withPackage: { typeCheck: number; transpileOnly: number };
}

const FIRST_PROGRAM = (withPackage: boolean) => `import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";
${withPackage ? 'import * as privnet from "pulumi-privnet";\n\nconst kinds = [privnet.Group, privnet.Policy, privnet.SetupKey];\n' : "\nconst kinds: unknown[] = [];\n"}
fs.writeFileSync("first-registration.txt", String(Date.now()));
new pulumi.ComponentResource("bench:index:First", "first", { kinds: kinds.length });
`;

/**
 * A TypeScript program's time to its first registration (from the CLI's start, `pulumi preview`), importing
 * pulumi-privnet (and touching three of its classes) against the same program without it, type-checked (ts-node's
 * default) and with PULUMI_NODEJS_TRANSPILE_ONLY=true.
 */
export async function firstRegistration(opts: {
  workDir: string;
  binDir: string;
  repetitions: number;
}): Promise<FirstRegistration> {
  const out: FirstRegistration = {
    withoutPackage: { typeCheck: Infinity, transpileOnly: Infinity },
    withPackage: { typeCheck: Infinity, transpileOnly: Infinity },
  };
  const projects = new Map<boolean, BenchProject>();
  for (const withPackage of [false, true]) {
    projects.set(
      withPackage,
      await createProject({
        workDir: opts.workDir,
        name: `first-registration-${withPackage ? "with" : "without"}`,
        program: "graph.js",
        binDir: opts.binDir,
        typescript: { program: FIRST_PROGRAM(withPackage), tsconfig: TSCONFIG },
      }),
    );
  }
  for (let rep = 0; rep < opts.repetitions; rep++) {
    // Alternate which program goes first.
    for (const withPackage of rep % 2 ? [true, false] : [false, true]) {
      const project = projects.get(withPackage) as BenchProject;
      const key = withPackage ? "withPackage" : "withoutPackage";
      for (const mode of ["typeCheck", "transpileOnly"] as const) {
        const saved = project.env;
        project.env = { ...saved, PULUMI_NODEJS_TRANSPILE_ONLY: mode === "transpileOnly" ? "true" : "false" };
        try {
          const t0 = Date.now();
          await project.pulumi(["preview"]);
          const at = Number(fs.readFileSync(path.join(project.dir, "first-registration.txt"), "utf8"));
          out[key][mode] = Math.min(out[key][mode], at - t0);
        } finally {
          project.env = saved;
        }
      }
    }
  }
  for (const key of ["withoutPackage", "withPackage"] as const) {
    progress(
      "peer",
      `first registration, ${key === "withPackage" ? "with" : "without"} pulumi-privnet: type-checked ` +
        `${rel(out[key].typeCheck)}, transpile-only ${rel(out[key].transpileOnly)}`,
    );
  }
  return out;
}

/** Spawn-to-port of a plugin launcher: ms from spawning it to its first line of stdout (the port it serves). */
export async function spawnToPort(launcher: string, spawns: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < spawns; i++) {
    const t0 = performance.now();
    const child = spawn(launcher, [], {
      stdio: ["pipe", "pipe", "ignore"],
      env: { ...process.env, NODE_OPTIONS: "" },
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once("data", () => resolve());
      child.once("exit", (code) => reject(new Error(`${launcher} exited ${code} before printing its port`)));
    });
    times.push(performance.now() - t0);
    child.kill("SIGTERM");
    await exited;
  }
  return times;
}
