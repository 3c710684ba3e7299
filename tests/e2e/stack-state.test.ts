/**
 * How the provider reads a stack's state before its first create, for the recovery of interrupted creates
 * (provider/recovery.ts): from the checkpoint file when `PULUMI_BACKEND_URL` names a file backend, and otherwise
 * with `pulumi stack export`. For a stack the real CLI holds, with resources and interrupted creates of both
 * hostings in its checkpoint, both readers give the same notes; wherever the file could be read otherwise than the
 * CLI reads it, the file reader declines and the CLI is asked.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { exportWithCli, parseNotes, readCheckpointFile, type StackNotes } from "../../provider/recovery";
import type { Owner } from "../../model/hidden-inputs";
import { engineEnv, ensureEngine, runPulumi } from "./engine";
import { makeWork, removeWork, SETUP_TIMEOUT_MS, TEST_TIMEOUT_MS } from "./project";

let work = "";
let project = "";
let backend = "";
let env: Record<string, string> = {};

const STACK = "dev";
const PROJECT = "stateproj";
const urn = (type: string, name: string) => `urn:pulumi:${STACK}::${PROJECT}::${type}::${name}`;
const STACK_URN = urn("pulumi:pulumi:Stack", `${PROJECT}-${STACK}`);
const PROVIDER = `${urn("pulumi:providers:privnet", "default")}::p-1`;
const plugin: Owner = { stack: STACK, urn: urn("privnet:index:Group", "g") };
const dynamic: Owner = { stack: `organization/${PROJECT}/${STACK}`, urn: plugin.urn };

/** The checkpoint file of the stack (as the CLI's file backend lays it out). */
const checkpointPath = () => path.join(backend, ".pulumi", "stacks", PROJECT, `${STACK}.json`);

/** Plain values of the notes, to compare. */
function plainNotes(n: StackNotes) {
  return {
    pending: [...n.pending].sort(([a], [b]) => a.localeCompare(b)),
    managed: [...n.managed].sort(),
    urns: [...n.urns].sort(),
    held: [...n.held].sort(),
  };
}

beforeAll(async () => {
  const bin = await ensureEngine();
  work = makeWork("stack-state");
  project = path.join(work, "project");
  backend = path.join(work, "state");
  fs.mkdirSync(project);
  env = engineEnv({ binDir: bin, backendDir: backend, pulumiHome: path.join(work, "home"), passphrase: "x" });
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), `name: ${PROJECT}\nruntime: yaml\n`);
  const init = await runPulumi(["stack", "init", STACK], { cwd: project, env, timeoutMs: 120_000 });
  expect(init.code).toBe(0);
  // What the engine leaves after a run killed mid-create, in the file the CLI wrote for the stack: resources the
  // state holds, and pending creates (of the plugin's and the dynamic providers' types, with and without the id the
  // create answered), beside a pending delete and another package's pending create.
  const file = JSON.parse(fs.readFileSync(checkpointPath(), "utf8"));
  const resource = (type: string, name: string, id: string | undefined, inputs: object) => ({
    urn: urn(type, name),
    custom: true,
    ...(id ? { id } : {}),
    type,
    inputs,
    outputs: inputs,
    parent: STACK_URN,
    provider: PROVIDER,
  });
  file.checkpoint.latest.resources = [
    { urn: STACK_URN, custom: false, type: "pulumi:pulumi:Stack" },
    {
      urn: urn("pulumi:providers:privnet", "default"),
      custom: true,
      id: "p-1",
      type: "pulumi:providers:privnet",
      inputs: {},
      outputs: {},
    },
    resource("privnet:index:Group", "held", "g-held", { name: "held" }),
  ];
  file.checkpoint.latest.pending_operations = [
    { resource: resource("privnet:index:Group", "g", "g-noted", { name: "g" }), type: "creating" },
    {
      resource: resource("privnet:index:Policy", "p", undefined, { name: "p", enabled: true }),
      type: "creating",
    },
    {
      resource: resource("pulumi-nodejs:dynamic/privnet:Network", "d", undefined, {
        __provider: "x",
        __kind: "Network",
        name: "n",
      }),
      type: "creating",
    },
    { resource: resource("privnet:index:Group", "gone", "g-gone", { name: "gone" }), type: "deleting" },
    { resource: resource("random:index:RandomId", "r", undefined, {}), type: "creating" },
  ];
  fs.writeFileSync(checkpointPath(), JSON.stringify(file));
}, SETUP_TIMEOUT_MS);

