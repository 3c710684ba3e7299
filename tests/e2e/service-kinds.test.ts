/**
 * The kinds beyond the spec under the real CLI on privnet-server, in TypeScript (dynamic providers), YAML (the
 * resource plugin) and Python (the generated SDK and the plugin): the five EDR integrations (EdrSentinelOne,
 * EdrIntune, EdrFalcon, EdrHuntress, EdrFleetDm), GoogleWorkspaceSync, AzureAdSync, PeerEdrBypass and MspTenant.
 * Each program: up; a second preview with no change; a refresh with no drift; stage 2 changes every kind but the
 * bypass in place (nothing replaced, created or deleted); again no change; destroy leaves none of them. No credential
 * is in plain text in the state, the backend's files, the CLI's output or the server's database file.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { runPythonProgram } from "./inline";
import {
  changesOf,
  copyProject,
  driftOf,
  enrollPeers,
  makeWork,
  pluginsYaml,
  PulumiStack,
  readAllFiles,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  yamlProject,
  type E2EServer,
  type Project,
} from "./project";

const KINDS = [
  "AzureAdSync",
  "EdrFalcon",
  "EdrFleetDm",
  "EdrHuntress",
  "EdrIntune",
  "EdrSentinelOne",
  "GoogleWorkspaceSync",
  "MspTenant",
  "PeerEdrBypass",
];
/** What stage 2 changes in place: every kind but the bypass. */
const STAGE_2 = KINDS.filter((k) => k !== "PeerEdrBypass");

function dbBytes(server: E2EServer): string {
  const db = server.server.dbFile;
  return [db, `${db}-wal`, `${db}-shm`]
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString("latin1"))
    .join("\n");
}

/** What is left on the server of the kinds (an EDR integration as its vendor, the rest by count). */
async function left(server: E2EServer): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const v of ["EdrSentinelOne", "EdrIntune", "EdrFalcon", "EdrHuntress", "EdrFleetDm"]) {
    out[v] = await server.client.call(`get${v}` as never).then(
      () => 1,
      () => 0,
    );
  }
  for (const [kind, op] of [
    ["GoogleWorkspaceSync", "listGoogleWorkspaceSyncs"],
    ["AzureAdSync", "listAzureAdSyncs"],
    ["PeerEdrBypass", "listPeerEdrBypasses"],
    ["MspTenant", "listMspTenants"],
  ] as const)
    out[kind] = ((await server.client.call(op)) as unknown[] | null)?.length ?? 0;
  return out;
}
const none = Object.fromEntries(KINDS.map((k) => [k, 0]));

/** The YAML program of a stage (config: credential, a secret; bypassedPeer). */
function yamlProgram(two: boolean): string {
  return `name: privnet-service-kinds-yaml
runtime: yaml
config:
  credential:
    type: string
    secret: true
  bypassedPeer:
    type: string
resources:
  checked:
    type: privnet:Group
    properties: { name: yaml-checked }
  sentinelone:
    type: privnet:EdrSentinelOne
    properties:
      groups: ["\${checked.id}"]
      lastSyncedInterval: ${two ? 48 : 24}
      apiUrl: https://s1.example.com
      apiToken: \${credential}-s1
      matchAttributes: { activeThreats: 0, infected: false }
  intune:
    type: privnet:EdrIntune
    properties:
      groups: ["\${checked.id}"]
      lastSyncedInterval: 24
      clientId: intune-app
      tenantId: intune-tenant
      secret: \${credential}-intune
      enabled: ${!two}
  falcon:
    type: privnet:EdrFalcon
    properties:
      groups: ["\${checked.id}"]
      clientId: \${credential}-falcon-id
      secret: \${credential}-falcon
      cloudId: eu-1
      ztaScoreThreshold: ${two ? 80 : 70}
  huntress:
    type: privnet:EdrHuntress
    properties:
      groups: ["\${checked.id}"]
      lastSyncedInterval: 24
      apiKey: \${credential}-huntress-key
      apiSecret: \${credential}-huntress
      matchAttributes: { firewallStatus: ${two ? "Enabled" : "Isolated"} }
  fleet:
    type: privnet:EdrFleetDm
    properties:
      groups: ["\${checked.id}"]
      lastSyncedInterval: 24
      apiUrl: https://fleet.example.com
      apiToken: \${credential}-fleet
      matchAttributes: { diskEncryptionEnabled: true, requiredPolicies: [${two ? "1, 2" : "1"}] }
  workspace:
    type: privnet:GoogleWorkspaceSync
    properties:
      serviceAccountKey:
        fn::toBase64: \${credential}-google
      customerId: C0yaml
      groupPrefixes: [${two ? '"eng-", "ops-"' : '"eng-"'}]
  entra:
    type: privnet:AzureAdSync
    properties:
      clientSecret:
        fn::toBase64: \${credential}-azure
      clientId: yaml-app
      tenantId: yaml-tenant
      host: microsoft.com
      enabled: ${!two}
  bypass:
    type: privnet:PeerEdrBypass
    properties: { peerId: "\${bypassedPeer}" }
  acme:
    type: privnet:MspTenant
    properties:
      name: ${two ? "Acme 2" : "Acme"}
      domain: acme-yaml.example.com
      groups: [{ id: "\${checked.id}", role: ${two ? "network_admin" : "admin"} }]
      unlinkOwner: acme-owner
outputs:
  dnsChallenge: \${acme.dnsChallenge}
`;
}

