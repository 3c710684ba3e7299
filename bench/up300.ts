/**
 * `pulumi up` of 300 resources against the local server, against the same resource graph on a do-nothing
 * dynamic provider (same engine, same --parallel): (privnet - noop) / 300 is our cost per resource, which
 * includes the server's work. The floor is the same 300 requests sent directly with the client at the same
 * concurrency. Destroy is measured the same way.
 *
 * Two engine settings:
 *   - `default`: what a user gets. The file state backend writes the whole checkpoint after every step, one at
 *     a time, so its cost grows with the state (O(n^2) over a run) and dominates the wall time;
 *   - `skipCheckpoints`: PULUMI_SKIP_CHECKPOINTS=true (state written once at the end), which leaves the provider,
 *     the host and the server as the difference between the two programs.
 * Repetitions alternate the order of the two programs; medians are reported. Wall time moves with whatever
 * else the machine runs, so CPU time (the pulumi process tree + the server) is reported beside it.
 *
 * When the target is missed, one more `up` of each program (skipCheckpoints) is profiled: every Node process
 * with --cpu-prof, the CLI with --profiling, the server's CPU from /proc; busy time per process role and the
 * top frames are reported.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PrivnetClient } from "../client";
import { repoRoot } from "../tests/e2e/engine";
import { childrenCpuMs, load, processCpuMs } from "./lib/cpu";
import { summarizeProfile } from "./lib/cpuprofile";
import { progress } from "./lib/progress";
import { createProject, type BenchProject } from "./lib/project";
import { RequestLog } from "./lib/request-log";
import { startServerProcess, type ServerProcess } from "./lib/server";
import { median, since } from "./lib/stats";

/** privnet: pulumi-privnet; noop: the do-nothing provider; noopWide: the same, registering pulumi-privnet's
 * output properties too (skipCheckpoints only); direct: the same requests sent with the client. */
type Variant = "privnet" | "noop" | "noopWide" | "direct";
type Program = Exclude<Variant, "direct">;
const LABEL: Record<Program, string> = {
  privnet: "pulumi-privnet",
  noop: "do-nothing",
  noopWide: "do-nothing + typed outputs",
};
type Series = Record<Variant, number[]>;
export const MODES = ["default", "skipCheckpoints"] as const;
export type Mode = (typeof MODES)[number];

export interface ModeResult {
  /** Wall time of each run, ms. */
  upMs: Series;
  destroyMs: Series;
  /** CPU of each run, ms: the pulumi process tree + the server (`direct`: this process + the server). */
  upCpuMs: Series;
  destroyCpuMs: Series;
  /** The server's share of upCpuMs (privnet runs), ms. */
  serverUpCpuMs: number[];
  /** (privnet - noop) / count of each repetition, ms: wall and CPU. */
  upDiffsMs: number[];
  upCpuDiffsMs: number[];
  /** Median over repetitions of (privnet - noop) / count, ms. */
  upCostMs: number;
  /** skipCheckpoints: median of (noopWide - noop) / count, ms (wall, CPU): registering typed outputs. */
  typedOutputsMs?: number;
  typedOutputsCpuMs?: number;
  destroyCostMs: number;
  upCpuCostMs: number;
  destroyCpuCostMs: number;
  /** 1-minute load average at the start of each run. */
  loads: number[];
}

export interface RoleBusy {
  role: string;
  privnetMs: number;
  noopMs: number;
}

export interface Up300Profile {
  /** Busy (sampled, not idle) CPU per process role, ms, one profiled run of each program. */
  roles: RoleBusy[];
  /** Top self-time frames of the privnet dynamic-provider host and program. */
  hostTop: { name: string; selfMs: number }[];
  hostByPackage: { name: string; selfMs: number }[];
  programTop: { name: string; selfMs: number }[];
  dir: string;
}

export interface Up300Result {
  count: number;
  parallel: number;
  repetitions: number;
  modes: Record<Mode, ModeResult>;
  /** API requests of the privnet `up` and `destroy` (should equal count). */
  upRequests: number;
  destroyRequests: number;
  /** The server's own handling time (request log durationMs) per request, median run, ms. */
  serverMsPerRequest: number;
  profile?: Up300Profile;
  targetMs: number;
}

