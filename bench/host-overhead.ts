/**
 * Provider overhead per operation: N sequential checks, creates, diffs, reads and deletes of a Group
 *   1. `direct`:   with the client (the floor: HTTP + server),
 *   2. `provider`: through the provider object in this process (+ mapping, validation, output building),
 *   3. `host`:     through the REAL dynamic-provider host over gRPC, with the real serialized provider text
 *                  (+ gRPC, protobuf Structs, provider lookup: what the engine sees),
 *   4. `hostNoop`: through the same host with a do-nothing provider (bench/programs/noop-provider.js): the
 *                  host's own cost, which any dynamic provider pays,
 * against privnet-server in its own process. The paths take turns call by call, so a busy moment of the machine
 * hits all of them alike. Medians and p99 per call.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { PrivnetClient } from "../client";
import type { PrivnetProvider } from "../provider/lifecycle";
import { PROVIDERS } from "../provider/registry";
import { captureProviderTexts, startHost } from "../tests/support/host";
import { installPackageCopy } from "../tests/support/package-copy";
import { summarizeProfile } from "./lib/cpuprofile";
import { progress } from "./lib/progress";
import { installNoopProvider } from "./lib/project";
import { startServerProcess } from "./lib/server";
import { median, p99 } from "./lib/stats";

export const OPS = ["check", "create", "diff", "read", "delete"] as const;
export type Op = (typeof OPS)[number];
export const PATHS = ["direct", "provider", "host", "hostNoop"] as const;
export type Path = (typeof PATHS)[number];

export interface HostOverheadResult {
  n: number;
  kind: string;
  /** Per path and operation: median and p99 of one call, ms (no entry: the path has no such call). */
  latency: Record<Path, Partial<Record<Op, { median: number; p99: number }>>>;
  hostStartMs: number;
  /** First call on a new provider text in the host (loads the package), ms. */
  firstCallMs: number;
  /**
   * `require("pulumi-privnet")` in a new Node process of the project, after `@pulumi/pulumi` (what every
   * program pays once), median of 3, ms; and the share of zod, undici and api/ in a CPU profile of it.
   */
  packageLoadMs: number;
  /** Inclusive time under the zod, undici and api/ modules in a profiled `require("pulumi-privnet")`, ms. */
  packageLoadParts: { name: string; totalMs: number }[];
}

const LOAD_SCRIPT = `require("@pulumi/pulumi");
const t1 = process.hrtime.bigint(); require("pulumi-privnet");
process.stdout.write(String(Number(process.hrtime.bigint() - t1) / 1e6));`;

