/**
 * Crash safety: `node bench/crash/run.mts [--requests 500] [--rounds 3] [--seed 42] [--latency 400] [--json]`
 *
 * Each round starts `bin/privnet-server` on one SQLite file, fires `--requests` concurrent creates of mixed kinds
 * (groups, networks, setup keys, posture checks; every name unique), and `kill -9`s the server once a seeded
 * number of responses has arrived, with the rest still in flight. It then restarts the server on the same file
 * and checks that every create answered 2xx (in this round and every earlier one) is there, by id and name,
 * that nothing answered 5xx, and that SQLite's `PRAGMA integrity_check` and `quick_check` say "ok" (run through
 * node:sqlite on a second, read-only connection while the restarted server holds the file, and once more after
 * the last clean stop). Exits 0 only when all of that holds; the last line is the result.
 *
 * Runs as TypeScript through Node 24's built-in type stripping (the repo's Node; no build step of its own), so it
 * uses erasable syntax only and imports nothing but node: modules. The server itself runs from dist/ (npm run
 * build). Bounded: a watchdog ends everything after --timeout seconds (default 60).
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";

interface Options {
  requests: number;
  rounds: number;
  seed: number;
  json: boolean;
  timeoutS: number;
  latencyMs: number;
}

function parseOptions(argv: string[]): Options {
  const o: Options = {
    requests: 500,
    rounds: 3,
    seed: 42,
    json: false,
    timeoutS: 60,
    latencyMs: 400,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = (): number => {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 1) throw new Error(`${a} needs a positive integer`);
      return v;
    };
    if (a === "--requests") o.requests = num();
    else if (a === "--rounds") o.rounds = num();
    else if (a === "--seed") o.seed = num();
    else if (a === "--timeout") o.timeoutS = num();
    else if (a === "--latency") o.latencyMs = num();
    else if (a === "--json") o.json = true;
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

/** mulberry32: the same small seeded generator the server's fault injector uses. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROOT = path.resolve(path.dirname(process.argv[1] ?? "."), "..", "..");
const SERVER_BIN = path.join(ROOT, "bin", "privnet-server");

interface Server {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | string | null>;
}

/** Starts the real CLI on `db`; resolves once it prints its URL. */
async function startServer(db: string, tokenFile: string, faults?: string): Promise<Server> {
  const args = [SERVER_BIN, "--db", db, "--port", "0", "--bootstrap-token-file", tokenFile];
  if (faults) args.push("--faults", faults);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ?? code)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`server did not start in 15 s: ${err}`)), 15_000);
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${String(code)}) before listening: ${err}`));
    });
  });
  return { child, url, stderr: () => err, exited };
}

type Kind = "group" | "network" | "setup_key" | "posture_check";
const KINDS: { kind: Kind; path: string; body: (name: string) => unknown }[] = [
  { kind: "group", path: "/api/groups", body: (name) => ({ name }) },
  { kind: "network", path: "/api/networks", body: (name) => ({ name, description: "crash test" }) },
  {
    kind: "setup_key",
    path: "/api/setup-keys",
    body: (name) => ({ name, type: "reusable", expires_in: 86400, auto_groups: [], usage_limit: 0 }),
  },
  {
    kind: "posture_check",
    path: "/api/posture-checks",
    body: (name) => ({ name, description: "crash", checks: { nb_version_check: { min_version: "0.1.0" } } }),
  },
];

interface Outcome {
  kind: Kind;
  name: string;
  status?: number;
  id?: string;
  error?: string;
}

async function send(url: string, token: string, kindIndex: number, name: string): Promise<Outcome> {
  const k = KINDS[kindIndex % KINDS.length] as (typeof KINDS)[number];
  const o: Outcome = { kind: k.kind, name };
  try {
    const res = await fetch(`${url}${k.path}`, {
      method: "POST",
      headers: { Authorization: `Token ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(k.body(name)),
      signal: AbortSignal.timeout(20_000),
    });
    o.status = res.status;
    const text = await res.text();
    if (res.ok) o.id = (JSON.parse(text) as { id?: string }).id;
  } catch (err) {
    // The kill: the answer (if any) was lost. The object may or may not exist; both are correct.
    o.error = (err as Error).message;
  }
  return o;
}

