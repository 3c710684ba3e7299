/**
 * The resource plugin's own cost, per launcher, in rounds that alternate the launchers (the machine's speed drifts
 * over minutes, so the figures compared are taken close together):
 * - spawn to port: ms from spawning the launcher to its port line (what the engine waits for at every start);
 * - first call: ms from spawning to the first Check answered (GetPluginInfo, CheckConfig, Configure, Check: the
 *   calls the engine makes before its first resource step), and the plugin's CPU until then;
 * - CPU per check+diff pair: the plugin process's CPU (every thread, /proc/<pid>/task/<tid>/schedstat) over
 *   `--pairs` pairs of a group's Check and Diff, `--inflight` at a time, after 20 pairs of warm-up: the calls a
 *   preview makes per resource, which the engine waits on.
 * No request reaches a server: Check and Diff of a group need none (the provider is configured with an address
 * nothing listens on, and the run fails if a call fails).
 *
 *   node -r ./bench/register.js bench/plugin-calls.ts [--rounds 4] [--pairs 300] [--inflight 4] [--spawns 5] \
 *     after=bin/pulumi-resource-privnet before=/path/to/other/checkout/bin/pulumi-resource-privnet
 *
 * Each launcher is started once before the rounds (a first start writes the compile cache), and stopped as the
 * engine stops it (SIGTERM) after each use. Prints one line per launcher and round, then the medians.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { envWithoutPrivnet, startProviderProcess, type Host } from "../tests/support/host";
import { median } from "./lib/stats";

interface Options {
  rounds: number;
  pairs: number;
  inflight: number;
  spawns: number;
  launchers: { name: string; path: string }[];
}

function parse(argv: string[]): Options {
  const o: Options = { rounds: 4, pairs: 300, inflight: 4, spawns: 5, launchers: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 1) throw new Error(`${a} needs a positive integer`);
      return v;
    };
    if (a === "--rounds") o.rounds = num();
    else if (a === "--pairs") o.pairs = num();
    else if (a === "--inflight") o.inflight = num();
    else if (a === "--spawns") o.spawns = num();
    else if (/^[\w-]+=/.test(a)) {
      const [name, p] = [a.slice(0, a.indexOf("=")), path.resolve(a.slice(a.indexOf("=") + 1))];
      if (!fs.existsSync(p)) throw new Error(`${name}: no launcher at ${p}`);
      o.launchers.push({ name, path: p });
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!o.launchers.length) throw new Error("name at least one launcher: NAME=PATH");
  return o;
}

/** CPU time of every thread of a running process, ms (nanosecond counters, unlike /proc/<pid>/stat's ticks). */
function processCpuMs(pid: number): number {
  let ns = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return ns / 1e6;
}

function start(launcher: string): Promise<Host> {
  return startProviderProcess({
    label: launcher,
    command: launcher,
    args: ["127.0.0.1:1"],
    cwd: path.dirname(launcher),
    env: envWithoutPrivnet(),
    project: "bench",
    typePrefix: "privnet:index:",
  });
}

/** A group's outputs as the state holds them after a create. */
const OUTPUTS = (i: number) => ({
  name: `g-${i}`,
  peers: [],
  resources: [],
  issued: "api",
  peersCount: 0,
  resourcesCount: 0,
});

async function firstCall(
  launcher: string,
): Promise<{ portMs: number; firstMs: number; cpuMs: number; h: Host }> {
  const t0 = performance.now();
  const h = await start(launcher);
  const portMs = performance.now() - t0;
  await h.getPluginInfo();
  await h.checkConfig({ apiUrl: "http://127.0.0.1:9", token: "bench" });
  await h.configure({ apiUrl: "http://127.0.0.1:9", token: "bench" });
  const checked = await h.check("Group", { name: "g-0" });
  if (checked.failures.length)
    throw new Error(`${launcher}: Check failed: ${JSON.stringify(checked.failures)}`);
  return { portMs, firstMs: performance.now() - t0, cpuMs: processCpuMs(h.pid), h };
}

async function pairs(h: Host, n: number, inflight: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const { inputs } = await h.check("Group", { name: `g-${i}` }, { name: `g-${i}` });
      const d = await h.diff("Group", `id-${i}`, OUTPUTS(i), inputs);
      if (d.changes !== "none") throw new Error(`pair ${i}: a diff where none was expected`);
    }
  };
  await Promise.all(Array.from({ length: inflight }, worker));
}

/** One launcher's figures over the rounds: each spawn's, and each round's CPU per pair. */
export interface PluginCallFigures {
  name: string;
  spawnToPortMs: number[];
  firstCallMs: number[];
  firstCallCpuMs: number[];
  pairCpuUs: number[];
}

/** Measures the launchers in alternating rounds; `log` gets one line per launcher and round. */
export async function measurePluginCalls(
  launchers: { name: string; path: string }[],
  o: { rounds: number; pairs: number; inflight: number; spawns: number },
  log: (line: string) => void = () => undefined,
): Promise<PluginCallFigures[]> {
  const figures = launchers.map((l): PluginCallFigures => ({
    name: l.name,
    spawnToPortMs: [],
    firstCallMs: [],
    firstCallCpuMs: [],
    pairCpuUs: [],
  }));
  for (const l of launchers) {
    const { h } = await firstCall(l.path); // writes the compile cache for the next starts
    await pairs(h, 20, o.inflight);
    await h.stop();
  }
  for (let round = 0; round < o.rounds; round++) {
    const order = round % 2 ? [...launchers.keys()].reverse() : [...launchers.keys()];
    for (const i of order) {
      const l = launchers[i]!;
      const f = figures[i]!;
      for (let k = 0; k < o.spawns; k++) {
        const first = await firstCall(l.path);
        f.spawnToPortMs.push(first.portMs);
        f.firstCallMs.push(first.firstMs);
        f.firstCallCpuMs.push(first.cpuMs);
        if (k === o.spawns - 1) {
          await pairs(first.h, 20, o.inflight);
          const before = processCpuMs(first.h.pid);
          await pairs(first.h, o.pairs, o.inflight);
          f.pairCpuUs.push(((processCpuMs(first.h.pid) - before) * 1000) / o.pairs);
        }
        await first.h.stop();
      }
      const last = (xs: number[]) =>
        xs
          .slice(-o.spawns)
          .map((x) => x.toFixed(0))
          .join(", ");
      log(
        `round ${round + 1} ${l.name}: spawn-to-port ${last(f.spawnToPortMs)} ms; first Check ${last(f.firstCallMs)} ms; ` +
          `CPU per check+diff pair ${f.pairCpuUs.at(-1)!.toFixed(0)} us`,
      );
    }
  }
  return figures;
}

/** One line of medians per launcher. */
export function summarizePluginCalls(f: PluginCallFigures): string {
  return (
    `${f.name}: spawn-to-port ${median(f.spawnToPortMs).toFixed(0)} ms, first Check ${median(f.firstCallMs).toFixed(0)} ms ` +
    `(plugin CPU ${median(f.firstCallCpuMs).toFixed(0)} ms), CPU per check+diff pair ${median(f.pairCpuUs).toFixed(0)} us ` +
    `(${Math.min(...f.pairCpuUs).toFixed(0)}-${Math.max(...f.pairCpuUs).toFixed(0)})`
  );
}

async function main(): Promise<void> {
  const o = parse(process.argv.slice(2));
  const figures = await measurePluginCalls(o.launchers, o, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`\nmedians over ${o.rounds} rounds (${o.spawns} spawns each, ${o.pairs} pairs):\n`);
  for (const f of figures) process.stdout.write(`${summarizePluginCalls(f)}\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`plugin-calls: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
