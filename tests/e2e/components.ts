/**
 * The components' life (tests/e2e/programs/components/scenario.json) under the real CLI, in each language, with one
 * set of checks: the e2e tier runs it against privnet-server (tests/e2e/components.test.ts), the acceptance tier
 * against its target (tests/acceptance/components.test.ts).
 *
 * A life, on one stack: a first preview (its steps and their parents: the children under their components), up,
 * a preview with no change and a refresh with no drift, then each later stage of the scenario (entries reordered,
 * entries changed and one added, entries removed) previewed and applied, a preview after each, a preview of a bad
 * input (a port out of range) that must fail naming the component, the entry and the field, and destroy.
 *
 * The Python and Go programs (tests/e2e/programs/*-inline/components.*) report these steps themselves; the YAML
 * program (written here from the scenario), the Node program (tests/e2e/programs/components/index.js, with
 * pulumi-privnet's classes or pulumi-privnet/plugin's) and the Java program (tests/e2e/programs/java/components,
 * a Maven project under the real Java language host) are driven here through the CLI.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { installPackageCopy } from "../support/package-copy";
import type { InlineStep } from "./inline";
import { repoRoot } from "./engine";
import { javaProgram, javaProject } from "./java";
import {
  changesOf,
  INSTALLED_PLUGIN,
  pluginsYaml,
  PulumiStack,
  readAllFiles,
  shortUrn,
  yamlProject,
  type PreviewJson,
} from "./project";

const PROGRAMS = path.join(__dirname, "programs", "components");

export interface Stage {
  stage: string;
  components: Record<string, { type: string; args: Record<string, unknown> }>;
}

export function scenario(): Stage[] {
  return (JSON.parse(fs.readFileSync(path.join(PROGRAMS, "scenario.json"), "utf8")) as { stages: Stage[] })
    .stages;
}

/** The last stage with the first allow entry's ports made bad (a port out of range, entry 0, item 1). */
export function badStage(): Stage {
  const last = structuredClone(scenario().at(-1)!);
  const allow = last.components.db!.args.allow as { ports: string[] }[];
  allow[0]!.ports = ["5432", "99999"];
  return { stage: "bad", components: last.components };
}

export type Life = Record<string, InlineStep>;

/** What a life's first preview shows: each resource's parent, and the operations. */
function previewSteps(p: PreviewJson): { ops: string[]; parents: Record<string, string> } {
  const parents: Record<string, string> = {};
  for (const s of p.steps as (PreviewJson["steps"][number] & { newState?: { parent?: string } })[]) {
    parents[shortUrn(s.urn)] = (s.newState?.parent ?? "").split("::").pop() ?? "";
  }
  return { ops: changesOf(p), parents };
}

const counts = (summary: Record<string, number> | undefined) =>
  Object.fromEntries(Object.entries(summary ?? {}).filter(([, n]) => n > 0));

/** The stack's outputs as the programs report them after up: each with whether it is secret, and its value. */
async function outputsOf(stack: PulumiStack): Promise<Record<string, { secret: boolean; value: unknown }>> {
  const shown = await stack.outputs();
  const revealed = await stack.outputs(true);
  return Object.fromEntries(
    Object.entries(revealed).map(([k, v]) => [k, { secret: shown[k] === "[secret]", value: v }]),
  );
}

/** The diagnostics of a `pulumi preview --json` that failed, one per line (undefined when it printed no JSON). */
function diagnostics(stdout: string): string | undefined {
  try {
    const p = JSON.parse(stdout) as PreviewJson;
    return (p.diagnostics ?? []).map((d) => d.message ?? "").join("\n");
  } catch {
    return undefined;
  }
}

/** A life driven through the CLI: `apply(stage)` makes the program declare that stage; a failure destroys the stack. */
async function cliLife(stack: PulumiStack, apply: (s: Stage) => Promise<void>): Promise<Life> {
  try {
    return await stagesLife(stack, apply);
  } catch (err) {
    // Leave nothing behind on a shared server (the acceptance target): destroy reads the state, not the program.
    await stack.destroy().catch(() => undefined);
    throw err;
  }
}

