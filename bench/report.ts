/** Turns the results of `npm run bench` into Markdown: the printed table and BENCHMARKS.md. */
import {
  OVER_TARGET_REASONS,
  PHASES,
  REFRESH_REASON,
  TARGET,
  UNDER_TARGET_REASONS,
  type ApiCallsResult,
  type Phase,
} from "./api-calls";
import type { FaultsResult } from "./faults";
import { OPS, type HostOverheadResult } from "./host-overhead";
import { importWallMs, type ImportBenchResult } from "./import";
import {
  COMMANDS,
  HOSTED_LIMIT,
  READ_PASSES,
  type CommandFigures,
  type LargeResult,
  type LargeRun,
} from "./large";
import type { Machine } from "./lib/machine";
import type { AccessBenchResult } from "./access";
import type { GuardBenchResult } from "./guard";
import type { NetmapBenchResult } from "./netmap";
import type { PeerSectionResult, PluginSectionResult } from "./peer";
import type { StartupResult } from "./startup";
import { hostingsBlock, hostingsSummaryRows, HOSTINGS_SECTION } from "./report-hostings";
import { fmt, markdownTable, median, verdict } from "./lib/stats";
import type { MemoryResult, ThroughputResult } from "./throughput";
import { MODES, type Up300Result } from "./up300";

export interface BenchResults {
  machine: Machine;
  loadAtEnd: number[];
  durationS: number;
  sections: string[];
  apiCalls?: ApiCallsResult;
  up300?: Up300Result;
  host?: HostOverheadResult;
  throughput?: ThroughputResult;
  faults?: FaultsResult;
  importer?: ImportBenchResult;
  large?: LargeResult;
  netmap?: NetmapBenchResult;
  access?: AccessBenchResult;
  guard?: GuardBenchResult;
  plugin?: PluginSectionResult;
  peer?: PeerSectionResult;
  startup?: StartupResult;
  errors: { section: string; message: string }[];
  /** Which run measured each section (after a merge of partial runs; absent: all in this run). */
  runs?: Record<string, RunInfo>;
}

/** The run that measured a section. */
export interface RunInfo {
  date: string;
  commit: string;
  loadAtStart: number[];
  loadAtEnd: number[];
  durationS: number;
}

/** Where each section's figures live in {@link BenchResults}. */
const SECTION_KEYS = {
  "api-calls": "apiCalls",
  host: "host",
  throughput: "throughput",
  faults: "faults",
  up300: "up300",
  import: "importer",
  plugin: "plugin",
  peer: "peer",
  startup: "startup",
  large: "large",
  netmap: "netmap",
  access: "access",
  guard: "guard",
} as const satisfies Record<string, keyof BenchResults>;

function runInfo(r: BenchResults): RunInfo {
  const m = r.machine;
  return {
    date: m.date,
    commit: m.commit,
    loadAtStart: m.loadAtStart,
    loadAtEnd: r.loadAtEnd,
    durationS: r.durationS,
  };
}

export function runsOf(r: BenchResults): Record<string, RunInfo> {
  return r.runs ?? Object.fromEntries(r.sections.map((x) => [x, runInfo(r)]));
}

/**
 * Earlier results with a newer run's sections laid over them: the newer figures (and errors) for its sections,
 * the earlier ones for the others; each section keeps the date, commit and load of the run that measured it. The
 * machine block is the newer run's.
 */
export function mergeResults(previous: BenchResults, current: BenchResults): BenchResults {
  const out: BenchResults = { ...previous, machine: current.machine, loadAtEnd: current.loadAtEnd };
  const o = out as unknown as Record<string, unknown>;
  const c = current as unknown as Record<string, unknown>;
  for (const section of current.sections) {
    const key = SECTION_KEYS[section as keyof typeof SECTION_KEYS];
    if (key) o[key] = c[key];
  }
  const order = Object.keys(SECTION_KEYS);
  out.sections = [...new Set([...previous.sections, ...current.sections])].sort(
    (a, b) => order.indexOf(a) - order.indexOf(b),
  );
  out.errors = [...previous.errors.filter((e) => !current.sections.includes(e.section)), ...current.errors];
  out.runs = { ...runsOf(previous), ...runsOf(current) };
  out.durationS = current.durationS;
  return out;
}

const PHASE_TITLE: Record<Phase, string> = {
  create: "create (up)",
  update: "update (up)",
  preview: "preview, unchanged",
  read: "read (refresh --skip-preview)",
  refresh: "refresh (plain)",
  delete: "delete (destroy)",
};

const s = (ms: number) => fmt(ms / 1000, 1);

/** Per phase: kinds over target, and whether each has a known design reason. */
function apiCallFindings(r: ApiCallsResult) {
  return PHASES.map((phase) => {
    const over = r.kinds.filter((k) => (k.counts[phase] ?? 0) > TARGET[phase]);
    const unexplained = over.filter(
      (k) => !(phase === "refresh" ? REFRESH_REASON : OVER_TARGET_REASONS[k.kind]?.[phase]),
    );
    const counts = r.kinds.map((k) => k.counts[phase]).filter((c): c is number => c !== null);
    return { phase, over, unexplained, max: Math.max(...counts), total: counts.reduce((a, b) => a + b, 0) };
  });
}

/**
 * Whether the per-repetition wall differences disagree more than they say: signs differ, or their spread is
 * more than twice the median. Then the wall figure measures the machine's other load, not us.
 */
export function noisy(diffs: number[]): boolean {
  if (diffs.length < 2) return false;
  const med = median(diffs);
  const spread = Math.max(...diffs) - Math.min(...diffs);
  return diffs.some((d) => Math.sign(d) !== Math.sign(med)) || spread > 2 * Math.abs(med);
}

/** Median over repetitions of (a - b) / count (recomputed from the raw runs, so a re-render uses this rule). */
function cost(a: number[], b: number[], count: number): number {
  return median(a.map((x, i) => (x - (b[i] as number)) / count));
}

/** A mode's costs per resource, from its raw runs. */
function costs(u: Up300Result, mode: (typeof MODES)[number]) {
  const m = u.modes[mode];
  return {
    up: cost(m.upMs.privnet, m.upMs.noop, u.count),
    upCpu: cost(m.upCpuMs.privnet, m.upCpuMs.noop, u.count),
    destroy: cost(m.destroyMs.privnet, m.destroyMs.noop, u.count),
    destroyCpu: cost(m.destroyCpuMs.privnet, m.destroyCpuMs.noop, u.count),
    typedOutputs: m.upMs.noopWide.length ? cost(m.upMs.noopWide, m.upMs.noop, u.count) : undefined,
    typedOutputsCpu: m.upCpuMs.noopWide.length
      ? cost(m.upCpuMs.noopWide, m.upCpuMs.noop, u.count)
      : undefined,
  };
}

