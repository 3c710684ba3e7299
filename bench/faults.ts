/**
 * Fault tolerance: `pulumi up` of 100 resources (programs/graph.js: 50 groups, 25 policies, 25 setup keys)
 * against privnet-server started with `--faults seed=7,429=0.2,503=0.1,latency=20` converges.
 *
 * The client retries 429 for every method and 503 for all but POST (a POST may have reached the server), so
 * some creates fail with 503 and `pulumi up` exits non-zero: it is run again (at most 10 runs, within a time
 * bound) until it succeeds. Runs use `--continue-on-error`: without it the engine starts no new step after the
 * first failure, so with 10% of POSTs failing each run gets only about ten creates done and 100 resources
 * take more than 10 runs (measured: 99 of 100 after 10 runs). Then the faulty server is stopped and a fault-free one opened on the same database
 * file, and the stack's state is compared with what the server holds:
 *   - every resource in state exists on the server, with the state's name;
 *   - 0 duplicates (two server objects with one program name) and 0 orphans (program objects not in state);
 *   - `pulumi refresh --expect-no-changes` against the fault-free server (the provider reads every object back).
 * Injected faults are counted from the request log (the server sends 429 and 503 only as injected faults when
 * its rate limit is off, as here).
 *
 * Part of `npm run bench`; alone: `npm run bench -- faults`.
 */
import * as path from "node:path";
import { progress } from "./lib/progress";
import { createProject, stateResources } from "./lib/project";
import { RequestLog } from "./lib/request-log";
import { api, startServerProcess, type ServerProcess } from "./lib/server";

export const FAULT_SPEC = "seed=7,429=0.2,503=0.1,latency=20";

export interface FaultRun {
  code: number | null;
  durationMs: number;
  /** API requests the run made, and how many were answered with an injected 429 / 503. */
  requests: number;
  r429: number;
  r503: number;
  /** POSTs answered 503 (each is a create that failed and is left for the next run). */
  post503: number;
}

export interface FaultsResult {
  spec: string;
  resources: number;
  maxRuns: number;
  runs: FaultRun[];
  converged: boolean;
  /** Totals over all runs. */
  requests: number;
  r429: number;
  r503: number;
  verify: {
    stateResources: number;
    serverObjects: number;
    missingOnServer: string[];
    nameMismatches: string[];
    duplicates: string[];
    orphans: string[];
    refreshNoChanges: boolean;
  };
  ok: boolean;
  durationMs: number;
}

const LIST_OPS: Record<string, { path: string; prefix: string }> = {
  Group: { path: "/api/groups", prefix: "g-" },
  Policy: { path: "/api/policies", prefix: "p-" },
  SetupKey: { path: "/api/setup-keys", prefix: "k-" },
};

