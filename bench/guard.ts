/**
 * The access guard (policy/, a Pulumi policy pack) on an account of about 1,000 objects: what it adds to a
 * `pulumi preview` of a change. Target (issue 37): at most 3 s.
 *
 * The account is access.ts's (tests/support/netmap-account.ts, randomSnapshot: 600 peers, 100 groups, 250
 * policies, 40 network resources in 4 networks with a router each, routes, a nameserver group, a zone), served by
 * a privnet-server seeded with it. The program is tests/e2e/programs/access-diff (one policy towards a group of the
 * account), applied first; the change widens its sources. The same preview runs without and with
 * `--policy-pack node_modules/pulumi-privnet/policy` (its three policies on, two access tests), interleaved and in
 * alternating order; the figure is the difference of the medians. The pack's own timings (PRIVNET_GUARD_TIMINGS)
 * say where its time goes.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startServer } from "../server";
import { randomSnapshot } from "../tests/support/netmap-account";
import { accessLinesOf, copyProject, PulumiStack } from "../tests/e2e/project";
import { ACCESS_SHAPE, seedOf } from "./access";
import { progress } from "./lib/progress";
import { median } from "./lib/stats";

export const GUARD_ADDED_TARGET_MS = 3000;
const REPS = 3;

export interface GuardBenchResult {
  objects: number;
  /** Wall time of each preview, without and with the pack. */
  withoutMs: number[];
  withMs: number[];
  medianWithoutMs: number;
  medianWithMs: number;
  /** Difference of the medians. */
  addedMs: number;
  targetMs: number;
  /** Gained and lost lines the pack listed. */
  lines: number;
  /** The pack's timings of its last run (ms): reads waited for, computation, its process's age when loaded. */
  phases: Record<string, number>;
}

export async function runGuard(opts: { workDir: string; binDir: string }): Promise<GuardBenchResult> {
  const snapshot = randomSnapshot(23, ACCESS_SHAPE);
  const seed = seedOf(snapshot);
  const objects = Object.values(seed.objects).reduce((n, l) => n + l.length, 0);
  const server = await startServer({ seed, simulate: true });
  const token = server.ownerToken as string;
  try {
    const work = fs.mkdtempSync(path.join(opts.workDir || os.tmpdir(), "guard-"));
    const project = await copyProject(
      ["tests/e2e/programs/access-diff"],
      work,
      "tests/e2e/programs/access-diff",
    );
    const stack = await PulumiStack.init({
      project,
      work,
      name: "bench",
      server: { url: server.url, token },
    });
    const g = (i: number) => `group${i}`;
    await stack.config(
      "ids",
      JSON.stringify({ laptops: g(0), db: g(1), admins: g(2), routers: g(3), gw: snapshot.peers[0]?.id }),
    );
    await stack.config("sources", JSON.stringify(["admins"]));
    await stack.up();
    await stack.config("sources", JSON.stringify(["admins", "laptops"]));

    const name = (i: number) => snapshot.groups.find((x) => x.id === g(i))?.name as string;
    const tests = path.join(work, "access-tests.yaml");
    fs.writeFileSync(
      tests,
      [
        "tests:",
        `  - {name: admins reach the database, from: {group: ${JSON.stringify(name(2))}}, to: {group: ${JSON.stringify(name(1))}}, port: 5432, expect: accept}`,
        `  - {name: no telnet to the database, from: {group: ${JSON.stringify(name(0))}}, to: {group: ${JSON.stringify(name(1))}}, port: 23, expect: deny}`,
        "",
      ].join("\n"),
    );
    const config = path.join(work, "policy-config.json");
    fs.writeFileSync(
      config,
      JSON.stringify({ "access-tests": { testsFile: tests, enforcementLevel: "advisory" } }),
    );
    const timings = path.join(work, "guard-timings.jsonl");
    stack.env.PRIVNET_GUARD_TIMINGS = timings;
    const pack = path.join(project.programDir, "node_modules", "pulumi-privnet", "policy");

    const withoutMs: number[] = [];
    const withMs: number[] = [];
    let lines = 0;
    const plain = async () => {
      const r = await stack.cli(["preview"]);
      withoutMs.push(r.durationMs);
    };
    const guarded = async () => {
      const r = await stack.cli(["preview", "--policy-pack", pack, "--policy-pack-config", config]);
      withMs.push(r.durationMs);
      lines = accessLinesOf(r.stdout).length;
      if (!r.stdout.includes("access-changes")) throw new Error(`the pack listed no change:\n${r.stdout}`);
    };
    // One of each first, unmeasured: the engine's and the pack's caches (Node's compile cache) warm up.
    await plain();
    await guarded();
    withoutMs.length = 0;
    withMs.length = 0;
    for (let i = 0; i < REPS; i++) {
      if (i % 2 === 0) {
        await plain();
        await guarded();
      } else {
        await guarded();
        await plain();
      }
    }
    const records = fs
      .readFileSync(timings, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, number>);
    const phases = records[records.length - 1] ?? {};
    const result: GuardBenchResult = {
      objects,
      withoutMs,
      withMs,
      medianWithoutMs: median(withoutMs),
      medianWithMs: median(withMs),
      addedMs: median(withMs) - median(withoutMs),
      targetMs: GUARD_ADDED_TARGET_MS,
      lines,
      phases,
    };
    progress(
      "guard",
      `preview of ${objects} objects: without the pack ${withoutMs.map((x) => x.toFixed(0)).join(", ")} ms, ` +
        `with it ${withMs.map((x) => x.toFixed(0)).join(", ")} ms: +${result.addedMs.toFixed(0)} ms ` +
        `(${lines} lines; pack: ${JSON.stringify(phases)})`,
    );
    return result;
  } finally {
    await server.close();
  }
}
