/**
 * Adoption (examples/adopt): objects created out of band through the API are brought under management with the
 * `adoptId` input (read, then updated to match the program; same ids), extended, and destroyed with the stack.
 * Also checks that the engine's `import` resource option still cannot do this for a dynamic provider (the
 * reason `adoptId` exists).
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
  writes,
} from "./project";

describe("adopting objects created out of band", () => {
  let work = "";
  let server: E2EServer;
  let stack: PulumiStack;
  let baseline: Inventory;
  const existing = { group: "", policy: "", zone: "" };

  beforeAll(async () => {
    work = makeWork("adopt");
    server = await startE2EServer();
    baseline = await server.inventory();
    // Made by hand, through the API.
    existing.group = (await server.client.call<{ id: string }>("createGroup", { body: { name: "ops" } })).id;
    existing.policy = (
      await server.client.call<{ id: string }>("createPolicy", {
        body: {
          name: "ops ssh",
          description: "created by hand",
          enabled: true,
          rules: [
            {
              name: "ssh",
              enabled: true,
              action: "accept",
              bidirectional: true,
              protocol: "tcp",
              ports: ["22"],
              sources: [existing.group],
              destinations: [existing.group],
            },
          ],
        },
      })
    ).id;
    existing.zone = (
      await server.client.call<{ id: string }>("createDnsZone", {
        body: {
          name: "ops",
          domain: "ops.example.com",
          enable_search_domain: false,
          distribution_groups: [existing.group],
        },
      })
    ).id;
    const project = await copyProject(["examples/adopt"], work, "examples/adopt");
    stack = await PulumiStack.init({ project, work, name: "dev", server });
    for (const [k, v] of Object.entries(existing)) await stack.config(`existing.${k}`, v, { path: true });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`adopt e2e timings: ${stack.timingLine()}\n`);
    await server?.close();
    removeWork(work);
  });

  it(
    "preview lists the adopted objects as creates and writes nothing",
    async () => {
      const mark = server.requests.length;
      expect(changesOf(await stack.preview())).toEqual([
        "create DnsRecord::runbook",
        "create DnsZone::ops-zone",
        "create Group::ops",
        "create Policy::ops-ssh",
        "create pulumi:pulumi:Stack::privnet-adopt-dev",
      ]);
      expect(writes(server.since(mark))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "up adopts them (same ids, updated to match the program, no new objects) and creates only the new record",
    async () => {
      const mark = server.requests.length;
      await stack.up();
      // Adoption is a read and an in-place update: no POST for the adopted objects.
      expect(writes(server.since(mark)).sort()).toEqual(
        [
          "POST /api/dns/zones/{zoneId}/records",
          "PUT /api/dns/zones/{zoneId}",
          "PUT /api/groups/{groupId}",
          "PUT /api/policies/{policyId}",
        ].sort(),
      );
      const outputs = await stack.outputs();
      expect({ group: outputs.groupId, policy: outputs.policyId, zone: outputs.zoneId }).toEqual(existing);
      const policy = await server.client.call<{ description: string }>("getPolicy", {
        params: { policyId: existing.policy },
      });
      expect(policy.description).toBe("Operators reach each other over SSH (managed by Pulumi)");
      const zone = await server.client.call<{ enable_search_domain: boolean }>("getDnsZone", {
        params: { zoneId: existing.zone },
      });
      expect(zone.enable_search_domain).toBe(true);
      const counts = countInventory(await server.inventory());
      const base = countInventory(baseline);
      expect([counts.groups - base.groups, counts.policies, counts.dnsZones, counts.dnsRecords]).toEqual([
        1, 1, 1, 1,
      ]);
      // Managed now: nothing left to change.
      expect(changesOf(await stack.preview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroy removes the adopted objects too: they are managed now",
    async () => {
      await stack.destroy();
      const after = await server.inventory();
      expect(countInventory(after)).toEqual(countInventory(baseline));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the engine's `import` resource option cannot adopt a dynamic-provider resource (why adoptId exists)",
    async () => {
      const group = await server.client.call<{ id: string }>("createGroup", { body: { name: "ops" } });
      const project = await copyProject(
        ["tests/e2e/programs/import-option"],
        work,
        "tests/e2e/programs/import-option",
      );
      const importing = await PulumiStack.init({ project, work, name: "import", server });
      await importing.config("groupId", group.id);
      const mark = server.requests.length;
      const r = await importing.previewFailing();
      // The engine's import step calls Read without the resource's properties: no `__provider` to run.
      expect(`${r.stdout}${r.stderr}`).toMatch(
        /Cannot read properties of undefined \(reading 'toJavaScript'\)/,
      );
      expect(server.since(mark)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
