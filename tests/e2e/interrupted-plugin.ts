/**
 * A `pulumi up` through the resource plugin killed with SIGKILL mid-run, then recovered as docs/interrupted-runs.md
 * says (`pulumi cancel`, `pulumi up`) and destroyed, against any server: a YAML program (real CLI, real YAML language
 * host), a Java program (real CLI, real Java language host, generated SDK) or a Python Automation API inline
 * program (generated SDK, no language host). Used by the e2e tier on
 * privnet-server (tests/e2e/interrupted-plugin.test.ts) and by the acceptance tier on any target.
 *
 * The program: `groups` groups (unique names) and `policies` policies (names may repeat: policy i and i + policies/2
 * are identical), the policies' rules on the first ten groups, so policies are created while later groups still
 * are. A proxy in front of the server keeps the answers of two group creates and of the first three policy creates
 * (the server makes the objects; the engine never learns their ids), and the run is killed once those have reached
 * the server and the server's count shows that policy creates have started and not finished. Whatever else was in
 * flight is as a real kill leaves it: the engine may have noted an id, or not.
 *
 * Then: every object once (counted on the server), the objects the killed run made taken over (the warnings name
 * each), each object POSTed once over both runs, no answer of 400 or above (no 409) in the recovery, the state equal
 * to the server; after `pulumi refresh --clear-pending-creates` no note is left and a preview shows no change; and
 * nothing is left after `pulumi destroy`.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { PrivnetClient } from "../../client";
import { startHoldProxy, type HoldRule } from "../support/hold-proxy";
import { runPulumi } from "./engine";
import { inlineEnv, pythonWithSdk, run, stepsOf } from "./inline";
import { killWhen, repairFileBackend } from "./kill";
import { javaProgram, javaProject } from "./java";
import { changesOf, COMMAND_TIMEOUT_MS, PulumiStack, yamlProject, type Project } from "./project";

/** The server under test, and a client of it that does not go through the proxy. */
export interface Target {
  url: string;
  token: string;
  client: PrivnetClient;
}

export interface Sizes {
  groups: number;
  /** Even: every policy name is held by two identical policies. */
  policies: number;
}

/** The state as `pulumi stack export` prints it, the parts the test reads. */
export interface Exported {
  resources: { urn: string; type: string; id?: string }[];
  pending: { type: string; resource: { urn: string; type: string; id?: string } }[];
}

/** One language's program in one stack. */
export interface Runner {
  /** The stack's state backend (PULUMI_BACKEND_URL). */
  backendUrl: string;
  /** `pulumi up` of the whole program (10 in parallel); resolves when it ends (here: when killed). */
  up(onSpawn: (pid: number) => void): Promise<{ code: number | null; output: string }>;
  /** `pulumi cancel`, then `pulumi up`; what it printed (the engine's warnings among it). Fails if the up fails. */
  recover(): Promise<string>;
  /**
   * `pulumi refresh --clear-pending-creates` (the engine drops its notes), then a preview: the changes it shows
   * (`op Type::name` lines; none expected).
   */
  settle(): Promise<string[]>;
  destroy(): Promise<void>;
  state(): Promise<Exported>;
}

/** What one interrupted run and its recovery came to. */
export interface Figures {
  /** Objects on the server when the run was killed. */
  madeBeforeKill: { groups: number; policies: number };
  /** Of those, objects the state did not hold (made by the killed run, unknown to the stack). */
  orphans: { groups: number; policies: number };
  /** Pending creates the state noted, and how many with the object's id. */
  pendingCreates: number;
  pendingWithId: number;
  /** Objects the recovery took over (distinct ids its warnings name). */
  takenOver: number;
  /** Objects the recovery made. */
  createdAfter: { groups: number; policies: number };
  /** Objects beyond one per resource, after the recovery. */
  duplicates: number;
  /** Answers of 409 in the recovery. */
  conflicts: number;
  /** The program's objects left on the server after destroy. */
  orphansAfterDestroy: number;
}

export function figuresLine(label: string, f: Figures): string {
  return (
    `${label}: made before the kill groups=${f.madeBeforeKill.groups} policies=${f.madeBeforeKill.policies} ` +
    `(not in the state: groups=${f.orphans.groups} policies=${f.orphans.policies}; pending creates=` +
    `${f.pendingCreates}, with an id: ${f.pendingWithId}); taken over=${f.takenOver}; created after ` +
    `groups=${f.createdAfter.groups} policies=${f.createdAfter.policies}; duplicates=${f.duplicates}; ` +
    `409s=${f.conflicts}; orphans after destroy=${f.orphansAfterDestroy}`
  );
}