/** Sorted `update Kind::name` lines of stage 2, by kind. */
const updatedKinds = (lines: string[]) =>
  lines.map((l) => l.replace(/^update (privnet:index:)?/, "update ").split("::")[0]!).sort();

describe.each(["TypeScript", "YAML"] as const)("the kinds beyond the spec in %s", (language) => {
  let work = "";
  let server: E2EServer;
  let project: Project;
  let stack: PulumiStack;
  const secret = `svc${randomBytes(6).toString("hex")}`;

  beforeAll(async () => {
    work = makeWork(`service-kinds-${language.toLowerCase()}`);
    server = await startE2EServer();
    const peers = await enrollPeers(server, ["bypassed"]);
    project =
      language === "TypeScript"
        ? await copyProject(["tests/e2e/programs/service-kinds"], work, "tests/e2e/programs/service-kinds")
        : yamlProject(work, "service-kinds-yaml", yamlProgram(false));
    stack = await PulumiStack.init({ project, work, name: "dev", server });
    // The same values under each program's names (a YAML project's config cannot have a key named secret).
    const yaml = language === "YAML";
    await stack.config(yaml ? "credential" : "secret", secret, { secret: true });
    // A peer id can look random enough for the CLI to take it for a secret: it is none.
    await stack.cli(["config", "set", "--plaintext", yaml ? "bypassedPeer" : "peerId", peers.bypassed!]);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    removeWork(work);
  });

  it(
    "up, no change, no drift; stage 2 changes each in place; no change; destroy; no credential in plain text",
    async () => {
      const up = await stack.up();
      expect(up.resourceChanges).toEqual({ create: KINDS.length + 2 });
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);

      if (language === "TypeScript") await stack.config("stage", "2");
      else fs.writeFileSync(path.join(project.dir, "Pulumi.yaml"), `${yamlProgram(true)}\n${pluginsYaml()}`);
      const two = await stack.up();
      expect(updatedKinds(two.changes)).toEqual(STAGE_2.map((k) => `update ${k}`));
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      expect(await left(server)).toEqual(Object.fromEntries(KINDS.map((k) => [k, 1])));

      const state = await stack.exportText();
      await stack.destroy();
      expect(await left(server)).toEqual(none);
      expect(state).not.toContain(secret);
      expect(stack.transcript.join("\n")).not.toContain(secret);
      for (const [file, text] of readAllFiles(path.join(work, "state")))
        expect({ file, found: text.includes(secret) }).toEqual({ file, found: false });
      expect(dbBytes(server).includes(secret)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("the kinds beyond the spec in Python (generated SDK, resource plugin)", () => {
  let work = "";
  let server: E2EServer;
  const secret = `pysvc${randomBytes(6).toString("hex")}`;
  let steps: Awaited<ReturnType<typeof runPythonProgram>> = {};

  beforeAll(async () => {
    work = makeWork("service-kinds-python");
    server = await startE2EServer();
    const peers = await enrollPeers(server, ["bypassed"]);
    steps = await runPythonProgram("service_kinds.py", work, server, {
      PRIVNET_TEST_SECRET: secret,
      PRIVNET_TEST_PEER: peers.bypassed!,
    });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    removeWork(work);
  });

  it(
    "up, no change, no drift; stage 2 updates in place; no change; destroy; no credential in plain text",
    async () => {
      const all = KINDS.length + 2;
      expect(steps.up!.changes).toEqual({ create: all });
      expect(steps.preview!.changes).toEqual({ same: all });
      expect(steps.refresh!.changes).toEqual({ same: all });
      expect(steps.stage2!.changes).toEqual({ same: all - STAGE_2.length, update: STAGE_2.length });
      expect(steps["after-stage2"]!.changes).toEqual({ same: all });
      expect(steps.destroy!.changes).toEqual({ delete: all });
      expect(await left(server)).toEqual(none);
      const files = readAllFiles(path.join(work, "state"));
      expect(files.some(([, text]) => text.includes("privnet:index:EdrSentinelOne"))).toBe(true);
      for (const [file, text] of files)
        expect({ file, found: text.includes(secret) }).toEqual({ file, found: false });
      expect(dbBytes(server).includes(secret)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );
});