function summaryRows(r: BenchResults): string[][] {
  const rows: string[][] = [];
  if (r.apiCalls) {
    for (const f of apiCallFindings(r.apiCalls)) {
      const kinds = r.apiCalls.kinds.filter((k) => k.counts[f.phase] !== null).length;
      const overText =
        f.over.length === 0
          ? ""
          : f.over.length === kinds
            ? `; every kind ${[...new Set(f.over.map((k) => k.counts[f.phase]))].join(" or ")}`
            : `; ${f.over.length} above: ${f.over.map((k) => `${k.kind} ${k.counts[f.phase]}`).join(", ")}`;
      rows.push([
        `API calls per resource: ${PHASE_TITLE[f.phase]}`,
        f.phase === "refresh" || f.phase === "read" ? `<= ${TARGET[f.phase]}` : String(TARGET[f.phase]),
        `max ${f.max} over ${kinds} kinds${overText}`,
        f.over.length === 0 ? "ok" : f.unexplained.length === 0 ? "above, by design (see notes)" : "MISSED",
      ]);
    }
  }
  if (r.up300) {
    const u = r.up300;
    for (const mode of MODES) {
      const m = u.modes[mode];
      const c = costs(u, mode);
      const diffs = m.upMs.privnet.map((x, i) => (x - (m.upMs.noop[i] as number)) / u.count);
      rows.push([
        `pulumi up ${u.count}: our cost per resource, ${mode === "default" ? "default engine" : "PULUMI_SKIP_CHECKPOINTS"}`,
        `<= ${u.targetMs} ms`,
        `${fmt(c.up)} ms wall (runs: ${diffs.map((d) => fmt(d)).join(", ")}), ${fmt(c.upCpu)} ms CPU`,
        noisy(diffs)
          ? `wall inconclusive (run-to-run noise larger than the difference); CPU ${verdict(c.upCpu <= u.targetMs)}`
          : verdict(c.up <= u.targetMs),
      ]);
    }
    rows.push([
      `the same ${u.count} requests sent directly (floor)`,
      "",
      `${fmt(median(u.modes.default.upMs.direct), 0)} ms (${fmt(median(u.modes.default.upMs.direct) / u.count, 2)} ms each)`,
      "",
    ]);
  }
  if (r.host) {
    for (const op of ["create", "read"] as const) {
      const h = r.host.latency.host[op];
      const d = r.host.latency.direct[op];
      if (h && d)
        rows.push([
          `provider overhead per ${op}, through the host (median / p99)`,
          "",
          `${fmt(h.median - d.median, 2)} ms / ${fmt(h.p99 - d.p99, 1)} ms over the direct call`,
          "",
        ]);
    }
  }
  if (r.throughput) {
    const t = r.throughput;
    rows.push([
      "server: GET by id",
      `>= ${t.targets.getByIdRps} req/s`,
      `${fmt(t.getById.rps, 0)} req/s`,
      verdict(t.getById.rps >= t.targets.getByIdRps),
    ]);
    rows.push([
      "server: create",
      `>= ${t.targets.createRps} req/s`,
      `${fmt(t.create.rps, 0)} req/s`,
      verdict(t.create.rps >= t.targets.createRps),
    ]);
    if (t.durability) {
      const d = durabilityFigures(t);
      rows.push([
        "server: create, synchronous FULL (shipped) / NORMAL",
        `>= ${t.targets.createRps} req/s`,
        `${fmt(d.full, 0)} / ${fmt(d.normal, 0)} req/s (FULL costs ${fmt(d.costPct, 0)}%)`,
        verdict(d.full >= t.targets.createRps),
      ]);
    }
    rows.push([
      "server: list of 1,000 groups, p50",
      `<= ${t.targets.listP50Ms} ms`,
      `${fmt(t.list1000.sequential.p50Ms, 2)} ms`,
      verdict(t.list1000.sequential.p50Ms <= t.targets.listP50Ms),
    ]);
    const rss = Math.max(t.memory.rssIdleMb, t.memory.rssAfterListsMb, t.memory.peakMb);
    rows.push([
      `server: resident memory, ${t.memory.objects.toLocaleString("en")} objects (peak)`,
      `<= ${t.targets.rssMb} MB`,
      `${fmt(rss, 0)} MB`,
      verdict(rss <= t.targets.rssMb),
    ]);
    if (t.memoryWithFix) {
      const f = t.memoryWithFix;
      const frss = Math.max(f.rssIdleMb, f.rssAfterListsMb, f.peakMb);
      rows.push([
        `... with \`node ${f.nodeArgs.join(" ")}\` (proposed fix)`,
        `<= ${t.targets.rssMb} MB`,
        `${fmt(frss, 0)} MB`,
        verdict(frss <= t.targets.rssMb),
      ]);
    }
  }
  if (r.faults) {
    const f = r.faults;
    const v = f.verify;
    rows.push([
      `faults (${f.spec}): ${f.resources} resources converge`,
      `<= ${f.maxRuns} runs`,
      f.converged
        ? `${f.runs.length} runs, ${f.r429} x 429 + ${f.r503} x 503 injected`
        : `not after ${f.runs.length} runs`,
      verdict(f.converged),
    ]);
    rows.push([
      "faults: state equals server, duplicates, orphans",
      "equal, 0, 0",
      `${v.stateResources} in state / ${v.serverObjects} on server, missing ${v.missingOnServer.length}, ` +
        `${v.duplicates.length}, ${v.orphans.length}; refresh: ${v.refreshNoChanges ? "no changes" : "changes"}`,
      verdict(f.ok),
    ]);
  }
  if (r.large) rows.push(...largeSummaryRows(r.large));
  if (r.netmap) rows.push(...netmapSummaryRows(r.netmap));
  if (r.access) rows.push(...accessSummaryRows(r.access));
  if (r.guard) rows.push(guardSummaryRow(r.guard));
  rows.push(...hostingsSummaryRows(r));
  if (r.importer) {
    const i = r.importer;
    const wall = importWallMs(i);
    rows.push([
      `privnet-import of an account of ${i.objects.toLocaleString("en")} objects (wall, median)`,
      `< ${fmt(i.targetMs / 1000, 0)} s`,
      `${s(wall)} s (runs: ${i.runs.map((x) => s(x.wallMs)).join(", ")}), ${s(median(i.runs.map((x) => x.cpuMs)))} s CPU`,
      verdict(wall < i.targetMs && i.runs.every((x) => x.resources === i.objects)),
    ]);
  }
  return rows;
}

const count = (n: number) => n.toLocaleString("en");

function netmapShape(n: NetmapBenchResult, peers: number): string {
  return `${count(peers)} peers, ${n.shape.groups} groups, ${n.shape.policies} policies, ${n.shape.resources} resources`;
}

function netmapSummaryRows(n: NetmapBenchResult): string[][] {
  const at = n.sizes.find((x) => x.peers === n.targetPeers);
  if (!at) return [];
  return [
    [
      `network map: every peer's map, ${netmapShape(n, at.peers)}`,
      `<= ${fmt(n.allTargetMs / 1000, 0)} s`,
      `${fmt(at.allMs, 0)} ms wall, ${fmt(at.allCpuMs, 0)} ms CPU (${count(at.entries)} peer entries)`,
      verdict(at.allMs <= n.allTargetMs),
    ],
    [
      "network map: one peer's map, from the snapshot (index included)",
      `<= ${fmt(n.oneTargetMs, 0)} ms`,
      `${fmt(at.oneFromScratchMs, 1)} ms (${fmt(at.oneMs, 2)} ms with the index built)`,
      verdict(at.oneFromScratchMs <= n.oneTargetMs),
    ],
  ];
}

function netmapSection(n: NetmapBenchResult): string {
  const first = n.sizes[0];
  return [
    markdownTable(
      [
        "Peers",
        "Peer entries (all maps)",
        "Constructor ms",
        "Every map ms (wall / CPU)",
        "Per peer ms",
        "Per entry µs",
        "One map ms (from scratch / indexed)",
        "Growth of every map",
      ],
      n.sizes.map((x) => [
        count(x.peers),
        count(x.entries),
        fmt(x.indexMs, 1),
        `${fmt(x.allMs, 0)} / ${fmt(x.allCpuMs, 0)}`,
        fmt(x.allMs / x.peers, 3),
        fmt((x.allMs * 1000) / Math.max(1, x.entries), 2),
        `${fmt(x.oneFromScratchMs, 1)} / ${fmt(x.oneMs, 2)}`,
        first ? `${fmt(x.allMs / first.allMs, 0)}x for ${fmt(x.peers / first.peers, 0)}x the peers` : "",
      ]),
      ["r", "r", "r", "r", "r", "r", "r", "l"],
    ),
    "",
    `In process (bench/netmap.ts), pure computation: generated accounts (tests/support/netmap-account.ts, ` +
      `randomSnapshot) with ${n.shape.groups} groups, ${n.shape.policies} policies and ${n.shape.resources} network ` +
      'resources, each peer in two groups, so a group holds more peers as the account grows. "Every map": each ' +
      "peer's full map (peers with their grants and allowed traffic, resources, routes, DNS) made one after the " +
      'other; "one map": the median over sampled peers, from the snapshot (what a request to ' +
      "`/internal/network-map/{peerId}` computes, besides reading the store) and with the index built. The " +
      "constructor only indexes objects by id; rule member sets are made when a map first needs them, and the " +
      'index of every peer\'s rules when a second peer is asked (so "every map" includes it). The work ' +
      "follows the output: the peer entries grow with the square of the peers here (every group grows with the " +
      "account), and the time with them, not faster (see the time per entry; the smallest account pays more per " +
      "entry for the fixed work of 300 policies). Medians of 3 repetitions (1 for 5,000 peers).",
    ...(n.server
      ? [
          "",
          `Through privnet-server (in process, \`:memory:\` database, loopback HTTP), the ${count(n.server.peers)}-peer ` +
            `account stored as documents, medians of ${n.server.requests} sequential requests after a warm-up: ` +
            `\`GET /internal/network-map/{peerId}\` ${fmt(n.server.getMapMs, 1)} ms, ` +
            `\`GET /api/peers/{peerId}/accessible-peers\` ${fmt(n.server.accessibleMs, 1)} ms (each reads the store, ` +
            `builds the map and answers), \`GET /api/peers\` ${fmt(n.server.listPeersMs, 0)} ms (it counts every ` +
            "peer's accessible peers).",
        ]
      : []),
  ].join("\n");
}

