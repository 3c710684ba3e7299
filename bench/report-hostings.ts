/**
 * The report of the `plugin`, `peer` and `startup` sections (bench/peer.ts, bench/startup.ts): one block of
 * BENCHMARKS.md between two markers, with its own summary (targets and verdicts) and the runs that measured it, so
 * that a run of these sections alone can replace the block in an existing BENCHMARKS.md (bench/main.ts) without the
 * other sections' results.
 */
import type { RunInfo } from "./report";
import type { Command, CaseFigures, PeerSectionResult, PluginSectionResult, Shape, Variant } from "./peer";
import { COMMANDS, RUNS_PER_REPETITION, VARIANT_LABEL } from "./peer";
import {
  STARTUP_MODE_LABEL,
  STARTUP_MODES,
  STARTUP_PROGRAM_LABEL,
  type PreviewFigures,
  type StartupResult,
} from "./startup";
import { fmt, markdownTable, median, verdict } from "./lib/stats";

/** The block's section number in BENCHMARKS.md (after the network map, 8, and privnet-access, 9). */
export const HOSTINGS_SECTION = 10;

export const BLOCK_START = "<!-- bench:hostings:start -->";
export const BLOCK_END = "<!-- bench:hostings:end -->";

/**
 * Targets: the plugin's `up` of 1,000 groups against the floor; the plugin against the peer on every command (1.2x,
 * at 100 and 300 groups and shown at 1,000); the dynamic providers' `up` and `preview` of 300 groups against the
 * plugin's; `require("pulumi-privnet")` against `require("@pulumi/pulumi")`; a one-group TypeScript preview against
 * the same program without privnet resources.
 */
export const TARGETS = {
  pluginUpVsFloor: 1.5,
  pluginVsPeer: 1.2,
  dynamicVsPlugin: 2,
  tsPreviewPerResourceVsPeer: 1.5,
  startupMs: 300,
  requireOverPulumiMs: 200,
  oneGroupPreviewRatio: 1.2,
};

const s = (ms: number | undefined) => (ms === undefined ? "n/a" : fmt(ms / 1000, 1));
const x = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || !b ? "n/a" : `${fmt(a / b, 2)}x`;
const SHAPE_TITLE: Record<Shape, string> = {
  groups: "groups",
  mixed: "mixed (1/2 groups, 1/4 policies, 1/4 setup keys)",
  policies: "groups and policies (3/4 groups, 1/4 policies)",
};

function find(cases: CaseFigures[], v: Variant, shape: Shape, n: number): CaseFigures | undefined {
  return cases.find((c) => c.variant === v && c.shape === shape && c.n === n);
}

export interface HostingsInput {
  plugin?: PluginSectionResult;
  peer?: PeerSectionResult;
  startup?: StartupResult;
  runs?: Record<string, RunInfo>;
}

const previewOf = (st: StartupResult, program: PreviewFigures["program"], mode: PreviewFigures["mode"]) =>
  st.previews.find((f) => f.program === program && f.mode === mode);

/** Median (minimum-maximum) of `v`, whole numbers. */
const range = (v: number[]) => `${fmt(median(v), 0)} (${fmt(Math.min(...v), 0)}-${fmt(Math.max(...v), 0)})`;

/** The same with the unit: `378 ms (362-391)`. */
const msRange = (v: number[]) =>
  `${fmt(median(v), 0)} ms (${fmt(Math.min(...v), 0)}-${fmt(Math.max(...v), 0)})`;

const PROGRAM_NOTE = {
  "one-group": "",
  "one-group-plugin": " through the plugin (`pulumi-privnet/plugin`)",
  "one-group-before": " (the other build)",
} as const;

