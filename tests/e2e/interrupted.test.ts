/**
 * Interrupted runs under the real CLI (provider/recovery.ts). `pulumi up` of 60 groups, 60 policies (names
 * repeat: pairs are identical) and 10 setup keys is killed with SIGKILL (the CLI's process group and those of
 * the processes below it: the program, the dynamic-provider plugin) while creates are in flight: a proxy keeps the answers of some creates
 * the server has processed (objects the state never learns of) and never forwards one (a create that did not
 * reach the server). Then the recovery the README gives, from a fresh copy of the project with a new PULUMI_HOME
 * (a new CI machine: only the state backend and the committed stack config carry over): `pulumi cancel`,
 * `pulumi up`, `pulumi refresh --clear-pending-creates`. Every object is on the server once, the state equals
 * the server, and `pulumi destroy` leaves nothing.
 *
 * And the negative: when the interrupted creates never reached the server and someone else made objects with
 * the same names (another user's identical group, a policy with other rules), they are not taken over: the
 * group fails with an error naming the object's id and adoptId, the policy is made anew with a warning naming
 * the other one, and both are left as they are.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { addUserWithToken } from "../support/fixtures";
import { startHoldProxy, type HoldProxy, type HoldRule } from "../support/hold-proxy";
import { runPulumi, type RunPulumiResult } from "./engine";
import { killWhen, repairFileBackend } from "./kill";
import {
  changesOf,
  COMMAND_TIMEOUT_MS,
  copyProject,
  driftOf,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  type E2EServer,
  type Project,
} from "./project";

const PROGRAM = "tests/e2e/programs/interrupted";
const TYPE = "pulumi-nodejs:dynamic/privnet:";

/**
 * `pulumi up` killed with SIGKILL (the CLI, the program, the plugins) as soon as `ready()` holds. Fails if the
 * run ends first. Kills them in any case, and waits until none of them runs.
 */
async function killedUp(stack: PulumiStack, ready: () => boolean): Promise<RunPulumiResult> {
  const { result, killed } = await killWhen(
    (onSpawn) =>
      runPulumi(["up", "--skip-preview", "--parallel", "10", "--stack", stack.name], {
        cwd: stack.project.dir,
        env: stack.env,
        yes: true,
        timeoutMs: COMMAND_TIMEOUT_MS,
        onSpawn,
      }),
    ready,
    {
      timeoutMs: COMMAND_TIMEOUT_MS,
      describe: (r) => `--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`,
    },
  );
  expect(killed.length).toBeGreaterThanOrEqual(3); // the CLI, the language host, the plugin
  repairFileBackend(stack.env.PULUMI_BACKEND_URL);
  return result;
}

interface Obj {
  id: string;
  name: string;
}

async function objects(s: E2EServer, op: string): Promise<Obj[]> {
  const list = (await s.client.call<{ id: string | number; name: string }[] | null>(op)) ?? [];
  return list.map((o) => ({ id: String(o.id), name: o.name }));
}

interface Export {
  resources: { urn: string; type: string; id?: string }[];
  pending: { type: string; resource: { urn: string; id?: string } }[];
}

async function exported(stack: PulumiStack): Promise<Export> {
  const d = (JSON.parse(await stack.exportText()) as { deployment: any }).deployment;
  return { resources: d.resources ?? [], pending: d.pending_operations ?? [] };
}

function idsOf(state: Export, kind: string): string[] {
  return state.resources
    .filter((r) => r.type === `${TYPE}${kind}`)
    .map((r) => String(r.id))
    .sort();
}

/** How many objects have each name (names that occur a number of times other than `times`). */
function countsOtherThan(list: Obj[], times: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of list) counts[o.name] = (counts[o.name] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n !== times));
}

const KINDS = [
  { kind: "Group", list: "listGroups" },
  { kind: "Policy", list: "listPolicies" },
  { kind: "SetupKey", list: "listSetupKeys" },
];

