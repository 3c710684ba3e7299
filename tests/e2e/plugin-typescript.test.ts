/**
 * A TypeScript program through the resource plugin: `pulumi-privnet/plugin`'s classes (the same generated classes,
 * registering as `privnet:index:<Kind>`), the package installed as a copy, the plugin found through the project's
 * `plugins.providers` entry pointing at node_modules/pulumi-privnet/bin as the README says, with the real CLI and
 * PULUMI_NODEJS_TRANSPILE_ONLY=true: up, a no-change preview, refresh without drift, an update (a rename) in place,
 * an explicit provider, no secret in plain text in the state, and a destroy that leaves nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { tsconfigJson } from "../../importer/project";
import { installPackageCopy } from "../support/package-copy";
import {
  changesOf,
  driftOf,
  INSTALLED_PLUGIN,
  makeWork,
  pluginsYaml,
  PulumiStack,
  readAllFiles,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  type E2EServer,
} from "./project";

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as privnet from "pulumi-privnet/plugin";

const config = new pulumi.Config();
const ops = new privnet.Group("ops", { name: config.get("opsName") ?? "ops" });
const web = new privnet.Group("web", { name: "web" });
new privnet.Policy("ops-to-web", {
  name: "ops-to-web",
  enabled: true,
  rules: [
    {
      name: "ssh",
      enabled: true,
      action: "accept",
      bidirectional: false,
      protocol: "tcp",
      ports: ["22"],
      sources: [ops.id],
      destinations: [web.id],
    },
  ],
});
const key = new privnet.SetupKey("gateway", {
  name: "gateway",
  type: "reusable",
  expiresIn: 86400,
  autoGroups: [web.id],
  usageLimit: 0,
  ephemeral: false,
});
const other = new privnet.Provider("other", { apiUrl: config.require("url"), token: config.requireSecret("tok") });
new privnet.Group("via-explicit", { name: "via-explicit-provider" }, { provider: other });

export const opsId = ops.id;
export const opsName = ops.name;
export const webPeersCount = web.peersCount;
export const setupKey = key.key;
`;

describe("TypeScript program through the resource plugin (pulumi-privnet/plugin)", () => {
  let work = "";
  let server: E2EServer;
  let stack: PulumiStack;
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    work = makeWork("plugin-ts");
    server = await startE2EServer();
    const dir = path.join(work, "plugin-ts");
    installPackageCopy({
      dir,
      projectName: "plugin-ts",
      writeProject: false,
      extraLinks: ["typescript", "@types/node"],
    });
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      "name: plugin-ts\nruntime:\n  name: nodejs\n  options:\n    typescript: true\nmain: index.ts\n" +
        pluginsYaml(INSTALLED_PLUGIN),
    );
    fs.writeFileSync(
      path.join(dir, "package.json"),
      '{"name":"plugin-ts","private":true,"main":"index.ts"}\n',
    );
    fs.writeFileSync(path.join(dir, "index.ts"), PROGRAM);
    fs.writeFileSync(path.join(dir, "tsconfig.json"), tsconfigJson());
    stack = await PulumiStack.init({ project: { dir, programDir: dir }, work, name: "dev", server });
    stack.env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
    await stack.config("url", server.url);
    await stack.config("tok", server.token, { secret: true });
    secrets.providerToken = server.token;
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`plugin-ts e2e timings: ${stack.timingLine()}\n`);
    await server?.close();
    removeWork(work);
  });

  it(
    "up creates the objects as privnet:index resources; outputs are typed and the setup key secret",
    async () => {
      const up = await stack.up();
      expect(up.changes.sort()).toEqual(
        [
          "create privnet:index:Group::ops",
          "create privnet:index:Group::web",
          "create privnet:index:Group::via-explicit",
          "create privnet:index:Policy::ops-to-web",
          "create privnet:index:SetupKey::gateway",
          "create pulumi:providers:privnet::other",
          "create pulumi:pulumi:Stack::plugin-ts-dev",
        ].sort(),
      );
      const outputs = await stack.outputs();
      expect(outputs.setupKey).toBe("[secret]");
      expect(outputs.opsName).toBe("ops");
      expect(outputs.webPeersCount).toBe(0);
      const group = await server.client.call<{ name: string }>("getGroup", {
        params: { groupId: outputs.opsId },
      });
      expect(group.name).toBe("ops");
      const groups = await server.client.call<{ name: string }[]>("listGroups");
      expect(groups.filter((g) => g.name === "via-explicit-provider")).toHaveLength(1);
      secrets.setupKey = (await stack.outputs(true)).setupKey as string;
      expect(secrets.setupKey).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-/);
      // No dynamic provider: no serialized provider, no hidden inputs in the state.
      const state = await stack.exportText();
      expect(state).not.toContain("pulumi-nodejs:dynamic");
      expect(state).not.toContain("__provider");
      expect(state).not.toContain("__kind");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the next preview shows no changes, and refresh shows no drift and changes nothing",
    async () => {
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      const refreshed = await stack.refresh();
      expect(refreshed.changes).toEqual([]);
      await stack.cli(["preview", "--expect-no-changes"]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "type-checked, with the tsconfig privnet-import writes (moduleResolution node10, which reads no `exports`), " +
      "the program compiles and previews no changes",
    async () => {
      // Pulumi's own TypeScript template says `"moduleResolution": "node"` (node10): the subpath's types must be
      // found through package.json's typesVersions, or ts-node fails with TS2307 before the first resource.
      expect(JSON.parse(tsconfigJson()).compilerOptions.moduleResolution).toMatch(/^node(10)?$/);
      stack.env.PULUMI_NODEJS_TRANSPILE_ONLY = "false";
      stack.env.TS_NODE_CACHE = "false";
      try {
        expect(changesOf(await stack.preview())).toEqual([]);
      } finally {
        // The other tests run transpile-only (beforeAll).
        stack.env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
        delete stack.env.TS_NODE_CACHE;
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a rename is one in-place update of the group, and the API has the new name",
    async () => {
      await stack.config("opsName", "operations");
      const up = await stack.up();
      expect(up.changes).toEqual(["update privnet:index:Group::ops"]);
      const outputs = await stack.outputs();
      const group = await server.client.call<{ name: string }>("getGroup", {
        params: { groupId: outputs.opsId },
      });
      expect(group.name).toBe("operations");
      expect(outputs.opsName).toBe("operations");
      expect(changesOf(await stack.preview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "nothing secret is in plain text in the state, the backend or the output",
    async () => {
      const exported = await stack.exportText();
      const files = readAllFiles(path.join(work, "state"));
      for (const [name, value] of Object.entries(secrets)) {
        expect({ name, inExport: exported.includes(value) }).toEqual({ name, inExport: false });
        for (const [file, text] of files) {
          expect({ name, file, found: text.includes(value) }).toEqual({ name, file, found: false });
        }
      }
      for (const t of stack.transcript)
        for (const v of Object.values(secrets)) expect(t.includes(v)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroy removes every object it made",
    async () => {
      const outputs = await stack.outputs();
      await stack.destroy();
      const groups = await server.client.call<{ id: string; name: string }[]>("listGroups");
      expect(groups.filter((g) => ["operations", "web", "via-explicit-provider"].includes(g.name))).toEqual(
        [],
      );
      expect(groups.some((g) => g.id === outputs.opsId)).toBe(false);
      const keys = await server.client.call<{ name: string }[]>("listSetupKeys");
      expect(keys.filter((k) => k.name === "gateway")).toEqual([]);
      const policies = await server.client.call<{ name: string }[]>("listPolicies");
      expect(policies.filter((p) => p.name === "ops-to-web")).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
