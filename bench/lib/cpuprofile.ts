/**
 * Summaries of V8 CPU profiles (`node --cpu-prof`): total sampled time, self time by function and by package
 * (the directory under node_modules, or the repo folder), and inclusive time of chosen functions.
 */
import * as fs from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileSummary {
  file: string;
  /** Wall time covered by the profile, ms. */
  wallMs: number;
  /** Sampled time not idle (program, GC, ...), ms. */
  busyMs: number;
  topFunctions: { name: string; selfMs: number }[];
  byPackage: { name: string; selfMs: number }[];
  /** Inclusive (self + callees) time of functions whose name matches a pattern given to summarize. */
  inclusive: { name: string; totalMs: number }[];
}

/** The package a script belongs to: `zod`, `@pulumi/pulumi`, `pulumi-privnet/provider`, `node:internal`, ... */
export function packageOf(url: string): string {
  if (url === "") return "(native/vm)";
  if (url.startsWith("node:")) return "node:internal";
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "/node_modules/".length).split("/");
    const name = rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? "?");
    if (name === "pulumi-privnet") return `pulumi-privnet/${rest[2] ?? "?"}`;
    return name;
  }
  const m = /\/(dist|work\/[^/]+)\/([^/]+)\//.exec(url);
  return m ? `repo/${m[2]}` : url.replace(/^file:\/\//, "");
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) return url.slice(nm + "/node_modules/".length);
  return url.replace(/^file:\/\//, "").replace(/^.*\/(dist|bench|server|client|provider)\//, "$1/");
}

export function summarizeProfile(file: string, inclusivePatterns: RegExp[] = [], top = 12): ProfileSummary {
  const prof = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const samples = prof.samples ?? [];
  const deltas = prof.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    // A sample's time is the delta to the next sample.
    const dt = deltas[i + 1] ?? 0;
    const id = samples[i] as number;
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, dt));
  }
  const fnSelf = new Map<string, number>();
  const pkgSelf = new Map<string, number>();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    if (!n) continue;
    const fname = n.callFrame.functionName || "(anonymous)";
    if (fname === "(idle)" || fname === "(program)" || fname === "(root)") {
      if (fname === "(program)") busyUs += us;
      if (fname === "(program)") pkgSelf.set("(program)", (pkgSelf.get("(program)") ?? 0) + us);
      continue;
    }
    busyUs += us;
    const key =
      fname === "(garbage collector)"
        ? fname
        : `${fname} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
    fnSelf.set(key, (fnSelf.get(key) ?? 0) + us);
    const pkg = fname === "(garbage collector)" ? "(gc)" : packageOf(n.callFrame.url);
    pkgSelf.set(pkg, (pkgSelf.get(pkg) ?? 0) + us);
  }
  // Inclusive time: for each node, self + all descendants; a function counted once per stack (no recursion
  // double count: descendants of a matching node are not matched again).
  const inclusive = new Map<string, number>();
  const totalOf = new Map<number, number>();
  const total = (id: number): number => {
    const cached = totalOf.get(id);
    if (cached !== undefined) return cached;
    const n = byId.get(id);
    let t = selfUs.get(id) ?? 0;
    for (const c of n?.children ?? []) t += total(c);
    totalOf.set(id, t);
    return t;
  };
  const root = prof.nodes[0];
  const walk = (id: number, matched: Set<string>) => {
    const n = byId.get(id);
    if (!n) return;
    const name = n.callFrame.functionName || "(anonymous)";
    let next = matched;
    for (const re of inclusivePatterns) {
      const label = re.source;
      if (!matched.has(label) && re.test(`${name} ${n.callFrame.url}`)) {
        inclusive.set(label, (inclusive.get(label) ?? 0) + total(id));
        next = new Set(next).add(label);
      }
    }
    for (const c of n.children ?? []) walk(c, next);
  };
  if (root) walk(root.id, new Set());
  const ms = (us: number) => Math.round(us / 100) / 10;
  const sorted = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, selfMs: ms(us) }));
  return {
    file,
    wallMs: ms(prof.endTime - prof.startTime),
    busyMs: ms(busyUs),
    topFunctions: sorted(fnSelf).slice(0, top),
    byPackage: sorted(pkgSelf).slice(0, top),
    inclusive: [...inclusive].map(([name, us]) => ({ name, totalMs: ms(us) })),
  };
}