describe("a run killed mid-up is recovered: no duplicates, no orphans", () => {
  let work = "";
  let freshWork = "";
  let server: E2EServer;
  let proxy: HoldProxy;
  let project: Project;
  let stack: PulumiStack;
  let fresh: PulumiStack;
  const orphans: Record<string, string[]> = {};
  /** The `All` group. */
  let baselineGroups: Obj[] = [];

  // Creates in flight when the run is killed: answers kept (the objects exist), and one never forwarded.
  const rules: HoldRule[] = [
    { path: "/api/groups", names: ["int-g57", "int-g58", "int-g59"], count: 3, never: "answer" },
    { path: "/api/groups", names: ["int-g56"], count: 1, never: "forward" },
    { path: "/api/policies", count: 3, never: "answer" },
    { path: "/api/setup-keys", count: 2, never: "answer" },
  ];
  const holding = rules.reduce((n, r) => n + r.count, 0);

  beforeAll(async () => {
    work = makeWork("interrupted");
    freshWork = makeWork("interrupted-fresh");
    server = await startE2EServer();
    baselineGroups = await objects(server, "listGroups");
    proxy = await startHoldProxy(server.url, rules);
    project = await copyProject([PROGRAM], work, PROGRAM);
    stack = await PulumiStack.init({
      project,
      work,
      name: "ci",
      server: { url: proxy.url, token: server.token },
    });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (fresh) process.stdout.write(`interrupted e2e timings: ${stack.timingLine()} ${fresh.timingLine()}\n`);
    await proxy?.close();
    await server?.close();
    removeWork(work);
    removeWork(freshWork);
  });

  it(
    "SIGKILL to the CLI's process group and its plugins' mid-up leaves objects the state does not hold",
    async () => {
      const r = await killedUp(
        stack,
        () =>
          proxy.held().length === holding && proxy.held().every((h) => h.processed || h.never === "forward"),
      );
      expect(r.code).toBeNull(); // killed by the signal
      proxy.release();

      const state = await exported(stack);
      const created: Record<string, number> = {};
      for (const { kind, list } of KINDS) {
        const onServer = await objects(server, list);
        const held = new Set(idsOf(state, kind));
        const base = kind === "Group" ? baselineGroups.map((g) => g.id) : [];
        orphans[kind] = onServer.filter((o) => !held.has(o.id) && !base.includes(o.id)).map((o) => o.id);
        created[kind] = onServer.length - base.length;
      }
      const pending = state.pending.filter((p) => p.type === "creating");
      process.stdout.write(
        `interrupted e2e: before the kill the server got groups=${created.Group} policies=${created.Policy} ` +
          `keys=${created.SetupKey}; the state holds groups=${idsOf(state, "Group").length} ` +
          `policies=${idsOf(state, "Policy").length} keys=${idsOf(state, "SetupKey").length}; pending creates=` +
          `${pending.length} (with an id: ${pending.filter((p) => p.resource.id).length}); objects not in the ` +
          `state: groups=${orphans.Group?.length} policies=${orphans.Policy?.length} keys=${orphans.SetupKey?.length}\n`,
      );
      // The held creates reached the server and not the state; the swallowed one reached neither.
      expect(orphans.Group?.length).toBeGreaterThanOrEqual(3);
      expect(orphans.Policy?.length).toBeGreaterThanOrEqual(3);
      expect(orphans.SetupKey?.length).toBeGreaterThanOrEqual(2);
      expect(pending.length).toBeGreaterThanOrEqual(holding);
      expect(pending.map((p) => p.resource.urn)).toContain(
        `urn:pulumi:ci::privnet-interrupted::${TYPE}Group::g56`,
      );
      expect((await objects(server, "listGroups")).map((g) => g.name)).not.toContain("int-g56");
      // Unfinished: the recovery has creates of its own to make.
      expect(idsOf(state, "Policy").length + (orphans.Policy?.length ?? 0)).toBeLessThan(60);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "pulumi cancel, pulumi up, pulumi refresh --clear-pending-creates on a fresh machine: every object once, state = server",
    async () => {
      // A new CI machine: another checkout of the project (with the committed stack config), a new PULUMI_HOME.
      const copy = await copyProject([PROGRAM], freshWork, PROGRAM);
      fs.copyFileSync(path.join(project.dir, "Pulumi.ci.yaml"), path.join(copy.dir, "Pulumi.ci.yaml"));
      fresh = await PulumiStack.open({
        project: copy,
        work: freshWork,
        name: "ci",
        backendDir: path.join(work, "state"),
      });
      const mark = server.requests.length;

      await fresh.cli(["cancel"], { yes: true });
      const up = await fresh.up();
      const text = up.raw.stdout + up.raw.stderr;
      expect(text).not.toMatch(/"severity":"error"/);
      expect(text).toMatch(/Attempting to deploy or update resources with \d+ pending operations/);

      // Every object exactly once (policies: each name twice, as the program has it), and the state equals the
      // server, kind by kind.
      const state = await exported(fresh);
      const groups = (await objects(server, "listGroups")).filter(
        (g) => !baselineGroups.some((b) => b.id === g.id),
      );
      const policies = await objects(server, "listPolicies");
      const keys = await objects(server, "listSetupKeys");
      expect([groups.length, policies.length, keys.length]).toEqual([60, 60, 10]);
      expect(countsOtherThan(groups, 1)).toEqual({});
      expect(countsOtherThan(policies, 2)).toEqual({});
      expect(countsOtherThan(keys, 1)).toEqual({});
      expect(idsOf(state, "Group")).toEqual(groups.map((g) => g.id).sort());
      expect(idsOf(state, "Policy")).toEqual(policies.map((p) => p.id).sort());
      expect(idsOf(state, "SetupKey")).toEqual(keys.map((k) => k.id).sort());

      // Groups and policies the killed run made are taken over (same ids); the keys it made are made anew,
      // since a key is answered only once.
      for (const id of [...(orphans.Group ?? []), ...(orphans.Policy ?? [])])
        expect(idsOf(state, "Group").concat(idsOf(state, "Policy"))).toContain(id);
      for (const id of orphans.SetupKey ?? []) expect(idsOf(state, "SetupKey")).not.toContain(id);
      const takenOver = [
        ...text.matchAll(/\(id ([^)]+)\): an interrupted run of this stack created this object/g),
      ];
      expect(new Set(takenOver.map((m) => m[1])).size).toBe(
        (orphans.Group?.length ?? 0) + (orphans.Policy?.length ?? 0) + (orphans.SetupKey?.length ?? 0),
      );

      // Across both runs each group and policy was POSTed once; keys once, plus once per key made anew.
      const posts = (route: string) =>
        server.requests.filter((e) => e.method === "POST" && e.route === route && e.status === 200).length;
      expect([posts("/api/groups"), posts("/api/policies"), posts("/api/setup-keys")]).toEqual([
        60,
        60,
        10 + (orphans.SetupKey?.length ?? 0),
      ]);
      expect(server.since(mark).filter((e) => e.status >= 400)).toEqual([]);

      // The keys in the stack's outputs are whole keys that enroll a peer.
      const outputs = await fresh.outputs(true);
      expect(outputs.keys).toHaveLength(10);
      for (const k of outputs.keys as string[]) expect(k).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-/);
      const enrolled = await server.server.raw("POST", "/sim/enroll", {
        body: JSON.stringify({ setup_key: outputs.keys[0], hostname: "after-recovery" }),
        headers: { "Content-Type": "application/json" },
      });
      expect(enrolled.status).toBe(200);
      await server.client.call("deletePeer", { params: { peerId: (enrolled.body as { id: string }).id } });

      // The engine's notes of the interrupted creates are cleared; nothing left to change, no drift.
      await fresh.cli(["refresh", "--clear-pending-creates", "--skip-preview"], { yes: true });
      expect((await exported(fresh)).pending).toEqual([]);
      expect(changesOf(await fresh.preview())).toEqual([]);
      expect(driftOf(await fresh.refreshPreview())).toEqual([]);
      process.stdout.write(
        `interrupted e2e: after recovery groups=${groups.length} policies=${policies.length} keys=${keys.length}, ` +
          `duplicates=0, taken over=${new Set(takenOver.map((m) => m[1])).size}, failed resources=0\n`,
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "pulumi destroy leaves nothing on the server",
    async () => {
      await fresh.destroy();
      expect(await objects(server, "listGroups")).toEqual(baselineGroups);
      expect(await objects(server, "listPolicies")).toEqual([]);
      expect(await objects(server, "listSetupKeys")).toEqual([]);
      expect((await exported(fresh)).resources.filter((r) => r.type.startsWith(TYPE))).toEqual([]);
      process.stdout.write("interrupted e2e: after destroy orphans=0\n");
    },
    TEST_TIMEOUT_MS,
  );
});

describe("objects with the same names made by someone else are never taken over", () => {
  let work = "";
  let server: E2EServer;
  let proxy: HoldProxy;
  let stack: PulumiStack;
  const foreign = { group: "", policy: "" };
  let ruleGroup = "";

  beforeAll(async () => {
    work = makeWork("interrupted-foreign");
    server = await startE2EServer();
    ruleGroup = (await server.client.call<{ id: string }>("createGroup", { body: { name: "neg-rules" } })).id;
    // The creates never reach the server.
    proxy = await startHoldProxy(server.url, [
      { path: "/api/groups", names: ["neg-g0"], count: 1, never: "forward" },
      { path: "/api/policies", names: ["neg-p0"], count: 1, never: "forward" },
    ]);
    const project = await copyProject([PROGRAM], work, PROGRAM);
    stack = await PulumiStack.init({
      project,
      work,
      name: "ci",
      server: { url: proxy.url, token: server.token },
    });
    await stack.config("prefix", "neg");
    await stack.config("groups", "1");
    await stack.config("policies", "1");
    await stack.config("keys", "0");
    await stack.config("ruleGroup", ruleGroup);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await proxy?.close();
    await server?.close();
    removeWork(work);
  });

  it(
    "another user's identical group fails with its id and adoptId; another policy is left and a new one made",
    async () => {
      await killedUp(stack, () => proxy.held().length === 2);
      proxy.release();
      const pending = (await exported(stack)).pending.map((p) => p.resource.urn.split("::").pop());
      expect(pending.sort()).toEqual(["g0", "p0"]);

      // Meanwhile someone else, with a token of their own, makes a group of the same name (identical) and a
      // policy of the same name with other rules.
      const someone = addUserWithToken(server.server, "admin");
      foreign.group = (
        await server.server.call("createGroup", { body: { name: "neg-g0" }, token: someone.token })
      ).body.id;
      foreign.policy = (
        await server.server.call("createPolicy", {
          token: someone.token,
          body: {
            name: "neg-p0",
            enabled: true,
            rules: [
              {
                name: "ssh",
                enabled: true,
                action: "accept",
                bidirectional: false,
                protocol: "tcp",
                ports: ["443"],
                sources: [ruleGroup],
                destinations: [ruleGroup],
              },
            ],
          },
        })
      ).body.id;

      await stack.cli(["cancel"], { yes: true });
      const r = await stack.cli(["up", "--skip-preview", "--continue-on-error"], {
        yes: true,
        expect: "nonzero",
      });
      const text = (r.stdout + r.stderr).replace(/\s*\n\s*/g, " ");
      expect(text).toContain('Group "neg-g0": the server already has a Group with this name');
      expect(text).toContain(`id ${foreign.group}: another user (id ${someone.id}) created it`);
      expect(text).toContain(`set adoptId: "${foreign.group}"`);
      expect(text).toContain(
        `id ${foreign.policy}: its values differ from what the interrupted create sent (rules)`,
      );
      expect(text).not.toMatch(/takes it over/);

      // Theirs are as they were; ours is a new policy, and the group is not in the state.
      const state = await exported(stack);
      expect(idsOf(state, "Group")).toEqual([]);
      const ours = idsOf(state, "Policy");
      expect(ours).toHaveLength(1);
      expect(ours).not.toContain(foreign.policy);
      expect((await objects(server, "listGroups")).filter((g) => g.name === "neg-g0")).toEqual([
        { id: foreign.group, name: "neg-g0" },
      ]);
      const theirs = await server.client.call<{ rules: { ports: string[] }[] }>("getPolicy", {
        params: { policyId: foreign.policy },
      });
      expect(theirs.rules[0]?.ports).toEqual(["443"]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroy removes only the stack's own objects",
    async () => {
      await stack.destroy();
      expect((await objects(server, "listPolicies")).map((p) => p.id)).toEqual([foreign.policy]);
      expect((await objects(server, "listGroups")).map((g) => g.name).sort()).toEqual([
        "All",
        "neg-g0",
        "neg-rules",
      ]);
    },
    TEST_TIMEOUT_MS,
  );
});
