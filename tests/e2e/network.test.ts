/**
 * The root program (Pulumi.yaml -> examples/network/) through its whole life with the real CLI, on one stack
 * against a fresh local server: preview, up, no-change preview, in-place update, replacement, out-of-band change
 * and delete (refresh, then up), secrets in the state, destroy. The scenarios run in order and share the stack.
 */
import * as path from "node:path";
import { PrivnetClient } from "../../client";
import { countInventory, INVENTORY_KINDS, type Inventory, type InventoryKind } from "../../scripts/inventory";
import type { E2EServer, Project } from "./project";
import {
  changesOf,
  copyProject,
  enrollPeers,
  makeWork,
  PulumiStack,
  readAllFiles,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  writes,
} from "./project";

/** Every resource of the program, as `pulumi preview` names them. */
const RESOURCES = [
  "pulumi:pulumi:Stack::privnet-network-dev",
  "AccountSettings::account",
  "DnsRecord::db",
  "DnsRecord::wiki",
  "DnsZone::internal",
  "Group::engineering",
  "Group::gateways",
  "Group::servers",
  "IdentityProvider::corp-sso",
  "NameserverGroup::corp-dns",
  "Network::datacenter",
  "NetworkResource::database-subnet",
  "NetworkRouter::datacenter-router",
  "PersonalAccessToken::ci-token",
  "Policy::engineering-dns",
  "Policy::engineering-to-servers",
  "PostureCheck::baseline",
  "Route::office-lan",
  "SetupKey::gateway-enrollment",
  "User::ci",
];
const EXPECTED_CREATES = RESOURCES.map((r) => `create ${r}`).sort();

/** Objects the program creates, per kind (AccountSettings changes the account; it creates nothing). */
const EXPECTED_NEW: Partial<Record<InventoryKind, number>> = {
  groups: 3,
  policies: 2,
  postureChecks: 1,
  setupKeys: 1,
  routes: 1,
  networks: 1,
  networkResources: 1,
  networkRouters: 1,
  nameserverGroups: 1,
  dnsZones: 1,
  dnsRecords: 2,
  users: 1,
  personalAccessTokens: 1,
  identityProviders: 1,
};

const CLIENT_SECRET = "oidc-client-secret-e2e-7f3a9c";

function idsOf(inv: Inventory): Record<InventoryKind, string[]> {
  return Object.fromEntries(INVENTORY_KINDS.map((k) => [k, inv[k].map((i) => i.id).sort()])) as Record<
    InventoryKind,
    string[]
  >;
}

