/**
 * A TypeScript stack made with `pulumi-privnet`'s classes (the dynamic providers) moves to `pulumi-privnet/plugin`'s
 * classes (the resource plugin) in place, with the real CLI against privnet-server: the program's import changes and
 * its Pulumi.yaml names the plugin; nothing else. The plugin's classes carry the dynamic types as aliases, so the
 * engine takes each resource as the same one under the new provider: no create, update, replace or delete, and no
 * write to the API. Then the stack lives on through the plugin: no change, no drift, later changes in place,
 * destroy leaves nothing. The program is the components' one (tests/e2e/programs/components): two groups, a Segment
 * (a group, a setup key whose key is secret, policies), a NetworkBundle and a DnsZoneBundle, so the children the
 * components make move too.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { countInventory, INVENTORY_KINDS } from "../../scripts/inventory";
import { installPackageCopy } from "../support/package-copy";
import { expectNoPlaintext, scenario } from "./components";
import {
  changesOf,
  driftOf,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  type E2EServer,
} from "./project";

const PROGRAMS = path.join(__dirname, "programs", "components");

/** The types of the stack's resources, from its exported state. */
async function typesOf(stack: PulumiStack): Promise<string[]> {
  const state = JSON.parse(await stack.exportText()) as {
    deployment: { resources?: { type: string }[] };
  };
  return (state.deployment.resources ?? []).map((r) => r.type);
}

/** The objects on the server by kind and id (the ids tell a moved object from one made again). */
async function idsOf(server: E2EServer): Promise<Record<string, string[]>> {
  const inv = await server.inventory();
  return Object.fromEntries(INVENTORY_KINDS.map((k) => [k, inv[k].map((o) => o.id).sort()]));
}

describe("a TypeScript stack moves from the dynamic providers to the resource plugin in place", () => {
  let work = "";
  let server: E2EServer;
  let stack: PulumiStack;
  let before: Record<string, number>;
  let madeIds: Record<string, string[]>;
  let setupKey = "";
  const stages = scenario();

  beforeAll(async () => {
    work = makeWork("dynamic-to-plugin");
    server = await startE2EServer();
    before = countInventory(await server.inventory());
    const dir = path.join(work, "move");
    installPackageCopy({ dir, projectName: "move", writeProject: false });
    // The plugin is named from the start: a project that names a plugin it does not use yet is unchanged by it.
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      [
        "name: move",
        "runtime: nodejs",
        "plugins:",
        "  providers:",
        "    - name: privnet",
        "      path: ./node_modules/pulumi-privnet/bin",
        "",
      ].join("\n"),
    );
    fs.writeFileSync(path.join(dir, "package.json"), '{"name":"move","private":true,"main":"index.js"}\n');
    fs.copyFileSync(path.join(PROGRAMS, "index.js"), path.join(dir, "index.js"));
    stack = await PulumiStack.init({ project: { dir, programDir: dir }, work, name: "dev", server });
    await stack.config("hosting", "dynamic");
    await stack.config("prefix", "move");
    await stack.config("components", JSON.stringify(stages[0]!.components));
    await stack.up();
    setupKey = (await stack.outputs(true)).setupKey as string;
    madeIds = await idsOf(server);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`dynamic-to-plugin e2e timings: ${stack.timingLine()}\n`);
    await server?.close();
    removeWork(work);
  });

  it(
    "the stack was made with the dynamic providers",
    async () => {
      const types = await typesOf(stack);
      expect(types).toContain("pulumi-nodejs:dynamic/privnet:Group");
      expect(types).toContain("pulumi-nodejs:dynamic/privnet:SetupKey");
      expect(types).toContain("pulumi-nodejs:dynamic/privnet:DnsRecord");
      expect(setupKey).toMatch(/^[0-9A-F]{8}-/);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "with pulumi-privnet/plugin's classes, the preview changes nothing: every resource is the same one",
    async () => {
      await stack.config("hosting", "plugin");
      const preview = await stack.preview();
      expect(changesOf(preview)).toEqual([]);
      expect(
        Object.keys(preview.changeSummary ?? {}).filter((k) => (preview.changeSummary ?? {})[k]),
      ).toEqual(["same"]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "up moves every resource to the plugin without a write to the API: the same objects, the same ids",
    async () => {
      const mark = server.requests.length;
      const up = await stack.up();
      expect(up.changes).toEqual([]);
      const writes = server.since(mark).filter((r) => r.method !== "GET");
      expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([]);
      expect(await idsOf(server)).toEqual(madeIds);
      const types = await typesOf(stack);
      expect(
        types.filter((t) => t.startsWith("pulumi-nodejs:") || t === "pulumi:providers:pulumi-nodejs"),
      ).toEqual([]);
      expect(types).toContain("privnet:index:Group");
      expect(types).toContain("privnet:index:SetupKey");
      expect(types).toContain("privnet:index:DnsRecord");
      expect(types).toContain("pulumi:providers:privnet");
      // The setup key is the one made before, and still a secret output.
      expect((await stack.outputs()).setupKey).toBe("[secret]");
      expect((await stack.outputs(true)).setupKey).toBe(setupKey);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "then the plugin keeps the stack: no change, no drift, later stages in place, nothing secret in plain text",
    async () => {
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      await stack.refresh();
      expect(changesOf(await stack.preview())).toEqual([]);
      for (const s of stages.slice(1)) {
        await stack.config("components", JSON.stringify(s.components));
        const up = await stack.up();
        expect(up.changes.filter((c) => c.startsWith("replace") || c.includes("pulumi-nodejs"))).toEqual([]);
        expect(changesOf(await stack.preview())).toEqual([]);
      }
      expectNoPlaintext(work, setupKey);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroy through the plugin leaves the account as it was",
    async () => {
      await stack.destroy();
      expect(countInventory(await server.inventory())).toEqual(before);
    },
    TEST_TIMEOUT_MS,
  );
});
