/**
 * The Agent Network kinds and lookups under the real CLI, against the acceptance target, in three languages:
 * - TypeScript (tests/acceptance/programs/agent-networks, dynamic providers): up, no change, no drift, an update in
 *   place of every resource (the API key rotated), no change, no drift; adoption of objects made out of band
 *   (adoptId; the settings by their address) with no create and then no change; destroy leaves nothing;
 * - YAML (the resource plugin): up, no change, no drift, an update in place; `pulumi import` of one object of each
 *   kind, whose generated code (with the API key, which the API never shows, added from config) previews with no
 *   change and refreshes with no drift; destroy;
 * - Python (the generated SDK, Automation API): up, no change, no drift, an update in place, no change, destroy;
 *   a provider and a guardrail made out of band imported with the `import_` option, then no change;
 * - every program reads the lookups (a catalog provider's defaults, the settings, a policy, the providers,
 *   consumption, usage, access logs); no API key is in plain text in the state, the backend's files or the CLI's
 *   output, nor, on the tier's own server, in its database file or request log.
 *
 * The family is one gateway per account: the three programs run one after the other, each bootstrapping the
 * settings and releasing them at its end. A target that has settings already is not touched (reported).
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { runPythonProgram } from "../e2e/inline";
import {
  changesOf,
  copyProject,
  driftOf,
  makeWork,
  PulumiStack,
  readAllFiles,
  removeWork,
  SETUP_TIMEOUT_MS,
  TEST_TIMEOUT_MS,
  yamlProject,
} from "../e2e/project";
import { acceptance } from "./target";

const acc = acceptance();
const served = acc.probe.served.includes("AgentNetworkSettings");
const hex = () => randomBytes(5).toString("hex");

/** The family's objects on the target, by kind, and whether the settings are bootstrapped. */
async function family(): Promise<Record<string, number | boolean>> {
  const c = acc.client;
  const settings = await c.call<{ endpoint: string }>("getAgentNetworkSettings");
  return {
    settings: settings.endpoint !== "",
    providers: (await c.call<unknown[]>("listAgentNetworkProviders")).length,
    guardrails: (await c.call<unknown[]>("listAgentNetworkGuardrails")).length,
    policies: (await c.call<unknown[]>("listAgentNetworkPolicies")).length,
    budgetRules: (await c.call<unknown[]>("listAgentNetworkBudgetRules")).length,
  };
}

/**
 * The gateway's history as the API answers it (the lookups of the programs below must say the same): it outlives
 * the family's objects, so an account that carried traffic before (the tier's llm-traffic file) is not at zero.
 */
async function history(): Promise<{ consumption: number; usageBuckets: number; accessLogRecords: number }> {
  const c = acc.client;
  return {
    consumption: (await c.call<unknown[]>("listAgentNetworkConsumption")).length,
    usageBuckets: (
      await c.call<unknown[]>("getAgentNetworkUsageOverview", { query: { granularity: "month" } })
    ).length,
    accessLogRecords: (
      await c.call<{ total_records: number }>("listAgentNetworkAccessLogs", { query: { page_size: "10" } })
    ).total_records,
  };
}

const EMPTY = { settings: false, providers: 0, guardrails: 0, policies: 0, budgetRules: 0 };

/** Every value of `secrets` is absent from the stack's state, its backend's files and the CLI's output. */
async function expectNoSecretIn(stack: PulumiStack, work: string, secrets: Record<string, string>) {
  const exported = await stack.exportText();
  const files = readAllFiles(path.join(work, "state"));
  for (const [name, value] of Object.entries(secrets)) {
    expect({ name, inState: exported.includes(value) }).toEqual({ name, inState: false });
    for (const [file, text] of files)
      expect({ name, file, found: text.includes(value) }).toEqual({ name, file, found: false });
    for (const t of stack.transcript)
      expect({ name, found: t.includes(value) }).toEqual({ name, found: false });
  }
  expectNotOnOwnServer(secrets);
}