/** A fresh prefix for the program's object names (a live server may hold other objects). */
export function newPrefix(lang: string): string {
  return `ir${lang}${randomBytes(3).toString("hex")}`;
}

// --- the programs ----------------------------------------------------------------------------------------------

/** The YAML program (the same resources as tests/e2e/programs/python-interrupted). */
export function yamlProgram(prefix: string, sizes: Sizes): string {
  const lines = [
    "name: privnet-interrupted-yaml",
    "runtime: yaml",
    "description: Groups and policies created in parallel, for killing `pulumi up` mid-run",
    "resources:",
  ];
  for (let i = 0; i < sizes.groups; i++)
    lines.push(`  g${i}:`, "    type: privnet:Group", "    properties:", `      name: ${prefix}-g${i}`);
  const ruled = Math.min(10, sizes.groups);
  const half = Math.max(1, Math.ceil(sizes.policies / 2));
  for (let i = 0; i < sizes.policies; i++) {
    const n = i % half;
    lines.push(
      `  p${i}:`,
      "    type: privnet:Policy",
      "    properties:",
      `      name: ${prefix}-p${n}`,
      "      enabled: true",
      "      rules:",
      "        - name: ssh",
      "          enabled: true",
      "          action: accept",
      "          bidirectional: false",
      "          protocol: tcp",
      "          ports: ['22']",
      "          sources:",
      `            - \${g${n % ruled}.id}`,
      "          destinations:",
      `            - \${g${(n + 1) % ruled}.id}`,
    );
  }
  return lines.join("\n");
}

function parseExport(text: string): Exported {
  const d = (JSON.parse(text) as { deployment: Record<string, any> }).deployment;
  return { resources: d.resources ?? [], pending: d.pending_operations ?? [] };
}

/**
 * The YAML program in `<work>/interrupted-yaml`, stack `ci`, the plugin named in Pulumi.yaml. The recovery runs
 * as a new CI machine would: another copy of the project (the committed stack config copied), a new PULUMI_HOME;
 * only the state backend carries over.
 */
export async function yamlRunner(
  work: string,
  prefix: string,
  sizes: Sizes,
  server: { url: string; token: string },
): Promise<Runner> {
  const text = yamlProgram(prefix, sizes);
  return cliRunner(work, server, async (dir) => yamlProject(dir, "interrupted-yaml", text));
}

/**
 * The Java program (tests/e2e/programs/java/interrupted, a Maven project under the Java language host) in
 * `<work>/interrupted-java`, stack `ci`, its sizes and prefix in the stack's config; the recovery as for YAML, in
 * another copy of the project built again.
 */
export async function javaRunner(
  work: string,
  prefix: string,
  sizes: Sizes,
  server: { url: string; token: string },
): Promise<Runner> {
  const program = javaProgram("interrupted");
  return cliRunner(
    work,
    server,
    (dir) => javaProject(dir, "interrupted-java", program),
    async (stack) => {
      await stack.config("prefix", prefix);
      await stack.config("groups", String(sizes.groups));
      await stack.config("policies", String(sizes.policies));
    },
  );
}

/**
 * A program driven through the CLI: `makeProject(dir)` writes the project under `dir`; stack `ci` is made in
 * `work` against `server` and `configure`d. The recovery runs in another copy of the project
 * (`<work>/fresh-machine`, the stack's config file copied) with a new PULUMI_HOME: only the backend carries over.
 */
async function cliRunner(
  work: string,
  server: { url: string; token: string },
  makeProject: (dir: string) => Promise<Project>,
  configure: (stack: PulumiStack) => Promise<void> = async () => undefined,
): Promise<Runner> {
  const project = await makeProject(work);
  const stack = await PulumiStack.init({ project, work, name: "ci", server });
  await configure(stack);
  let fresh: PulumiStack | undefined;
  const recovered = async (): Promise<PulumiStack> => {
    if (fresh) return fresh;
    const freshWork = path.join(work, "fresh-machine");
    const copy = await makeProject(freshWork);
    fs.copyFileSync(path.join(project.dir, "Pulumi.ci.yaml"), path.join(copy.dir, "Pulumi.ci.yaml"));
    fresh = await PulumiStack.open({
      project: copy,
      work: freshWork,
      name: "ci",
      backendDir: path.join(work, "state"),
    });
    return fresh;
  };
  return {
    backendUrl: stack.env.PULUMI_BACKEND_URL!,
    up: async (onSpawn) => {
      const r = await runPulumi(["up", "--skip-preview", "--parallel", "10", "--stack", "ci"], {
        cwd: project.dir,
        env: stack.env,
        yes: true,
        timeoutMs: COMMAND_TIMEOUT_MS,
        onSpawn,
      });
      return { code: r.code, output: `${r.stdout}\n${r.stderr}` };
    },
    recover: async () => {
      const s = await recovered();
      await s.cli(["cancel"], { yes: true });
      const up = await s.up();
      return up.raw.stdout + up.raw.stderr;
    },
    settle: async () => {
      const s = await recovered();
      await s.cli(["refresh", "--clear-pending-creates", "--skip-preview"], { yes: true });
      return changesOf(await s.preview());
    },
    destroy: async () => {
      await (await recovered()).destroy();
    },
    state: async () => parseExport(await stack.exportText()),
  };
}