/** The start-up rows: the require, and the one-group preview against the program without the package. */
function startupSummaryRows(st: StartupResult): string[][] {
  const rows: string[][] = [];
  const base = st.require.find((f) => f.what === "@pulumi/pulumi");
  for (const f of st.require.filter((x) => x !== base)) {
    if (!base) break;
    const extra = median(f.wallMs) - median(base.wallMs);
    rows.push([
      `\`require("pulumi-privnet")\` against \`require("@pulumi/pulumi")\` alone${
        f.what.includes("other") ? " (the other build)" : ""
      }, median of ${f.wallMs.length}`,
      `<= +${TARGETS.requireOverPulumiMs} ms`,
      `${fmt(median(f.wallMs), 0)} ms against ${fmt(median(base.wallMs), 0)} ms (${extra >= 0 ? "+" : ""}${fmt(extra, 0)} ms; ` +
        `CPU ${fmt(median(f.cpuMs), 0)} against ${fmt(median(base.cpuMs), 0)} ms)`,
      verdict(extra <= TARGETS.requireOverPulumiMs),
    ]);
  }
  if (st.hostStartMs?.length)
    rows.push([
      "the SDK's dynamic-provider host (`pulumi-resource-pulumi-nodejs`), spawn to port: what a one-group preview " +
        `waits for that the program without privnet resources never starts (median of ${st.hostStartMs.length})`,
      "",
      msRange(st.hostStartMs),
      "",
    ]);
  if (st.pluginStartMs?.length)
    rows.push([
      "the resource plugin (`bin/pulumi-resource-privnet`), spawn to port: what the one-group preview through the " +
        `plugin waits for instead (median of ${st.pluginStartMs.length})`,
      "",
      msRange(st.pluginStartMs),
      "",
    ]);
  for (const mode of STARTUP_MODES) {
    const without = previewOf(st, "without", mode);
    for (const program of ["one-group", "one-group-plugin", "one-group-before"] as const) {
      const one = previewOf(st, program, mode);
      if (!without || !one) continue;
      const ratio = Math.min(...one.wallMs) / Math.min(...without.wallMs);
      const ratios = one.wallMs.map((w, i) => w / (without.wallMs[i] ?? NaN));
      rows.push([
        `one-group TypeScript \`preview\`${PROGRAM_NOTE[program]} against the same ` +
          `program without privnet resources, ${STARTUP_MODE_LABEL[mode]}`,
        `<= ${fmt(TARGETS.oneGroupPreviewRatio, 1)}x`,
        `${s(Math.min(...one.wallMs))} s against ${s(Math.min(...without.wallMs))} s (${fmt(ratio, 2)}x; median of ` +
          `the rounds' ratios ${fmt(median(ratios), 2)}x; CPU ${s(median(one.cpuMs))} against ${s(median(without.cpuMs))} s)`,
        verdict(ratio <= TARGETS.oneGroupPreviewRatio),
      ]);
    }
  }
  return rows;
}