const TARGET_MS = 5;

/** Runs `fn` over `items` with at most `concurrency` in flight. */
export async function runPool<T>(
  items: T[],
  concurrency: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** The graph of programs/graph.js sent directly: groups, then policies and setup keys; returns ids. */
async function directUp(
  client: PrivnetClient,
  count: number,
  suffix: string,
  parallel: number,
): Promise<{ groups: string[]; policies: string[]; keys: string[] }> {
  const nGroups = Math.floor(count / 2);
  const nPolicies = Math.floor(count / 4);
  const nKeys = count - nGroups - nPolicies;
  const groups: string[] = new Array(nGroups);
  await runPool([...Array(nGroups).keys()], parallel, async (i) => {
    groups[i] = (await client.call<{ id: string }>("createGroup", { body: { name: `g-${suffix}-${i}` } })).id;
  });
  const policies: string[] = [];
  const keys: string[] = [];
  const rest = [
    ...[...Array(nPolicies).keys()].map((i) => ({ kind: "p" as const, i })),
    ...[...Array(nKeys).keys()].map((i) => ({ kind: "k" as const, i })),
  ];
  await runPool(rest, parallel, async ({ kind, i }) => {
    if (kind === "p") {
      const body = {
        name: `p-${suffix}-${i}`,
        enabled: true,
        rules: [
          {
            name: "ssh",
            enabled: true,
            action: "accept",
            bidirectional: false,
            protocol: "tcp",
            ports: ["22"],
            sources: [groups[(2 * i) % nGroups]],
            destinations: [groups[(2 * i + 1) % nGroups]],
          },
        ],
      };
      policies.push((await client.call<{ id: string }>("createPolicy", { body })).id);
    } else {
      const body = {
        name: `k-${suffix}-${i}`,
        type: "reusable",
        expires_in: 86400,
        auto_groups: [groups[i % nGroups]],
        usage_limit: 0,
        ephemeral: false,
      };
      keys.push((await client.call<{ id: string }>("createSetupKey", { body })).id);
    }
  });
  return { groups, policies, keys };
}

async function directDestroy(
  client: PrivnetClient,
  ids: { groups: string[]; policies: string[]; keys: string[] },
  parallel: number,
): Promise<void> {
  const rest = [
    ...ids.policies.map((id) => ["deletePolicy", { policyId: id }] as const),
    ...ids.keys.map((id) => ["deleteSetupKey", { keyId: id }] as const),
  ];
  await runPool(rest, parallel, async ([op, params]) => {
    await client.call(op, { params });
  });
  await runPool(ids.groups, parallel, async (groupId) => {
    await client.call("deleteGroup", { params: { groupId } });
  });
}

function emptyMode(): ModeResult {
  const series = (): Series => ({ privnet: [], noop: [], noopWide: [], direct: [] });
  return {
    upMs: series(),
    destroyMs: series(),
    upCpuMs: series(),
    destroyCpuMs: series(),
    serverUpCpuMs: [],
    upDiffsMs: [],
    upCpuDiffsMs: [],
    upCostMs: NaN,
    destroyCostMs: NaN,
    upCpuCostMs: NaN,
    destroyCpuCostMs: NaN,
    loads: [],
  };
}

/** The role of a Node process from its profile: which entry script its frames come from. */
function roleOf(file: string): string {
  const text = fs.readFileSync(file, "utf8");
  if (text.includes("cmd/dynamic-provider")) return "dynamic-provider host";
  if (text.includes("cmd/run/")) return "program";
  if (text.includes("language-host.js")) return "language host";
  return "other node";
}

/** The output property names a pulumi-privnet class registers (its generated `OUTPUTS` in sdk/resources). */
function outputNames(file: string): string[] {
  const text = fs.readFileSync(path.join(repoRoot, "sdk", "resources", `${file}.ts`), "utf8");
  const body = /const OUTPUTS = \{([\s\S]*?)\n\};/.exec(text)?.[1];
  if (!body) throw new Error(`sdk/resources/${file}.ts: no OUTPUTS`);
  return [...body.matchAll(/^\s*(\w+):/gm)].map((m) => m[1] as string);
}

/** `go tool pprof` of the CLI's CPU profile: total samples, ms. */
function goProfileTotal(binDir: string, file: string): number | undefined {
  try {
    const out = execFileSync(
      "go",
      ["tool", "pprof", "-top", "-nodecount=1", path.join(binDir, "pulumi"), file],
      {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
        timeout: 60_000,
      },
    );
    const sec = (s: string) => (s.endsWith("ms") ? Number(s.slice(0, -2)) : Number(s.slice(0, -1)) * 1000);
    const total = /Total samples = ([\d.]+m?s)/.exec(out)?.[1];
    return total ? sec(total) : undefined;
  } catch {
    return undefined; // no Go toolchain: the CLI is left out of the breakdown
  }
}

export async function runUp300(opts: {
  workDir: string;
  binDir: string;
  count?: number;
  repetitions?: number;
  /** Profile when the target is missed (default true); "always" profiles anyway. */
  profile?: boolean | "always";
}): Promise<Up300Result> {
  const S = "up300";
  const count = opts.count ?? 300;
  const repetitions = opts.repetitions ?? 2;
  // The CLI's own default (4 x GOMAXPROCS), passed explicitly so both runs and the floor use the same number.
  const parallel = 4 * os.availableParallelism();
  const server = await startServerProcess({ dir: path.join(opts.workDir, "up300-server") });
  const result: Up300Result = {
    count,
    parallel,
    repetitions,
    modes: { default: emptyMode(), skipCheckpoints: emptyMode() },
    upRequests: 0,
    destroyRequests: 0,
    serverMsPerRequest: NaN,
    targetMs: TARGET_MS,
  };
  try {
    progress(
      S,
      `server ${server.url}; ${count} resources, --parallel ${parallel}, ${repetitions} repetitions per mode`,
    );
    const projects: Record<Program, BenchProject> = {
      privnet: await createProject({
        workDir: opts.workDir,
        name: "bench-graph",
        program: "graph.js",
        binDir: opts.binDir,
        server,
      }),
      noop: await createProject({
        workDir: opts.workDir,
        name: "bench-noop",
        program: "noop.js",
        binDir: opts.binDir,
        noopProvider: true,
      }),
      noopWide: await createProject({
        workDir: opts.workDir,
        name: "bench-noop-wide",
        program: "noop.js",
        binDir: opts.binDir,
        noopProvider: true,
      }),
    };
    const outputs = {
      Group: outputNames("group"),
      Policy: outputNames("policy"),
      SetupKey: outputNames("setup-key"),
    };
    const log = new RequestLog(server.requestLog as string, server);
    const serverMs: number[] = [];
    /** Runs `f`; its CPU: reaped children (the pulumi tree) + the server (+ this process if `self`). */
    const cpuOf = async <T>(f: () => Promise<T>, self = false) => {
      const s0 = processCpuMs(server.pid);
      const c0 = childrenCpuMs() + (self ? processCpuMs("self") : 0);
      const value = await f();
      const serverCpu = processCpuMs(server.pid) - s0;
      return {
        value,
        cpuMs: childrenCpuMs() + (self ? processCpuMs("self") : 0) - c0 + serverCpu,
        serverCpu,
      };
    };
    /**
     * One `up` of a program in a mode. Default mode: then `destroy`, measured the same way. skipCheckpoints: the
     * stack is dropped instead (`stack rm --force`, the objects stay on this throw-away server), which saves
     * the time of a second destroy.
     */
    const cycle = async (mode: Mode, key: Program, rep: number) => {
      const m = result.modes[mode];
      const project = projects[key];
      const saved = project.env;
      project.env = { ...saved };
      if (mode === "skipCheckpoints") project.env.PULUMI_SKIP_CHECKPOINTS = "true";
      try {
        project.setInput({
          count,
          suffix: `${mode}-${key}-${rep}`,
          ...(key === "noopWide" ? { outputs } : {}),
        });
        await log.mark();
        m.loads.push(load().load1);
        const p = ["--skip-preview", "--parallel", String(parallel)];
        const up = await cpuOf(() => project.pulumi(["up", ...p], { yes: true }));
        const upEntries = await log.take();
        m.upMs[key].push(up.value.durationMs);
        m.upCpuMs[key].push(up.cpuMs);
        let downText = "";
        if (mode === "default") {
          const down = await cpuOf(() => project.pulumi(["destroy", ...p], { yes: true }));
          const downEntries = await log.take();
          m.destroyMs[key].push(down.value.durationMs);
          m.destroyCpuMs[key].push(down.cpuMs);
          if (key === "privnet")
            result.destroyRequests = downEntries.filter((e) => e.route.startsWith("/api/")).length;
          downText =
            `, destroy ${(down.value.durationMs / 1000).toFixed(1)} s / ${(down.cpuMs / 1000).toFixed(1)} s CPU ` +
            `(${downEntries.length} requests)`;
        } else {
          project.env = saved;
          await project.resetStack();
        }
        if (key === "privnet") {
          m.serverUpCpuMs.push(up.serverCpu);
          result.upRequests = upEntries.filter((e) => e.route.startsWith("/api/")).length;
          serverMs.push(upEntries.reduce((a, e) => a + e.durationMs, 0) / Math.max(1, upEntries.length));
          // One request per create, plus a read of each policy after its write (by design: see api-calls).
          const expectedUp = count + Math.floor(count / 4);
          if (result.upRequests !== expectedUp || (mode === "default" && result.destroyRequests !== count)) {
            throw new Error(
              `privnet up/destroy made ${result.upRequests}/${result.destroyRequests} API requests, expected ` +
                `${expectedUp}/${count}`,
            );
          }
        }
        progress(
          S,
          `${mode} #${rep + 1} ${LABEL[key]}: ` +
            `up ${(up.value.durationMs / 1000).toFixed(1)} s wall / ${(up.cpuMs / 1000).toFixed(1)} s CPU ` +
            `(${upEntries.length} requests)${downText}; load ${m.loads.at(-1)?.toFixed(1)}`,
        );
      } finally {
        project.env = saved;
      }
    };
    const direct = async (mode: Mode, rep: number) => {
      const m = result.modes[mode];
      // A new client per repetition, as each `pulumi up` has a new provider host (and a full token bucket).
      const client = new PrivnetClient({ apiUrl: server.url, token: server.token });
      try {
        const t0 = performance.now();
        const ids = await cpuOf(() => directUp(client, count, `direct-${mode}-${rep}`, parallel), true);
        m.upMs.direct.push(since(t0));
        m.upCpuMs.direct.push(ids.cpuMs);
        const t1 = performance.now();
        const del = await cpuOf(() => directDestroy(client, ids.value, parallel), true);
        m.destroyMs.direct.push(since(t1));
        m.destroyCpuMs.direct.push(del.cpuMs);
      } finally {
        await client.close();
      }
    };
    for (const mode of MODES) {
      for (let rep = 0; rep < repetitions; rep++) {
        const programs: Program[] =
          mode === "default" ? ["privnet", "noop"] : ["privnet", "noop", "noopWide"];
        const order = rep % 2 === 0 ? programs : [...programs].reverse();
        for (const key of order) await cycle(mode, key, rep);
        if (mode === "default") await direct(mode, rep);
      }
      const m = result.modes[mode];
      const diffs = (a: number[], b: number[]) => a.map((x, i) => (x - (b[i] as number)) / count);
      m.upDiffsMs = diffs(m.upMs.privnet, m.upMs.noop);
      m.upCpuDiffsMs = diffs(m.upCpuMs.privnet, m.upCpuMs.noop);
      m.upCostMs = median(m.upDiffsMs);
      m.destroyCostMs = median(diffs(m.destroyMs.privnet, m.destroyMs.noop));
      m.upCpuCostMs = median(m.upCpuDiffsMs);
      if (m.upMs.noopWide.length) {
        m.typedOutputsMs = median(diffs(m.upMs.noopWide, m.upMs.noop));
        m.typedOutputsCpuMs = median(diffs(m.upCpuMs.noopWide, m.upCpuMs.noop));
      }
      m.destroyCpuCostMs = median(diffs(m.destroyCpuMs.privnet, m.destroyCpuMs.noop));
      progress(
        S,
        `${mode}: cost per resource up ${m.upCostMs.toFixed(1)} ms wall / ${m.upCpuCostMs.toFixed(1)} ms CPU, ` +
          `destroy ${m.destroyCostMs.toFixed(1)} ms wall / ${m.destroyCpuCostMs.toFixed(1)} ms CPU (target <= ${TARGET_MS} ms)`,
      );
    }
    result.serverMsPerRequest = median(serverMs);
    const d = result.modes.default;
    progress(
      S,
      `direct (floor): ${count} creates ${median(d.upMs.direct).toFixed(0)} ms, ${count} deletes ${median(d.destroyMs.direct).toFixed(0)} ms`,
    );

    const missed = MODES.some((mode) => !(result.modes[mode].upCostMs <= TARGET_MS));
    if (opts.profile === "always" || (opts.profile !== false && missed)) {
      result.profile = await profileRuns(opts, projects, server, count, parallel);
    }
    return result;
  } finally {
    await server.stop();
  }
}

/** One profiled `up` of each program, skipCheckpoints: Node processes with --cpu-prof, the CLI with --profiling. */
async function profileRuns(
  opts: { workDir: string; binDir: string },
  projects: Record<Program, BenchProject>,
  server: ServerProcess,
  count: number,
  parallel: number,
): Promise<Up300Profile> {
  const S = "up300";
  const dir = path.join(opts.workDir, "up300-profiles");
  const preload = path.join(__dirname, "lib", "exit-on-signal.js");
  const roles = new Map<string, RoleBusy>();
  const result: Up300Profile = { roles: [], hostTop: [], hostByPackage: [], programTop: [], dir };
  for (const key of ["privnet", "noop"] as const) {
    const project = projects[key];
    const saved = project.env;
    const nodeDir = path.join(dir, `${key}-node`);
    fs.mkdirSync(nodeDir, { recursive: true });
    try {
      project.setInput({ count, suffix: `profile-${key}` });
      // skipCheckpoints, so that the profiles show the provider, the host and the program, not the state file.
      project.env = {
        ...saved,
        PULUMI_SKIP_CHECKPOINTS: "true",
        NODE_OPTIONS: `--require ${preload} --cpu-prof --cpu-prof-dir=${nodeDir}`,
      };
      const goPrefix = path.join(dir, `${key}-engine`);
      const s0 = processCpuMs(server.pid);
      await project.pulumi(
        ["up", "--skip-preview", "--parallel", String(parallel), "--profiling", goPrefix],
        {
          yes: true,
        },
      );
      const sr = roles.get("privnet-server") ?? { role: "privnet-server", privnetMs: 0, noopMs: 0 };
      sr[key === "privnet" ? "privnetMs" : "noopMs"] = processCpuMs(server.pid) - s0;
      roles.set(sr.role, sr);
      project.env = saved;
      await project.resetStack();
      const goFile = fs.readdirSync(dir).find((f) => f.startsWith(`${key}-engine.`) && f.endsWith(".cpu"));
      const go = goFile ? goProfileTotal(opts.binDir, path.join(dir, goFile)) : undefined;
      if (go !== undefined) {
        const role = "engine (pulumi CLI)";
        const r = roles.get(role) ?? { role, privnetMs: 0, noopMs: 0 };
        r[key === "privnet" ? "privnetMs" : "noopMs"] = go;
        roles.set(role, r);
      }
    } finally {
      project.env = saved;
    }
    for (const f of fs.readdirSync(nodeDir).filter((x) => x.endsWith(".cpuprofile"))) {
      const file = path.join(nodeDir, f);
      const role = roleOf(file);
      const s = summarizeProfile(file);
      const r = roles.get(role) ?? { role, privnetMs: 0, noopMs: 0 };
      r[key === "privnet" ? "privnetMs" : "noopMs"] += s.busyMs;
      roles.set(role, r);
      if (key === "privnet" && role === "dynamic-provider host") {
        result.hostTop = s.topFunctions.slice(0, 8);
        result.hostByPackage = s.byPackage.slice(0, 8);
      }
      if (key === "privnet" && role === "program") result.programTop = s.topFunctions.slice(0, 6);
    }
    progress(S, `profiled ${key} (${nodeDir})`);
  }
  result.roles = [...roles.values()];
  return result;
}
