/**
 * privnet-import against an account of 1,000 objects (target: under 30 s). The server runs in its own process
 * (`--cloud --embedded-idp`, temp SQLite file, no request log); the account is made through its API first (not
 * measured): groups, posture checks, networks with resources and routers, policies between groups (with posture
 * checks and resources), routes, nameserver groups, zones with records, setup keys, service users, identity
 * providers, plus the two singletons every account has. Then the installed command (`node bin/privnet-import`)
 * runs as a user runs it, into a new directory each time; wall time of the whole process, its CPU time (from
 * /proc, as a reaped child), and the figures it prints (API requests, resources written).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { PrivnetClient } from "../client";
import { repoRoot } from "../tests/e2e/engine";
import { childrenCpuMs } from "./lib/cpu";
import { progress } from "./lib/progress";
import { startServerProcess } from "./lib/server";
import { median } from "./lib/stats";

export const IMPORT_TARGET_MS = 30_000;

/** The account: objects per kind (made through the API; the singletons exist in every account). */
export const ACCOUNT = {
  Group: 300,
  PostureCheck: 50,
  Network: 50,
  NetworkResource: 100,
  NetworkRouter: 50,
  Policy: 200,
  Route: 50,
  NameserverGroup: 20,
  DnsZone: 20,
  DnsRecord: 80,
  SetupKey: 40,
  User: 36,
  IdentityProvider: 2,
  DnsSettings: 1,
  AccountSettings: 1,
} as const;

export interface ImportRun {
  wallMs: number;
  cpuMs: number;
  /** What the command reported: API requests and its own time (without Node's start). */
  requests: number;
  reportedMs: number;
  resources: number;
  lookups: number;
  programLines: number;
  programKiB: number;
  /** Lines of the summary's "To review" list (objects that would not adopt cleanly). */
  toReview: number;
}

export interface ImportBenchResult {
  objects: number;
  composition: Record<string, number>;
  seedMs: number;
  runs: ImportRun[];
  targetMs: number;
}

/** Runs `fn` over `items` with at most `n` at a time. */
async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function seed(client: PrivnetClient): Promise<void> {
  const call = <T = { id: string }>(op: string, body: unknown, params?: Record<string, string>) =>
    client.call<T>(op, { body, ...(params ? { params } : {}) });
  const groups: string[] = new Array(ACCOUNT.Group);
  await pool(range(ACCOUNT.Group), 16, async (i) => {
    groups[i] = (await call("createGroup", { name: `team-${i}` })).id;
  });
  const g = (i: number) => groups[i % groups.length] as string;
  const checks: string[] = new Array(ACCOUNT.PostureCheck);
  await pool(range(ACCOUNT.PostureCheck), 16, async (i) => {
    checks[i] = (
      await call("createPostureCheck", {
        name: `posture-${i}`,
        description: `baseline ${i}`,
        checks: { nb_version_check: { min_version: `0.${20 + (i % 10)}.0` } },
      })
    ).id;
  });
  const resources: { id: string; type: string }[] = [];
  await pool(range(ACCOUNT.Network), 8, async (i) => {
    const net = (await call("createNetwork", { name: `net-${i}`, description: `site ${i}` })).id;
    for (const j of [0, 1]) {
      const r = await call<{ id: string; type: string }>(
        "createNetworkResource",
        { name: `host-${i}-${j}`, address: `10.${i}.${j}.10`, enabled: true, groups: [g(i), g(i + 1)] },
        { networkId: net },
      );
      resources.push({ id: r.id, type: r.type });
    }
    await call(
      "createNetworkRouter",
      { peer_groups: [g(i + 2)], metric: 100, masquerade: true, enabled: true },
      { networkId: net },
    );
  });
  await pool(range(ACCOUNT.Policy), 16, async (i) => {
    const toResource = i % 4 === 0;
    await call("createPolicy", {
      name: `policy-${i}`,
      description: i % 2 ? `access ${i}` : "",
      enabled: i % 10 !== 0,
      source_posture_checks: i % 3 === 0 ? [checks[i % checks.length]] : [],
      rules: [
        {
          name: "tcp",
          enabled: true,
          action: "accept",
          bidirectional: false,
          protocol: "tcp",
          ports: ["22", "443"],
          sources: [g(i), g(i + 7)],
          ...(toResource
            ? { destinationResource: resources[i % resources.length] }
            : { destinations: [g(i + 3)] }),
        },
      ],
    });
  });
  await pool(range(ACCOUNT.Route), 16, async (i) => {
    await call("createRoute", {
      description: `route ${i}`,
      network_id: `site-${i}`,
      enabled: true,
      peer_groups: [g(i + 5)],
      network: `172.16.${i}.0/24`,
      metric: 100 + i,
      masquerade: true,
      groups: [g(i), g(i + 9)],
      keep_route: false,
    });
  });
  await pool(range(ACCOUNT.NameserverGroup), 8, async (i) => {
    await call("createNameserverGroup", {
      name: `ns-${i}`,
      description: "",
      nameservers: [{ ip: `10.53.0.${i + 1}`, ns_type: "udp", port: 53 }],
      enabled: true,
      groups: [g(i)],
      primary: false,
      domains: [`site${i}.example`],
      search_domains_enabled: false,
    });
  });
  const perZone = ACCOUNT.DnsRecord / ACCOUNT.DnsZone;
  await pool(range(ACCOUNT.DnsZone), 8, async (i) => {
    const domain = `zone${i}.example`;
    const zone = (
      await call("createDnsZone", {
        name: `zone-${i}`,
        domain,
        enable_search_domain: false,
        distribution_groups: [g(i)],
      })
    ).id;
    for (const j of range(perZone))
      await call(
        "createDnsRecord",
        { name: `host${j}.${domain}`, type: "A", content: `10.99.${i}.${j + 1}`, ttl: 300 },
        { zoneId: zone },
      );
  });
  await pool(range(ACCOUNT.SetupKey), 16, async (i) => {
    await call("createSetupKey", {
      name: `key-${i}`,
      type: i % 2 ? "reusable" : "one-off",
      expires_in: 30 * 86400,
      auto_groups: [g(i)],
      usage_limit: i % 2 ? 0 : 1,
    });
  });
  await pool(range(ACCOUNT.User), 16, async (i) => {
    await call("createUser", {
      name: `robot-${i}`,
      role: "user",
      auto_groups: [g(i)],
      is_service_user: true,
    });
  });
  for (const i of range(ACCOUNT.IdentityProvider)) {
    await call("createIdentityProvider", {
      type: "oidc",
      name: `idp-${i}`,
      issuer: `https://idp${i}.example.com`,
      client_id: `client-${i}`,
      client_secret: `secret-${i}`,
    });
  }
  await client.call("updateDnsSettings", { body: { disabled_management_groups: [g(0)] } });
}