/** On the tier's own server: no secret in its database files or its request log. */
function expectNotOnOwnServer(secrets: Record<string, string>) {
  const dir = process.env.PRIVNET_ACCEPTANCE_DIR;
  if (!acc.own || !dir) return;
  const db = path.join(dir, "privnet.db");
  const texts = [db, `${db}-wal`, `${db}-shm`, path.join(dir, "requests.log")]
    .filter((f) => fs.existsSync(f))
    .map((f) => [f, fs.readFileSync(f).toString("latin1")] as const);
  expect(texts.length).toBeGreaterThanOrEqual(2);
  for (const [name, value] of Object.entries(secrets))
    for (const [file, text] of texts)
      expect({ name, file: path.basename(file), found: text.includes(value) }).toEqual({
        name,
        file: path.basename(file),
        found: false,
      });
}

const record = (kind: string, detail?: string) =>
  acc.record({ check: "agent networks", kind, status: "passed", ...(detail ? { detail } : {}) });

let fresh = true;
beforeAll(async () => {
  if (served) fresh = JSON.stringify(await family()) === JSON.stringify(EMPTY);
});
afterAll(() => acc.client.close());

const run = served ? describe : describe.skip;

test("the target serves the family and its account has none of it yet", () => {
  if (!served) acc.record({ check: "agent networks", kind: "AgentNetworkSettings", status: "not served" });
  expect({ served, fresh: served ? fresh : "n/a" }).toEqual({ served, fresh: served ? true : "n/a" });
});