afterAll(() => removeWork(work));

test(
  "the checkpoint file and `pulumi stack export` give the same notes, for either hosting's owner",
  async () => {
    const viaFile = await readCheckpointFile(plugin, env);
    expect(viaFile).toBeDefined();
    expect(await readCheckpointFile(dynamic, env)).toBe(viaFile);
    const viaCli = await exportWithCli(plugin, { cwd: project, env });
    const notes = plainNotes(parseNotes(viaFile!));
    expect(plainNotes(parseNotes(viaCli))).toEqual(notes);
    expect(plainNotes(parseNotes(await exportWithCli(dynamic, { cwd: project, env })))).toEqual(notes);
    // What the notes hold: the interrupted creates of privnet kinds (both hostings), the ids the state holds.
    expect(notes.pending.map(([u]) => u)).toEqual(
      [
        urn("privnet:index:Group", "g"),
        urn("privnet:index:Policy", "p"),
        urn("pulumi-nodejs:dynamic/privnet:Network", "d"),
      ].sort(),
    );
    expect(notes.managed).toEqual(["g-held", "p-1"]);
    expect(notes.held).toEqual(["g-gone", "g-held", "g-noted", "p-1"]);
  },
  TEST_TIMEOUT_MS,
);

test("the file is read without the CLI: no `pulumi` on PATH", async () => {
  const noCli = { ...env, PATH: "/nonexistent" };
  expect(await readCheckpointFile(plugin, noCli)).toBe(fs.readFileSync(checkpointPath(), "utf8"));
  await expect(exportWithCli(plugin, { cwd: project, env: noCli })).rejects.toThrow();
});

test("wherever the CLI could read otherwise, the file reader declines (the CLI reads the state)", async () => {
  const url = `file://${backend}`;
  const declines = async (o: Owner, vars: Record<string, string | undefined>) =>
    expect(await readCheckpointFile(o, { ...env, ...vars })).toBeUndefined();
  // Not a file backend named by the variable (then the project's or the login's backend decides).
  await declines(plugin, { PULUMI_BACKEND_URL: undefined });
  await declines(plugin, { PULUMI_BACKEND_URL: "s3://bucket" });
  // Paths the CLI resolves itself: the home directory, relative to its own directory, escaped.
  await declines(plugin, { PULUMI_BACKEND_URL: "file://~" });
  await declines(plugin, { PULUMI_BACKEND_URL: `file://${path.relative(process.cwd(), backend)}` });
  await declines(plugin, { PULUMI_BACKEND_URL: `file://${backend.replace(/\//g, "%2F")}` });
  // Another organization than a file backend's one; a stack or project that has no file.
  await declines({ ...dynamic, stack: `someone/${PROJECT}/${STACK}` }, { PULUMI_BACKEND_URL: url });
  await declines({ ...plugin, stack: "other" }, { PULUMI_BACKEND_URL: url });
  await declines({ stack: STACK, urn: "urn:pulumi:dev::otherproj::privnet:index:Group::g" }, {});

  // A compressed checkpoint beside it: the CLI takes the newest of them.
  fs.writeFileSync(`${checkpointPath()}.gz`, "");
  try {
    await declines(plugin, {});
  } finally {
    fs.rmSync(`${checkpointPath()}.gz`);
  }
  // Another layout (the state's version is not 1).
  const meta = path.join(backend, ".pulumi", "meta.yaml");
  const before = fs.readFileSync(meta, "utf8");
  fs.writeFileSync(meta, "version: 0\n");
  try {
    await declines(plugin, {});
  } finally {
    fs.writeFileSync(meta, before);
  }
  expect(await readCheckpointFile(plugin, env)).toBeDefined();
});
