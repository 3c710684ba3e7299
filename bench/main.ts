/**
 * `npm run bench` (through bench/run.sh, which builds first): runs the benchmark sections, prints the report
 * and writes the results to bench/results/latest.json (git-ignored). A run of some sections merges its results
 * into those of earlier runs there (each section keeps the date, commit and load of the run that measured it);
 * once the merged results hold every section and no broken one, the report is written to BENCHMARKS.md.
 *
 *   npm run bench                      every section
 *   npm run bench -- faults up300      some sections (merged into bench/results/latest.json)
 *   npm run bench -- guard             the access guard's cost in a preview (bench/guard.ts)
 *   npm run bench -- --only peer       the same (`--only` names one section; it may be repeated)
 *   npm run bench -- peer --counts 100 the plugin/peer sections at other sizes (while developing: printed only)
 *   npm run bench -- plugin peer --hostings plugin-yaml,noop-yaml,peer-yaml   only these hostings in them
 *   npm run bench -- startup plugin peer   the TypeScript path's start-up, and every hosting side by side (what the
 *                                      targets of section 10 need, in one run; PRIVNET_BEFORE_PLUGIN adds another
 *                                      build beside this one)
 *   npm run bench -- --reps 3 --keep   repetitions of the 300-resource runs; keep the work directory
 *   npm run bench -- --render          BENCHMARKS.md again from bench/results/latest.json, without measuring
 *   npm run bench -- large --large-count 100   the large section with fewer resources (while developing: such
 *                                      results are printed, never merged)
 *
 * Exit code: 0 when every section ran (missed targets are reported, not failures), 1 when a section broke,
 * 2 on bad arguments.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot, ensureEngine } from "../tests/e2e/engine";
import { runAccess } from "./access";
import { runApiCalls } from "./api-calls";
import { runFaults } from "./faults";
import { runGuard } from "./guard";
import { runHostOverhead } from "./host-overhead";
import { runImport } from "./import";
import { runLarge } from "./large";
import { runHostingSections, VARIANTS, type Variant } from "./peer";
import { machine } from "./lib/machine";
import { runNetmap } from "./netmap";
import { runStartup } from "./startup";
import { checkBudget, elapsedS, progress, remainingMs, setBudget } from "./lib/progress";
import {
  GUARD_BLOCK_END,
  GUARD_BLOCK_START,
  guardBlock,
  mergeResults,
  renderReport,
  runsOf,
  type BenchResults,
} from "./report";
import { BLOCK_START, hostingsBlock, HOSTINGS_SECTION, spliceBlock } from "./report-hostings";
import { runThroughput } from "./throughput";
import { runUp300 } from "./up300";

const SECTIONS = [
  "api-calls",
  "host",
  "throughput",
  "faults",
  "up300",
  "import",
  "plugin",
  "peer",
  "startup",
  "large",
  "netmap",
  "access",
  "guard",
] as const;
type Section = (typeof SECTIONS)[number];

/**
 * The run's bound: a run that takes longer is broken. 25 minutes for the sections before `large`; `large` waits
 * for the rate limit by design (its unbatched sequence sends about 4,000 requests at 2 per second once the
 * burst is spent) and has its own bound.
 */
const BUDGET_MS = 25 * 60_000;
const LARGE_BUDGET_MS = 90 * 60_000;
/**
 * The plugin and peer sections: the same shapes in five hostings, up to 1,000 resources (about 40 min with the
 * default 2 repetitions); their bound grows with `--reps` (each repetition runs the whole plan again).
 */
const HOSTINGS_BUDGET_PER_REP_MS = 23 * 60_000;

interface Args {
  sections: Section[];
  reps: number;
  keep: boolean;
  render: boolean;
  /** Resources of the large section (default 1,000; fewer only while developing: then nothing is merged). */
  largeCount: number;
  /** Sizes of the plugin and peer sections (default theirs; others only while developing: nothing merged). */
  counts?: number[];
  /** Only these hostings in the plugin and peer sections (default all). */
  hostings?: Variant[];
}

function parseArgs(argv: string[]): Args {
  const sections: Section[] = [];
  let reps = 2;
  let keep = false;
  let render = false;
  let largeCount = 1000;
  let counts: number[] | undefined;
  let hostings: Variant[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--reps") {
      reps = Number(argv[++i]);
      if (!Number.isInteger(reps) || reps < 1 || reps > 5) throw new Error("--reps: 1..5");
    } else if (a === "--large-count") {
      largeCount = Number(argv[++i]);
      if (!Number.isInteger(largeCount) || largeCount < 4 || largeCount > 5000)
        throw new Error("--large-count: 4..5000");
    } else if (a === "--counts") {
      counts = String(argv[++i])
        .split(",")
        .map((x) => Number(x));
      if (!counts.every((n) => Number.isInteger(n) && n >= 4 && n <= 5000))
        throw new Error("--counts: N,N,.. 4..5000");
    } else if (a === "--hostings") {
      hostings = String(argv[++i]).split(",") as Variant[];
      const unknown = hostings.filter((v) => !(VARIANTS as readonly string[]).includes(v));
      if (unknown.length)
        throw new Error(`--hostings: unknown ${unknown.join(", ")} (${VARIANTS.join(", ")})`);
    } else if (a === "--only") {
      const x = String(argv[++i]);
      if (!(SECTIONS as readonly string[]).includes(x)) throw new Error(`--only: unknown section ${x}`);
      sections.push(x as Section);
    } else if (a === "--keep") keep = true;
    else if (a === "--render") render = true;
    else if ((SECTIONS as readonly string[]).includes(a)) sections.push(a as Section);
    else
      throw new Error(
        `unknown argument ${a} (sections: ${SECTIONS.join(", ")}; --only SECTION, --reps N, --keep, --render, ` +
          "--large-count N, --counts N,N, --hostings V,V)",
      );
  }
  // In their order here (the plugin section runs the peer's plan too when both are named).
  const chosen = sections.length ? SECTIONS.filter((x) => sections.includes(x)) : [...SECTIONS];
  return { sections: chosen, reps, keep, render, largeCount, counts, hostings };
}

