/**
 * privnet-access on an account of about 1,000 objects: `show` (read the account over HTTP with one list per
 * kind, compute the map, print every peer's lines) and `diff` of a change (a policy's sources widened) under the
 * real Pulumi CLI, whose figure that counts is the time without the program's own `pulumi up`.
 *
 * The account is generated (tests/support/netmap-account.ts, randomSnapshot: 600 peers, 100 groups, 250
 * policies, 40 network resources in 4 networks with a router each, routes, a nameserver group, a zone) and
 * served by a privnet-server seeded with it (server/seed.ts, the same path as diff's twin). The program is
 * tests/e2e/programs/access-diff (one policy towards a group of the account), applied for real first.
 * Targets (issue 23): show <= 5 s; diff <= 60 s not counting the program's run.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { run } from "../access/cli";
import type { AccountSnapshot } from "../netmap";
import { startServer, type Seed } from "../server";
import { randomSnapshot } from "../tests/support/netmap-account";
import { copyProject, PulumiStack } from "../tests/e2e/project";
import { progress } from "./lib/progress";
import { median } from "./lib/stats";

export const ACCESS_SHOW_TARGET_MS = 5000;
export const ACCESS_DIFF_TARGET_MS = 60_000;
export const ACCESS_SHAPE = { peers: 600, groups: 100, policies: 250, resources: 40 };
const REPS = 3;

export interface AccessBenchResult {
  objects: number;
  shape: typeof ACCESS_SHAPE;
  show: { runsMs: number[]; medianMs: number; lines: number; targetMs: number };
  diff: {
    totalMs: number;
    programMs: number;
    withoutProgramMs: number;
    phases: Record<string, number>;
    gained: number;
    lost: number;
    targetMs: number;
  };
}

/** The generated account in the seed's form (API objects per kind). */
export function seedOf(s: AccountSnapshot): Seed {
  const ref = (ids: readonly string[] | undefined) => (ids ?? []).map((id) => ({ id }));
  const o = (id: string, object: Record<string, unknown>, parents: Record<string, string> = {}) => ({
    id,
    object: { id, ...object },
    parents,
  });
  return {
    version: 1,
    objects: {
      AccountSettings: [o("account", { ...s.settings })],
      Peer: s.peers.map((p) => o(p.id, { ...p, meta: p.meta })),
      Group: [
        ...s.groups.map((g) =>
          o(g.all ? "all" : g.id, { name: g.name, peers: ref(g.all ? [] : g.peers), resources: g.resources }),
        ),
      ],
      PostureCheck: s.posture_checks.map((c) => o(c.id, { name: c.name, checks: c.checks })),
      Policy: s.policies.map((p) => o(p.id, { ...p, description: "" })),
      Network: s.networks.map((n) => o(n.id, { name: n.name })),
      NetworkResource: s.networks.flatMap((n) =>
        n.resources.map((r) => o(r.id, { ...r }, { networkId: n.id })),
      ),
      NetworkRouter: s.networks.flatMap((n) => n.routers.map((r) => o(r.id, { ...r }, { networkId: n.id }))),
      Route: s.routes.map((r) => o(r.id, { ...r, description: r.description ?? "" })),
      NameserverGroup: s.nameserver_groups.map((g) => o(g.id, { ...g, description: "" })),
      DnsZone: s.dns_zones.map((z) => o(z.id, { ...z })),
    },
  };
}

export async function runAccess(opts: { workDir: string; binDir: string }): Promise<AccessBenchResult> {
  const snapshot = randomSnapshot(23, ACCESS_SHAPE);
  const seed = seedOf(snapshot);
  const objects = Object.values(seed.objects).reduce((n, l) => n + l.length, 0);
  const server = await startServer({ seed, simulate: true });
  const token = server.ownerToken as string;
  const env = { PRIVNET_API_URL: server.url, PRIVNET_TOKEN: token };
  try {
    const runsMs: number[] = [];
    let lines = 0;
    for (let i = 0; i < REPS; i++) {
      let out = "";
      const t = performance.now();
      const code = await run(["show", "--json"], { stdout: (x) => (out += x), stderr: () => undefined, env });
      runsMs.push(performance.now() - t);
      if (code !== 0) throw new Error(`show exited ${code}`);
      lines = (JSON.parse(out) as { peers: { reaches: unknown[] }[] }).peers.reduce(
        (n, p) => n + p.reaches.length,
        0,
      );
    }
    progress(
      "access",
      `show of ${objects} objects: ${runsMs.map((x) => x.toFixed(0)).join(", ")} ms (${lines} lines)`,
    );

    const work = fs.mkdtempSync(path.join(opts.workDir || os.tmpdir(), "access-"));
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
    let out = "";
    let err = "";
    const code = await run(["diff", "--cwd", project.dir, "--stack", "bench", "--json"], {
      stdout: (x) => (out += x),
      stderr: (x) => (err += x),
      env: stack.env,
    });
    if (code !== 0) throw new Error(`diff exited ${code}: ${err}`);
    const d = JSON.parse(out) as { gained: unknown[]; lost: unknown[]; timings_ms: Record<string, number> };
    const total = d.timings_ms.total ?? 0;
    const program = d.timings_ms.program ?? 0;
    progress(
      "access",
      `diff: ${total} ms in all, ${program} ms the program's pulumi up, ${total - program} ms without it ` +
        `(+${d.gained.length} -${d.lost.length} lines)`,
    );
    return {
      objects,
      shape: ACCESS_SHAPE,
      show: { runsMs, medianMs: median(runsMs), lines, targetMs: ACCESS_SHOW_TARGET_MS },
      diff: {
        totalMs: total,
        programMs: program,
        withoutProgramMs: total - program,
        phases: d.timings_ms,
        gained: d.gained.length,
        lost: d.lost.length,
        targetMs: ACCESS_DIFF_TARGET_MS,
      },
    };
  } finally {
    await server.close();
  }
}