async function getJson(url: string, token: string, p: string): Promise<unknown> {
  const res = await fetch(`${url}${p}`, { headers: { Authorization: `Token ${token}` } });
  if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Every stored object of the four kinds, keyed `kind/id`, with its name. */
async function inventory(url: string, token: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const k of KINDS) {
    const list = (await getJson(url, token, k.path)) as { id: string; name: string }[];
    for (const x of list) found.set(`${k.kind}/${x.id}`, x.name);
  }
  return found;
}

function pragmas(db: string): { integrity: string; quick: string } {
  const conn = new DatabaseSync(db, { readOnly: true });
  try {
    const first = (sql: string) =>
      Object.values(conn.prepare(sql).get() as Record<string, string>)[0] ?? "(no row)";
    return { integrity: first("PRAGMA integrity_check"), quick: first("PRAGMA quick_check") };
  } finally {
    conn.close();
  }
}

interface RoundFigures {
  round: number;
  sent: number;
  killAt: number;
  ok: number;
  r4xx: number;
  r5xx: number;
  lost: number;
  lostPresent: number;
  present: number;
  missing: number;
  integrity: string;
  quick: string;
}

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2));
  const started = Date.now();
  const live = new Set<ChildProcess>();
  const watchdog = setTimeout(() => {
    for (const c of live) c.kill("SIGKILL");
    process.stderr.write(`crash: timed out after ${opts.timeoutS} s\n`);
    process.exit(3);
  }, opts.timeoutS * 1000);
  watchdog.unref();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "privnet-crash-"));
  const db = path.join(dir, "privnet.db");
  const tokenFile = path.join(dir, "owner-token");
  const random = prng(opts.seed);
  /** Every object acknowledged with a 2xx so far: `kind/id` -> name. */
  const acknowledged = new Map<string, string>();
  const rounds: RoundFigures[] = [];
  const failures: string[] = [];

  // Seeded latency (0..latency ms before each request is handled) spreads the server's work over time, so the
  // kill lands while it is still committing creates rather than after it has answered them all: without it, the
  // server can finish 500 creates faster than this client reads the answers, leaving nothing in flight.
  const faults = (round: number) => `seed=${opts.seed + round},latency=${opts.latencyMs}`;
  let server = await startServer(db, tokenFile, faults(1));
  live.add(server.child);
  const token = fs.readFileSync(tokenFile, "utf8").trim();

  for (let round = 1; round <= opts.rounds; round++) {
    // The kill lands after 20% to 80% of the answers: deterministic for a seed, always mid-flight.
    const killAt = Math.max(1, Math.floor(opts.requests * (0.2 + 0.6 * random())));
    const kinds = Array.from({ length: opts.requests }, () => Math.floor(random() * KINDS.length));
    let answered = 0;
    const victim = server;
    const outcomes = await Promise.all(
      kinds.map(async (kind, i) => {
        const o = await send(victim.url, token, kind, `crash-r${round}-${i}`);
        if (o.status !== undefined && ++answered === killAt) victim.child.kill("SIGKILL");
        return o;
      }),
    );
    const exit = await victim.exited;
    live.delete(victim.child);
    if (exit !== "SIGKILL") failures.push(`round ${round}: server ended with ${String(exit)}, not SIGKILL`);

    server = await startServer(db, tokenFile, faults(round + 1));
    live.add(server.child);
    const stored = await inventory(server.url, token);
    const f: RoundFigures = {
      round,
      sent: outcomes.length,
      killAt,
      ok: 0,
      r4xx: 0,
      r5xx: 0,
      lost: 0,
      lostPresent: 0,
      present: 0,
      missing: 0,
      integrity: "",
      quick: "",
    };
    const storedNames = new Set([...stored.entries()].map(([key, name]) => `${key.split("/")[0]}/${name}`));
    for (const o of outcomes) {
      if (o.status === undefined) {
        f.lost++;
        if (storedNames.has(`${o.kind}/${o.name}`)) f.lostPresent++;
      } else if (o.status >= 500) f.r5xx++;
      else if (o.status >= 400) f.r4xx++;
      else if (o.id) {
        f.ok++;
        acknowledged.set(`${o.kind}/${o.id}`, o.name);
        if (stored.get(`${o.kind}/${o.id}`) === o.name) f.present++;
      } else {
        failures.push(`round ${round}: ${o.kind} ${o.name} answered ${o.status} without an id`);
      }
    }
    // Every acknowledged create of this round and of every earlier round, by id, with its name.
    let present = 0;
    for (const [key, name] of acknowledged) {
      if (stored.get(key) === name) present++;
      else failures.push(`round ${round}: acknowledged ${key} (${name}) is missing after restart`);
    }
    f.missing = acknowledged.size - present;
    if (f.lost === 0) failures.push(`round ${round}: no request was in flight at the kill (nothing tested)`);
    if (f.r5xx) failures.push(`round ${round}: ${f.r5xx} answers were 5xx`);
    if (f.r4xx) failures.push(`round ${round}: ${f.r4xx} answers were 4xx (valid creates)`);
    const p = pragmas(db);
    f.integrity = p.integrity;
    f.quick = p.quick;
    if (p.integrity !== "ok" || p.quick !== "ok")
      failures.push(`round ${round}: integrity_check=${p.integrity} quick_check=${p.quick}`);
    rounds.push(f);
    if (!opts.json) {
      process.stdout.write(
        `crash round ${round}: sent=${f.sent} kill_after=${f.killAt} 2xx=${f.ok} lost_in_flight=${f.lost} ` +
          `(of which stored=${f.lostPresent}) present_after_restart=${f.present}/${f.ok} ` +
          `acknowledged_total=${acknowledged.size} missing_total=${f.missing} 5xx=${f.r5xx} 4xx=${f.r4xx} ` +
          `integrity=${f.integrity} quick_check=${f.quick}\n`,
      );
    }
  }

  server.child.kill("SIGTERM");
  const last = await server.exited;
  live.delete(server.child);
  if (last !== 0) failures.push(`clean stop exited with ${String(last)}: ${server.stderr()}`);
  const final = pragmas(db);
  if (final.integrity !== "ok" || final.quick !== "ok")
    failures.push(`after the clean stop: integrity_check=${final.integrity} quick_check=${final.quick}`);
  clearTimeout(watchdog);
  fs.rmSync(dir, { recursive: true, force: true });

  const sum = (k: keyof RoundFigures) => rounds.reduce((n, r) => n + (r[k] as number), 0);
  const result = {
    rounds: rounds.length,
    sent: sum("sent"),
    ok: sum("ok"),
    present: acknowledged.size - (rounds.at(-1)?.missing ?? 0),
    missing: rounds.at(-1)?.missing ?? 0,
    lost: sum("lost"),
    lostPresent: sum("lostPresent"),
    r5xx: sum("r5xx"),
    r4xx: sum("r4xx"),
    integrity: rounds.every((r) => r.integrity === "ok") && final.integrity === "ok" ? "ok" : "FAILED",
    quickCheck: rounds.every((r) => r.quick === "ok") && final.quick === "ok" ? "ok" : "FAILED",
    seconds: Math.round((Date.now() - started) / 100) / 10,
    failures: failures.slice(0, 50),
  };
  if (opts.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    for (const f of failures.slice(0, 20)) process.stdout.write(`crash: FAIL ${f}\n`);
    if (failures.length > 20) process.stdout.write(`crash: ... and ${failures.length - 20} more\n`);
    process.stdout.write(
      `crash result: ${failures.length ? "FAIL" : "PASS"} rounds=${result.rounds} sent=${result.sent} ` +
        `2xx_before_kill=${result.ok} present_after_restart=${result.present} missing=${result.missing} ` +
        `lost_in_flight=${result.lost} (stored=${result.lostPresent}) 5xx=${result.r5xx} ` +
        `integrity_check=${result.integrity} quick_check=${result.quickCheck} time=${result.seconds}s\n`,
    );
  }
  return failures.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`crash: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  },
);
