/**
 * The components (NetworkBundle, DnsZoneBundle, Segment) under the real CLI against privnet-server, in every
 * language: YAML and TypeScript through the resource plugin (its Construct), Python, Go and Java (a Maven project
 * under the real Java language host) with their generated SDKs, and TypeScript on the dynamic providers (pulumi-privnet's ComponentResource classes). Each goes through the
 * same life (./components.ts): children under their components, up, no change, no drift, reorder changes nothing,
 * an entry changed is its child updated in place, an entry added or removed is one child made or deleted, bad
 * input fails at preview naming the component, the entry and the field, destroy leaves nothing, and the setup key
 * is a secret output never in plain text in the state.
 *
 * Then what the component does with explicit providers (its children use the component's), and the access a
 * Segment grants, read back with `privnet-access show`: exactly what its `allow` entries say.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { countInventory } from "../../scripts/inventory";
import { expectLife, expectNoPlaintext, javaLife, nodeLife, yamlLife, type Life } from "./components";
import { repoRoot } from "./engine";
import { runGoComponents, runPythonProgram } from "./inline";
import {
  enrollPeers,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  yamlProject,
  type E2EServer,
} from "./project";

type Run = (work: string, server: E2EServer, prefix: string) => Promise<Life>;

const hostings: [string, Run][] = [
  ["YAML through the plugin", async (work, server, prefix) => (await yamlLife(work, server, prefix)).life],
  [
    "Python (Automation API inline) through the plugin",
    (work, server, prefix) =>
      runPythonProgram("components.py", work, server, { PRIVNET_TEST_PREFIX: prefix }),
  ],
  [
    "Go (Automation API inline) through the plugin",
    (work, server, prefix) => runGoComponents(work, server, { PRIVNET_TEST_PREFIX: prefix }),
  ],
  ["Java through the plugin", async (work, server, prefix) => (await javaLife(work, server, prefix)).life],
  [
    "TypeScript through the plugin (pulumi-privnet/plugin)",
    async (work, server, prefix) => (await nodeLife(work, server, "plugin", prefix)).life,
  ],
  [
    "TypeScript on the dynamic providers (pulumi-privnet)",
    async (work, server, prefix) => (await nodeLife(work, server, "dynamic", prefix)).life,
  ],
];

describe.each(hostings)("the components' life: %s", (name, runLife) => {
  let work = "";
  let server: E2EServer;
  let life: Life = {};
  let before: Record<string, number>;
  const prefix = name.split(" ")[0]!.toLowerCase();

  beforeAll(async () => {
    work = makeWork(`components-${prefix}`);
    server = await startE2EServer();
    before = countInventory(await server.inventory());
    life = await runLife(work, server, prefix);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    removeWork(work);
  });

  it(
    "converges: children under their components, in place, one child per entry, bad input named",
    () => expectLife(life, prefix),
    TEST_TIMEOUT_MS,
  );

  it(
    "the setup key is never in plain text in the state; destroy leaves nothing",
    async () => {
      expectNoPlaintext(work, String(life.up!.outputs!.setupKey!.value));
      expect(countInventory(await server.inventory())).toEqual(before);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("components with an explicit provider, and the access a Segment grants", () => {
  let work = "";
  let server: E2EServer;

  beforeAll(async () => {
    work = makeWork("components-access");
    server = await startE2EServer();
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    removeWork(work);
  });

  it(
    "a component's children use the provider the component was given (YAML, through the plugin)",
    async () => {
      const project = yamlProject(
        work,
        "explicit",
        [
          "name: privnet-components-explicit",
          "runtime: yaml",
          "config:",
          "  url: { type: string }",
          "  tok: { type: string, secret: true }",
          "resources:",
          "  other:",
          "    type: pulumi:providers:privnet",
          "    properties: { apiUrl: '${url}', token: '${tok}' }",
          "  app:",
          "    type: privnet:Group",
          "    properties: { name: explicit-app }",
          "    options: { provider: '${other}' }",
          "  seg:",
          "    type: privnet:Segment",
          "    properties:",
          "      name: explicit-seg",
          "      allow: [{ from: ['${app.id}'], protocol: tcp, ports: ['443'] }]",
          "    options: { provider: '${other}' }",
        ].join("\n"),
      );
      // No stack credentials: only the explicit provider can reach the server.
      const stack = await PulumiStack.init({ project, work, name: "explicit" });
      await stack.config("url", server.url);
      await stack.config("tok", server.token, { secret: true });
      await stack.config("privnet:apiUrl", "http://127.0.0.1:9");
      await stack.up();
      const resources = await stack.stateResources();
      const children = resources.filter((r) => /\$privnet:index:(Group|Policy)::/.test(r.urn));
      expect(children).toHaveLength(2);
      for (const c of children)
        expect((c as { provider?: string }).provider).toMatch(/::pulumi:providers:privnet::other::/);
      const groups = await server.client.call<{ name: string }[]>("listGroups");
      expect(groups.map((g) => g.name)).toContain("explicit-seg");
      await stack.destroy();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "privnet-access show on an account built by a Segment lists exactly the access its allow entries describe",
    async () => {
      // The account's own All-to-All policy would grant everything: the access is the Segment's alone.
      const policies = await server.client.call<{ id: string; name: string }[]>("listPolicies");
      for (const p of policies) await server.client.call("deletePolicy", { params: { policyId: p.id } });
      const text = [
        "name: privnet-components-access",
        "runtime: yaml",
        "resources:",
        "  app: { type: privnet:Group, properties: { name: app } }",
        "  ops: { type: privnet:Group, properties: { name: ops } }",
        "  db:",
        "    type: privnet:Segment",
        "    properties:",
        "      name: db",
        "      setupKeyOptions: { expiresIn: 86400 }",
        "      allow:",
        "        - { from: ['${app.id}'], protocol: tcp, ports: ['5432'], description: app to db }",
        "        - { from: ['${ops.id}'], protocol: tcp, ports: ['22', '2222'] }",
        "outputs:",
        "  setupKey: ${db.setupKey}",
        "  appId: ${app.id}",
        "  opsId: ${ops.id}",
      ].join("\n");
      const stack = await PulumiStack.init({
        project: yamlProject(work, "access", text),
        work,
        name: "access",
        server,
      });
      await stack.up();
      const out = await stack.outputs(true);
      // Peers: two enrolled with the Segment's own key (so in its group), one put in app, one in ops, one in neither.
      const key = String(out.setupKey);
      const enroll = async (hostname: string): Promise<string> => {
        const res = await server.server.raw("POST", "/sim/enroll", {
          body: JSON.stringify({ setup_key: key, hostname }),
          headers: { "Content-Type": "application/json" },
        });
        expect(res.status).toBe(200);
        return (res.body as { id: string }).id;
      };
      await enroll("db-1");
      await enroll("db-2");
      const others = await enrollPeers(server, ["app-1", "ops-1", "lone-1"]);
      for (const [group, peer] of [
        [out.appId, others["app-1"]],
        [out.opsId, others["ops-1"]],
      ] as [string, string][]) {
        const g = await server.client.call<{ name: string }>("getGroup", { params: { groupId: group } });
        await server.client.call("updateGroup", {
          params: { groupId: group },
          body: { name: g.name, peers: [peer] },
        });
      }
      const shown = await accessShow(server);
      const lines = shown.peers
        .flatMap((p) => p.reaches.map((r) => `${p.name} -> ${r.to.name} ${r.traffic} (${r.policy.name})`))
        .sort();
      expect(lines).toEqual(
        [
          "app-1 -> db-1 tcp/5432 (app to db)",
          "app-1 -> db-2 tcp/5432 (app to db)",
          "ops-1 -> db-1 tcp/22,2222 (db: tcp 22,2222)",
          "ops-1 -> db-2 tcp/22,2222 (db: tcp 22,2222)",
        ].sort(),
      );
      await stack.destroy();
    },
    TEST_TIMEOUT_MS,
  );
});

interface Shown {
  peers: { name: string; reaches: { to: { name: string }; traffic: string; policy: { name: string } }[] }[];
}

/** `privnet-access show --json` against the server, as a user runs it. */
function accessShow(server: E2EServer): Promise<Shown> {
  return new Promise((resolve, reject) => {
    execFile(
      path.join(repoRoot, "node_modules", ".bin", "node"),
      [path.join(repoRoot, "bin", "privnet-access"), "show", "--json", "--api-url", server.url],
      { env: { ...process.env, PRIVNET_TOKEN: server.token }, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`privnet-access show failed: ${err.message}\n${stdout}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Shown);
      },
    );
  });
}