async function stagesLife(stack: PulumiStack, apply: (s: Stage) => Promise<void>): Promise<Life> {
  const stages = scenario();
  const life: Life = {};
  await apply(stages[0]!);
  const first = await stack.preview();
  life["first-preview"] = {
    step: "first-preview",
    changes: counts(first.changeSummary),
    ...previewSteps(first),
  };
  const up = await stack.up();
  life.up = { step: "up", changes: counts(up.resourceChanges), outputs: await outputsOf(stack) };
  life.preview = { step: "preview", changes: counts((await stack.preview()).changeSummary) };
  life.refresh = { step: "refresh", changes: counts((await stack.refreshPreview()).changeSummary) };
  for (const s of stages.slice(1)) {
    await apply(s);
    const p = await stack.preview();
    const u = await stack.up();
    const values = Object.fromEntries(
      Object.entries(await stack.outputs()).filter(([, v]) => v !== "[secret]"),
    );
    life[s.stage] = {
      step: s.stage,
      previewChanges: counts(p.changeSummary),
      previewOps: changesOf(p),
      changes: counts(u.resourceChanges),
      ops: u.changes,
      values,
    };
    life[`after-${s.stage}`] = {
      step: `after-${s.stage}`,
      changes: counts((await stack.preview()).changeSummary),
    };
  }
  await apply(badStage());
  const bad = await stack.previewFailing();
  life.bad = {
    step: "bad",
    failed: true,
    message: diagnostics(bad.stdout) ?? `${bad.stdout}\n${bad.stderr}`,
  };
  await apply(stages.at(-1)!);
  const d = await stack.destroy();
  life.destroy = { step: "destroy", changes: counts(d.resourceChanges) };
  return life;
}

/** The scenario's value with ${app}/${ops} as YAML references to the groups' ids and ${prefix} as `prefix`. */
function yamlValue(v: unknown, prefix: string): unknown {
  if (typeof v === "string") {
    if (v === "${app}" || v === "${ops}") return `\${${v.slice(2, -1)}.id}`;
    return v.split("${prefix}").join(prefix);
  }
  if (Array.isArray(v)) return v.map((x) => yamlValue(x, prefix));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, yamlValue(x, prefix)]));
  return v;
}

/** A YAML program declaring one stage (the groups first), with the outputs the other programs export. */
export function yamlProgram(stage: Stage, prefix: string, project = "privnet-yaml-components"): string {
  const resources: Record<string, unknown> = {
    app: { type: "privnet:Group", properties: { name: `${prefix}-app` } },
    ops: { type: "privnet:Group", properties: { name: `${prefix}-ops` } },
  };
  for (const [name, c] of Object.entries(stage.components))
    resources[name] = { type: `privnet:${c.type}`, properties: yamlValue(c.args, prefix) };
  const outputs = {
    setupKey: "${db.setupKey}",
    groupId: "${db.groupId}",
    policyIds: "${db.policyIds}",
    networkId: "${office.networkId}",
    routerIds: "${office.routerIds}",
    resourceIds: "${office.resourceIds}",
    zoneId: "${zone.zoneId}",
    recordIds: "${zone.recordIds}",
    appGroupId: "${app.id}",
    opsGroupId: "${ops.id}",
  };
  return stringify({ name: project, runtime: "yaml", resources, outputs });
}

/** The life of the YAML program, on a stack made in `work` against `server`. */
export async function yamlLife(
  work: string,
  server: { url: string; token: string },
  prefix: string,
): Promise<{ life: Life; stack: PulumiStack }> {
  const project = yamlProject(work, "yaml-components", yamlProgram(scenario()[0]!, prefix));
  const stack = await PulumiStack.init({ project, work, name: "components", server });
  const file = path.join(project.dir, "Pulumi.yaml");
  const plugins = fs.readFileSync(file, "utf8").slice(yamlProgram(scenario()[0]!, prefix).length);
  const life = await cliLife(stack, async (s) => {
    fs.writeFileSync(file, `${yamlProgram(s, prefix)}${plugins}`);
  });
  return { life, stack };
}