function accessSummaryRows(a: AccessBenchResult): string[][] {
  return [
    [
      `privnet-access show of an account of ${count(a.objects)} objects (wall, median)`,
      `<= ${fmt(a.show.targetMs / 1000, 0)} s`,
      `${fmt(a.show.medianMs / 1000, 2)} s (runs: ${a.show.runsMs.map((x) => fmt(x / 1000, 2)).join(", ")} s; ${count(a.show.lines)} lines)`,
      verdict(a.show.medianMs <= a.show.targetMs),
    ],
    [
      `privnet-access diff of a change to it, without the program's own run`,
      `<= ${fmt(a.diff.targetMs / 1000, 0)} s`,
      `${fmt(a.diff.withoutProgramMs / 1000, 1)} s (${fmt(a.diff.totalMs / 1000, 1)} s in all, the program's pulumi up ${fmt(a.diff.programMs / 1000, 1)} s)`,
      verdict(a.diff.withoutProgramMs <= a.diff.targetMs),
    ],
  ];
}

function guardSummaryRow(g: GuardBenchResult): string[] {
  return [
    `The access guard (policy pack) added to a preview of a change to an account of ${count(g.objects)} objects`,
    `<= ${fmt(g.targetMs / 1000, 0)} s`,
    `${fmt(g.addedMs / 1000, 2)} s (preview ${fmt(g.medianWithoutMs / 1000, 1)} s -> ${fmt(g.medianWithMs / 1000, 1)} s, medians)`,
    verdict(g.addedMs <= g.targetMs),
  ];
}

export const GUARD_BLOCK_START = "<!-- bench:guard:start -->";
export const GUARD_BLOCK_END = "<!-- bench:guard:end -->";

/**
 * The access guard's figures between their markers: a run of the guard section alone (`npm run bench -- guard`)
 * replaces this block in BENCHMARKS.md and leaves the rest as it was, as the plugin/peer block is.
 */
export function guardBlock(g: GuardBenchResult, run: RunInfo | undefined): string {
  const when = run
    ? `Run ${run.date}, commit ${run.commit}, load ${run.loadAtStart.join(" ")} at start, ${run.loadAtEnd.join(" ")} at end.`
    : "";
  return [
    GUARD_BLOCK_START,
    "",
    "### The access guard in a preview",
    "",
    ...(when ? [when, ""] : []),
    guardSummaryTable(g),
    "",
    guardSection(g),
    "",
    GUARD_BLOCK_END,
  ].join("\n");
}

function guardSummaryTable(g: GuardBenchResult): string {
  return markdownTable(
    ["Figure", "Target", "Measured", "Verdict"],
    [guardSummaryRow(g)],
    ["l", "r", "l", "l"],
  );
}

function guardSection(g: GuardBenchResult): string {
  const phases = Object.entries(g.phases)
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${k === "lines" ? v : `${fmt(v / 1000, 2)} s`}`)
    .join(", ");
  return [
    markdownTable(
      ["Preview of the change", "Runs", "Median"],
      [
        [
          "without the pack",
          g.withoutMs.map((x) => fmt(x / 1000, 1)).join(", ") + " s",
          `${fmt(g.medianWithoutMs / 1000, 2)} s`,
        ],
        [
          "with the pack",
          g.withMs.map((x) => fmt(x / 1000, 1)).join(", ") + " s",
          `${fmt(g.medianWithMs / 1000, 2)} s`,
        ],
        ["added", "", `${fmt(g.addedMs / 1000, 2)} s (target <= ${fmt(g.targetMs / 1000, 0)} s)`],
      ],
      ["l", "l", "r"],
    ),
    "",
    `bench/guard.ts: the same account, served the same way; tests/e2e/programs/access-diff applied, then its ` +
      `policy's sources widened (${g.lines} lines gained or lost). \`pulumi preview\` of that change without and with ` +
      "`--policy-pack node_modules/pulumi-privnet/policy` (its three policies, two access tests), interleaved in " +
      `alternating order after one unmeasured run of each. The pack's last run: ${phases} (reads waited for: the ` +
      "account and the stack's state, started while the engine runs the program; pack loaded at: its process's age " +
      "when its code ran).",
  ].join("\n");
}

