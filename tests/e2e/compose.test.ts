/**
 * Composition: the `core` stack (examples/core) exports ids, the `app` stack (examples/app) consumes them through
 * a StackReference. Both stacks live in one file backend, as they must for a StackReference.
 */
import { countInventory, type Inventory } from "../../scripts/inventory";
import type { E2EServer } from "./project";
import {
  changesOf,
  copyProject,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
} from "./project";

describe("core and app stacks wired by a StackReference", () => {
  let work = "";
  let server: E2EServer;
  let core: PulumiStack;
  let app: PulumiStack;
  let baseline: Inventory;

  beforeAll(async () => {
    work = makeWork("compose");
    server = await startE2EServer();
    baseline = await server.inventory();
    const [coreProject, appProject] = await Promise.all([
      copyProject(["examples/core"], work, "examples/core"),
      copyProject(["examples/app"], work, "examples/app"),
    ]);
    core = await PulumiStack.init({ project: coreProject, work, name: "dev", server });
    app = await PulumiStack.init({ project: appProject, work, name: "dev", server });
    await app.config("coreStack", "organization/privnet-core/dev");
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (core && app)
      process.stdout.write(`compose e2e timings: core ${core.timingLine()} | app ${app.timingLine()}\n`);
    await server?.close();
    removeWork(work);
  });

  it(
    "core creates its objects and exports their ids",
    async () => {
      const up = await core.up();
      expect(up.changes).toEqual(
        [
          "create pulumi:pulumi:Stack::privnet-core-dev",
          "create Group::developers",
          "create Group::platform",
          "create PostureCheck::managed-devices",
          "create SetupKey::platform-enrollment",
        ].sort(),
      );
      const outputs = await core.outputs();
      expect(outputs.platformSetupKey).toBe("[secret]");
      const inv = await server.inventory();
      expect(inv.groups.map((g) => g.id)).toEqual(
        expect.arrayContaining([outputs.platformGroupId, outputs.developersGroupId]),
      );
      expect(inv.postureChecks.map((p) => p.id)).toEqual([outputs.postureCheckId]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "app previews and creates its objects on the core's ids",
    async () => {
      const coreOutputs = await core.outputs();
      const preview = await app.preview();
      expect(changesOf(preview)).toEqual(
        [
          "create pulumi:pulumi:Stack::privnet-app-dev",
          "create Network::app",
          "create NetworkResource::app-api",
          "create NetworkRouter::app-router",
          "create Policy::developers-to-app",
        ].sort(),
      );
      await app.up();
      const outputs = await app.outputs();
      expect(outputs.coreIds).toEqual({
        platformGroupId: coreOutputs.platformGroupId,
        developersGroupId: coreOutputs.developersGroupId,
        postureCheckId: coreOutputs.postureCheckId,
      });
      // The objects on the server point at the core's objects.
      const policy: any = await server.client.call("getPolicy", { params: { policyId: outputs.policyId } });
      expect(policy.source_posture_checks).toEqual([coreOutputs.postureCheckId]);
      expect(policy.rules[0].sources.map((g: { id: string }) => g.id)).toEqual([
        coreOutputs.developersGroupId,
      ]);
      // (The API spells this field in camelCase, as the real service does.)
      expect(policy.rules[0].destinationResource).toEqual({
        id: outputs.networkResourceId,
        type: "domain",
      });
      const resource: any = await server.client.call("getNetworkResource", {
        params: { networkId: outputs.networkId, resourceId: outputs.networkResourceId },
      });
      expect(resource.groups.map((g: { id: string }) => g.id)).toEqual([coreOutputs.platformGroupId]);
      const routers = await server.client.call<any[]>("listNetworkRouters", {
        params: { networkId: outputs.networkId },
      });
      expect(routers.map((r) => r.peer_groups)).toEqual([[coreOutputs.platformGroupId]]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "neither stack has changes left, even after a refresh of the core (the app's resource joined a core group)",
    async () => {
      await core.refresh();
      expect(changesOf(await core.preview())).toEqual([]);
      expect(changesOf(await app.preview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroying app, then core, leaves the account as it was",
    async () => {
      // The StackReference is discarded (it owns nothing).
      expect((await app.destroy()).resourceChanges).toEqual({ delete: 5, discard: 1 });
      expect((await core.destroy()).resourceChanges).toEqual({ delete: 5 });
      const after = await server.inventory();
      expect(countInventory(after)).toEqual(countInventory(baseline));
      expect(after.groups).toEqual(baseline.groups);
    },
    TEST_TIMEOUT_MS,
  );
});
