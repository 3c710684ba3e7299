/**
 * Upgrading the package under an existing stack: a state written by an earlier layout (each resource's provider
 * a `require` of its own module, tests/fixtures/old-layout) is refreshed and destroyed with the current package,
 * the way `pulumi refresh` and `pulumi destroy` use the provider code the state names. In between, the program
 * runs with the current package: nothing changes, and the state's resources move to the public entry.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { INVENTORY_KINDS, readInventory, type Inventory } from "../../scripts/inventory";
import { startTestServer } from "../support/server";
import type { Project } from "./project";
import {
  changesOf,
  copyProject,
  driftOf,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  TEST_TIMEOUT_MS,
} from "./project";
import { PrivnetClient } from "../../client";

const FIXTURE = path.join(__dirname, "..", "fixtures", "old-layout");

function counts(inv: Inventory): Record<string, number> {
  return Object.fromEntries(INVENTORY_KINDS.map((k) => [k, inv[k].length]));
}

describe("a state written by an earlier layout of the package", () => {
  let work = "";
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let client: PrivnetClient;
  let project: Project;
  let stack: PulumiStack;

  beforeAll(async () => {
    work = makeWork("compat");
    const db = path.join(work, "privnet.db");
    fs.copyFileSync(path.join(FIXTURE, "privnet.db"), db);
    const token = fs.readFileSync(path.join(FIXTURE, "owner-token"), "utf8").trim();
    server = await startTestServer({ dbFile: db, token });
    client = new PrivnetClient({ apiUrl: server.url, token, rateLimit: false });
    project = await copyProject(["tests/e2e/programs/compat"], work, "tests/e2e/programs/compat");
    stack = await PulumiStack.init({ project, work, name: "compat" });
    // The stack's config as the earlier layout wrote it (its secrets' salt), pointed at this server.
    fs.copyFileSync(path.join(FIXTURE, "Pulumi.compat.yaml"), path.join(project.dir, "Pulumi.compat.yaml"));
    await stack.config("privnet:apiUrl", server.url);
    await stack.config("privnet:token", token, { secret: true });
    // The state names the server it was written against: the only edit, the URL (not a secret).
    const state = fs.readFileSync(path.join(FIXTURE, "state.json"), "utf8");
    const oldUrl = /"privnet:apiUrl": "([^"]+)"/.exec(state)![1]!;
    fs.writeFileSync(path.join(work, "state.json"), state.split(oldUrl).join(server.url));
    await stack.cli(["stack", "import", "--file", path.join(work, "state.json")]);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await client?.close();
    await server?.close();
    removeWork(work);
  });

  it(
    "refreshes with the providers the state names: no drift",
    async () => {
      const before = await stack.stateResources();
      expect(before.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/privnet:"))).toHaveLength(8);
      expect(JSON.stringify(before)).toContain("pulumi-privnet/dist/provider/resources/group.js");
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      const refreshed = await stack.refresh();
      expect(refreshed.changes).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the program with the current package changes nothing on the server",
    async () => {
      expect(changesOf(await stack.preview())).toEqual([]);
      await stack.up();
      const after = await stack.stateResources();
      const texts = after.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/privnet:"));
      expect(
        texts.every((r) => String(r.inputs?.__provider).includes('require("pulumi-privnet/provider")')),
      ).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroys every object it holds",
    async () => {
      const before = counts(await readInventory(client));
      await stack.destroy();
      const after = counts(await readInventory(client));
      expect(after).toEqual({
        ...before,
        groups: before.groups! - 2,
        policies: before.policies! - 1,
        setupKeys: before.setupKeys! - 1,
        networks: before.networks! - 1,
        networkResources: before.networkResources! - 1,
        dnsZones: before.dnsZones! - 1,
        dnsRecords: before.dnsRecords! - 1,
      });
    },
    TEST_TIMEOUT_MS,
  );
});