/** Summary rows: [figure, target, measured, verdict]. */
export function hostingsSummaryRows(r: HostingsInput): string[][] {
  const rows: string[][] = [];
  const p = r.plugin;
  if (p) {
    if (p.startupMs?.length) {
      const m = median(p.startupMs);
      rows.push([
        "plugin start-up: bin/pulumi-resource-privnet spawn to port (median of 10)",
        `<= ${TARGETS.startupMs} ms`,
        `${fmt(m, 0)} ms (min ${fmt(Math.min(...p.startupMs), 0)}, max ${fmt(Math.max(...p.startupMs), 0)})`,
        verdict(m <= TARGETS.startupMs),
      ]);
    }
    for (const n of [...new Set(p.cases.map((c) => c.n))]) {
      const plug = find(p.cases, "plugin-yaml", "groups", n);
      const floor = find(p.cases, "noop-yaml", "groups", n);
      if (!plug || !floor) continue;
      const ratio = (plug.ms.up ?? NaN) / (floor.ms.up ?? NaN);
      rows.push([
        `plugin (YAML): \`up\` of ${n.toLocaleString("en")} groups against the do-nothing plugin (floor)`,
        n >= 1000 ? `<= ${TARGETS.pluginUpVsFloor}x` : "",
        `${s(plug.ms.up)} s against ${s(floor.ms.up)} s (${x(plug.ms.up, floor.ms.up)})`,
        n >= 1000 ? verdict(ratio <= TARGETS.pluginUpVsFloor) : "",
      ]);
    }
  }
  if (p?.calls?.length) {
    for (const f of p.calls) {
      rows.push([
        `plugin's own cost (${f.name}): CPU per check+diff pair / first Check after spawn (median)`,
        "",
        `${fmt(median(f.pairCpuUs), 0)} us / ${fmt(median(f.firstCallMs), 0)} ms`,
        "",
      ]);
    }
  }
  if (p) {
    // This build's plugin against the other build's (PRIVNET_BEFORE_PLUGIN), same run.
    for (const n of [...new Set(p.cases.map((c) => c.n))]) {
      const after = find(p.cases, "plugin-yaml", "groups", n);
      const before = find(p.cases, "before-yaml", "groups", n);
      if (!after || !before) continue;
      rows.push([
        `plugin (YAML), this build against the other, ${n.toLocaleString("en")} groups: ` +
          "`up` / `preview` / `refresh` / `destroy`",
        "",
        COMMANDS.map((c) => x(after.ms[c], before.ms[c])).join(" / "),
        "",
      ]);
    }
  }
  // The dynamic providers against the plugin (same run): YAML and TypeScript through the plugin.
  const allCases = [...(p?.cases ?? []), ...(r.peer?.cases ?? [])];
  for (const n of [...new Set(allCases.filter((c) => c.variant === "dynamic-ts").map((c) => c.n))].sort(
    (a, b) => a - b,
  )) {
    const dyn = find(allCases, "dynamic-ts", "groups", n);
    if (!dyn) continue;
    for (const [v, label] of [
      ["plugin-yaml", "the plugin (YAML)"],
      ["plugin-ts", "the plugin (TypeScript, pulumi-privnet/plugin)"],
    ] as const) {
      const plug = find(allCases, v, "groups", n);
      if (!plug) continue;
      const judged = n === 300 && v === "plugin-yaml";
      const ok = (["up", "preview"] as const).every(
        (c) => (dyn.ms[c] ?? NaN) / (plug.ms[c] ?? NaN) <= TARGETS.dynamicVsPlugin,
      );
      rows.push([
        `dynamic providers (TypeScript) against ${label}, ${n.toLocaleString("en")} groups: \`up\` / \`preview\``,
        judged ? `<= ${fmt(TARGETS.dynamicVsPlugin, 1)}x` : "",
        `${s(dyn.ms.up)} s / ${s(dyn.ms.preview)} s against ${s(plug.ms.up)} s / ${s(plug.ms.preview)} s ` +
          `(${x(dyn.ms.up, plug.ms.up)} / ${x(dyn.ms.preview, plug.ms.preview)})`,
        judged ? verdict(ok) : "",
      ]);
    }
  }
  const q = r.peer;
  if (p && q && !q.skipped) {
    // The engine's floor against the peer: what a Node plugin costs before it does anything.
    for (const n of [...new Set(p.cases.map((c) => c.n))]) {
      const floor = find(p.cases, "noop-yaml", "groups", n);
      const peer = find(q.cases, "peer-yaml", "groups", n);
      if (!floor || !peer) continue;
      rows.push([
        `do-nothing Node plugin (floor) against the peer, ${n.toLocaleString("en")} groups: \`up\` / \`destroy\``,
        "",
        `${s(floor.ms.up)} s / ${s(floor.ms.destroy)} s against ${s(peer.ms.up)} s / ${s(peer.ms.destroy)} s ` +
          `(${x(floor.ms.up, peer.ms.up)} / ${x(floor.ms.destroy, peer.ms.destroy)})`,
        "",
      ]);
    }
  }
  if (q?.skipped) {
    rows.push(["against the peer (pulumi-netbird v0.5.4)", "", `skipped: ${q.skipped}`, "skipped"]);
  } else if (q) {
    for (const n of [...new Set(q.cases.filter((c) => c.shape === "groups").map((c) => c.n))].sort(
      (a, b) => a - b,
    )) {
      const ours = find(q.cases, "plugin-yaml", "groups", n);
      const peer = find(q.cases, "peer-yaml", "groups", n);
      if (!ours || !peer) continue;
      for (const c of ["up", "preview", "refresh", "destroy"] as Command[]) {
        const ratio = (ours.ms[c] ?? NaN) / (peer.ms[c] ?? NaN);
        rows.push([
          `plugin (YAML) against the peer, ${n.toLocaleString("en")} groups: \`${c}\``,
          `<= ${fmt(TARGETS.pluginVsPeer, 1)}x`,
          `${s(ours.ms[c])} s against ${s(peer.ms[c])} s (${x(ours.ms[c], peer.ms[c])})`,
          verdict(ratio <= TARGETS.pluginVsPeer),
        ]);
      }
    }
    const perResource = (v: Variant) => {
      const a = find(q.cases, v, "groups", 100)?.ms.preview;
      const b = find(q.cases, v, "groups", 300)?.ms.preview;
      return a === undefined || b === undefined ? undefined : (b - a) / 200;
    };
    const peer = perResource("peer-yaml");
    for (const [v, label] of [
      ["dynamic-ts", "dynamic providers"],
      ["plugin-ts", "pulumi-privnet/plugin"],
    ] as const) {
      const ts = perResource(v);
      if (ts === undefined || peer === undefined) continue;
      rows.push([
        `TypeScript (${label}): \`preview\` cost per resource, (N=300 - N=100) / 200, against the peer`,
        `<= ${TARGETS.tsPreviewPerResourceVsPeer}x`,
        `${fmt(ts, 2)} ms against ${fmt(peer, 2)} ms (${peer > 0 ? `${fmt(ts / peer, 2)}x` : "n/a"})`,
        verdict(peer > 0 ? ts / peer <= TARGETS.tsPreviewPerResourceVsPeer : ts <= 0),
      ]);
    }
  }
  if (r.startup) rows.push(...startupSummaryRows(r.startup));
  return rows;
}