/**
 * The Node program (./programs/components/index.js) as the project `<work>/<name>`, the package installed as a copy,
 * and a new stack of it; `plugin`: its Pulumi.yaml names the resource plugin, as the README says. Which classes the
 * program uses is the stack's config `hosting`.
 */
export async function nodeComponentsStack(
  work: string,
  server: { url: string; token: string },
  name: string,
  plugin: boolean,
): Promise<PulumiStack> {
  const dir = path.join(work, name);
  installPackageCopy({ dir, projectName: name, writeProject: false });
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: ${name}\nruntime: nodejs\n${plugin ? pluginsYaml(INSTALLED_PLUGIN) : ""}`,
  );
  fs.writeFileSync(path.join(dir, "package.json"), `{"name":"${name}","private":true,"main":"index.js"}\n`);
  fs.copyFileSync(path.join(PROGRAMS, "index.js"), path.join(dir, "index.js"));
  return PulumiStack.init({ project: { dir, programDir: dir }, work, name: "components", server });
}

/** The life of the Node program with pulumi-privnet's classes (`dynamic`) or pulumi-privnet/plugin's (`plugin`). */
export async function nodeLife(
  work: string,
  server: { url: string; token: string },
  hosting: "dynamic" | "plugin",
  prefix: string,
): Promise<{ life: Life; stack: PulumiStack }> {
  const stack = await nodeComponentsStack(work, server, `node-components-${hosting}`, hosting === "plugin");
  await stack.config("hosting", hosting);
  await stack.config("prefix", prefix);
  const life = await cliLife(stack, (s) => stack.config("components", JSON.stringify(s.components)));
  return { life, stack };
}

/**
 * The life of the Java program (a Maven project under the Java language host, the generated SDK): each stage is
 * the stack's config `components`, as for the Node program.
 */
export async function javaLife(
  work: string,
  server: { url: string; token: string },
  prefix: string,
): Promise<{ life: Life; stack: PulumiStack }> {
  const project = await javaProject(work, "java-components", javaProgram("components"));
  const stack = await PulumiStack.init({ project, work, name: "components", server });
  await stack.config("prefix", prefix);
  const life = await cliLife(stack, (s) => stack.config("components", JSON.stringify(s.components)));
  return { life, stack };
}

/** `op Type::name` with the type's package prefix left out (plugin and dynamic types alike), sorted. */
function ops(list: string[] | null | undefined): string[] {
  return (list ?? [])
    .map((o) => o.replace(/ (?:privnet:index:|pulumi-nodejs:dynamic\/privnet:)/, " "))
    .filter((o) => !/ (?:pulumi:pulumi:Stack|pulumi:providers:)/.test(o))
    .sort();
}

/**
 * The checks every life must pass. `prefix` names the run's objects; the ops group's id comes from the life's
 * outputs (it keys the undescribed allow entry's policy).
 */
export function expectLife(life: Life, prefix: string): void {
  const up = life.up!;
  const opsId = String(up.outputs?.opsGroupId?.value);
  const zone = `${prefix}.internal.example.com`;

  // The first preview: 17 creates (the stack, two groups, three components and their 11 children), each child
  // under its component; children keyed by an id not known yet show with a placeholder name.
  expect(life["first-preview"]!.changes).toEqual({ create: 17 });
  const parents = life["first-preview"]!.parents ?? {};
  const under = (component: string) =>
    Object.entries(parents)
      .filter(([, p]) => p === component)
      .map(([r]) => r.replace(/^(?:privnet:index:|pulumi-nodejs:dynamic\/privnet:)/, ""))
      .sort();
  expect(under("office")).toEqual(
    [
      "Network::office",
      `NetworkResource::office-${prefix}-lan`,
      `NetworkResource::office-${prefix}-printer`,
      "NetworkRouter::office-(unknown 1)",
    ].sort(),
  );
  expect(under("zone")).toEqual(
    ["DnsZone::zone", `DnsRecord::zone-db.${zone}-A-10.20.0.10`, `DnsRecord::zone-www.${zone}-CNAME`].sort(),
  );
  expect(under("db")).toEqual(
    ["Group::db", "SetupKey::db", "Policy::db-app to db", "Policy::db-(unknown 1)"].sort(),
  );

  // Up: everything made; the setup key a secret output with a real key; the ids in declaration order.
  expect(up.changes).toEqual({ create: 17 });
  expect(up.outputs?.setupKey?.secret).toBe(true);
  expect(String(up.outputs?.setupKey?.value)).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-/);
  for (const k of ["groupId", "networkId", "zoneId"]) expect(typeof up.outputs?.[k]?.value).toBe("string");
  expect(up.outputs?.policyIds?.value).toHaveLength(2);
  expect(up.outputs?.resourceIds?.value).toHaveLength(2);
  expect(up.outputs?.recordIds?.value).toHaveLength(2);
  expect(up.outputs?.routerIds?.value).toHaveLength(1);
  expect(life.preview!.changes).toEqual({ same: 17 });
  expect(life.refresh!.changes).toEqual({ same: 17 });

  // Reordering every list changes nothing; the id lists follow the new order.
  const reordered = life.reordered!;
  expect(ops(reordered.previewOps)).toEqual([]);
  expect(ops(reordered.ops)).toEqual([]);
  for (const k of ["policyIds", "resourceIds", "recordIds"]) {
    expect(reordered.values?.[k]).toEqual([...(up.outputs?.[k]?.value as string[])].reverse());
  }
  expect(life["after-reordered"]!.changes).toEqual({ same: 17 });

  // One entry of each list changed: that child updated in place; one entry added: one child created, also where
  // it makes a round-robin set of one record (db A): the record already there stays as it is.
  const changed = [
    `create DnsRecord::zone-api.${zone}-A-10.20.0.12`,
    `create DnsRecord::zone-db.${zone}-A-10.20.0.11`,
    `update DnsRecord::zone-www.${zone}-CNAME`,
    `update NetworkResource::office-${prefix}-lan`,
    `update Policy::db-from:${opsId}`,
  ].sort();
  expect(ops(life.changed!.previewOps)).toEqual(changed);
  expect(ops(life.changed!.ops)).toEqual(changed);
  expect(life["after-changed"]!.changes).toEqual({ same: 19 });

  // One entry of each list removed: that child deleted alone, also where a round-robin set shrinks to one record.
  const removed = [
    `delete DnsRecord::zone-db.${zone}-A-10.20.0.10`,
    `delete DnsRecord::zone-www.${zone}-CNAME`,
    `delete NetworkResource::office-${prefix}-printer`,
    `delete Policy::db-from:${opsId}`,
  ].sort();
  expect(ops(life.removed!.previewOps)).toEqual(removed);
  expect(ops(life.removed!.ops)).toEqual(removed);
  expect(life["after-removed"]!.changes).toEqual({ same: 15 });

  // Bad input fails at preview, naming the component, the entry and the field, once.
  expect(life.bad!.failed).toBe(true);
  const message = life.bad!.message ?? "";
  expect(message).toContain('Segment "db": allow[0].ports[1]: must be a port number between 1 and 65535');
  expect(message).not.toContain("allow[0].ports[1]: allow[0].ports[1]");

  expect(life.destroy!.changes).toEqual({ delete: 15 });
}

/** Asserts no file of the state backend under `work` holds `secret` in plain text (and that the key was there). */
export function expectNoPlaintext(work: string, secret: string): void {
  const files = readAllFiles(path.join(work, "state"));
  expect(files.some(([, text]) => text.includes("privnet:index:Segment"))).toBe(true);
  for (const [file, text] of files)
    expect({ file, found: text.includes(secret) }).toEqual({ file, found: false });
}

export { repoRoot };