describe("root program (examples/network) with the real CLI", () => {
  let work = "";
  let server: E2EServer;
  let project: Project;
  let stack: PulumiStack;
  let baseline: Inventory;
  let peers: Record<string, string> = {};
  /** Secret plaintexts seen during the run: none may appear in the state or the backend's files. */
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    work = makeWork("network");
    server = await startE2EServer();
    peers = await enrollPeers(server, ["gw-1", "gw-2", "laptop-1"]);
    baseline = await server.inventory();
    project = await copyProject(["Pulumi.yaml", "examples/network"], work, "examples/network");
    stack = await PulumiStack.init({ project, work, name: "dev", server });
    await stack.config("gateways", JSON.stringify(["gw-1", "gw-2"]));
    await stack.config("oidcClientSecret", CLIENT_SECRET, { secret: true });
    secrets.providerToken = server.token;
    secrets.clientSecret = CLIENT_SECRET;
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`network e2e timings: ${stack.timingLine()}\n`);
    await server?.close();
    removeWork(work);
  });

  it(
    "preview shows exactly the expected creates and writes nothing",
    async () => {
      const mark = server.requests.length;
      const preview = await stack.preview();
      expect(changesOf(preview)).toEqual(EXPECTED_CREATES);
      expect(preview.changeSummary).toEqual({ create: RESOURCES.length });
      // Only the lookups of the gateways by name (GET /api/peers) reach the server.
      expect(writes(server.since(mark))).toEqual([]);
      expect((await server.inventory()).groups).toEqual(baseline.groups);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "up creates exactly those objects (counted through the API)",
    async () => {
      const up = await stack.up();
      expect(up.resourceChanges).toEqual({ create: RESOURCES.length });
      expect(up.changes).toEqual(EXPECTED_CREATES);

      const after = await server.inventory();
      const before = countInventory(baseline);
      const now = countInventory(after);
      for (const kind of INVENTORY_KINDS) {
        expect({ kind, created: now[kind] - before[kind] }).toEqual({
          kind,
          created: EXPECTED_NEW[kind] ?? 0,
        });
      }
      // The outputs are the ids of the objects on the server.
      const outputs = await stack.outputs();
      const ids = idsOf(after);
      expect(ids.routes).toContain(outputs.routeId);
      expect(ids.networks).toContain(outputs.networkId);
      expect(ids.dnsZones).toContain(outputs.dnsZoneId);
      expect(ids.identityProviders).toContain(outputs.identityProviderId);
      expect(
        Object.values(outputs.groupIds as Record<string, string>).every((id) => ids.groups.includes(id)),
      ).toBe(true);
      // The gateways group holds the peers looked up by name; the account settings are the program's.
      const gateways = await server.client.call<{ peers: { id: string }[] }>("getGroup", {
        params: { groupId: outputs.groupIds.gateways },
      });
      expect(gateways.peers.map((p) => p.id).sort()).toEqual([peers["gw-1"], peers["gw-2"]].sort());
      expect(after.accountSettings).toMatchObject({
        peer_login_expiration: 7 * 86400,
        peer_inactivity_expiration_enabled: true,
        peer_inactivity_expiration: 30 * 86400,
      });
      // Secret outputs are secret, and their values are real.
      expect((await stack.outputs()).gatewaySetupKey).toBe("[secret]");
      const shown = await stack.outputs(true);
      secrets.setupKey = shown.gatewaySetupKey as string;
      secrets.pat = shown.ciAccessToken as string;
      expect(secrets.setupKey).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
      const asCi = new PrivnetClient({ apiUrl: server.url, token: secrets.pat, rateLimit: false });
      try {
        expect((await asCi.call<{ name: string }>("getCurrentUser")).name).toBe("ci");
      } finally {
        await asCi.close();
      }
      // Each resource's serialized provider is one require of the installed package, not a copy of its code.
      for (const r of await stack.stateResources()) {
        if (!r.type.startsWith("pulumi-nodejs:dynamic/privnet:")) continue;
        const text = String(r.inputs?.__provider);
        // One require of the package's public entry (its exports), whatever its files are called inside.
        expect(text).toContain('require("pulumi-privnet/provider")');
        expect(text.length).toBeLessThan(400);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a second preview shows no changes and the server logs no write",
    async () => {
      const mark = server.requests.length;
      const preview = await stack.preview();
      expect(changesOf(preview)).toEqual([]);
      expect(preview.changeSummary).toEqual({ same: RESOURCES.length });
      expect(writes(server.since(mark))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "changing an in-place field: preview shows 1 update, up applies it",
    async () => {
      const routeId = (await stack.outputs()).routeId as string;
      await stack.config("routeMetric", "250");
      expect(changesOf(await stack.preview())).toEqual(["update Route::office-lan"]);
      const mark = server.requests.length;
      const up = await stack.up();
      expect(up.resourceChanges).toEqual({ update: 1, same: RESOURCES.length - 1 });
      expect(writes(server.since(mark))).toEqual(["PUT /api/routes/{routeId}"]);
      const route = await server.client.call<{ metric: number }>("getRoute", { params: { routeId } });
      expect(route.metric).toBe(250);
      expect((await stack.outputs()).routeId).toBe(routeId);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "changing an immutable field: preview shows a replace, up makes a new object and deletes the old",
    async () => {
      const before = (await server.inventory()).setupKeys.find((k) => k.name === "gateway enrollment");
      expect(before).toBeDefined();
      await stack.config("keyLifetimeDays", "60");
      expect(changesOf(await stack.preview())).toEqual(["replace SetupKey::gateway-enrollment"]);
      const up = await stack.up();
      expect(up.resourceChanges).toEqual({ replace: 1, same: RESOURCES.length - 1 });
      const keys = (await server.inventory()).setupKeys.filter((k) => k.name === "gateway enrollment");
      expect(keys).toHaveLength(1);
      expect(keys[0]?.id).not.toBe(before?.id);
      const shown = await stack.outputs(true);
      expect(shown.gatewaySetupKey).not.toBe(secrets.setupKey);
      secrets.replacedSetupKey = secrets.setupKey as string;
      secrets.setupKey = shown.gatewaySetupKey as string;
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "an out-of-band change: refresh shows it, up restores it",
    async () => {
      const routeId = (await stack.outputs()).routeId as string;
      const route = await server.client.call<Record<string, unknown>>("getRoute", { params: { routeId } });
      const body: Record<string, unknown> = { ...route, description: "changed by hand" };
      delete body.id;
      delete body.network_type;
      await server.client.call("updateRoute", { params: { routeId }, body });

      const refreshPreview = await stack.refreshPreview();
      expect(refreshPreview.changeSummary).toEqual({ update: 1, same: RESOURCES.length - 1 });
      const refresh = await stack.refresh();
      expect(refresh.resourceChanges).toMatchObject({ update: 1 });
      expect((await stack.stateOutputs("Route::office-lan")).description).toBe("changed by hand");

      expect(changesOf(await stack.preview())).toEqual(["update Route::office-lan"]);
      await stack.up();
      const restored = await server.client.call<{ description: string }>("getRoute", { params: { routeId } });
      expect(restored.description).toBe("Office LAN through the gateways");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "an out-of-band delete: refresh drops it, up recreates it",
    async () => {
      const outputs = await stack.outputs();
      const zoneId = outputs.dnsZoneId as string;
      const [, wikiId] = outputs.dnsRecordIds as string[];
      await server.client.call("deleteDnsRecord", { params: { zoneId, recordId: wikiId as string } });

      const refreshPreview = await stack.refreshPreview();
      expect(refreshPreview.changeSummary).toEqual({ delete: 1, same: RESOURCES.length - 1 });
      await stack.refresh();
      const inState = (await stack.stateResources()).map((r) => r.urn);
      expect(inState.some((u) => u.endsWith("::wiki"))).toBe(false);

      expect(changesOf(await stack.preview())).toEqual(["create DnsRecord::wiki"]);
      const up = await stack.up();
      expect(up.resourceChanges).toEqual({ create: 1, same: RESOURCES.length - 1 });
      const records = await server.client.call<{ id: string; name: string }[]>("listDnsRecords", {
        params: { zoneId },
      });
      const wiki = records.find((r) => r.name === "wiki.internal.example.com");
      expect(wiki).toBeDefined();
      expect(wiki?.id).not.toBe(wikiId);
      // Converged again: nothing left to do.
      expect(changesOf(await stack.preview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the state, the backend's files, the CLI's output and the server's request log hold no secret in plaintext",
    async () => {
      expect(Object.keys(secrets).sort()).toEqual(
        ["clientSecret", "pat", "providerToken", "replacedSetupKey", "setupKey"].sort(),
      );
      for (const value of Object.values(secrets)) expect(value.length).toBeGreaterThanOrEqual(16);
      const exported = await stack.exportText();
      // The secrets are in the state, encrypted.
      expect(exported).toContain('"ciphertext"');
      const files: [string, string][] = [
        ["pulumi stack export", exported],
        ...readAllFiles(path.join(work, "state")),
        ...readAllFiles(path.join(work, "pulumi-home")),
        ...readAllFiles(project.dir).filter(([f]) => /Pulumi\.[^/]*\.yaml$/.test(f)),
        ["output of every pulumi command", stack.transcript.join("\n")],
        ["the server's request log", server.requests.map((r) => JSON.stringify(r)).join("\n")],
      ];
      expect(files.length).toBeGreaterThan(3);
      const leaks: string[] = [];
      for (const [file, text] of files) {
        for (const [name, value] of Object.entries(secrets)) {
          if (text.includes(value)) leaks.push(`${name} in ${file}`);
        }
      }
      expect(leaks).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroy leaves none of the program's objects on the server",
    async () => {
      const destroy = await stack.destroy();
      expect(destroy.resourceChanges).toEqual({ delete: RESOURCES.length });
      const after = await server.inventory();
      expect(idsOf(after)).toEqual(idsOf(baseline));
      // AccountSettings restores the defaults of a new account.
      expect(after.accountSettings).toEqual(baseline.accountSettings);
      expect(await stack.outputs()).toEqual({});
    },
    TEST_TIMEOUT_MS,
  );
});