export async function runFaults(opts: {
  workDir: string;
  binDir: string;
  resources?: number;
  maxRuns?: number;
  timeBoundMs?: number;
}): Promise<FaultsResult> {
  const S = "faults";
  const started = Date.now();
  const count = opts.resources ?? 100;
  const maxRuns = opts.maxRuns ?? 10;
  const deadline = started + (opts.timeBoundMs ?? 8 * 60_000);
  const dir = path.join(opts.workDir, "faults-server");
  const suffix = "faults";
  let server: ServerProcess | undefined = await startServerProcess({ dir, faults: FAULT_SPEC });
  const result: FaultsResult = {
    spec: FAULT_SPEC,
    resources: count,
    maxRuns,
    runs: [],
    converged: false,
    requests: 0,
    r429: 0,
    r503: 0,
    verify: {
      stateResources: 0,
      serverObjects: 0,
      missingOnServer: [],
      nameMismatches: [],
      duplicates: [],
      orphans: [],
      refreshNoChanges: false,
    },
    ok: false,
    durationMs: 0,
  };
  try {
    progress(S, `server ${server.url} --faults ${FAULT_SPEC}; ${count} resources, at most ${maxRuns} runs`);
    const project = await createProject({
      workDir: opts.workDir,
      name: "bench-faults",
      program: "graph.js",
      binDir: opts.binDir,
      server,
    });
    project.setInput({ count, suffix });
    const log = new RequestLog(server.requestLog as string, server);
    for (let run = 1; run <= maxRuns; run++) {
      const left = deadline - Date.now();
      if (left < 10_000) throw new Error(`time bound reached after ${run - 1} runs without convergence`);
      await log.takeSettled();
      const r = await project.pulumi(["up", "--skip-preview", "--continue-on-error"], {
        yes: true,
        allowFail: true,
        timeoutMs: Math.min(240_000, left),
      });
      if (r.timedOut) throw new Error(`pulumi up run ${run} timed out`);
      const entries = (await log.takeSettled()).filter((e) => e.route.startsWith("/api/"));
      const fr: FaultRun = {
        code: r.code,
        durationMs: r.durationMs,
        requests: entries.length,
        r429: entries.filter((e) => e.status === 429).length,
        r503: entries.filter((e) => e.status === 503).length,
        post503: entries.filter((e) => e.status === 503 && e.method === "POST").length,
      };
      result.runs.push(fr);
      progress(
        S,
        `run ${run}: exit ${r.code} in ${(r.durationMs / 1000).toFixed(1)} s; ${fr.requests} requests, ` +
          `${fr.r429} x 429, ${fr.r503} x 503 (${fr.post503} on POST)`,
      );
      if (r.code === 0) {
        result.converged = true;
        break;
      }
    }
    for (const fr of result.runs) {
      result.requests += fr.requests;
      result.r429 += fr.r429;
      result.r503 += fr.r503;
    }

    // Verify against a fault-free server on the same database, on the same port: `refresh` uses the provider
    // configuration stored in state by the last `up` (its apiUrl), not the stack's current config.
    await server.stop();
    const port = Number(new URL(server.url).port);
    server = await startServerProcess({ dir, requestLog: "verify-requests.log", port });
    const clean = server;
    progress(S, `verifying with a fault-free server on the same database (${clean.url})`);
    const state = await stateResources(project);
    const v = result.verify;
    v.stateResources = state.length;
    const stateIds = new Set(state.map((r) => `${r.kind}/${r.id}`));
    for (const [kind, { path: listPath, prefix }] of Object.entries(LIST_OPS)) {
      // Ids as strings: the API returns setup key ids as numbers; state holds them as strings.
      const objects = (await api<{ id: string | number; name: string }[]>(clean, "GET", listPath))
        .filter((o) => o.name.startsWith(`${prefix}${suffix}-`))
        .map((o) => ({ id: String(o.id), name: o.name }));
      v.serverObjects += objects.length;
      const byId = new Map(objects.map((o) => [o.id, o]));
      const names = new Map<string, number>();
      for (const o of objects) names.set(o.name, (names.get(o.name) ?? 0) + 1);
      for (const [name, n] of names) if (n > 1) v.duplicates.push(`${kind} ${name} x${n}`);
      for (const o of objects)
        if (!stateIds.has(`${kind}/${o.id}`)) v.orphans.push(`${kind} ${o.name} (${o.id})`);
      for (const r of state.filter((x) => x.kind === kind)) {
        const o = byId.get(r.id);
        if (!o) v.missingOnServer.push(`${kind} ${r.name} (${r.id})`);
        else if (o.name !== r.outputs.name)
          v.nameMismatches.push(`${kind} ${r.name}: ${o.name} != ${String(r.outputs.name)}`);
      }
    }
    const refresh = await project.pulumi(["refresh", "--expect-no-changes", "--skip-preview"], {
      yes: true,
      allowFail: true,
    });
    v.refreshNoChanges = refresh.code === 0;
    result.ok =
      result.converged &&
      v.stateResources === count &&
      v.serverObjects === count &&
      v.missingOnServer.length === 0 &&
      v.nameMismatches.length === 0 &&
      v.duplicates.length === 0 &&
      v.orphans.length === 0 &&
      v.refreshNoChanges;
    progress(
      S,
      `${result.converged ? `converged in ${result.runs.length} runs` : "did NOT converge"}; state ${v.stateResources}, ` +
        `server ${v.serverObjects}, missing ${v.missingOnServer.length}, duplicates ${v.duplicates.length}, ` +
        `orphans ${v.orphans.length}, refresh ${v.refreshNoChanges ? "no changes" : "CHANGES"}: ${result.ok ? "ok" : "FAILED"}`,
    );
    return result;
  } finally {
    result.durationMs = Date.now() - started;
    await server?.stop();
  }
}