function runImporter(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; wallMs: number; cpuMs: number }> {
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, "bin", "privnet-import"), ...args],
      { env: { PATH: process.env.PATH }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) =>
        resolve({
          code: err ? (typeof err.code === "number" ? err.code : null) : 0,
          stdout,
          stderr,
          wallMs: performance.now() - t0,
          cpuMs: childrenCpuMs() - cpu0,
        }),
    );
  });
}

export async function runImport(opts: { workDir: string; reps?: number }): Promise<ImportBenchResult> {
  const dir = path.join(opts.workDir, "import");
  const server = await startServerProcess({
    dir,
    requestLog: null,
    cloud: true,
    embeddedIdp: true,
    label: "import server",
  });
  try {
    const client = new PrivnetClient({ apiUrl: server.url, token: server.token, rateLimit: false });
    const t0 = performance.now();
    try {
      await seed(client);
    } finally {
      await client.close();
    }
    const seedMs = performance.now() - t0;
    const objects = Object.values(ACCOUNT).reduce((a: number, b) => a + b, 0);
    progress("import", `account of ${objects} objects made in ${(seedMs / 1000).toFixed(1)} s`);
    const tokenFile = path.join(dir, "owner-token");
    const runs: ImportRun[] = [];
    for (const rep of range(opts.reps ?? 3)) {
      const out = path.join(dir, `account-${rep + 1}`);
      const r = await runImporter(["--api-url", server.url, "--token-file", tokenFile, "--out", out]);
      if (r.code !== 0) throw new Error(`privnet-import exited ${r.code}:\n${r.stderr}\n${r.stdout}`);
      const m = /: (\d+) resources, (\d+) lookups; (\d+) API requests in ([\d.]+) s/.exec(r.stdout);
      if (!m) throw new Error(`privnet-import printed no summary line:\n${r.stdout}`);
      const program = fs.readFileSync(path.join(out, "index.ts"), "utf8");
      const review = /^To review \(also in README\.md\): (\d+)$/m.exec(r.stdout);
      runs.push({
        wallMs: r.wallMs,
        cpuMs: r.cpuMs,
        resources: Number(m[1]),
        lookups: Number(m[2]),
        requests: Number(m[3]),
        reportedMs: Number(m[4]) * 1000,
        programLines: program.split("\n").length,
        programKiB: Buffer.byteLength(program) / 1024,
        toReview: review ? Number(review[1]) : 0,
      });
      progress(
        "import",
        `run ${rep + 1}: ${(r.wallMs / 1000).toFixed(1)} s wall, ${m[1]} resources, ${m[3]} requests`,
      );
      fs.rmSync(out, { recursive: true, force: true });
    }
    return { objects, composition: { ...ACCOUNT }, seedMs, runs, targetMs: IMPORT_TARGET_MS };
  } finally {
    await server.stop();
  }
}

/** The figure for the summary: the median wall time. */
export function importWallMs(r: ImportBenchResult): number {
  return median(r.runs.map((x) => x.wallMs));
}
