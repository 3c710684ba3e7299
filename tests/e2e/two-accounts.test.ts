/**
 * Several accounts in one program (examples/two-accounts) with the real CLI: two explicit providers against two
 * servers, a component passing its provider to its children, a lookup whose argument is an output, objects of
 * another team read with `get` (a group, a record by composite id, a network resource with its parent in state),
 * a consumer stack through a StackReference. Secrets: neither token in plain text anywhere. A wrong token in the
 * environment changes nothing (explicit arguments win), and rotating a token updates no resource.
 */
import { countInventory, type Inventory } from "../../scripts/inventory";
import type { E2EServer, Project } from "./project";
import {
  changesOf,
  copyProject,
  makeWork,
  PulumiStack,
  readAllFiles,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
} from "./project";

describe("two accounts in one program (examples/two-accounts)", () => {
  let work = "";
  let production: E2EServer;
  let staging: E2EServer;
  let project: Project;
  let stack: PulumiStack;
  let consumer: PulumiStack;
  const baseline: Record<string, Inventory> = {};
  const shared: Record<string, string> = {};
  const secrets: string[] = [];

  beforeAll(async () => {
    work = makeWork("two-accounts");
    [production, staging] = await Promise.all([startE2EServer(), startE2EServer()]);
    // Objects of the production account that another team manages: the program only reads them.
    const c = production.client;
    shared.groupId = (await c.call<{ id: string }>("createGroup", { body: { name: "shared" } })).id;
    const zone = await c.call<{ id: string }>("createDnsZone", {
      body: {
        name: "corp",
        domain: "corp.example.com",
        enable_search_domain: false,
        distribution_groups: [shared.groupId],
      },
    });
    shared.zoneId = zone.id;
    shared.recordId = (
      await c.call<{ id: string }>("createDnsRecord", {
        params: { zoneId: zone.id },
        body: { name: "db.corp.example.com", type: "A", content: "10.9.0.5", ttl: 300 },
      })
    ).id;
    shared.networkId = (await c.call<{ id: string }>("createNetwork", { body: { name: "shared-net" } })).id;
    shared.resourceId = (
      await c.call<{ id: string }>("createNetworkResource", {
        params: { networkId: shared.networkId },
        body: { name: "shared-db", address: "10.9.0.0/24", enabled: true, groups: [shared.groupId] },
      })
    ).id;
    baseline.production = await production.inventory();
    baseline.staging = await staging.inventory();

    project = await copyProject(["examples/two-accounts"], work, "examples/two-accounts");
    stack = await PulumiStack.init({ project, work, name: "dev" });
    // A stray, wrong token and URL in the environment: the providers' own arguments must win.
    stack.env.PRIVNET_TOKEN = "pnp_wrongWrongWrongWrongWrongWrongWrong000000";
    stack.env.PRIVNET_API_URL = "http://127.0.0.1:9";
    await stack.config("productionApiUrl", production.url);
    await stack.config("productionToken", production.token, { secret: true });
    await stack.config("stagingApiUrl", staging.url);
    await stack.config("stagingToken", staging.token, { secret: true });
    for (const [k, v] of Object.entries(shared)) await stack.config(`shared.${k}`, v, { path: true });
    secrets.push(production.token, staging.token);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`two-accounts e2e timings: ${stack.timingLine()}\n`);
    await production?.close();
    await staging?.close();
    removeWork(work);
  });

  it(
    "preview plans both accounts; the lookup on a group not created yet is unknown, not an error",
    async () => {
      const mark = [production.requests.length, staging.requests.length] as const;
      const preview = await stack.preview();
      const creates = changesOf(preview).filter((c) => c.startsWith("create "));
      expect(creates).toEqual(
        expect.arrayContaining([
          "create Group::production-ops",
          "create Group::staging-ops",
          "create Policy::production-ops-ssh",
          "create Policy::staging-ops-ssh",
          "create SetupKey::staging-test-machines",
        ]),
      );
      // Reads only: the `get`s of the shared objects, in production.
      expect(production.since(mark[0]).filter((r) => r.method !== "GET")).toEqual([]);
      expect(staging.since(mark[1]).filter((r) => r.method !== "GET")).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "up creates each account's objects in that account, and reads the shared ones",
    async () => {
      await stack.up();
      const prod = countInventory(await production.inventory());
      const stage = countInventory(await staging.inventory());
      const base = { p: countInventory(baseline.production!), s: countInventory(baseline.staging!) };
      expect(prod).toEqual({ ...base.p, groups: base.p.groups + 2, policies: base.p.policies + 1 });
      expect(stage).toEqual({
        ...base.s,
        groups: base.s.groups + 2,
        policies: base.s.policies + 1,
        setupKeys: base.s.setupKeys + 1,
      });
      const out = await stack.outputs();
      expect(out.stagingOpsLookupId).toBe(out.stagingGroupIds.ops);
      expect(out.stagingOpsPeers).toBe(0);
      expect(out.sharedGroupName).toBe("shared");
      expect(out.sharedRecordContent).toBe("10.9.0.5");
      expect(out.sharedResourceAddress).toBe("10.9.0.0/24");
      expect(out.stagingSetupKey).toBe("[secret]");
      // The read-only objects are in state as reads, never to be deleted by this stack.
      const reads = (await stack.stateResources()).filter((r) => r.external);
      expect(reads.map((r) => r.id).sort()).toEqual(
        [shared.groupId, `${shared.zoneId}/${shared.recordId}`, shared.resourceId].sort(),
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a second preview shows no change",
    async () => {
      expect(changesOf(await stack.preview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a rotated token updates no resource",
    async () => {
      const owner = await staging.client.call<{ id: string }>("getCurrentUser");
      const rotated = await staging.client.call<{ plain_token: string }>("createToken", {
        params: { userId: owner.id },
        body: { name: "rotated", expires_in: 30 },
      });
      secrets.push(rotated.plain_token);
      await stack.config("stagingToken", rotated.plain_token, { secret: true });
      const preview = await stack.preview();
      // Only the provider's own entry in the state takes the new (encrypted) token.
      expect(changesOf(preview)).toEqual(["update pulumi:providers:pulumi-nodejs::staging"]);
      expect(changesOf(preview).filter((c) => !c.includes("pulumi:providers:"))).toEqual([]);
      const mark = staging.requests.length;
      const up = await stack.up();
      expect(up.changes.filter((c) => !c.includes("pulumi:providers:"))).toEqual([]);
      expect(staging.since(mark).filter((r) => r.method !== "GET")).toEqual([]);
      // The new token is the one in use.
      expect(changesOf(await stack.preview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a consumer stack reads the outputs through a StackReference and adds to the staging account",
    async () => {
      const consumerProject = await copyProject(
        ["tests/e2e/programs/two-accounts-consumer"],
        work,
        "tests/e2e/programs/two-accounts-consumer",
      );
      consumer = await PulumiStack.init({ project: consumerProject, work, name: "dev" });
      await consumer.config("accountsStack", "organization/privnet-two-accounts/dev");
      await consumer.config("stagingApiUrl", staging.url);
      await consumer.config("stagingToken", staging.token, { secret: true });
      await consumer.up();
      const { policyId } = await consumer.outputs();
      const policy = await staging.client.call<{ rules: { sources: { id: string }[] }[] }>("getPolicy", {
        params: { policyId },
      });
      const out = await stack.outputs();
      expect(policy.rules[0]!.sources.map((s) => s.id)).toEqual([out.stagingGroupIds.servers]);
      await consumer.destroy();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "no token in plain text: not in the state, the backend's files or any CLI output",
    async () => {
      const texts = [
        await stack.exportText(),
        ...stack.transcript,
        ...(consumer?.transcript ?? []),
        ...readAllFiles(work).map(([, t]) => t),
      ];
      for (const t of texts) for (const s of secrets) expect(t).not.toContain(s);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroy removes what the program made in both accounts and leaves the shared objects",
    async () => {
      await stack.destroy();
      expect(countInventory(await production.inventory())).toEqual(countInventory(baseline.production!));
      // (Less the token the rotation made, which is the test's, not the program's.)
      const base = countInventory(baseline.staging!);
      expect(countInventory(await staging.inventory())).toEqual({
        ...base,
        personalAccessTokens: base.personalAccessTokens + 1,
      });
    },
    TEST_TIMEOUT_MS,
  );
});