function accessSection(a: AccessBenchResult): string {
  const phases = Object.entries(a.diff.phases)
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${fmt(v / 1000, 2)} s`)
    .join(", ");
  return [
    markdownTable(
      ["Verb", "Wall", "Target", "Notes"],
      [
        [
          "show --json",
          `${fmt(a.show.medianMs / 1000, 2)} s`,
          `<= ${fmt(a.show.targetMs / 1000, 0)} s`,
          `median of ${a.show.runsMs.length}; ${count(a.show.lines)} access lines`,
        ],
        [
          "diff --json (without the program's run)",
          `${fmt(a.diff.withoutProgramMs / 1000, 1)} s`,
          `<= ${fmt(a.diff.targetMs / 1000, 0)} s`,
          `+${a.diff.gained} / -${a.diff.lost} lines; phases: ${phases}`,
        ],
      ],
      ["l", "r", "r", "l"],
    ),
    "",
    `bench/access.ts: a generated account of ${count(a.objects)} objects (${a.shape.peers} peers, ${a.shape.groups} ` +
      `groups, ${a.shape.policies} policies, ${a.shape.resources} network resources; tests/support/netmap-account.ts) ` +
      "served by a privnet-server seeded with it (server/seed.ts). show reads it over HTTP with one list per kind, " +
      "computes the map and prints every peer's lines. diff widens a policy's sources in " +
      "tests/e2e/programs/access-diff under the real CLI: it reads the stack and the account, seeds the twin, copies " +
      "the stack, runs the program against the twin and computes both maps; the program's own `pulumi up` is " +
      "reported apart, as the target leaves it out.",
  ].join("\n");
}

function largeRun(l: LargeResult, rateLimit: string, batchReads: boolean): LargeRun | undefined {
  return l.runs.find((x) => x.rateLimit === rateLimit && x.batchReads === batchReads);
}

function commandOf(
  run: LargeRun | undefined,
  command: CommandFigures["command"],
): CommandFigures | undefined {
  return run?.commands.find((c) => c.command === command);
}

/** `6 (6 lists)`, `1,000 (1,000 writes)`, `2,001 (2,000 by id, 1 list)`. */
function requestsText(c: CommandFigures): string {
  const parts = [
    c.lists ? `${count(c.lists)} list${c.lists === 1 ? "" : "s"}` : "",
    c.byId ? `${count(c.byId)} by id` : "",
    c.writes ? `${count(c.writes)} write${c.writes === 1 ? "" : "s"}` : "",
  ].filter(Boolean);
  return parts.length ? `${count(c.requests)} (${parts.join(", ")})` : count(c.requests);
}

const ratio = (a: number, b: number) => `${fmt(a / b, 2)}x`;

function largeSummaryRows(l: LargeResult): string[][] {
  const rows: string[][] = [];
  const n = count(l.count);
  const kinds = Object.keys(l.kinds).length;
  const limited = largeRun(l, HOSTED_LIMIT, true);
  const free = largeRun(l, "off", true);
  const refresh = commandOf(limited, "refresh");
  const freeRefresh = commandOf(free, "refresh");
  if (refresh) {
    const listBound = 2 * kinds * READ_PASSES.refresh;
    rows.push([
      `${n} resources: refresh under ${HOSTED_LIMIT}, API requests (batched reads)`,
      "<= 20",
      `${requestsText(refresh)}; lists per kind per read pass: ${fmt(refresh.lists / kinds / READ_PASSES.refresh, 1)}`,
      verdict(refresh.exitCode === 0 && refresh.requests <= 20 && refresh.lists <= listBound),
    ]);
  }
  if (refresh && freeRefresh) {
    rows.push([
      `${n} resources: refresh under ${HOSTED_LIMIT}, wall against no limit`,
      "<= 2x",
      `${s(refresh.wallMs)} s against ${s(freeRefresh.wallMs)} s (${ratio(refresh.wallMs, freeRefresh.wallMs)})`,
      verdict(refresh.wallMs <= 2 * freeRefresh.wallMs),
    ]);
  }
  const up = commandOf(limited, "up");
  const freeUp = commandOf(free, "up");
  if (up) {
    const failed = l.count - (up.inState ?? 0);
    rows.push([
      `${n} resources: up under ${HOSTED_LIMIT}: failed resources, API requests`,
      `0, ${n}`,
      `${failed}, ${count(up.requests)} (${up.limited} x 429)`,
      verdict(up.exitCode === 0 && failed === 0 && up.requests === l.count),
    ]);
  }
  if (up && freeUp) {
    rows.push([
      `${n} resources: up under ${HOSTED_LIMIT}, wall against no limit`,
      "<= 1.5x",
      `${s(up.wallMs)} s against ${s(freeUp.wallMs)} s (${ratio(up.wallMs, freeUp.wallMs)})`,
      verdict(up.wallMs <= 1.5 * freeUp.wallMs),
    ]);
  }
  for (const run of [limited, largeRun(l, HOSTED_LIMIT, false)]) {
    const destroy = commandOf(run, "destroy");
    if (!run || !destroy) continue;
    rows.push([
      `${n} resources: destroy under ${HOSTED_LIMIT} after the other commands (${run.batchReads ? "batched reads" : "reads by id"}): resources left, failures`,
      "0, none",
      `${destroy.inState ?? "n/a"}, exit ${destroy.exitCode} (${destroy.limited} x 429 retried, ${s(destroy.wallMs)} s)`,
      verdict(destroy.exitCode === 0 && destroy.inState === 0),
    ]);
  }
  return rows;
}

function largeSection(l: LargeResult): string {
  const kinds = Object.entries(l.kinds)
    .map(([k, v]) => `${count(v)} ${k}`)
    .join(", ");
  const cells = (c: CommandFigures | undefined, withLimit: boolean) =>
    c
      ? [
          `${s(c.wallMs)}${c.exitCode === 0 ? "" : ` (exit ${c.exitCode})`}`,
          requestsText(c),
          ...(withLimit ? [String(c.limited), String(c.notes)] : []),
        ]
      : withLimit
        ? ["n/a", "n/a", "n/a", "n/a"]
        : ["n/a", "n/a"];
  const table = (rateLimit: string) => {
    const withLimit = rateLimit !== "off";
    const on = largeRun(l, rateLimit, true);
    const off = largeRun(l, rateLimit, false);
    const head = (mode: string) =>
      withLimit
        ? [`${mode}: wall s`, "API requests", "429s", "pacing notes"]
        : [`${mode}: wall s`, "API requests"];
    return markdownTable(
      ["Command", ...head("batched reads"), ...head("reads by id (batchReads false)")],
      COMMANDS.map((command) => [
        command,
        ...cells(commandOf(on, command), withLimit),
        ...cells(commandOf(off, command), withLimit),
      ]),
    );
  };
  const out = [
    `bench/programs/many.js: ${count(l.count)} resources (${kinds}; kinds whose create is one request), the commands ` +
      "in this order as a user runs them (plain `pulumi up --yes`, `preview --expect-no-changes`, `refresh --yes` " +
      "with its preview pass, `preview --refresh --expect-no-changes`, `destroy --yes`), one privnet-server per " +
      "sequence (separate process, request log), the CLI's default `--parallel`. API requests: answered by the " +
      "server (lists, reads by id, writes), from its request log; 429s: requests it refused (each retried by the " +
      "client); pacing notes: the provider's notes in the CLI's output that it is waiting for the rate limit.",
    "",
    `Under the hosted limit, \`privnet-server --rate-limit ${HOSTED_LIMIT}\` (the provider's bucket is the same by default):`,
    "",
    table(HOSTED_LIMIT),
    "",
    "No limit anywhere (server without `--rate-limit`, `privnet:rateLimit off`), the reference for the wall-time targets:",
    "",
    table("off"),
    "",
  ];
  const notes: string[] = [];
  for (const run of l.runs) {
    const up = commandOf(run, "up");
    const bad = run.commands.filter((c) => c.exitCode !== 0).map((c) => `${c.command} exited ${c.exitCode}`);
    const label = `${run.rateLimit === "off" ? "no limit" : run.rateLimit}, ${run.batchReads ? "batched reads" : "reads by id"}`;
    notes.push(
      `${label}: after up ${up?.inState ?? "n/a"} of ${count(l.count)} resources in the state (failed: ` +
        `${up ? l.count - (up.inState ?? 0) : "n/a"}); ` +
        `${bad.length ? bad.join(", ") : "every command exited 0, so both previews found no changes"}; load ` +
        `${run.commands.map((c) => fmt(c.load1, 1)).join(", ")} at the commands' starts.`,
    );
  }
  out.push(...notes.map((x) => `- ${x}`));
  out.push(
    "- A plain `pulumi refresh` reads twice (its preview pass, then the refresh, each in its own provider process): " +
      "batched, each pass makes one list per kind; by id, each pass makes one GET per resource. `preview --refresh` " +
      "reads once. Once the burst is spent, the server answers 2 requests per second: the unbatched sequence waits " +
      "for most of its reads, and its commands after `up` start with the burst `up` left.",
    "- The 429s: each command's provider starts with a full client-side bucket while the server's bucket for the " +
      "token may be empty (the command before spent it); the first 429 empties the client's bucket, and from then " +
      "on it paces itself at the server's refill rate, so the 429s stay few and every request is retried until it " +
      "succeeds.",
  );
  return out.join("\n");
}

/** What the large section found that users should know, in figures. */
function largeProblems(l: LargeResult): string[] {
  const items: string[] = [];
  const byId = largeRun(l, HOSTED_LIMIT, false);
  const batched = largeRun(l, HOSTED_LIMIT, true);
  const r0 = commandOf(byId, "refresh");
  const r1 = commandOf(batched, "refresh");
  if (r0 && r1) {
    items.push(
      `**Under the hosted limit, reads by id make a refresh of ${count(l.count)} resources wait for tokens:** ` +
        `${count(r0.requests)} requests, ${s(r0.wallMs)} s (${r0.limited} x 429 retried) with ` +
        `\`privnet:batchReads false\`, against ${count(r1.requests)} requests and ${s(r1.wallMs)} s batched. Batched ` +
        "reads are the default; turning them off is for servers whose lists differ from their GETs.",
    );
  }
  for (const run of [batched, byId]) {
    const d = commandOf(run, "destroy");
    const up = commandOf(run, "up");
    if (!run || !d || !up || d.wallMs <= 1.5 * up.wallMs) continue;
    items.push(
      `**\`destroy\` right after the other commands waits for the limit** (${run.batchReads ? "batched reads" : "reads by id"}): ` +
        `${count(d.writes)} deletes in ${s(d.wallMs)} s against ${s(up.wallMs)} s for the ${count(up.writes)} creates ` +
        "of `up`, which had the whole burst: the account's tokens, not the provider, set the pace (2 per second once " +
        `the burst is spent); ${d.limited} x 429 on the way, all retried, ${d.notes} pacing notes shown.`,
    );
  }
  return items;
}

function importSection(i: ImportBenchResult): string {
  const rows = i.runs.map((x, n) => [
    String(n + 1),
    s(x.wallMs),
    s(x.cpuMs),
    s(x.reportedMs),
    String(x.requests),
    String(x.resources),
    String(x.lookups),
    `${x.programLines} lines, ${fmt(x.programKiB, 0)} KiB`,
    String(x.toReview),
  ]);
  const composition = Object.entries(i.composition)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  return [
    markdownTable(
      [
        "Run",
        "wall s",
        "CPU s",
        "reported s",
        "API requests",
        "resources",
        "lookups",
        "index.ts",
        "to review",
      ],
      rows,
      ["l", "r", "r", "r", "r", "r", "r", "r", "r"],
    ),
    "",
    `\`node bin/privnet-import --api-url URL --token-file FILE --out DIR\` (every kind, the defaults), a new DIR per ` +
      `run, against privnet-server in its own process (\`--cloud --embedded-idp\`, temp SQLite file, no request log). ` +
      `The account (${i.objects.toLocaleString("en")} objects, made through the API in ${s(i.seedMs)} s, not ` +
      `measured): ${composition}; policies refer to groups, posture checks and network resources, everything else ` +
      `to groups. Wall and CPU: the whole process (Node's start, reading, planning, prettier, writing); reported: the ` +
      `command's own figure (from argument parsing to the summary). "to review": objects whose generated inputs ` +
      `would not adopt cleanly (0 expected). The client's rate limit (120/min, burst 1200) is not reached: the ` +
      `requests are one list per kind and one per parent.`,
  ].join("\n");
}