function caseRows(cases: CaseFigures[], commands: Command[], reference?: Variant): string[][] {
  return cases.map((c) => {
    const ref = reference ? find(cases, reference, c.shape, c.n) : undefined;
    const cell = (cmd: Command) =>
      c.ms[cmd] === undefined
        ? "n/a"
        : `${s(c.ms[cmd])}${ref && ref !== c ? ` (${x(c.ms[cmd], ref.ms[cmd])})` : ""}${
            cmd === "preview" && c.previewChanges ? " CHANGES" : ""
          }`;
    return [
      VARIANT_LABEL[c.variant],
      ...commands.map(cell),
      fmt(c.stateBytesPerResource, 0),
      commands.map((cmd) => String(c.requests[cmd] ?? "n/a")).join(" / "),
      c.loads.map((l) => fmt(l, 1)).join(", "),
    ];
  });
}

function groupsOf(cases: CaseFigures[]): { shape: Shape; n: number; cases: CaseFigures[] }[] {
  const keys: { shape: Shape; n: number }[] = [];
  for (const c of cases) if (!keys.some((k) => k.shape === c.shape && k.n === c.n)) keys.push(c);
  return keys.map((k) => ({ ...k, cases: cases.filter((c) => c.shape === k.shape && c.n === k.n) }));
}

function pluginSection(p: PluginSectionResult): string {
  const commands: Command[] = ["up", "refresh", "destroy"];
  const out = [
    "The same YAML program through the resource plugin (bin/pulumi-resource-privnet) and through a do-nothing Node " +
      "plugin with the same schema (bench/programs/noop-plugin.js: the engine's floor), and the same resources in a " +
      "TypeScript program through the dynamic providers (PULUMI_NODEJS_TRANSPILE_ONLY=true), against one " +
      "privnet-server, in one run. Seconds, minimum of " +
      `${p.repetitions} repetitions (\`refresh\`: ${RUNS_PER_REPETITION.refresh} runs in each); in parentheses the ` +
      "ratio to the floor. State: the checkpoint file after `up`, " +
      "bytes per resource. Requests: API requests per command (the server's request log).",
  ];
  for (const g of groupsOf(p.cases)) {
    out.push(
      "",
      `**${g.n.toLocaleString("en")} resources, ${SHAPE_TITLE[g.shape]}**`,
      "",
      markdownTable(
        ["Hosting", ...commands.map((c) => `\`${c}\` s`), "State B/resource", "Requests", "Load (1 min)"],
        caseRows(g.cases, commands, "noop-yaml"),
        ["l", "r", "r", "r", "r", "l", "l"],
      ),
    );
  }
  if (p.startupMs?.length)
    out.push(
      "",
      `Plugin start-up, spawn to port, 10 spawns: ${p.startupMs.map((v) => fmt(v, 0)).join(", ")} ms.`,
    );
  if (p.calls?.length) {
    out.push(
      "",
      "The plugin's own cost (bench/plugin-calls.ts), in rounds alternating the builds: spawn to port; spawn to " +
        "the first Check answered (GetPluginInfo, CheckConfig, Configure, Check) and the plugin's CPU until then; " +
        "the plugin's CPU per check+diff pair of a group, 300 pairs 4 at a time after a warm-up, one figure per " +
        `round. Median (range).${p.beforePlugin ? ` Other build: ${p.beforePlugin}.` : ""}`,
      "",
      markdownTable(
        ["Build", "Spawn to port, ms", "First Check, ms", "CPU to first Check, ms", "CPU per pair, us"],
        p.calls.map((f) => [
          f.name,
          range(f.spawnToPortMs),
          range(f.firstCallMs),
          range(f.firstCallCpuMs),
          range(f.pairCpuUs),
        ]),
        ["l", "r", "r", "r", "r"],
      ),
    );
  }
  if (p.notes.length) out.push("", ...p.notes.map((n) => `- ${n}`));
  return out.join("\n");
}