run("Agent Networks: a TypeScript program (dynamic providers)", () => {
  let work = "";
  let stack: PulumiStack;
  const prefix = `an${hex()}`;
  const proxyAddress = `${prefix}.agents.privnet.test`;
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    work = makeWork("agent-networks-ts");
    const project = await copyProject(
      ["tests/acceptance/programs/agent-networks"],
      work,
      "tests/acceptance/programs/agent-networks",
    );
    stack = await PulumiStack.init({ project, work, name: "acceptance", server: acc });
    secrets.key1 = `sk-acc-${hex()}${hex()}`;
    await stack.config("prefix", prefix);
    await stack.config("proxyAddress", proxyAddress);
    await stack.config("apiKey", secrets.key1, { secret: true });
    await stack.config("stage", "1");
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`agent networks (TypeScript) timings: ${stack.timingLine()}\n`);
    if (stack) await stack.destroy().catch(() => undefined);
    removeWork(work);
  });

  it(
    "up creates each kind in one step; the lookups answer",
    async () => {
      if (!fresh) return;
      const up = await stack.up();
      expect(up.changes.sort()).toEqual([
        "create AgentNetworkBudgetRule::daily",
        "create AgentNetworkGuardrail::small",
        "create AgentNetworkPolicy::engineering-openai",
        "create AgentNetworkProvider::openai",
        "create AgentNetworkSettings::gateway",
        "create Group::engineering",
        "create pulumi:pulumi:Stack::privnet-agent-networks-acceptance",
      ]);
      const out = await stack.outputs();
      expect(out.catalogHost).toBe("api.openai.com");
      expect(out.catalogModels).toBeGreaterThan(0);
      expect(out.endpoint).toMatch(new RegExp(`^[a-z0-9-]+\\.${proxyAddress.replace(/\./g, "\\.")}$`));
      expect(out.settingsEndpoint).toBe(out.endpoint);
      expect(out.policyName).toBe(`${prefix} engineering to openai`);
      expect(out.providerNames).toEqual([`${prefix} OpenAI`]);
      expect(out).toMatchObject(await history());
      expect(await family()).toEqual({
        settings: true,
        providers: 1,
        guardrails: 1,
        policies: 1,
        budgetRules: 1,
      });
      record("TypeScript: up", `${up.changes.length - 1} creates; lookups answered`);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "no change, no drift; stage 2 changes every resource in place; again no change, no drift",
    async () => {
      if (!fresh) return;
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      secrets.key2 = `sk-acc-${hex()}${hex()}`;
      await stack.config("apiKey", secrets.key2, { secret: true });
      await stack.config("stage", "2");
      const up = await stack.up();
      expect(up.changes.sort()).toEqual([
        "update AgentNetworkBudgetRule::daily",
        "update AgentNetworkGuardrail::small",
        "update AgentNetworkPolicy::engineering-openai",
        "update AgentNetworkProvider::openai",
        "update AgentNetworkSettings::gateway",
      ]);
      const ids = (await stack.outputs()).ids as Record<string, string>;
      const policy = await acc.client.call<{ limits: { budget_limit: { group_cap_usd: number } } }>(
        "getAgentNetworkPolicy",
        { params: { policyId: ids.policy! } },
      );
      expect(policy.limits.budget_limit.group_cap_usd).toBe(50);
      expect(
        await acc.client.call<{ redact_pii: boolean; access_log_retention_days: number }>(
          "getAgentNetworkSettings",
        ),
      ).toMatchObject({ redact_pii: true, access_log_retention_days: 7 });
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      record("TypeScript: update in place", "5 updates; no change, no drift before and after");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "another stack adopts objects made out of band (and the settings by their address): no create, no change",
    async () => {
      if (!fresh) return;
      const c = acc.client;
      const group = await c.call<{ id: string }>("createGroup", { body: { name: `${prefix}-adopted` } });
      secrets.key3 = `sk-acc-${hex()}${hex()}`;
      const provider = await c.call<{ id: string }>("createAgentNetworkProvider", {
        body: {
          provider_id: "openai_api",
          name: "by hand",
          upstream_url: "https://x.example",
          api_key: secrets.key3,
        },
      });
      const guardrail = await c.call<{ id: string }>("createAgentNetworkGuardrail", {
        body: { name: "by hand" },
      });
      const policy = await c.call<{ id: string }>("createAgentNetworkPolicy", {
        body: { name: "by hand", source_groups: [group.id], destination_provider_ids: [provider.id] },
      });
      const budget = await c.call<{ id: string }>("createAgentNetworkBudgetRule", {
        body: { name: "by hand" },
      });
      const adopt = {
        group: group.id,
        provider: provider.id,
        guardrail: guardrail.id,
        policy: policy.id,
        budget: budget.id,
      };
      const adopting = await PulumiStack.init({ project: stack.project, work, name: "adopt", server: acc });
      await adopting.config("prefix", `${prefix}-adopted`);
      await adopting.config("proxyAddress", proxyAddress);
      await adopting.config("apiKey", secrets.key3, { secret: true });
      await adopting.config("stage", "2");
      await adopting.config("adopt", JSON.stringify(adopt));
      const before = await family();
      try {
        // Each resource is new to this stack, but none is new on the server: every object was adopted.
        await adopting.up();
        expect(await family()).toEqual(before);
        const ids = (await adopting.outputs()).ids as Record<string, string>;
        expect(ids).toEqual(adopt);
        expect(changesOf(await adopting.preview())).toEqual([]);
        expect(driftOf(await adopting.refreshPreview())).toEqual([]);
        await expectNoSecretIn(adopting, work, { adopted: secrets.key3 });
      } finally {
        // The adopted settings are put back as they were; everything else the stack adopted goes.
        await adopting.destroy();
      }
      expect(await family()).toEqual({
        settings: true,
        providers: 1,
        guardrails: 1,
        policies: 1,
        budgetRules: 1,
      });
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      record("TypeScript: adoption", "5 objects and the settings adopted: no create, no change");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "no API key in plain text; destroy leaves nothing of the family",
    async () => {
      if (!fresh) return;
      await expectNoSecretIn(stack, work, secrets);
      await stack.destroy();
      expect(await family()).toEqual(EMPTY);
      record("TypeScript: destroy", "no API key in plain text; nothing left");
    },
    TEST_TIMEOUT_MS,
  );
});

/** The YAML program; config: prefix, proxyAddress, apiKey (secret), retention, userCap, budgetCap. */
const YAML_PROGRAM = `name: privnet-agent-networks-yaml
runtime: yaml
config:
  prefix:
    type: string
  proxyAddress:
    type: string
  apiKey:
    type: string
    secret: true
  retention:
    type: integer
  userCap:
    type: integer
  budgetCap:
    type: integer
resources:
  engineering:
    type: privnet:Group
    properties:
      name: \${prefix}-engineering
  gateway:
    type: privnet:AgentNetworkSettings
    properties:
      proxyAddress: \${proxyAddress}
      accessLogRetentionDays: \${retention}
  openai:
    type: privnet:AgentNetworkProvider
    properties:
      providerId: openai_api
      name: \${prefix} OpenAI
      upstreamUrl: https://api.openai.com
      apiKey: \${apiKey}
      enabled: true
      models:
        - id: gpt-4o-mini
          inputPer1k: 0.00015
          outputPer1k: 0.0006
    options:
      dependsOn:
        - \${gateway}
  small:
    type: privnet:AgentNetworkGuardrail
    properties:
      name: \${prefix} small models
      checks:
        modelAllowlist:
          enabled: true
          models: ["gpt-4o-mini"]
  policy:
    type: privnet:AgentNetworkPolicy
    properties:
      name: \${prefix} engineering to openai
      sourceGroups: ["\${engineering.id}"]
      destinationProviderIds: ["\${openai.id}"]
      guardrailIds: ["\${small.id}"]
      limits:
        tokenLimit:
          enabled: true
          groupCap: 0
          userCap: \${userCap}
          windowSeconds: 86400
  daily:
    type: privnet:AgentNetworkBudgetRule
    properties:
      name: \${prefix} daily ceiling
      targetGroups: ["\${engineering.id}"]
      limits:
        budgetLimit:
          enabled: true
          groupCapUsd: \${budgetCap}
          userCapUsd: 0
          windowSeconds: 86400
variables:
  catalog:
    fn::invoke:
      function: privnet:getAgentNetworkCatalogProvider
      arguments:
        id: openai_api
  usage:
    fn::invoke:
      function: privnet:getAgentNetworkUsage
      arguments:
        granularity: month
  logs:
    fn::invoke:
      function: privnet:getAgentNetworkAccessLogs
      arguments:
        pageSize: 10
outputs:
  catalogHost: \${catalog.defaultHost}
  endpoint: \${gateway.endpoint}
  usage: \${usage.items}
  accessLogRecords: \${logs.totalRecords}
  providerId: \${openai.id}
`;

run("Agent Networks: a YAML program (the resource plugin) and pulumi import", () => {
  let work = "";
  let stack: PulumiStack;
  const prefix = `any${hex()}`;
  const proxyAddress = `${prefix}.agents.privnet.test`;
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    work = makeWork("agent-networks-yaml");
    stack = await PulumiStack.init({
      project: yamlProject(work, "agent-networks-yaml", YAML_PROGRAM),
      work,
      name: "acceptance",
      server: acc,
    });
    secrets.key1 = `sk-yaml-${hex()}${hex()}`;
    await stack.config("prefix", prefix);
    await stack.config("proxyAddress", proxyAddress);
    await stack.config("apiKey", secrets.key1, { secret: true });
    await stack.config("retention", "30");
    await stack.config("userCap", "2000000");
    await stack.config("budgetCap", "100");
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`agent networks (YAML) timings: ${stack.timingLine()}\n`);
    if (stack) await stack.destroy().catch(() => undefined);
    removeWork(work);
  });

  it(
    "up, no change, no drift; an update in place; no change, no drift",
    async () => {
      if (!fresh) return;
      const up = await stack.up();
      expect(up.changes.filter((c) => c.startsWith("create privnet:"))).toHaveLength(6);
      const out = await stack.outputs();
      const h = await history();
      expect(out).toMatchObject({ catalogHost: "api.openai.com", accessLogRecords: h.accessLogRecords });
      expect((out.usage as unknown[]).length).toBe(h.usageBuckets);
      expect(out.endpoint).toMatch(new RegExp(`\\.${proxyAddress.replace(/\./g, "\\.")}$`));
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      secrets.key2 = `sk-yaml-${hex()}${hex()}`;
      await stack.config("apiKey", secrets.key2, { secret: true });
      await stack.config("retention", "7");
      await stack.config("userCap", "1000000");
      await stack.config("budgetCap", "80");
      const update = await stack.up();
      expect(update.changes.sort()).toEqual([
        "update privnet:index:AgentNetworkBudgetRule::daily",
        "update privnet:index:AgentNetworkPolicy::policy",
        "update privnet:index:AgentNetworkProvider::openai",
        "update privnet:index:AgentNetworkSettings::gateway",
      ]);
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      record("YAML: up, update in place", "6 creates, 4 updates; no change, no drift before and after");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "pulumi import of each kind: the generated code previews with no change and refreshes with no drift",
    async () => {
      if (!fresh) return;
      const c = acc.client;
      const group = await c.call<{ id: string }>("createGroup", { body: { name: `${prefix}-imported` } });
      secrets.key3 = `sk-import-${hex()}${hex()}`;
      const provider = await c.call<{ id: string }>("createAgentNetworkProvider", {
        body: {
          provider_id: "anthropic_api",
          name: "by hand",
          upstream_url: "https://api.anthropic.com",
          api_key: secrets.key3,
          enabled: true,
          models: [{ id: "claude-haiku-4-5", input_per_1k: 0.001, output_per_1k: 0.005 }],
        },
      });
      const guardrail = await c.call<{ id: string }>("createAgentNetworkGuardrail", {
        body: { name: "by hand", checks: { prompt_capture: { enabled: true, redact_pii: true } } },
      });
      const policy = await c.call<{ id: string }>("createAgentNetworkPolicy", {
        body: {
          name: "by hand",
          source_groups: [group.id],
          destination_provider_ids: [provider.id],
          guardrail_ids: [guardrail.id],
          limits: {
            budget_limit: { enabled: true, group_cap_usd: 0, user_cap_usd: 3, window_seconds: 3600 },
          },
        },
      });
      const budget = await c.call<{ id: string }>("createAgentNetworkBudgetRule", {
        body: { name: "by hand", target_groups: [group.id] },
      });
      const project = yamlProject(
        work,
        "import-yaml",
        "name: privnet-import-agent-networks\nruntime: yaml\nconfig:\n  apiKey:\n    type: string\n    secret: true\n",
      );
      const imp = await PulumiStack.init({ project, work, name: "imported", server: acc });
      await imp.config("apiKey", secrets.key3, { secret: true });
      const code: string[] = [];
      for (const [type, name, id] of [
        ["privnet:index:AgentNetworkSettings", "gateway", "agent-network-settings"],
        ["privnet:index:AgentNetworkProvider", "anthropic", provider.id],
        ["privnet:index:AgentNetworkGuardrail", "capture", guardrail.id],
        ["privnet:index:AgentNetworkPolicy", "by-hand", policy.id],
        ["privnet:index:AgentNetworkBudgetRule", "by-hand-budget", budget.id],
      ] as const) {
        const out = path.join(work, `${name}.yaml`);
        await imp.cli(["import", type, name, id, "--out", out, "--protect=false"], { yes: true });
        code.push(fs.readFileSync(out, "utf8"));
      }
      const text = code.join("\n");
      expect(text).toContain(`proxyAddress: ${proxyAddress}`);
      expect(text).not.toMatch(/^\s+endpoint:/m);
      expect(text).not.toContain(secrets.key3);
      // The API key, which the API never shows, is the program's to state (from config here): the generated
      // code names it with an empty value.
      expect(text).toMatch(/^\s+apiKey: ""$/m);
      const resources = code
        .map((c0) => c0.slice(c0.indexOf("resources:") + "resources:".length))
        .join("")
        .replace(/^(\s+)apiKey: ""$/m, "$1apiKey: ${apiKey}")
        // The policy names the provider and the guardrail by reference, as a program would (the values are the
        // same ids, so still no change; and destroy then deletes the policy first).
        .replaceAll(provider.id, "${anthropic.id}")
        .replaceAll(guardrail.id, "${capture.id}");
      const yaml = path.join(project.dir, "Pulumi.yaml");
      fs.appendFileSync(yaml, `resources:${resources}`);
      try {
        await imp.cli(["preview", "--expect-no-changes"]);
        expect(driftOf(await imp.refreshPreview())).toEqual([]);
        // An up with nothing to change records the references in the state, so that destroy deletes the policy
        // before the provider and the guardrail it names.
        expect((await imp.up()).changes).toEqual([]);
        await expectNoSecretIn(imp, work, { imported: secrets.key3 });
      } finally {
        await imp.destroy();
      }
      // The imported settings were the YAML stack's: the import stack put them back, it did not release them.
      expect((await family()).settings).toBe(true);
      await c.call("deleteGroup", { params: { groupId: group.id } });
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      record("YAML: pulumi import", "5 kinds imported; the generated code has no change, no drift");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "no API key in plain text; destroy leaves nothing of the family",
    async () => {
      if (!fresh) return;
      await expectNoSecretIn(stack, work, { key1: secrets.key1!, key2: secrets.key2! });
      await stack.destroy();
      expect(await family()).toEqual(EMPTY);
      record("YAML: destroy", "no API key in plain text; nothing left");
    },
    TEST_TIMEOUT_MS,
  );
});