function apiCallsSection(r: ApiCallsResult): string {
  const notes = (k: ApiCallsResult["kinds"][number]): string => {
    const out: string[] = [];
    for (const ph of PHASES) {
      const c = k.counts[ph];
      if (ph === "refresh") continue; // one note for all kinds, below the table
      if (c === null) continue;
      if (c > TARGET[ph]) {
        out.push(
          `${ph}: ${OVER_TARGET_REASONS[k.kind]?.[ph] ?? `UNEXPECTED (${k.requests[ph].join(", ")})`}`,
        );
      } else if (c < TARGET[ph] && ph !== "preview") {
        out.push(
          `${ph}: ${UNDER_TARGET_REASONS[k.kind]?.[ph] ?? `${c} (${k.requests[ph].join(", ") || "no request"})`}`,
        );
      }
    }
    if (k.counts.update === null) out.push("update: n/a, replace-only kind (any change replaces it)");
    return out.join("; ");
  };
  const rows = r.kinds.map((k) => [
    k.kind,
    ...PHASES.map((ph) => {
      const c = k.counts[ph];
      if (c === null) return "n/a";
      return c > TARGET[ph] ? `**${c}**` : String(c);
    }),
    notes(k),
  ]);
  const totals = PHASES.map((ph) => String(r.kinds.reduce((a, k) => a + (k.counts[ph] ?? 0), 0)));
  rows.push(["**all kinds**", ...totals, ""]);
  const lines = [
    markdownTable(["Kind", ...PHASES.map((p) => PHASE_TITLE[p]), "Notes"], rows, [
      "l",
      ...PHASES.map(() => "r" as const),
      "l",
    ]),
    "",
    `Targets per resource: create 1, update 1, preview of an unchanged resource 0, refresh <= 1, delete 1. ` +
      `**Bold**: above target.`,
    "",
    `- refresh (plain): ${REFRESH_REASON}.`,
    `- \`pulumi preview --expect-no-changes\` after the update: ${r.noChangesAfterUpdate ? "no changes" : "CHANGES (phantom diff)"}; ` +
      `after the refreshes: ${r.noChangesAfterRefresh ? "no changes" : "CHANGES (phantom diff)"}.`,
    `- Requests no kind explains: ${r.unattributed.length === 0 ? "none" : r.unattributed.join(", ")}.`,
    `- Wall time of the commands (26 resources): ${Object.entries(r.durationsMs)
      .map(([k, v]) => `${k} ${s(v)} s`)
      .join(", ")}.`,
  ];
  return lines.join("\n");
}

function up300Section(u: Up300Result): string {
  const rows: string[][] = [];
  for (const mode of MODES) {
    const m = u.modes[mode];
    const label = mode === "default" ? "default engine" : "PULUMI_SKIP_CHECKPOINTS=true";
    const row = (name: string, key: "privnet" | "noop" | "noopWide") => [
      `${name}, ${label}`,
      m.upMs[key].length ? `${m.upMs[key].map(s).join(" / ")} s` : "",
      m.upCpuMs[key].length ? `${m.upCpuMs[key].map(s).join(" / ")} s` : "",
      m.destroyMs[key].length ? `${m.destroyMs[key].map(s).join(" / ")} s` : "n/a",
      m.destroyCpuMs[key].length ? `${m.destroyCpuMs[key].map(s).join(" / ")} s` : "n/a",
    ];
    rows.push(row("pulumi-privnet", "privnet"));
    rows.push(row("do-nothing provider", "noop"));
    if (m.upMs.noopWide.length) rows.push(row("do-nothing + typed outputs", "noopWide"));
    if (m.upMs.direct.length) {
      rows.push([
        `direct, ${u.count} requests (floor)`,
        `${m.upMs.direct.map((x) => fmt(x / 1000, 2)).join(" / ")} s`,
        `${m.upCpuMs.direct.map(s).join(" / ")} s`,
        `${m.destroyMs.direct.map((x) => fmt(x / 1000, 2)).join(" / ")} s`,
        `${m.destroyCpuMs.direct.map(s).join(" / ")} s`,
      ]);
    }
    const c = costs(u, mode);
    rows.push([
      `**cost per resource, ${label}**`,
      `**${fmt(c.up)} ms**`,
      `**${fmt(c.upCpu)} ms**`,
      m.destroyMs.privnet.length ? `**${fmt(c.destroy)} ms**` : "n/a",
      m.destroyCpuMs.privnet.length ? `**${fmt(c.destroyCpu)} ms**` : "n/a",
    ]);
  }
  const lines = [
    markdownTable(["Run (each repetition)", "up wall", "up CPU", "destroy wall", "destroy CPU"], rows),
    "",
    `${u.count} resources (programs/graph.js: ${Math.floor(u.count / 2)} groups, ${Math.floor(u.count / 4)} policies ` +
      `between them, ${u.count - Math.floor(u.count / 2) - Math.floor(u.count / 4)} setup keys), \`--parallel ${u.parallel}\` ` +
      `(the CLI's default here, 4 x cores) for both programs and the floor; ${u.repetitions} repetitions per engine ` +
      `setting, order alternating; cost = median over repetitions of (privnet - do-nothing) / ${u.count}. CPU = the ` +
      `pulumi process tree (CLI, language host, program, dynamic-provider host) + privnet-server. ` +
      `The privnet \`up\` made ${u.upRequests} API requests (one per create, and a read of each of the ` +
      `${Math.floor(u.count / 4)} policies after its write) and \`destroy\` ${u.destroyRequests}; the server spent ` +
      `${fmt(u.serverMsPerRequest, 2)} ms per request (its request log). Load average at each run: ` +
      `${MODES.map((m) => u.modes[m].loads.map((l) => fmt(l)).join(", ")).join(", ")}.`,
  ];
  const k = costs(u, "skipCheckpoints");
  if (k.typedOutputs !== undefined) {
    lines.push(
      "",
      `"do-nothing + typed outputs" registers, for each resource, the output properties pulumi-privnet's class ` +
        `registers (sdk/resources OUTPUTS: Group 6, Policy 5, SetupKey 15), with the do-nothing provider: that ` +
        `alone costs ${fmt(k.typedOutputs)} ms wall / ${fmt(k.typedOutputsCpu)} ms CPU per resource (median ` +
        `against do-nothing): the SDK makes promises per property and captures a stack trace for each.`,
    );
  }
  if (u.profile) {
    const p = u.profile;
    lines.push(
      "",
      `Where the time goes (one profiled \`up\` of each program, PULUMI_SKIP_CHECKPOINTS=true; busy CPU from ` +
        `\`--cpu-prof\` per Node process, \`pulumi up --profiling\` for the CLI, /proc for the server):`,
      "",
      markdownTable(
        ["Process", "pulumi-privnet", "do-nothing", "difference per resource"],
        p.roles.map((r) => [
          r.role,
          `${fmt(r.privnetMs, 0)} ms`,
          `${fmt(r.noopMs, 0)} ms`,
          `${fmt((r.privnetMs - r.noopMs) / u.count, 2)} ms`,
        ]),
      ),
    );
    if (p.hostTop.length) {
      lines.push(
        "",
        `Top self-time frames of the pulumi-privnet dynamic-provider host: ${p.hostTop
          .map((f) => `\`${f.name}\` ${fmt(f.selfMs, 0)} ms`)
          .join(
            ", ",
          )}. By package: ${p.hostByPackage.map((f) => `${f.name} ${fmt(f.selfMs, 0)} ms`).join(", ")}.`,
      );
    }
    if (p.programTop.length) {
      lines.push(
        "",
        `Top self-time frames of the program (the SDK's resource registration): ${p.programTop
          .map((f) => `\`${f.name}\` ${fmt(f.selfMs, 0)} ms`)
          .join(", ")}.`,
      );
    }
  }
  return lines.join("\n");
}

function hostSection(h: HostOverheadResult): string {
  const cell = (v?: { median: number; p99: number }) => (v ? `${fmt(v.median, 2)} / ${fmt(v.p99, 1)}` : "");
  const rows = OPS.map((op) => {
    const L = h.latency;
    const d = L.direct[op]?.median ?? 0;
    const host = L.host[op]?.median;
    const noop = L.hostNoop[op]?.median;
    return [
      op,
      cell(L.direct[op]) || "(no API call)",
      cell(L.provider[op]),
      cell(L.host[op]),
      cell(L.hostNoop[op]),
      host !== undefined ? fmt(host - d, 2) : "",
      host !== undefined && noop !== undefined ? fmt(host - noop - d, 2) : "",
    ];
  });
  return [
    markdownTable(
      [
        "Operation",
        "direct client",
        "provider, in process",
        "through the host",
        "host, do-nothing provider",
        "overhead: host - direct",
        "our part: host - do-nothing - direct",
      ],
      rows,
    ),
    "",
    `Median / p99 of one call in ms, ${h.n} sequential calls per cell after warm-up, kind ${h.kind}; the four ` +
      `paths take turns call by call. Host start ${fmt(h.hostStartMs, 0)} ms; first call on the provider text ` +
      `(loads the package) ${fmt(h.firstCallMs, 0)} ms; \`require("pulumi-privnet")\` in a new process (every ` +
      `program pays it once) ${fmt(h.packageLoadMs, 0)} ms.`,
  ].join("\n");
}

