/**
 * Server throughput on loopback, privnet-server in its own process (temp SQLite file, no request log, no rate
 * limit: the CLI's defaults), load from bench/lib/load.ts (undici keep-alive pool; it shares the machine's cores
 * with the server):
 *   - list of 1,000 groups: sequential GET /api/groups, p50 (target <= 10 ms), and under load (req/s);
 *   - GET by id: GET /api/groups/{id} (target >= 3,000 req/s);
 *   - create: POST /api/groups, unique names (target >= 1,000 req/s);
 *   - durability: the same creates on fresh, warmed-up servers with SQLite synchronous FULL (as shipped) and
 *     NORMAL;
 *   - resident memory with 10,000 objects (5,000 groups, 2,500 policies, 2,500 setup keys), after listing them
 *     all: RSS and peak RSS of the server process (target <= 200 MB), with V8's heap spaces (a preload,
 *     bench/lib/heap-report.js, reports them on SIGUSR2); when over target, again with the young generation
 *     capped (SEMI_SPACE_FLAG), the proposed fix.
 * A missed target is measured again on a server started with `--cpu-prof`; the top frames are reported.
 */
import * as path from "node:path";
import * as fs from "node:fs";
import { summarizeProfile, type ProfileSummary } from "./lib/cpuprofile";
import { runLoad, type LoadResult } from "./lib/load";
import { progress } from "./lib/progress";
import { api, startServerProcess, type ServerProcess } from "./lib/server";
import { median, quantile } from "./lib/stats";

export interface ThroughputResult {
  concurrency: number;
  durationMs: number;
  getById: LoadResult;
  create: LoadResult;
  list1000: { sequential: { n: number; p50Ms: number; p99Ms: number; bytes: number }; loaded: LoadResult };
  /** Resident memory with 10,000 objects, as shipped. */
  memory: MemoryResult;
  /** The same with the proposed fix (SEMI_SPACE_FLAG), measured only when `memory` misses its target. */
  memoryWithFix?: MemoryResult;
  /**
   * Creates on fresh servers, SQLite `synchronous` FULL (as shipped: the WAL is synced at every commit) against
   * NORMAL (synced at checkpoints only), in the order FULL, NORMAL, NORMAL, FULL.
   */
  durability: { full: LoadResult[]; normal: LoadResult[] };
  /** Profiles of the tests whose target was missed. */
  profiles: { test: string; summary: ProfileSummary }[];
  targets: { getByIdRps: number; createRps: number; listP50Ms: number; rssMb: number };
}

const TARGETS = { getByIdRps: 3000, createRps: 1000, listP50Ms: 10, rssMb: 200 };

const groupBody = (i: number, tag: string) => JSON.stringify({ name: `${tag}-${i}` });

/** The proposed fix for resident memory: cap V8's young generation (semi-space) at 8 MB. */
export const SEMI_SPACE_FLAG = "--max-semi-space-size=8";

export interface HeapReport {
  rssMb: number;
  heapTotalMb: number;
  heapUsedMb: number;
  externalMb: number;
  spaces: Record<string, { sizeMb: number; usedMb: number }>;
}

export interface MemoryResult {
  nodeArgs: string[];
  objects: number;
  seedMs: number;
  /** Creates per second while seeding (all kinds). */
  createRps: number;
  rssIdleMb: number;
  rssAfterListsMb: number;
  peakMb: number;
  /** process.memoryUsage() and V8 heap spaces of the server after the lists (bench/lib/heap-report.js). */
  heap?: HeapReport;
}

/** Asks the server (preloaded with heap-report.js) for a heap report. */
async function heapReport(server: ServerProcess, file: string): Promise<HeapReport | undefined> {
  const before = fs.existsSync(file) ? fs.readFileSync(file, "utf8").length : 0;
  process.kill(server.pid, "SIGUSR2");
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    if (text.length > before && text.endsWith("\n"))
      return JSON.parse(text.slice(before).trim()) as HeapReport;
  }
  return undefined;
}

