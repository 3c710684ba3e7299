/**
 * The `startup` section: what the TypeScript path (the dynamic providers, `import * as privnet from
 * "pulumi-privnet"`) costs before and around its first resource, against the same work without the package.
 *
 * - `require("pulumi-privnet")` against `require("@pulumi/pulumi")` alone: a new Node process per run in a project
 *   with the package installed as a copy (as a user's npm lays it out), wall and CPU time of the require, in
 *   alternating rounds.
 * - A one-group TypeScript program's no-change `preview` against the same program without the group and the
 *   import (`export const stack = pulumi.getStack()` in both), both after an `up`, in alternating rounds:
 *   type-checked with ts-node's compile cache off (TS_NODE_CACHE=false: what every run costs after an edit of the
 *   program, and a program's first run), type-checked with ts-node's cache (its default, warm after the first run:
 *   the check is then skipped for unchanged files), and with PULUMI_NODEJS_TRANSPILE_ONLY=true. Wall time of the
 *   CLI and the CPU of all its processes (the CLI, the language host, the program, the dynamic-provider host).
 * - The dynamic-provider host's own start, which the one-group preview waits for and the program without privnet
 *   resources never starts: the SDK's `pulumi-resource-pulumi-nodejs` (a shell script that runs `node` twice: once to
 *   find the SDK, once to serve), spawn to the port it prints, in the one-group project; none of the package loads
 *   before its first call.
 *
 * With $PRIVNET_BEFORE_PLUGIN naming another build's plugin launcher (`<checkout>/bin/pulumi-resource-privnet`),
 * that checkout's dist/ is measured beside this one's (a second copy of the package, and a second one-group
 * project), in the same rounds.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { execFile, spawn } from "node:child_process";
import { childrenCpuMs, load } from "./lib/cpu";
import { checkBudget, progress } from "./lib/progress";
import { createProject, type BenchProject } from "./lib/project";
import { startServerProcess } from "./lib/server";
import { median } from "./lib/stats";
import { beforePluginLauncher, namePluginIn, TSCONFIG } from "./peer";

export const STARTUP_MODES = ["typeCheck", "typeCheckCached", "transpileOnly"] as const;
export type StartupMode = (typeof STARTUP_MODES)[number];

export const STARTUP_MODE_LABEL: Record<StartupMode, string> = {
  typeCheck: "type-checked, ts-node's cache off (TS_NODE_CACHE=false)",
  typeCheckCached: "type-checked, ts-node's cache warm (its default)",
  transpileOnly: "PULUMI_NODEJS_TRANSPILE_ONLY=true",
};

/** The programs of the preview comparison. */
export type StartupProgram = "without" | "one-group" | "one-group-plugin" | "one-group-before";

export const STARTUP_PROGRAM_LABEL: Record<StartupProgram, string> = {
  without: "without privnet resources (@pulumi/pulumi only)",
  "one-group": "one group (pulumi-privnet, this build)",
  "one-group-plugin": "one group (pulumi-privnet/plugin, this build)",
  "one-group-before": "one group (pulumi-privnet, the other build)",
};

export interface RequireFigures {
  /** What was required: `@pulumi/pulumi`, `pulumi-privnet` (this build) or the other build's. */
  what: "@pulumi/pulumi" | "pulumi-privnet" | "pulumi-privnet (other build)";
  wallMs: number[];
  cpuMs: number[];
}

export interface PreviewFigures {
  program: StartupProgram;
  mode: StartupMode;
  /** Wall time of `pulumi preview`, ms, one per round. */
  wallMs: number[];
  /** CPU of the CLI and every process it started, ms, one per round. */
  cpuMs: number[];
}

export interface StartupResult {
  rounds: number;
  require: RequireFigures[];
  /** The dynamic-provider host (the SDK's pulumi-resource-pulumi-nodejs), spawn to port, ms, each spawn. */
  hostStartMs: number[];
  /** The resource plugin (the package's bin/pulumi-resource-privnet), spawn to port, ms, each spawn. */
  pluginStartMs?: number[];
  previews: PreviewFigures[];
  /** The 1-minute load average at the start of each round of previews. */
  loads: number[];
  /** The other build measured beside this one (PRIVNET_BEFORE_PLUGIN's checkout). */
  beforeBuild?: string;
}

const WITHOUT = `import * as pulumi from "@pulumi/pulumi";

export const stack = pulumi.getStack();
`;