function memoryText(m: MemoryResult, label: string): string {
  const h = m.heap;
  const heap = h
    ? ` V8 heap: ${fmt(h.heapUsedMb, 0)} MB used of ${fmt(h.heapTotalMb, 0)} MB; young generation (new_space) ` +
      `${fmt(h.spaces.new_space?.sizeMb, 0)} MB, old_space ${fmt(h.spaces.old_space?.sizeMb, 0)} MB ` +
      `(${fmt(h.spaces.old_space?.usedMb, 0)} MB used).`
    : "";
  return (
    `Memory with ${m.objects.toLocaleString("en")} objects, ${label} (5,000 groups, 2,500 policies, 2,500 ` +
    `setup keys, made at ${fmt(m.createRps, 0)} creates/s): RSS ${fmt(m.rssIdleMb, 0)} MB idle, ` +
    `${fmt(m.rssAfterListsMb, 0)} MB after listing them all, peak ${fmt(m.peakMb, 0)} MB.${heap}`
  );
}

/** Median create rates with SQLite synchronous FULL and NORMAL, and what FULL costs in per cent. */
function durabilityFigures(t: ThroughputResult) {
  const full = median(t.durability.full.map((x) => x.rps));
  const normal = median(t.durability.normal.map((x) => x.rps));
  const p50 = (xs: ThroughputResult["create"][]) => median(xs.map((x) => x.p50Ms));
  return {
    full,
    normal,
    costPct: ((normal - full) / normal) * 100,
    p50Full: p50(t.durability.full),
    p50Normal: p50(t.durability.normal),
  };
}

function durabilityText(t: ThroughputResult): string {
  const d = durabilityFigures(t);
  const runs = (xs: ThroughputResult["create"][]) => xs.map((x) => fmt(x.rps, 0)).join(", ");
  const why =
    `FULL is what ships: a write the server acknowledged survives a power loss or an OS crash (NORMAL survives ` +
    `a killed process, bench/crash, but may lose the last acknowledged writes when the machine goes down), and a ` +
    `management server that loses acknowledged changes leaves every client's view (a Pulumi state) wrong. ` +
    `NORMAL stays available as \`--synchronous normal\` for throwaway databases (tests, benchmarks).`;
  const verdictText =
    d.full >= t.targets.createRps
      ? `${why} Creates still meet their target (${t.targets.createRps} req/s) with it.`
      : `With FULL, creates miss their target (${t.targets.createRps} req/s) in this run: every commit waits for ` +
        `the disk, and on this shared machine the disk is busy with other jobs (see the load average), so the ` +
        `figure follows the other jobs' I/O more than our code. ${why} The rate it keeps is still far above ` +
        `what a client asks of the service (the hosted limit is 120 requests per minute).`;
  return (
    `Durability: POST /api/groups on fresh servers (2 s of creates to warm up, then the same load), SQLite \`synchronous\` FULL (the WAL is synced at ` +
    `every commit) against NORMAL (synced at checkpoints only), order FULL, NORMAL, NORMAL, FULL: FULL ` +
    `${fmt(d.full, 0)} req/s (runs ${runs(t.durability.full)}; p50 ${fmt(d.p50Full, 2)} ms), NORMAL ` +
    `${fmt(d.normal, 0)} req/s (runs ${runs(t.durability.normal)}; p50 ${fmt(d.p50Normal, 2)} ms): syncing ` +
    `every commit costs ${fmt(d.costPct, 0)}% of the create rate. ${verdictText}`
  );
}

function throughputSection(t: ThroughputResult): string {
  const row = (name: string, l: ThroughputResult["getById"]) => [
    name,
    fmt(l.rps, 0),
    fmt(l.p50Ms, 2),
    fmt(l.p90Ms, 2),
    fmt(l.p99Ms, 2),
    String(l.requests),
    String(l.errors),
  ];
  const lines = [
    markdownTable(
      ["Test", "req/s", "p50 ms", "p90 ms", "p99 ms", "requests", "errors"],
      [
        row("GET /api/groups/{id}", t.getById),
        row("POST /api/groups", t.create),
        row("GET /api/groups (1,000 groups), loaded", t.list1000.loaded),
      ],
    ),
    "",
    `${t.concurrency} keep-alive connections, ${t.durationMs / 1000} s per test. List of 1,000 groups, sequential ` +
      `(${t.list1000.sequential.n} requests, ${fmt(t.list1000.sequential.bytes / 1024, 0)} KiB each): p50 ` +
      `${fmt(t.list1000.sequential.p50Ms, 2)} ms, p99 ${fmt(t.list1000.sequential.p99Ms, 2)} ms.`,
    ...(t.durability ? ["", durabilityText(t)] : []),
    "",
    memoryText(t.memory, "as shipped"),
    ...(t.memoryWithFix
      ? ["", memoryText(t.memoryWithFix, `with \`node ${t.memoryWithFix.nodeArgs.join(" ")}\``)]
      : []),
  ];
  for (const p of t.profiles) {
    lines.push(
      "",
      `Profile of \`${p.test}\` (target missed), busy ${fmt(p.summary.busyMs, 0)} of ${fmt(p.summary.wallMs, 0)} ms: ` +
        `${p.summary.topFunctions
          .slice(0, 8)
          .map((f) => `\`${f.name}\` ${fmt(f.selfMs, 0)} ms`)
          .join(", ")}; by package: ${p.summary.byPackage
          .slice(0, 6)
          .map((f) => `${f.name} ${fmt(f.selfMs, 0)} ms`)
          .join(", ")}.`,
    );
  }
  return lines.join("\n");
}

function faultsSection(f: FaultsResult): string {
  const v = f.verify;
  const rows = f.runs.map((r, i) => [
    String(i + 1),
    r.code === 0 ? "0 (ok)" : String(r.code),
    s(r.durationMs),
    String(r.requests),
    String(r.r429),
    String(r.r503),
    String(r.post503),
  ]);
  const list = (xs: string[]) =>
    xs.length ? xs.slice(0, 10).join(", ") + (xs.length > 10 ? ", ..." : "") : "none";
  return [
    markdownTable(
      ["Run", "exit", "s", "API requests", "429 injected", "503 injected", "503 on POST (create failed)"],
      rows,
    ),
    "",
    `\`pulumi up --skip-preview --continue-on-error\` of ${f.resources} resources (programs/graph.js) against ` +
      `\`privnet-server --faults ${f.spec}\`, repeated until it succeeds (at most ${f.maxRuns} runs): ` +
      `${f.converged ? `converged in ${f.runs.length} runs` : "did NOT converge"}; ${f.requests} API requests in all, ` +
      `${f.r429} answered 429 and ${f.r503} answered 503 by the injector (plus up to 20 ms of injected latency ` +
      `each). The client retried every 429 and never repeated a POST answered 503; those creates failed and the next ` +
      `run made them.`,
    "",
    `Verification with a fault-free server on the same database file: ${v.stateResources} resources in state, ` +
      `${v.serverObjects} program objects on the server; missing on the server: ${list(v.missingOnServer)}; name ` +
      `mismatches: ${list(v.nameMismatches)}; duplicates: ${list(v.duplicates)}; orphans: ${list(v.orphans)}; ` +
      `\`pulumi refresh --expect-no-changes\`: ${v.refreshNoChanges ? "no changes" : "CHANGES"}. Result: ` +
      `**${f.ok ? "ok" : "FAILED"}** (${s(f.durationMs)} s).`,
    "",
    "Without `--continue-on-error` the engine starts no new step after the first failed one, so each run gets " +
      "about ten creates done (one POST in ten fails) and 100 resources need more than 10 runs: measured while " +
      "writing this benchmark, 99 of 100 after 10 runs.",
  ].join("\n");
}

