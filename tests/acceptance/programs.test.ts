/**
 * Pulumi programs under the real CLI against the acceptance target:
 * - tests/acceptance/programs/everything: every kind the target serves, with the shapes servers write back in
 *   forms of their own; up, a second preview with no change, a refresh with no drift, a change in place of every
 *   kind, again no change, destroy; nothing of it is left and the account's settings are as they were;
 * - the root program (examples/network) the same way, with a smaller script;
 * - through the resource plugin: the YAML network example, a Python inline program with the generated SDK, and a
 *   Java program with its generated SDK (a Maven project under the real Java language host, run through Maven as
 *   docs/languages.md sets it up).
 * Where the server loses data it was sent (a policy's second rule's sources on one server), the apply must warn,
 * naming the policy, the rule and the field, and only that resource may show as changed afterwards.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { AccountSettingsSchema } from "../../api/account";
import { DnsSettingsSchema } from "../../api/dns-settings";
import { tolerate } from "../../model/mapping";
import { INVENTORY_KINDS, readInventory, type Inventory } from "../../scripts/inventory";
import type { PreviewJson, Project, UpdateResult } from "../e2e/project";
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
import { repoRoot } from "../e2e/engine";
import { runPythonNetwork } from "../e2e/inline";
import { javaProgram, javaProject } from "../e2e/java";
import { acceptance } from "./target";

const acc = acceptance();
const CLIENT_SECRET = `acc-client-secret-${randomBytes(6).toString("hex")}`;

function counts(inv: Inventory): Record<string, number> {
  return Object.fromEntries(INVENTORY_KINDS.map((k) => [k, inv[k].length]));
}

/** Kinds of `changes` lines (`update Policy::two-rules` -> `Policy::two-rules`). */
const resourcesOf = (changes: string[]) => changes.map((c) => c.replace(/^\S+ /, ""));

/** The account's settings and DNS settings, as the API returns them (DNS settings in either shape). */
/**
 * The account's settings and DNS settings, read as the provider reads them: a `null` list is an empty list (a
 * server may answer `null` for a list never set, and `[]` once a restore wrote it back).
 */
async function settings(): Promise<{ account: unknown; dns: unknown }> {
  const [account] = await acc.client.call<{ settings: unknown }[]>("listAccounts");
  const dns = await acc.client.call<{ items?: unknown }>("getDnsSettings");
  return {
    account: tolerate(account?.settings, AccountSettingsSchema),
    dns: tolerate(dns.items ?? dns, DnsSettingsSchema),
  };
}

afterAll(() => acc.client.close());