const ONE_GROUP = (name: string, from = "pulumi-privnet") => `import * as pulumi from "@pulumi/pulumi";
import * as privnet from "${from}";

export const stack = pulumi.getStack();
new privnet.Group("servers", { name: "${name}" });
`;

/** The require measurement, run by `node -e` in a project directory: wall and CPU of one require. */
const REQUIRE_SCRIPT = `const c0 = process.cpuUsage(); const t0 = process.hrtime.bigint();
require(process.argv[1]);
const c = process.cpuUsage(c0);
process.stdout.write(JSON.stringify({ wallMs: Number(process.hrtime.bigint() - t0) / 1e6, cpuMs: (c.user + c.system) / 1000 }));`;

function requireOnce(dir: string, what: string): Promise<{ wallMs: number; cpuMs: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["-e", REQUIRE_SCRIPT, what],
      { cwd: dir, env: { ...process.env, NODE_OPTIONS: "" }, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`require(${what}) in ${dir}: ${err.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as { wallMs: number; cpuMs: number });
      },
    );
  });
}

/** Spawn to the first line of stdout (the port) of `launcher` in `cwd`, then SIGTERM; ms. */
async function spawnToPort(launcher: string, cwd: string, env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const child = spawn(launcher, ["127.0.0.1:1"], {
    cwd,
    env: { ...env, NODE_OPTIONS: "" },
    stdio: ["pipe", "pipe", "ignore"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.once("data", () => resolve());
      child.once("exit", (code) => reject(new Error(`${launcher} exited ${code} before printing its port`)));
    });
    return performance.now() - t0;
  } finally {
    // The script's shell waits for its node: end that node by its pid, then the shell.
    try {
      for (const pid of fs
        .readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8")
        .split(" ")
        .filter(Boolean))
        process.kill(Number(pid), "SIGTERM");
    } catch {
      // Gone already.
    }
    child.kill("SIGTERM");
    await exited;
  }
}

/** Replaces the installed package's dist/ (and package.json) with another checkout's. */
function installOtherBuild(project: BenchProject, checkout: string): void {
  const target = path.join(project.dir, "node_modules", "pulumi-privnet");
  fs.rmSync(path.join(target, "dist"), { recursive: true, force: true });
  fs.cpSync(path.join(checkout, "dist"), path.join(target, "dist"), { recursive: true });
  fs.copyFileSync(path.join(checkout, "package.json"), path.join(target, "package.json"));
}

/** The other build's checkout (the launcher's `<checkout>/bin/..`), when PRIVNET_BEFORE_PLUGIN names one. */
function otherCheckout(): string | undefined {
  const launcher = beforePluginLauncher();
  if (!launcher) return undefined;
  const checkout = path.resolve(path.dirname(launcher), "..");
  if (!fs.existsSync(path.join(checkout, "dist", "sdk", "index.js")))
    throw new Error(`PRIVNET_BEFORE_PLUGIN: no built package at ${checkout} (dist/sdk/index.js)`);
  return checkout;
}

export async function runStartup(opts: {
  workDir: string;
  binDir: string;
  rounds: number;
}): Promise<StartupResult> {
  const S = "startup";
  const dir = path.join(opts.workDir, "startup");
  fs.mkdirSync(dir, { recursive: true });
  const before = otherCheckout();
  const server = await startServerProcess({ dir: path.join(dir, "server") });
  try {
    const common = { workDir: dir, program: "graph.js", binDir: opts.binDir, server };
    const projects = new Map<StartupProgram, BenchProject>();
    projects.set(
      "without",
      await createProject({
        ...common,
        name: "without",
        typescript: { program: WITHOUT, tsconfig: TSCONFIG },
      }),
    );
    projects.set(
      "one-group",
      await createProject({
        ...common,
        name: "one-group",
        typescript: { program: ONE_GROUP("startup-this"), tsconfig: TSCONFIG },
      }),
    );
    {
      const p = await createProject({
        ...common,
        name: "one-group-plugin",
        typescript: { program: ONE_GROUP("startup-plugin", "pulumi-privnet/plugin"), tsconfig: TSCONFIG },
      });
      namePluginIn(p.dir);
      projects.set("one-group-plugin", p);
    }
    if (before) {
      const p = await createProject({
        ...common,
        name: "one-group-before",
        typescript: { program: ONE_GROUP("startup-other"), tsconfig: TSCONFIG },
      });
      installOtherBuild(p, before);
      projects.set("one-group-before", p);
    }
    for (const [name, p] of projects) {
      await p.pulumi(["up", "--skip-preview"], { yes: true });
      // ts-node's cache filled once, so that the cached mode measures what a user's second run costs.
      const saved = p.env;
      p.env = { ...saved, PULUMI_NODEJS_TRANSPILE_ONLY: "false", TS_NODE_CACHE: "true" };
      try {
        await p.pulumi(["preview", "--expect-no-changes"]);
      } finally {
        p.env = saved;
      }
      progress(S, `${name}: up and a first preview done`);
    }

    // require() in a new Node process, in the one-group projects (each has its own copy of the package).
    const requires: RequireFigures[] = [
      { what: "@pulumi/pulumi", wallMs: [], cpuMs: [] },
      { what: "pulumi-privnet", wallMs: [], cpuMs: [] },
      ...(before ? [{ what: "pulumi-privnet (other build)" as const, wallMs: [], cpuMs: [] }] : []),
    ];
    const requireRounds = Math.max(9, opts.rounds * 3);
    for (let r = 0; r < requireRounds; r++) {
      const order = r % 2 ? [...requires].reverse() : requires;
      for (const f of order) {
        const project = projects.get(
          f.what === "pulumi-privnet (other build)" ? "one-group-before" : "one-group",
        )!;
        const m = await requireOnce(
          project.dir,
          f.what === "@pulumi/pulumi" ? "@pulumi/pulumi" : "pulumi-privnet",
        );
        f.wallMs.push(m.wallMs);
        f.cpuMs.push(m.cpuMs);
      }
    }
    for (const f of requires)
      progress(
        S,
        `require(${f.what}): median ${median(f.wallMs).toFixed(0)} ms wall, ${median(f.cpuMs).toFixed(0)} ms CPU`,
      );

    // The SDK's dynamic-provider host, as the engine starts it for the one-group program.
    const one = projects.get("one-group")!;
    const launcher = path.join(opts.binDir, "pulumi-resource-pulumi-nodejs");
    const hostStartMs: number[] = [];
    for (let r = 0; r < requireRounds; r++) hostStartMs.push(await spawnToPort(launcher, one.dir, one.env));
    progress(S, `dynamic-provider host, spawn to port: median ${median(hostStartMs).toFixed(0)} ms`);
    const plug = projects.get("one-group-plugin")!;
    const pluginLauncher = path.join(
      plug.dir,
      "node_modules",
      "pulumi-privnet",
      "bin",
      "pulumi-resource-privnet",
    );
    const pluginStartMs: number[] = [];
    for (let r = 0; r < requireRounds; r++)
      pluginStartMs.push(await spawnToPort(pluginLauncher, plug.dir, plug.env));
    progress(S, `resource plugin, spawn to port: median ${median(pluginStartMs).toFixed(0)} ms`);

    const previews: PreviewFigures[] = [];
    const loads: number[] = [];
    const figures = (program: StartupProgram, mode: StartupMode) => {
      let f = previews.find((x) => x.program === program && x.mode === mode);
      if (!f) {
        f = { program, mode, wallMs: [], cpuMs: [] };
        previews.push(f);
      }
      return f;
    };
    const names = [...projects.keys()];
    for (let r = 0; r < opts.rounds; r++) {
      checkBudget(`${S} round ${r + 1}`);
      loads.push(load().load1);
      for (const mode of STARTUP_MODES) {
        // Alternate the order of the programs between rounds: the machine's speed drifts.
        for (const name of r % 2 ? [...names].reverse() : names) {
          const project = projects.get(name)!;
          const saved = project.env;
          project.env = {
            ...saved,
            PULUMI_NODEJS_TRANSPILE_ONLY: mode === "transpileOnly" ? "true" : "false",
            TS_NODE_CACHE: mode === "typeCheck" ? "false" : "true",
          };
          try {
            const c0 = childrenCpuMs();
            const res = await project.pulumi(["preview", "--expect-no-changes"]);
            const f = figures(name, mode);
            f.wallMs.push(res.durationMs);
            f.cpuMs.push(childrenCpuMs() - c0);
          } finally {
            project.env = saved;
          }
        }
      }
      progress(
        S,
        `round ${r + 1}: ` +
          previews
            .map((f) => `${f.program} ${f.mode} ${((f.wallMs.at(-1) ?? NaN) / 1000).toFixed(2)} s`)
            .join(", ") +
          `; load ${loads.at(-1)?.toFixed(1)}`,
      );
    }
    return {
      rounds: opts.rounds,
      require: requires,
      hostStartMs,
      pluginStartMs,
      previews,
      loads,
      ...(before ? { beforeBuild: before } : {}),
    };
  } finally {
    await server.stop();
  }
}