/** Times `require("pulumi-privnet")` in fresh processes in the project directory, then profiles one. */
function packageLoad(dir: string): { ms: number; parts: { name: string; totalMs: number }[] } {
  const ms: number[] = [];
  for (let i = 0; i < 3; i++) {
    const out = execFileSync(process.execPath, ["-e", LOAD_SCRIPT], {
      cwd: dir,
      encoding: "utf8",
      timeout: 60_000,
    });
    ms.push(Number(out));
  }
  const profDir = path.join(dir, "load-profile");
  execFileSync(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${profDir}`, "-e", LOAD_SCRIPT], {
    cwd: dir,
    timeout: 60_000,
  });
  const file = fs.readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"));
  const modules: [string, RegExp][] = [
    ["zod", /node_modules\/zod\//],
    ["undici", /node_modules\/undici\//],
    ["api/ (schemas, route table; includes zod calls)", /pulumi-privnet\/dist\/api\//],
    ["all of pulumi-privnet (profiled)", /pulumi-privnet\/dist\/sdk\/index/],
  ];
  const inclusive = file
    ? summarizeProfile(
        path.join(profDir, file),
        modules.map(([, re]) => re),
      ).inclusive
    : [];
  const parts = modules.flatMap(([name, re]) => {
    const hit = inclusive.find((x) => x.name === re.source);
    return hit ? [{ name, totalMs: hit.totalMs }] : [];
  });
  return { ms: median(ms), parts };
}

type Props = Record<string, unknown>;
/** One path's implementation of the operations; a missing one is not measured. */
type Impl = Partial<Record<Op, (i: number) => Promise<void>>>;

export async function runHostOverhead(opts: { workDir: string; n?: number }): Promise<HostOverheadResult> {
  const S = "host-overhead";
  const n = opts.n ?? 200;
  const warm = 10;
  const kind = "Group";
  const server = await startServerProcess({ dir: path.join(opts.workDir, "host-server"), requestLog: null });
  const copy = installPackageCopy({
    dir: path.join(opts.workDir, "host-project"),
    projectName: "bench-host",
  });
  installNoopProvider(copy.dir);
  const result: HostOverheadResult = {
    n,
    kind,
    latency: { direct: {}, provider: {}, host: {}, hostNoop: {} },
    hostStartMs: NaN,
    firstCallMs: NaN,
    packageLoadMs: NaN,
    packageLoadParts: [],
  };
  let host: Awaited<ReturnType<typeof startHost>> | undefined;
  const client = new PrivnetClient({ apiUrl: server.url, token: server.token });
  try {
    progress(
      S,
      `server ${server.url}; ${n} sequential calls per operation and path (+${warm} warm-up calls)`,
    );
    const provider = PROVIDERS.find((p) => p.spec.name === kind) as PrivnetProvider;
    await provider.configure({
      config: {
        get: (k: string) =>
          k === "privnet:apiUrl" ? server.url : k === "privnet:token" ? server.token : undefined,
        require: (k: string) => {
          throw new Error(`unexpected require(${k})`);
        },
      },
    } as never);
    const captured = await captureProviderTexts(copy, [kind], {
      envToken: "bench-env-token",
      envApiUrl: "http://127.0.0.1:1",
      configToken: "bench-config-token",
      configApiUrl: "http://127.0.0.1:1",
    });
    const text = captured.providers[kind]?.text;
    if (!text) throw new Error(`no serialized provider for ${kind}`);
    const noopText = text.replace(
      // The package's provider entry (or, in states written before it, one module per kind).
      /pulumi-privnet\/(?:provider|dist\/provider\/resources\/[a-z-]+\.js)/,
      "bench-noop-provider/index.js",
    );
    if (noopText === text) throw new Error(`unexpected provider text: ${text}`);
    host = await startHost(copy);
    const h = host;
    result.hostStartMs = h.startMs;
    await h.configure({ "privnet:apiUrl": server.url, "privnet:token": server.token });
    const t0 = performance.now();
    await h.check(kind, { __provider: text, __kind: kind, name: "first-call" });
    result.firstCallMs = performance.now() - t0;
    await h.check(kind, { __provider: noopText, __kind: kind, name: "first-call" });

    const name = (p: string, i: number) => `${p}-${process.pid}-${i}`;
    const total = warm + n;
    const ids: Record<Path, string[]> = { direct: [], provider: [], host: [], hostNoop: [] };
    const outs: Record<Path, Props[]> = { direct: [], provider: [], host: [], hostNoop: [] };
    const hostImpl = (p: "host" | "hostNoop", t: string, prefix: string): Impl => ({
      check: async (i) => void (await h.check(kind, { __provider: t, __kind: kind, name: name(prefix, i) })),
      create: async (i) => {
        const c = await h.create(kind, { __provider: t, __kind: kind, name: name(prefix, i) });
        ids[p][i] = c.id;
        outs[p][i] = c.props;
      },
      diff: async (i) =>
        void (await h.diff(kind, ids[p][i] as string, outs[p][i] as Props, {
          __provider: t,
          __kind: kind,
          name: name(prefix, i),
        })),
      read: async (i) => void (await h.read(kind, ids[p][i] as string, outs[p][i] as Props)),
      delete: async (i) => void (await h.delete(kind, ids[p][i] as string, outs[p][i] as Props)),
    });
    const impls: Record<Path, Impl> = {
      direct: {
        create: async (i) => {
          ids.direct[i] = (
            await client.call<{ id: string }>("createGroup", { body: { name: name("d", i) } })
          ).id;
        },
        read: async (i) =>
          void (await client.call("getGroup", { params: { groupId: ids.direct[i] as string } })),
        delete: async (i) =>
          void (await client.call("deleteGroup", { params: { groupId: ids.direct[i] as string } })),
      },
      provider: {
        check: async (i) => void (await provider.check({}, { name: name("p", i) })),
        create: async (i) => {
          const c = await provider.create({ name: name("p", i) });
          ids.provider[i] = c.id;
          outs.provider[i] = c.outs as Props;
        },
        diff: async (i) =>
          void (await provider.diff(ids.provider[i] as string, outs.provider[i] as Props, {
            name: name("p", i),
          })),
        read: async (i) => void (await provider.read(ids.provider[i] as string, outs.provider[i] as Props)),
        delete: async (i) =>
          void (await provider.delete(ids.provider[i] as string, outs.provider[i] as Props)),
      },
      host: hostImpl("host", text, "h"),
      hostNoop: hostImpl("hostNoop", noopText, "n"),
    };
    for (const op of OPS) {
      const samples: Record<Path, number[]> = { direct: [], provider: [], host: [], hostNoop: [] };
      for (let i = 0; i < total; i++) {
        for (const p of PATHS) {
          const f = impls[p][op];
          if (!f) continue;
          const t = performance.now();
          await f(i);
          if (i >= warm) samples[p].push(performance.now() - t);
        }
      }
      for (const p of PATHS) {
        if (samples[p].length) result.latency[p][op] = { median: median(samples[p]), p99: p99(samples[p]) };
      }
      progress(
        S,
        `${op}: ${PATHS.filter((p) => result.latency[p][op])
          .map((p) => `${p} ${result.latency[p][op]?.median.toFixed(2)} ms`)
          .join(", ")} (median)`,
      );
    }
    const loaded = packageLoad(copy.dir);
    result.packageLoadMs = loaded.ms;
    result.packageLoadParts = loaded.parts;
    progress(S, `require("pulumi-privnet") in a new process: ${result.packageLoadMs.toFixed(0)} ms`);
    return result;
  } finally {
    await host?.stop();
    await client.close();
    await server.stop();
    fs.rmSync(copy.dir, { recursive: true, force: true });
  }
}