function peerSection(q: PeerSectionResult): string {
  if (q.skipped) return `Skipped: ${q.skipped}.`;
  const out = [
    "Ours through the plugin in YAML and as a Python Automation API inline program (bench/programs/shape.py, the " +
      "time of the Automation API call), ours in TypeScript through the dynamic providers and through the plugin " +
      "(`pulumi-privnet/plugin`; both PULUMI_NODEJS_TRANSPILE_ONLY=true), and the peer, mbrav/pulumi-netbird v0.5.4 built from source with " +
      "its client's Bearer scheme changed to Token (the measurement aid in bench/README.md), in YAML; one " +
      `privnet-server, one run. Seconds, minimum of ${q.repetitions} repetitions (\`preview\` and \`refresh\`: ` +
      `${RUNS_PER_REPETITION.preview} runs in each); in parentheses the ratio to the ` +
      "peer. `preview` is the no-change preview (`--expect-no-changes`), `refresh` one read pass " +
      "(`--skip-preview`). Requests: API requests per command, up / preview / refresh / destroy.",
  ];
  const commands: Command[] = ["up", "preview", "refresh", "destroy"];
  for (const g of groupsOf(q.cases)) {
    out.push(
      "",
      `**${g.n.toLocaleString("en")} resources, ${SHAPE_TITLE[g.shape]}**`,
      "",
      markdownTable(
        ["Hosting", ...commands.map((c) => `\`${c}\` s`), "State B/resource", "Requests", "Load (1 min)"],
        caseRows(g.cases, commands, "peer-yaml"),
        ["l", "r", "r", "r", "r", "r", "l", "l"],
      ),
    );
  }
  const f = q.firstRegistration;
  if (f) {
    out.push(
      "",
      "A TypeScript program's time to its first registration, from the start of `pulumi preview` (seconds, minimum " +
        `of ${q.repetitions}): the same program importing pulumi-privnet and touching three of its classes, and ` +
        "without it.",
      "",
      markdownTable(
        ["Program", "type-checked (ts-node's default)", "PULUMI_NODEJS_TRANSPILE_ONLY=true"],
        [
          ["without pulumi-privnet", s(f.withoutPackage.typeCheck), s(f.withoutPackage.transpileOnly)],
          ["with pulumi-privnet", s(f.withPackage.typeCheck), s(f.withPackage.transpileOnly)],
          [
            "our share",
            s(f.withPackage.typeCheck - f.withoutPackage.typeCheck),
            s(f.withPackage.transpileOnly - f.withoutPackage.transpileOnly),
          ],
        ],
        ["l", "r", "r"],
      ),
    );
  }
  if (q.notes.length) out.push("", ...q.notes.map((n) => `- ${n}`));
  return out.join("\n");
}