const RESULTS_FILE = path.join(repoRoot, "bench", "results", "latest.json");
const BENCHMARKS_FILE = path.join(repoRoot, "BENCHMARKS.md");

/** The report as Markdown, formatted as `npm run lint` (prettier --check) wants BENCHMARKS.md. */
async function formatted(results: BenchResults, full: boolean): Promise<string> {
  const prettier = await import("prettier");
  return prettier.format(renderReport(results, { full }), {
    ...((await prettier.resolveConfig(BENCHMARKS_FILE)) ?? {}),
    parser: "markdown",
  });
}

/** `--render`: the report again from bench/results/latest.json (after a change to report.ts), no measuring. */
async function renderOnly(): Promise<number> {
  const results = JSON.parse(fs.readFileSync(RESULTS_FILE, "utf8")) as BenchResults;
  const full = SECTIONS.every((x) => results.sections.includes(x));
  const report = await formatted(results, full);
  process.stdout.write(`${report}\n`);
  if (full && results.errors.length === 0) {
    fs.writeFileSync(BENCHMARKS_FILE, report);
    progress("bench", "rendered BENCHMARKS.md from bench/results/latest.json");
  } else if (results.errors.length === 0) {
    if (results.plugin || results.peer || results.startup) {
      await writeHostingsBlock(results);
      progress("bench", "rendered the plugin/peer block of BENCHMARKS.md from bench/results/latest.json");
    }
    if (results.guard) {
      await writeGuardBlock(results);
      progress("bench", "rendered the access guard's block of BENCHMARKS.md from bench/results/latest.json");
    }
  }
  return 0;
}

/** BENCHMARKS.md with one block between its markers replaced (spliceBlock), formatted as the file is. */
async function writeBlock(block: string, markers?: Parameters<typeof spliceBlock>[2]): Promise<void> {
  const prettier = await import("prettier");
  const text = await prettier.format(spliceBlock(fs.readFileSync(BENCHMARKS_FILE, "utf8"), block, markers), {
    ...((await prettier.resolveConfig(BENCHMARKS_FILE)) ?? {}),
    parser: "markdown",
  });
  fs.writeFileSync(BENCHMARKS_FILE, text);
}

/** Replaces the plugin/peer block of BENCHMARKS.md (section 10) with these results' and leaves the rest as it was. */
async function writeHostingsBlock(results: BenchResults): Promise<void> {
  await writeBlock(
    hostingsBlock(
      { plugin: results.plugin, peer: results.peer, startup: results.startup, runs: runsOf(results) },
      HOSTINGS_SECTION,
    ),
  );
}

/** Replaces the access guard's block of BENCHMARKS.md (in section 9) with these results' figures. */
async function writeGuardBlock(results: BenchResults): Promise<void> {
  if (!results.guard) return;
  await writeBlock(guardBlock(results.guard, runsOf(results).guard), {
    start: GUARD_BLOCK_START,
    end: GUARD_BLOCK_END,
    before: BLOCK_START,
  });
}