/** A fresh server with `nodeArgs`: 10,000 objects (5,000 groups, 2,500 policies, 2,500 setup keys), then RSS. */
async function memoryTest(
  workDir: string,
  name: string,
  concurrency: number,
  nodeArgs: string[],
): Promise<MemoryResult> {
  const dir = path.join(workDir, `tp-${name}`);
  const reportFile = path.join(dir, "heap-report.jsonl");
  const mem = await startServerProcess({
    dir,
    requestLog: null,
    nodeArgs: [...nodeArgs, "--require", path.join(__dirname, "lib", "heap-report.js")],
    env: { BENCH_HEAP_REPORT: reportFile },
  });
  try {
    const t0 = performance.now();
    const nGroups = 5000;
    const nRest = 2500;
    await seedGroups(mem, nGroups - 1, "mem", concurrency);
    const groups = (await api<{ id: string }[]>(mem, "GET", "/api/groups")).map((g) => g.id);
    const policy = (i: number) =>
      JSON.stringify({
        name: `mem-p-${i}`,
        enabled: true,
        rules: [
          {
            name: "r",
            enabled: true,
            action: "accept",
            bidirectional: true,
            protocol: "tcp",
            ports: ["443"],
            sources: [groups[i % groups.length]],
            destinations: [groups[(i + 1) % groups.length]],
          },
        ],
      });
    const key = (i: number) =>
      JSON.stringify({
        name: `mem-k-${i}`,
        type: "reusable",
        expires_in: 86400,
        auto_groups: [groups[i % groups.length]],
        usage_limit: 0,
      });
    for (const [p, body] of [
      ["/api/policies", policy],
      ["/api/setup-keys", key],
    ] as const) {
      const r = await runLoad({
        url: mem.url,
        token: mem.token,
        concurrency,
        durationMs: 120_000,
        maxRequests: nRest,
        request: (i) => ({ method: "POST", path: p, body: body(i) }),
      });
      if (r.errors > 0) throw new Error(`seeding ${p}: ${r.errors} errors: ${r.firstError}`);
    }
    const seedMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 1000));
    const idle = mem.memory();
    for (const p of ["/api/groups", "/api/policies", "/api/setup-keys", "/api/groups", "/api/policies"]) {
      await api(mem, "GET", p);
    }
    const after = mem.memory();
    return {
      nodeArgs,
      objects: nGroups + 2 * nRest,
      seedMs,
      createRps: ((nGroups - 1 + 2 * nRest) / seedMs) * 1000,
      rssIdleMb: idle.rssMb,
      rssAfterListsMb: after.rssMb,
      peakMb: after.peakMb,
      heap: await heapReport(mem, reportFile),
    };
  } finally {
    await mem.stop();
  }
}

/** Creates `count` groups with the load generator (bounded by count, 120 s at most); returns their ids. */
async function seedGroups(
  server: ServerProcess,
  count: number,
  tag: string,
  concurrency: number,
): Promise<void> {
  const r = await runLoad({
    url: server.url,
    token: server.token,
    concurrency,
    durationMs: 120_000,
    maxRequests: count,
    request: (i) => ({ method: "POST", path: "/api/groups", body: groupBody(i, tag) }),
  });
  if (r.errors > 0 || r.requests !== count)
    throw new Error(`seeding ${count} groups: ${r.requests} sent, ${r.errors} errors: ${r.firstError}`);
}

async function sequentialList(
  server: ServerProcess,
  n: number,
): Promise<{ n: number; p50Ms: number; p99Ms: number; bytes: number }> {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(`${server.url}/api/groups`, {
      headers: { Authorization: `Token ${server.token}` },
    });
    const text = await res.text();
    ms.push(performance.now() - t);
    if (!res.ok) throw new Error(`GET /api/groups: ${res.status}`);
    bytes = text.length;
  }
  return { n, p50Ms: median(ms), p99Ms: quantile(ms, 0.99), bytes };
}