function startupSection(st: StartupResult): string {
  const out = [
    "bench/startup.ts. `require(...)` in a new Node process per run, in a project with the package installed as a " +
      `copy, ${st.require[0]?.wallMs.length ?? 0} alternating runs each; median (range), ms.`,
    "",
    markdownTable(
      ["Required", "Wall, ms", "CPU, ms"],
      st.require.map((f) => [`\`${f.what}\``, range(f.wallMs), range(f.cpuMs)]),
      ["l", "r", "r"],
    ),
    "",
    ...(st.hostStartMs?.length
      ? [
          "The SDK's dynamic-provider host (`pulumi-resource-pulumi-nodejs`: a shell script that runs `node` once to " +
            "find the SDK and once to serve), spawn to the port it prints, in the one-group project, " +
            `${st.hostStartMs.length} spawns: median ${msRange(st.hostStartMs)}. A program with privnet ` +
            "resources waits for it before its first resource's step; the package loads nothing in it before the " +
            "first call.",
          "",
        ]
      : []),
    ...(st.pluginStartMs?.length
      ? [
          "The resource plugin (`bin/pulumi-resource-privnet`), spawn to the port it prints, in the one-group " +
            `project through the plugin, ${st.pluginStartMs.length} spawns: median ${msRange(st.pluginStartMs)}. The one-group ` +
            "program through the plugin (`pulumi-privnet/plugin`, the plugin named in its Pulumi.yaml with a version) " +
            "waits for it instead of the dynamic-provider host.",
          "",
        ]
      : []),
    'A TypeScript program\'s no-change `pulumi preview` with one group (`import * as privnet from "pulumi-privnet"`, ' +
      "`new privnet.Group(...)`), the same with `pulumi-privnet/plugin`'s classes (through the plugin), and the " +
      "same program without the import and the group (`export const stack = " +
      `pulumi.getStack()\` in all), after an \`up\`, ${st.rounds} alternating rounds; seconds, minimum and median, ` +
      "and the median CPU of the CLI and every process it started (language host, program, dynamic-provider " +
      "host or plugin). Type-checked with ts-node's cache off is what every run costs after an edit of the program (and its " +
      "first run); with the cache warm, ts-node skips the check of unchanged files.",
    "",
    markdownTable(
      ["Program", "Mode", "Minimum s", "Median s", "CPU s (median)"],
      STARTUP_MODES.flatMap((mode) =>
        st.previews
          .filter((f) => f.mode === mode)
          .map((f) => [
            STARTUP_PROGRAM_LABEL[f.program],
            STARTUP_MODE_LABEL[mode],
            s(Math.min(...f.wallMs)),
            s(median(f.wallMs)),
            s(median(f.cpuMs)),
          ]),
      ),
      ["l", "l", "r", "r", "r"],
    ),
    "",
    `Load (1 min) at the start of each round: ${st.loads.map((l) => fmt(l, 1)).join(", ")}.` +
      (st.beforeBuild ? ` Other build: ${st.beforeBuild}.` : ""),
  ];
  return out.join("\n");
}

/** The block: its run(s), its summary, the plugin section, the peer section and the start-up section. */
export function hostingsBlock(r: HostingsInput, firstNumber: number): string {
  const out = [BLOCK_START, ""];
  const runs = Object.entries(r.runs ?? {}).filter(
    ([k]) => k === "plugin" || k === "peer" || k === "startup",
  );
  if (runs.length) {
    out.push(
      `## ${firstNumber}. Hostings side by side: the resource plugin, the dynamic providers, the engine's floor, the peer; the TypeScript path's start-up`,
      "",
      markdownTable(
        ["Section", "Date", "Commit", "Load at start / end", "Run"],
        runs.map(([k, i]) => [
          k,
          i.date,
          i.commit,
          `${i.loadAtStart.join(" ")} / ${i.loadAtEnd.join(" ")}`,
          `${fmt(i.durationS / 60, 1)} min`,
        ]),
        ["l", "l", "l", "l", "r"],
      ),
      "",
      "The machine is shared (2 cores; see the load): each figure is the minimum of its repetitions.",
      "",
      markdownTable(["Figure", "Target", "Measured", "Verdict"], hostingsSummaryRows(r), [
        "l",
        "r",
        "l",
        "l",
      ]),
    );
  }
  if (r.plugin)
    out.push(
      "",
      `### ${firstNumber}.1 The resource plugin against the engine's floor`,
      "",
      pluginSection(r.plugin),
    );
  if (r.peer)
    out.push("", `### ${firstNumber}.2 Against the peer (pulumi-netbird v0.5.4)`, "", peerSection(r.peer));
  if (r.startup)
    out.push("", `### ${firstNumber}.3 Start-up of the TypeScript path`, "", startupSection(r.startup));
  out.push("", BLOCK_END);
  return out.join("\n");
}

/**
 * `text` (BENCHMARKS.md) with a block between its markers replaced (by default the plugin/peer block), or, where
 * the file has none yet, inserted before `before` ("## Performance problems found" by default).
 */
export function spliceBlock(
  text: string,
  block: string,
  markers: { start: string; end: string; before: string } = {
    start: BLOCK_START,
    end: BLOCK_END,
    before: "## Performance problems found",
  },
): string {
  const a = text.indexOf(markers.start);
  const b = text.indexOf(markers.end);
  if (a >= 0 && b > a) return `${text.slice(0, a)}${block}${text.slice(b + markers.end.length)}`;
  const at = text.indexOf(markers.before);
  return at >= 0 ? `${text.slice(0, at)}${block}\n\n${text.slice(at)}` : `${text.trimEnd()}\n\n${block}\n`;
}