run("Agent Networks: a Python program (the generated SDK)", () => {
  it(
    "up, no change, no drift, an update in place, no change, no drift, destroy; no API key in the backend",
    async () => {
      if (!fresh) return;
      const work = makeWork("agent-networks-python");
      const prefix = `anp${hex()}`;
      const key = `sk-py-${hex()}${hex()}`;
      try {
        const steps = await runPythonProgram("agent_networks.py", work, acc, {
          PRIVNET_TEST_PREFIX: prefix,
          PRIVNET_TEST_PROXY: `${prefix}.agents.privnet.test`,
          PRIVNET_TEST_API_KEY: key,
        });
        expect(steps.up?.changes).toEqual({ create: 7 });
        const out = Object.fromEntries(Object.entries(steps.up?.outputs ?? {}).map(([k, v]) => [k, v.value]));
        expect(out).toMatchObject({
          catalogHost: "api.openai.com",
          ...(await history()),
        });
        expect(out.settingsEndpoint).toBe(out.endpoint);
        expect(out.policyName).toBe(`${prefix} engineering to openai`);
        expect(steps.preview?.changes).toEqual({ same: 7 });
        expect(steps.refresh?.changes).toEqual({ same: 7 });
        expect(steps.update?.changes).toEqual({ same: 2, update: 5 });
        expect(steps["after-update"]?.changes).toEqual({ same: 7 });
        expect(steps["after-update-refresh"]?.changes).toEqual({ same: 7 });
        expect(steps.destroy?.changes).toEqual({ delete: 7 });
        expect(steps.import?.changes).toEqual({ create: 1, import: 2 });
        expect(steps["after-import"]?.changes).toEqual({ same: 3 });
        expect(steps["after-import-refresh"]?.changes).toEqual({ same: 3 });
        expect(steps["import-destroy"]?.changes).toEqual({ delete: 3 });
        for (const [file, text] of readAllFiles(path.join(work, "state")))
          for (const v of [key, `${key}-2`, `${key}-imported`])
            expect({ file, found: text.includes(v) }).toEqual({ file, found: false });
        expectNotOnOwnServer({ key, key2: `${key}-2`, imported: `${key}-imported` });
        expect(await family()).toEqual(EMPTY);
        record(
          "Python",
          "7 creates, 5 updates in place, no change, no drift, 7 deletes; 2 imported, no change",
        );
      } finally {
        removeWork(work);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