export async function runThroughput(opts: {
  workDir: string;
  concurrency?: number;
  durationMs?: number;
  profileMisses?: boolean;
}): Promise<ThroughputResult> {
  const S = "throughput";
  const concurrency = opts.concurrency ?? 16;
  const durationMs = opts.durationMs ?? 5000;
  let serverNo = 0;
  const start = (nodeArgs: string[] = [], serverArgs: string[] = []) =>
    startServerProcess({
      dir: path.join(opts.workDir, `tp-server-${++serverNo}`),
      requestLog: null,
      nodeArgs,
      serverArgs,
    });
  const load = (
    server: ServerProcess,
    request: (i: number) => { method: "GET" | "POST"; path: string; body?: string },
  ) => runLoad({ url: server.url, token: server.token, concurrency, durationMs, request });

  // The tests, each runnable on a fresh server (again, under the profiler, when its target is missed).
  const tests = {
    async list(server: ServerProcess) {
      await seedGroups(server, 999, "list", concurrency); // + the built-in All group = 1,000
      const sequential = await sequentialList(server, 200);
      const loaded = await load(server, () => ({ method: "GET", path: "/api/groups" }));
      return { sequential, loaded };
    },
    async getById(server: ServerProcess) {
      const g = await api<{ id: string }>(server, "POST", "/api/groups", { name: "target" });
      await load(server, () => ({ method: "GET", path: `/api/groups/${g.id}` })); // warm-up
      return load(server, () => ({ method: "GET", path: `/api/groups/${g.id}` }));
    },
    async create(server: ServerProcess) {
      return load(server, (i) => ({
        method: "POST",
        path: "/api/groups",
        body: groupBody(i, `c${serverNo}`),
      }));
    },
  };

  const result = {
    concurrency,
    durationMs,
    profiles: [],
    targets: TARGETS,
  } as unknown as ThroughputResult;

  const server = await start();
  try {
    progress(S, `server ${server.url}; ${concurrency} connections, ${durationMs / 1000} s per test`);
    result.list1000 = await tests.list(server);
    progress(
      S,
      `list of 1,000 groups: p50 ${result.list1000.sequential.p50Ms.toFixed(2)} ms sequential ` +
        `(${(result.list1000.sequential.bytes / 1024).toFixed(0)} KiB), ${result.list1000.loaded.rps.toFixed(0)} req/s loaded`,
    );
    result.getById = await tests.getById(server);
    progress(
      S,
      `GET by id: ${result.getById.rps.toFixed(0)} req/s, p50 ${result.getById.p50Ms.toFixed(2)} ms`,
    );
    result.create = await tests.create(server);
    progress(S, `create: ${result.create.rps.toFixed(0)} req/s, p50 ${result.create.p50Ms.toFixed(2)} ms`);
  } finally {
    await server.stop();
  }

  // Durability: what syncing the WAL at every commit costs. Fresh servers, so both start from the same database,
  // each warmed up first.
  result.durability = { full: [], normal: [] };
  for (const sync of ["full", "normal", "normal", "full"] as const) {
    const s = await start([], ["--synchronous", sync]);
    try {
      // Warm-up (JIT, caches), as the main server had before its create test.
      await runLoad({
        url: s.url,
        token: s.token,
        concurrency,
        durationMs: 2000,
        request: (i) => ({ method: "POST", path: "/api/groups", body: groupBody(i, `warm${serverNo}`) }),
      });
      result.durability[sync].push(await tests.create(s));
    } finally {
      await s.stop();
    }
  }
  const d = result.durability;
  progress(
    S,
    `create, synchronous FULL: ${d.full.map((x) => x.rps.toFixed(0)).join(" / ")} req/s; NORMAL: ` +
      `${d.normal.map((x) => x.rps.toFixed(0)).join(" / ")} req/s`,
  );

  // Memory: a fresh server with 10,000 objects, as shipped; when over target, again with a smaller young
  // generation (the proposed fix) to show its effect.
  result.memory = await memoryTest(opts.workDir, `mem-${++serverNo}`, concurrency, []);
  const m = result.memory;
  progress(
    S,
    `memory with ${m.objects} objects: RSS ${m.rssIdleMb.toFixed(0)} MB idle, ` +
      `${m.rssAfterListsMb.toFixed(0)} MB after listing all, peak ${m.peakMb.toFixed(0)} MB ` +
      `(V8 heap used ${m.heap?.heapUsedMb ?? "?"} MB of ${m.heap?.heapTotalMb ?? "?"} MB; young generation ` +
      `${m.heap?.spaces.new_space?.sizeMb ?? "?"} MB)`,
  );
  if (Math.max(m.rssIdleMb, m.rssAfterListsMb, m.peakMb) > TARGETS.rssMb) {
    result.memoryWithFix = await memoryTest(opts.workDir, `mem-${++serverNo}`, concurrency, [
      SEMI_SPACE_FLAG,
    ]);
    const f = result.memoryWithFix;
    progress(
      S,
      `memory with ${SEMI_SPACE_FLAG}: RSS ${f.rssIdleMb.toFixed(0)} MB idle, ${f.rssAfterListsMb.toFixed(0)} MB ` +
        `after listing all, peak ${f.peakMb.toFixed(0)} MB; creates ${f.createRps.toFixed(0)} req/s ` +
        `(as shipped: ${m.createRps.toFixed(0)} req/s)`,
    );
  }

  // Profile what missed its target.
  if (opts.profileMisses !== false) {
    const misses: (keyof typeof tests)[] = [];
    if (result.list1000.sequential.p50Ms > TARGETS.listP50Ms) misses.push("list");
    if (result.getById.rps < TARGETS.getByIdRps) misses.push("getById");
    if (result.create.rps < TARGETS.createRps) misses.push("create");
    for (const test of misses) {
      const dir = path.join(opts.workDir, `tp-profile-${test}`);
      fs.mkdirSync(dir, { recursive: true });
      const s = await start(["--cpu-prof", `--cpu-prof-dir=${dir}`]);
      try {
        await tests[test](s);
      } finally {
        await s.stop();
      }
      const file = fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
      if (file) {
        result.profiles.push({ test, summary: summarizeProfile(path.join(dir, file)) });
        progress(S, `profiled ${test} (target missed): ${path.join(dir, file)}`);
      }
    }
  }
  return result;
}