/** Performance problems, with numbers, derived from the results. */
function problemsSection(r: BenchResults): string {
  const items: string[] = [];
  const u = r.up300;
  const h = r.host;
  if (u) {
    const d = u.modes.default;
    const k = u.modes.skipCheckpoints;
    const kc = costs(u, "skipCheckpoints");
    const cpu = (xs: number[]) => fmt(median(xs) / 1000, 1);
    items.push(
      `**pulumi up of ${u.count} resources: ${fmt(kc.up)} ms (wall) / ${fmt(kc.upCpu)} ms (CPU) per ` +
        `resource over the do-nothing provider with checkpoints off, target ${u.targetMs} ms.** Where it goes ` +
        `(each part measured separately; they overlap with the profile below):`,
    );
    const parts: string[] = [];
    if (h) {
      const fixed = h.packageLoadMs + h.firstCallMs;
      parts.push(
        `loading pulumi-privnet, once in the program (${fmt(h.packageLoadMs, 0)} ms) and once in the host ` +
          `(${fmt(h.firstCallMs, 0)} ms, first call): ${fmt(fixed / u.count, 1)} ms per resource at ${u.count} ` +
          `resources, a fixed cost. Inside the load: ${h.packageLoadParts
            .map((p) => `${p.name} ${fmt(p.totalMs, 0)} ms`)
            .join(
              ", ",
            )} (profiled, so slower than unprofiled). Since then undici loads with the first pool, the program ` +
          `loads only the classes it uses and none of the provider, and the host the kind of its first call, ` +
          `calling by the route table without its schemas (docs/architecture.md, "What a command loads"; section ` +
          `${HOSTINGS_SECTION}.3 measures the require against @pulumi/pulumi's)`,
      );
    }
    if (kc.typedOutputsCpu !== undefined) {
      parts.push(
        `registering typed outputs: ${fmt(kc.typedOutputs)} ms wall / ${fmt(kc.typedOutputsCpu)} ms CPU per ` +
          `resource (do-nothing + typed outputs vs do-nothing). The SDK makes an Output with promises per ` +
          `registered property and captures a stack trace for each promise (\`debuggablePromise\`, mapped through ` +
          `source-map-support): cost grows with the number of properties (SetupKey registers 15). Proposed fix ` +
          `(scripts/sdkgen.ts): register only the outputs a program can use (drop echoes of inputs such as ` +
          `\`expiresIn\`, and bookkeeping fields), or accept it as the price of typed outputs`,
      );
    }
    if (h) {
      const L = h.latency;
      const cr = L.host.create?.median ?? NaN;
      const crNoop = L.hostNoop.create?.median ?? NaN;
      const dc = L.direct.create?.median ?? NaN;
      parts.push(
        `a create through the real host: ${fmt(cr, 2)} ms, against ${fmt(dc, 2)} ms sent directly and ` +
          `${fmt(crNoop, 2)} ms for the host alone (do-nothing provider: gRPC, protobuf Structs both ways, provider ` +
          `lookup by text); in this process our provider's create takes ${fmt(L.provider.create?.median, 2)} ms ` +
          `against ${fmt(dc, 2)} ms for the bare request (check ${fmt(L.provider.check?.median, 3)} ms, diff ` +
          `${fmt(L.provider.diff?.median, 3)} ms), so ` +
          `${fmt(cr - crNoop - dc, 2)} ms per create show up only inside the host process (one event loop for ` +
          `gRPC and the HTTP client; a third busy process on 2 cores)`,
      );
    }
    parts.push(
      `the server: ${fmt(median(d.serverUpCpuMs) / u.count, 2)} ms CPU per create (default runs; ` +
        `${fmt(u.serverMsPerRequest, 2)} ms inside its handlers by the request log); the ${u.count} requests sent ` +
        `directly take ${fmt(median(d.upMs.direct), 0)} ms in all`,
    );
    items.push(...parts.map((p) => `  - ${p}.`));
    if (u.profile) {
      const role = (name: string) => u.profile?.roles.find((x) => x.role.startsWith(name));
      const per = (x?: { privnetMs: number; noopMs: number }) =>
        x ? fmt((x.privnetMs - x.noopMs) / u.count, 2) : "n/a";
      items.push(
        `  - profiled (section 2, CPU inflated by the profiler): program +${per(role("program"))} ms, ` +
          `dynamic-provider host +${per(role("dynamic-provider host"))} ms, server +${per(role("privnet-server"))} ms, ` +
          `CLI +${per(role("engine"))} ms per resource against the do-nothing provider.`,
      );
    }
    items.push(
      `**The file state backend's per-step checkpoint (engine, not our code) dominates \`pulumi up\`.** CPU of ` +
        `\`up\`, median: pulumi-privnet ${cpu(d.upCpuMs.privnet)} s with checkpoints, ${cpu(k.upCpuMs.privnet)} s ` +
        `without; do-nothing ${cpu(d.upCpuMs.noop)} s and ${cpu(k.upCpuMs.noop)} s. The CLI writes the whole state ` +
        `file after every step, one write at a time (JSON encoding, a .bak copy, md5), so each step costs more as ` +
        `the stack grows (the request rate at the server falls during a run) and a bigger state (our outputs) ` +
        `costs more per step. For users with large stacks: PULUMI_SKIP_CHECKPOINTS=true, or a service backend.`,
    );
  }
  if (r.apiCalls) {
    const g = r.apiCalls.kinds.find((x) => x.kind === "Group");
    if (g && (g.counts.update ?? 0) > 1) {
      items.push(
        `**Group update is GET + PUT** when the program leaves \`peers\` or \`resources\` out (the usual case: ` +
          `members come from setup keys and network resources). By design (PUT replaces the whole group), but a ` +
          `rename costs two requests. Possible fix (provider/resources/group.ts): send the lists from the old ` +
          `outputs instead of reading first; it saves the GET but drops members added since the last refresh, so ` +
          `keeping the read is the safer default.`,
      );
    }
    items.push(
      `**Plain \`pulumi refresh\` reads every resource twice** (its preview reads too): ` +
        `${r.apiCalls.kinds.reduce((a, x) => a + (x.counts.refresh ?? 0), 0)} requests for ` +
        `${r.apiCalls.kinds.length} resources, against ${r.apiCalls.kinds.reduce((a, x) => a + (x.counts.read ?? 0), 0)} ` +
        `with \`--skip-preview\`. Engine behaviour (one resource per kind here, so a list per kind per pass costs ` +
        `the same as a GET per resource); with batched reads, the default, each pass of a large stack costs one list ` +
        `per kind (section 7).`,
    );
  }
  if (r.large) items.push(...largeProblems(r.large));
  if (r.throughput) {
    const t = r.throughput;
    const fine =
      t.getById.rps >= t.targets.getByIdRps &&
      t.create.rps >= t.targets.createRps &&
      t.list1000.sequential.p50Ms <= t.targets.listP50Ms &&
      Math.max(t.memory.rssAfterListsMb, t.memory.peakMb) <= t.targets.rssMb;
    if (fine) items.push("**Server:** every throughput and memory target met; no server change needed.");
    if (t.durability && t.create.rps < t.targets.createRps) {
      const d = durabilityFigures(t);
      items.push(
        `**Server creates: ${fmt(t.create.rps, 0)} req/s, target ${t.targets.createRps}.** The cost of syncing ` +
          `every commit (synchronous FULL, for writes that survive a power loss): ${fmt(d.full, 0)} req/s with ` +
          `it, ${fmt(d.normal, 0)} req/s without (section 4). Kept on purpose; a way to have both is group ` +
          `commit (commit with NORMAL, fsync the WAL once for all writes committed meanwhile, off the event ` +
          `loop, and only then answer them), not done here.`,
      );
    }
    const m = t.memory;
    const rss = Math.max(m.rssIdleMb, m.rssAfterListsMb, m.peakMb);
    if (rss > t.targets.rssMb && t.memoryWithFix) {
      const f = t.memoryWithFix;
      items.push(
        `**Server resident memory is V8's young generation, not data.** With ${m.objects.toLocaleString("en")} ` +
          `objects the server peaks at ${fmt(rss, 0)} MB RSS, while the old generation, where long-lived data ` +
          `lives, uses ${fmt(m.heap?.spaces.old_space?.usedMb, 0)} MB: under a high allocation rate V8 grows the ` +
          `young generation (new_space ${fmt(m.heap?.spaces.new_space?.sizeMb, 0)} MB here) and keeps it, so the ` +
          `peak moves between runs with the request rate and GC timing. Proposed fix (bin/privnet-server, not mine to ` +
          `change): run the server with \`${f.nodeArgs.join(" ")}\`, e.g. the bin script re-executes itself with ` +
          `the flag when \`process.execArgv\` lacks it, or \`#!/usr/bin/env -S node ${f.nodeArgs.join(" ")}\` plus ` +
          `the same flag where scripts call \`node bin/privnet-server\`. Measured with it: peak ` +
          `${fmt(Math.max(f.rssIdleMb, f.rssAfterListsMb, f.peakMb), 0)} MB, creates ${fmt(f.createRps, 0)}/s ` +
          `(as shipped ${fmt(m.createRps, 0)}/s). (v8.setFlagsFromString at run time does not work: the heap is ` +
          `configured when the isolate starts.)`,
      );
    }
  }
  return items.map((x) => (x.startsWith("  - ") ? x : `- ${x}`)).join("\n");
}