const PYTHON_PROGRAM = path.join(__dirname, "programs", "python-interrupted", "interrupted.py");

/** The Python inline program (tests/e2e/programs/python-interrupted), stack `dev`, the plugin on PATH. */
export async function pythonRunner(
  work: string,
  prefix: string,
  sizes: Sizes,
  server: { url: string; token: string },
): Promise<Runner> {
  const python = await pythonWithSdk(work);
  const env = await inlineEnv(work, server, {
    PRIVNET_TEST_PREFIX: prefix,
    PRIVNET_TEST_GROUPS: String(sizes.groups),
    PRIVNET_TEST_POLICIES: String(sizes.policies),
  });
  const mode = async (name: string) => {
    const out = await run(python, [PYTHON_PROGRAM, name], env, COMMAND_TIMEOUT_MS);
    if (!stepsOf(out)[name]) throw new Error(`the program printed no ${name} step:\n${out}`);
    return out;
  };
  return {
    backendUrl: env.PULUMI_BACKEND_URL!,
    up: (onSpawn) =>
      new Promise((resolve) => {
        // Its own process group, as the CLI's: the kill takes the program, the CLI and the plugin.
        const child = spawn(python, [PYTHON_PROGRAM, "up"], { env, detached: true, stdio: "pipe" });
        if (child.pid !== undefined) onSpawn(child.pid);
        let output = "";
        child.stdout.on("data", (b: Buffer) => (output += b.toString()));
        child.stderr.on("data", (b: Buffer) => (output += b.toString()));
        child.stdin.end();
        child.on("close", (code) => resolve({ code, output }));
      }),
    recover: () => mode("recover"),
    settle: async () => {
      const changes = stepsOf(await mode("settle")).settle!.changes ?? {};
      return Object.entries(changes)
        .filter(([op, n]) => op !== "same" && n > 0)
        .map(([op, n]) => `${op} ${n}`);
    },
    destroy: async () => {
      await mode("destroy");
    },
    state: async () => {
      const r = await runPulumi(["stack", "export", "--stack", "dev"], {
        cwd: path.join(work, "project"),
        env,
        timeoutMs: COMMAND_TIMEOUT_MS,
      });
      if (r.code !== 0) throw new Error(`pulumi stack export failed:\n${r.stdout}\n${r.stderr}`);
      return parseExport(r.stdout);
    },
  };
}

// --- the run ---------------------------------------------------------------------------------------------------

interface Obj {
  id: string;
  name: string;
}

async function objectsOf(client: PrivnetClient, op: string, prefix: string): Promise<Obj[]> {
  const list = (await client.call<{ id: string | number; name: string }[] | null>(op)) ?? [];
  return list.filter((o) => o.name.startsWith(`${prefix}-`)).map((o) => ({ id: String(o.id), name: o.name }));
}

/** The program's groups and policies on the server. */
async function onServer(target: Target, prefix: string): Promise<{ groups: Obj[]; policies: Obj[] }> {
  return {
    groups: await objectsOf(target.client, "listGroups", prefix),
    policies: await objectsOf(target.client, "listPolicies", prefix),
  };
}

const idsOf = (state: Exported, kind: string) =>
  state.resources
    .filter((r) => r.type === `privnet:index:${kind}`)
    .map((r) => String(r.id))
    .sort();

/** Objects beyond `times` per name. */
function excess(list: Obj[], times: number): number {
  const counts = new Map<string, number>();
  for (const o of list) counts.set(o.name, (counts.get(o.name) ?? 0) + 1);
  return [...counts.values()].reduce((n, c) => n + Math.max(0, c - times), 0);
}

/**
 * The whole scenario (see the module comment) with `makeRunner`'s program against `target`; asserts as it goes and
 * returns the figures.
 */