describe("tests/acceptance/programs/everything under the real CLI", () => {
  let work = "";
  let project: Project;
  let stack: PulumiStack;
  let before: Inventory;
  let settingsBefore: { account: unknown; dns: unknown };
  const prefix = `acc${randomBytes(3).toString("hex")}`;
  /** Resources the server cannot hold as sent (found after the first up); expected to show as changed. */
  let lossy: string[] = [];

  beforeAll(async () => {
    work = makeWork("acceptance");
    const target = acc.fixtureTarget("back");
    const peers: string[] = [];
    for (let i = 0; i < Math.min(5, acc.peerBudget("back")); i++) peers.push(await target.peer());
    before = await readInventory(acc.client);
    settingsBefore = await settings();
    project = await copyProject(
      ["tests/acceptance/programs/everything"],
      work,
      "tests/acceptance/programs/everything",
    );
    stack = await PulumiStack.init({ project, work, name: "acceptance", server: acc });
    await stack.config("kinds", JSON.stringify(acc.probe.served));
    await stack.config("peers", JSON.stringify(peers));
    await stack.config("prefix", prefix);
    await stack.config("issuer", target.oidcIssuer);
    await stack.config("geo", String(target.geoLocation));
    if (target.mspOwner) await stack.config("mspOwner", target.mspOwner);
    await stack.config("stage", "1");
    await stack.config("clientSecret", CLIENT_SECRET, { secret: true });
    const cluster = !acc.probe.served.includes("ReverseProxyService")
      ? undefined
      : acc.own
        ? await target.proxyCluster()
        : acc.probe.proxyClusters[0];
    if (cluster) await stack.config("proxyCluster", cluster);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`acceptance program timings: ${stack.timingLine()}\n`);
    // Leave nothing behind on a shared target, whatever failed.
    if (stack) await stack.destroy().catch(() => undefined);
    removeWork(work);
  });

  /** Asserts a preview shows no change except on the resources the server cannot hold. */
  function expectNoChange(preview: PreviewJson): void {
    expect(resourcesOf(changesOf(preview)).filter((r) => !lossy.includes(r))).toEqual([]);
  }

  /**
   * Asserts a refresh finds no drift except on the resources the server cannot hold. The engine counts a lossy
   * resource in the change summary even where its refresh step shows equal old and new states (the difference is
   * in what the program sent, which the step does not show), so the summary may count up to that many more.
   */
  function expectNoDrift(preview: PreviewJson): void {
    const drift = driftOf(preview);
    const surplus = /^\((\d+) more in the change summary: update \d+\)$/;
    const shown = drift.filter((r) => lossy.includes(r)).length;
    const unexplained = drift.filter((r) => {
      if (lossy.includes(r)) return false;
      const m = surplus.exec(r);
      return !m || Number(m[1]) > lossy.length - shown;
    });
    expect(unexplained).toEqual([]);
  }

  /** The server's answer for the two-rule policy decides whether it is lossy; if so the up must have warned. */
  async function checkLossy(result: UpdateResult): Promise<void> {
    if (!acc.probe.served.includes("Policy")) return;
    const outputs = await stack.outputs();
    const policy = await acc.client.call<{ name: string; rules: { sources: unknown[] | null }[] }>(
      "getPolicy",
      {
        params: { policyId: outputs.twoRulePolicy },
      },
    );
    // One server answers the create with both rules but keeps only the first (or the second without sources).
    const rules = policy.rules ?? [];
    const lost = rules.length < 2 || rules.some((r) => (r.sources ?? []).length === 0);
    lossy = lost ? ["Policy::two-rules"] : [];
    const text = result.raw.stdout + result.raw.stderr;
    if (lost) {
      expect(text).toContain(`Policy \\"${policy.name}\\"`);
      expect(text).toMatch(/rules\[1\] \(\\"dns\\"\)(\.sources)?: sent [[{]/);
    } else {
      expect(text).not.toMatch(/stored other values than the program sent/);
    }
  }

  it(
    "up creates every object of the kinds the target serves, in one step each",
    async () => {
      const result = await stack.up();
      expect(result.changes.every((c) => c.startsWith("create "))).toBe(true);
      await checkLossy(result);
      // Nothing else may have warned: a warning means a value was stored otherwise than sent.
      const warned = (result.raw.stdout.match(/stored other values than the program sent/g) ?? []).length;
      expect(warned).toBe(lossy.length);
      acc.record({
        check: "program",
        kind: "everything (stage 1 up)",
        status: "passed",
        detail: `${result.changes.length} creates${lossy.length ? `; lossy on this server: ${lossy.join(", ")}` : ""}`,
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a second preview shows no change, and refresh shows no drift",
    async () => {
      expectNoChange(await stack.preview());
      expectNoDrift(await stack.refreshPreview());
      acc.record({ check: "program", kind: "everything (preview, refresh)", status: "passed" });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "stage 2 changes objects in place, then again nothing changes",
    async () => {
      await stack.config("stage", "2");
      const result = await stack.up();
      const replaced = result.changes.filter((c) => !c.startsWith("update "));
      expect(replaced).toEqual([]);
      expect(result.changes.length).toBeGreaterThan(5);
      expectNoChange(await stack.preview());
      expectNoDrift(await stack.refreshPreview());
      acc.record({
        check: "program",
        kind: "everything (stage 2 update)",
        status: "passed",
        detail: `${result.changes.length} updates in place`,
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "no secret is in the state, the backend's files or the CLI's output",
    async () => {
      const texts = [await stack.exportText(), ...stack.transcript, ...readAllFiles(work).map(([, t]) => t)];
      for (const t of texts) {
        expect(t).not.toContain(acc.token);
        expect(t).not.toContain(CLIENT_SECRET);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroy leaves nothing of the program, and the account's settings as they were",
    async () => {
      await stack.destroy();
      const after = await readInventory(acc.client);
      expect(counts(after)).toEqual(counts(before));
      expect(await settings()).toEqual(settingsBefore);
      acc.record({ check: "program", kind: "everything (destroy)", status: "passed" });
    },
    TEST_TIMEOUT_MS,
  );
});

describe("the root program (examples/network) under the real CLI", () => {
  let work = "";
  let stack: PulumiStack;
  let before: Inventory;

  beforeAll(async () => {
    work = makeWork("acceptance-network");
    before = await readInventory(acc.client);
    const project = await copyProject(["Pulumi.yaml", "examples/network"], work, "examples/network");
    stack = await PulumiStack.init({ project, work, name: "acceptance", server: acc });
    await stack.config("oidcIssuer", acc.fixtureTarget("back").oidcIssuer);
    await stack.config("oidcClientSecret", CLIENT_SECRET, { secret: true });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) await stack.destroy().catch(() => undefined);
    removeWork(work);
  });

  it(
    "up, no change, no drift, destroy leaves the account as it was",
    async () => {
      const up = await stack.up();
      expect(up.changes.every((c) => c.startsWith("create "))).toBe(true);
      expect(up.raw.stdout).not.toMatch(/stored other values than the program sent/);
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      await stack.destroy();
      expect(counts(await readInventory(acc.client))).toEqual(counts(before));
      acc.record({
        check: "program",
        kind: "examples/network",
        status: "passed",
        detail: `${up.changes.length} creates`,
      });
    },
    TEST_TIMEOUT_MS,
  );
});

describe("the YAML network example (examples/network-yaml) through the resource plugin", () => {
  let work = "";
  let stack: PulumiStack;
  let before: Inventory;

  beforeAll(async () => {
    work = makeWork("acceptance-yaml");
    before = await readInventory(acc.client);
    const text = fs.readFileSync(path.join(repoRoot, "examples", "network-yaml", "Pulumi.yaml"), "utf8");
    stack = await PulumiStack.init({
      project: yamlProject(work, "network-yaml", text),
      work,
      name: "acc",
      server: acc,
    });
    await stack.config("oidcIssuer", acc.fixtureTarget("back").oidcIssuer);
    await stack.config("oidcClientSecret", CLIENT_SECRET, { secret: true });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) await stack.destroy().catch(() => undefined);
    removeWork(work);
  });

  it(
    "up, no change, no drift, a rename in place, destroy leaves the account as it was",
    async () => {
      const up = await stack.up();
      expect(up.changes.every((c) => c.startsWith("create "))).toBe(true);
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      await stack.config("teamName", `renamed-${randomBytes(3).toString("hex")}`);
      const renamed = await stack.up();
      expect(renamed.changes).toEqual(["update privnet:index:Group::engineering"]);
      expect(changesOf(await stack.preview())).toEqual([]);
      await stack.destroy();
      expect(counts(await readInventory(acc.client))).toEqual(counts(before));
      acc.record({
        check: "plugin program",
        kind: "examples/network-yaml",
        status: "passed",
        detail: `${up.changes.length} creates`,
      });
    },
    TEST_TIMEOUT_MS,
  );
});

describe("a Python inline program (generated SDK) through the resource plugin", () => {
  let work = "";

  afterAll(() => removeWork(work));

  it(
    "up, no change, no drift, a rename in place, destroy leaves the account as it was",
    async () => {
      work = makeWork("acceptance-python");
      const before = await readInventory(acc.client);
      const steps = await runPythonNetwork(work, acc);
      expect(steps.up!.changes).toEqual({ create: 7 });
      expect(steps.up!.outputs!.setupKey!.secret).toBe(true);
      expect(steps.preview!.changes).toEqual({ same: 7 });
      expect(steps.refresh!.changes).toEqual({ same: 7 });
      expect(steps.rename!.changes).toEqual({ same: 6, update: 1 });
      expect(steps["after-rename"]!.changes).toEqual({ same: 7 });
      expect(steps.destroy!.changes).toEqual({ delete: 7 });
      expect(counts(await readInventory(acc.client))).toEqual(counts(before));
      acc.record({ check: "plugin program", kind: "python inline", status: "passed", detail: "7 creates" });
    },
    TEST_TIMEOUT_MS,
  );
});

describe("a Java program (generated SDK, Maven, the Java language host) through the resource plugin", () => {
  let work = "";
  let stack: PulumiStack | undefined;
  const prefix = `accj${randomBytes(3).toString("hex")}`;

  afterAll(async () => {
    if (stack) await stack.destroy().catch(() => undefined);
    removeWork(work);
  });

  it(
    "up, the key secret and in no file of the state, no change, no drift, a rename in place, destroy leaves the account as it was",
    async () => {
      work = makeWork("acceptance-java");
      const before = await readInventory(acc.client);
      const project = await javaProject(work, "network-java", javaProgram("network"));
      stack = await PulumiStack.init({ project, work, name: "acc", server: acc });
      await stack.config("prefix", prefix);
      await stack.config("team", `${prefix}-team`);
      const up = await stack.up();
      expect(up.resourceChanges).toEqual({ create: 7 });
      const shown = await stack.outputs();
      expect(shown.setupKey).toBe("[secret]");
      expect(typeof shown.everyoneGroupId).toBe("string");
      const key = String((await stack.outputs(true)).setupKey);
      expect(key.length).toBeGreaterThan(8);
      for (const t of [await stack.exportText(), ...readAllFiles(work).map(([, text]) => text)])
        expect(t).not.toContain(key);
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      await stack.config("team", `${prefix}-team-renamed`);
      const renamed = await stack.up();
      expect(renamed.changes).toEqual(["update privnet:index:Group::team"]);
      expect(changesOf(await stack.preview())).toEqual([]);
      const destroyed = await stack.destroy();
      expect(destroyed.resourceChanges).toEqual({ delete: 7 });
      stack = undefined;
      expect(counts(await readInventory(acc.client))).toEqual(counts(before));
      acc.record({ check: "plugin program", kind: "java", status: "passed", detail: "7 creates" });
    },
    TEST_TIMEOUT_MS,
  );
});