/** The results of earlier runs (bench/results/latest.json), if any and readable. */
function previousResults(): BenchResults | undefined {
  try {
    return JSON.parse(fs.readFileSync(RESULTS_FILE, "utf8")) as BenchResults;
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).message}\n`);
    return 2;
  }
  if (args.render) return renderOnly();
  const hostings = (x: Section) => x === "plugin" || x === "peer";
  const startupBudgetMs = 20 * 60_000;
  setBudget(
    (args.sections.some((x) => x !== "large" && !hostings(x)) ? BUDGET_MS : 0) +
      (args.sections.some(hostings) ? HOSTINGS_BUDGET_PER_REP_MS * Math.max(2, args.reps) : 0) +
      (args.sections.includes("startup") ? startupBudgetMs : 0) +
      (args.sections.includes("large") ? LARGE_BUDGET_MS : 0),
  );
  const binDir = await ensureEngine();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "privnet-bench-"));
  const results: BenchResults = {
    machine: machine(binDir),
    loadAtEnd: [],
    durationS: 0,
    sections: args.sections,
    errors: [],
  };
  const m = results.machine;
  progress(
    "bench",
    `${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB, Node ${m.node}, ${m.pulumi}, commit ${m.commit}`,
  );
  progress(
    "bench",
    `sections: ${args.sections.join(", ")}; work dir ${workDir}; load ${m.loadAtStart.join(" ")}`,
  );

  const runners: Record<Section, () => Promise<void>> = {
    "api-calls": async () => {
      results.apiCalls = await runApiCalls({ workDir, binDir });
    },
    host: async () => {
      results.host = await runHostOverhead({ workDir });
    },
    throughput: async () => {
      results.throughput = await runThroughput({ workDir });
    },
    faults: async () => {
      results.faults = await runFaults({ workDir, binDir, timeBoundMs: Math.min(8 * 60_000, remainingMs()) });
    },
    up300: async () => {
      results.up300 = await runUp300({ workDir, binDir, repetitions: args.reps });
    },
    import: async () => {
      results.importer = await runImport({ workDir });
    },
    large: async () => {
      results.large = await runLarge({ workDir, binDir, count: args.largeCount });
    },
    // Run together, the two share one plan: the first of them runs it, the second takes its figures.
    plugin: async () => {
      const both = args.sections.includes("peer");
      const r = await runHostingSections({
        sections: both ? ["plugin", "peer"] : ["plugin"],
        workDir,
        binDir,
        repetitions: args.reps,
        counts: args.counts,
        hostings: args.hostings,
      });
      results.plugin = r.plugin;
      if (both) results.peer = r.peer;
    },
    peer: async () => {
      if (args.sections.includes("plugin")) {
        if (!results.peer)
          throw new Error("the plugin section broke before the peer's figures were measured");
        return;
      }
      const r = await runHostingSections({
        sections: ["peer"],
        workDir,
        binDir,
        repetitions: args.reps,
        counts: args.counts,
        hostings: args.hostings,
      });
      results.peer = r.peer;
    },
    startup: async () => {
      // Rounds of previews: --reps sets them too (at least 5: the ratios are of 2-4 s commands).
      results.startup = await runStartup({ workDir, binDir, rounds: Math.max(5, args.reps) });
    },
    netmap: async () => {
      results.netmap = await runNetmap();
    },
    access: async () => {
      results.access = await runAccess({ workDir, binDir });
    },
    guard: async () => {
      results.guard = await runGuard({ workDir, binDir });
    },
  };
  for (const section of args.sections) {
    try {
      checkBudget(section);
      const t = Date.now();
      progress(section, "start");
      await runners[section]();
      progress(section, `done in ${((Date.now() - t) / 1000).toFixed(0)} s`);
    } catch (err) {
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
      results.errors.push({ section, message });
      progress(section, `BROKEN: ${message}`);
    }
  }
  results.loadAtEnd = os.loadavg().map((l) => Math.round(l * 10) / 10);
  results.durationS = elapsedS();

  // A partial run keeps the other sections' figures from earlier runs; a development run of the large section
  // with fewer resources is only printed.
  const trial = (args.sections.includes("large") && args.largeCount !== 1000) || args.counts !== undefined;
  const previous = args.sections.length === SECTIONS.length || trial ? undefined : previousResults();
  const merged = previous ? mergeResults(previous, results) : results;
  const full = SECTIONS.every((x) => merged.sections.includes(x));
  const report = await formatted(merged, full);
  process.stdout.write(`\n${report}\n`);
  if (trial) {
    progress("bench", "trial run (--large-count or --counts): nothing written");
  } else {
    fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
    fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(merged, null, 2)}\n`);
    if (full && merged.errors.length === 0) {
      fs.writeFileSync(BENCHMARKS_FILE, report);
      progress(
        "bench",
        `wrote BENCHMARKS.md and bench/results/latest.json${previous ? " (merged with earlier runs)" : ""}`,
      );
    } else if (
      merged.errors.length === 0 &&
      (results.plugin || results.peer || results.startup || results.guard)
    ) {
      // The plugin, peer and startup sections, and the guard's, have their own blocks: replaced in place, the rest
      // left as it was.
      if (results.plugin || results.peer || results.startup) {
        await writeHostingsBlock(merged);
        progress(
          "bench",
          `wrote bench/results/latest.json and the plugin/peer block of BENCHMARKS.md (section ${HOSTINGS_SECTION})`,
        );
      }
      if (results.guard) {
        await writeGuardBlock(merged);
        progress(
          "bench",
          "wrote bench/results/latest.json and the access guard's block of BENCHMARKS.md (section 9)",
        );
      }
    } else {
      progress(
        "bench",
        `wrote bench/results/latest.json; BENCHMARKS.md left as it was (${
          merged.errors.length
            ? "broken sections"
            : `sections missing: ${SECTIONS.filter((x) => !merged.sections.includes(x)).join(", ")}`
        })`,
      );
    }
  }
  if (args.keep) progress("bench", `kept ${workDir}`);
  else fs.rmSync(workDir, { recursive: true, force: true });
  return results.errors.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