export async function interruptedRun(
  target: Target,
  prefix: string,
  sizes: Sizes,
  makeRunner: (server: { url: string; token: string }) => Promise<Runner>,
): Promise<Figures> {
  const G = sizes.groups;
  const P = sizes.policies;
  expect(G).toBeGreaterThan(12);
  expect(P % 2).toBe(0);
  expect(await onServer(target, prefix)).toEqual({ groups: [], policies: [] });
  const rules: HoldRule[] = [
    { path: "/api/groups", names: [`${prefix}-g10`, `${prefix}-g11`], count: 2, never: "answer" },
    { path: "/api/policies", count: 3, never: "answer" },
  ];
  const proxy = await startHoldProxy(target.url, rules);
  try {
    const runner = await makeRunner({ url: proxy.url, token: target.token });

    // The kill: once the held creates reached the server, while policy creates have started and not finished.
    const { result, killed } = await killWhen(
      runner.up,
      async () => {
        const held = proxy.held();
        if (held.length < 5 || !held.every((h) => h.processed)) return false;
        const made = (await objectsOf(target.client, "listPolicies", prefix)).length;
        return made >= 3 && made < P;
      },
      { timeoutMs: COMMAND_TIMEOUT_MS, pollMs: 50, describe: (r) => r.output },
    );
    expect(result.code).toBeNull(); // killed by the signal
    expect(killed.length).toBeGreaterThanOrEqual(3); // the program or CLI, the language host, the plugin
    repairFileBackend(runner.backendUrl);
    proxy.release();

    const before = await onServer(target, prefix);
    const state = await runner.state();
    const held = { groups: new Set(idsOf(state, "Group")), policies: new Set(idsOf(state, "Policy")) };
    const orphans = {
      groups: before.groups.filter((o) => !held.groups.has(o.id)).map((o) => o.id),
      policies: before.policies.filter((o) => !held.policies.has(o.id)).map((o) => o.id),
    };
    const pending = state.pending.filter((p) => p.type === "creating");
    // The held creates reached the server and not the state; the run was unfinished.
    expect(orphans.groups.length).toBeGreaterThanOrEqual(2);
    expect(orphans.policies.length).toBeGreaterThanOrEqual(3);
    expect(pending.length).toBeGreaterThanOrEqual(5);
    expect(before.policies.length).toBeLessThan(P);

    // The recovery.
    const mark = proxy.passed().length;
    const text = await runner.recover();
    const answers = proxy.passed().slice(mark);
    expect(answers.filter((a) => a.status >= 400)).toEqual([]);
    const after = await onServer(target, prefix);
    const final = await runner.state();
    expect([after.groups.length, after.policies.length]).toEqual([G, P]);
    expect(excess(after.groups, 1)).toBe(0);
    expect(excess(after.policies, 2)).toBe(0);
    expect(new Set(after.groups.map((g) => g.name)).size).toBe(G);
    expect(new Set(after.policies.map((p) => p.name)).size).toBe(P / 2);
    expect(idsOf(final, "Group")).toEqual(after.groups.map((g) => g.id).sort());
    expect(idsOf(final, "Policy")).toEqual(after.policies.map((p) => p.id).sort());
    // What the killed run made is the stack's now, each named by a warning.
    for (const id of [...orphans.groups, ...orphans.policies])
      expect([...idsOf(final, "Group"), ...idsOf(final, "Policy")]).toContain(id);
    // The engine's notes dropped, the stack converges: nothing to change.
    expect(await runner.settle()).toEqual([]);
    expect((await runner.state()).pending).toEqual([]);
    const takenOver = new Set(
      [...text.matchAll(/\(id ([^)]+)\): an interrupted run of this stack created this object/g)].map(
        (m) => m[1],
      ),
    );
    expect([...takenOver].sort()).toEqual([...orphans.groups, ...orphans.policies].sort());
    // Over both runs each object was POSTed once (held creates included).
    const posted = (p: string) =>
      proxy.passed().filter((a) => a.method === "POST" && a.path === p && a.status < 300).length +
      proxy.held().filter((h) => h.path === p && h.processed).length;
    expect([posted("/api/groups"), posted("/api/policies")]).toEqual([G, P]);

    await runner.destroy();
    const left = await onServer(target, prefix);
    expect(left).toEqual({ groups: [], policies: [] });

    return {
      madeBeforeKill: { groups: before.groups.length, policies: before.policies.length },
      orphans: { groups: orphans.groups.length, policies: orphans.policies.length },
      pendingCreates: pending.length,
      pendingWithId: pending.filter((p) => p.resource.id).length,
      takenOver: takenOver.size,
      createdAfter: {
        groups: after.groups.filter((g) => !before.groups.some((b) => b.id === g.id)).length,
        policies: after.policies.filter((p) => !before.policies.some((b) => b.id === p.id)).length,
      },
      duplicates: excess(after.groups, 1) + excess(after.policies, 2),
      conflicts: answers.filter((a) => a.status === 409).length,
      orphansAfterDestroy: left.groups.length + left.policies.length,
    };
  } finally {
    await proxy.close();
  }
}