export function renderReport(r: BenchResults, opts: { full: boolean }): string {
  const m = r.machine;
  const out: string[] = [];
  const runs = Object.entries(r.runs ?? {});
  const separate = new Set(runs.map(([, x]) => x.date)).size > 1;
  out.push(
    "# Benchmarks",
    "",
    `Generated by \`npm run bench\` (bench/; ${fmt(r.durationS / 60, 1)} min for ${separate ? "the last run" : "this run"}). ` +
      `Do not edit by hand: run it again. Sections: ${r.sections.join(", ")}.${opts.full ? "" : " (partial run)"}`,
    "",
    markdownTable(
      ["Machine", ""],
      [
        ["CPU", `${m.cpu}, ${m.cores} cores`],
        ["RAM", `${m.ramGiB} GiB`],
        ["Node", m.node],
        ["OS", m.os],
        ["Pulumi CLI", m.pulumi],
        ["Date", m.date],
        ["Commit", m.commit],
        ["Load average (1/5/15 min) at start / end", `${m.loadAtStart.join(" ")} / ${r.loadAtEnd.join(" ")}`],
      ],
      ["l", "l"],
    ),
    "",
    "The machine is shared (other jobs ran during this run: see the load average), so wall times move from run " +
      "to run; CPU times are reported beside them and move much less.",
  );
  if (separate) {
    const byRun = new Map<string, { sections: string[]; info: RunInfo }>();
    for (const [section, info] of runs) {
      const k = `${info.date} ${info.commit}`;
      const entry = byRun.get(k) ?? { sections: [], info };
      entry.sections.push(section);
      byRun.set(k, entry);
    }
    out.push(
      "",
      "The sections were measured in separate runs on this machine (`npm run bench -- <section>` merges a run's " +
        "sections into the earlier results); the table above describes the last one.",
      "",
      markdownTable(
        ["Sections", "Date", "Commit", "Load at start / end", "Run"],
        [...byRun.values()]
          .sort((a, b) => a.info.date.localeCompare(b.info.date))
          .map(({ sections, info }) => [
            sections.join(", "),
            info.date,
            info.commit,
            `${info.loadAtStart.join(" ")} / ${info.loadAtEnd.join(" ")}`,
            `${fmt(info.durationS / 60, 1)} min`,
          ]),
        ["l", "l", "l", "l", "r"],
      ),
    );
  }
  if (r.errors.length) {
    out.push(
      "",
      "## Errors (broken sections)",
      "",
      ...r.errors.map((e) => `- ${e.section}: ${e.message.split("\n")[0]}`),
    );
  }
  out.push(
    "",
    "## Summary",
    "",
    markdownTable(["Figure", "Target", "Measured", "Verdict"], summaryRows(r), ["l", "r", "l", "l"]),
  );
  if (r.apiCalls) {
    out.push(
      "",
      "## 1. API calls per operation, per resource kind",
      "",
      "Counted from privnet-server's request log (`--request-log`, `--cloud --embedded-idp --simulate`) while the real " +
        "Pulumi CLI runs bench/programs/kinds.js, one resource of each kind. Prerequisites (peers enrolled by the " +
        "simulated agent, groups, a network, a zone, a service user, an ingress peer) are made through the API " +
        "first. Each request is attributed to the kind that owns its route.",
      "",
      apiCallsSection(r.apiCalls),
    );
  }
  if (r.up300) out.push("", `## 2. \`pulumi up\` of ${r.up300.count} resources`, "", up300Section(r.up300));
  if (r.host) out.push("", "## 3. Provider overhead per operation", "", hostSection(r.host));
  if (r.throughput)
    out.push(
      "",
      "## 4. Server throughput and memory",
      "",
      "privnet-server in its own process (temp SQLite file, no request log, no rate limit), load from " +
        "bench/lib/load.ts: an undici keep-alive pool with one request loop per connection, bounded in time and " +
        "count (no autocannon or wrk needed). The load generator shares the machine's cores with the server. RSS " +
        "from /proc/PID/status.",
      "",
      throughputSection(r.throughput),
    );
  if (r.faults) out.push("", "## 5. Fault tolerance", "", faultsSection(r.faults));
  if (r.importer)
    out.push(
      "",
      `## 6. privnet-import of a ${r.importer.objects.toLocaleString("en")}-object account`,
      "",
      importSection(r.importer),
    );
  if (r.large)
    out.push(
      "",
      `## 7. ${count(r.large.count)} resources under the hosted rate limit`,
      "",
      largeSection(r.large),
    );
  if (r.netmap) out.push("", "## 8. The network map", "", netmapSection(r.netmap));
  if (r.access) out.push("", "## 9. privnet-access: show and diff", "", accessSection(r.access));
  if (r.guard) out.push("", guardBlock(r.guard, runsOf(r).guard));
  if (r.plugin || r.peer || r.startup)
    out.push(
      "",
      hostingsBlock(
        { plugin: r.plugin, peer: r.peer, startup: r.startup, runs: runsOf(r) },
        HOSTINGS_SECTION,
      ),
    );
  out.push("", "## Performance problems found", "", problemsSection(r));
  out.push(
    "",
    "## Running it",
    "",
    "`npm run bench` builds what it needs (`npm run build`, the engine via scripts/engine.sh), runs every section and " +
      "rewrites this file; it exits non-zero only when a section breaks, not when a target is missed. One section: " +
      "`npm run bench -- faults` (or `--only faults`; api-calls, up300, host, throughput, import, plugin, peer, startup, large, netmap, access, guard): " +
      "its figures are merged into " +
      "bench/results/latest.json over those of earlier runs, and this file is rewritten once that holds every " +
      "section (the table of runs above says which run measured what). `--reps N` sets the repetitions of the " +
      "300-resource runs, `--keep` keeps the work directory, `--render` rewrites this file from " +
      "bench/results/latest.json without measuring, `--large-count N` runs the large section with fewer resources " +
      "(printed only). The large section waits for the rate limit by design: about 40 minutes on 2 cores. A run of " +
      `\`plugin\`, \`peer\` and \`startup\` alone rewrites their block of this file (section ${HOSTINGS_SECTION}) in place, and one of \`guard\` alone its block in section 9; \`--counts N,N\` runs ` +
      "them at other sizes (printed only).",
    "",
  );
  return out.join("\n");
}
