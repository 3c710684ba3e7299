/**
 * A Pulumi YAML program (examples/network-yaml) through the resource plugin, with the real CLI and the real YAML
 * language host, on one stack against a fresh local server: up, no-change preview, no drift, a rename that is one
 * in-place update whose detailed diff names exactly `name`, a rotated token that changes nothing, secrets never in
 * plain text in the state, `pulumi import` of a group whose generated code then previews with no changes, and a
 * destroy that leaves nothing. The plugin is found through the project's `plugins.providers` entry.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { countInventory, INVENTORY_KINDS, type Inventory } from "../../scripts/inventory";
import { repoRoot } from "./engine";
import {
  changesOf,
  driftOf,
  makeWork,
  PulumiStack,
  readAllFiles,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  yamlProject,
  type E2EServer,
} from "./project";

const CLIENT_SECRET = "yaml-oidc-client-secret-5d1e";

describe("YAML program (examples/network-yaml) through the resource plugin", () => {
  let work = "";
  let server: E2EServer;
  let stack: PulumiStack;
  let baseline: Inventory;
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    work = makeWork("yaml");
    server = await startE2EServer();
    baseline = await server.inventory();
    const text = fs.readFileSync(path.join(repoRoot, "examples", "network-yaml", "Pulumi.yaml"), "utf8");
    const project = yamlProject(work, "network-yaml", text);
    stack = await PulumiStack.init({ project, work, name: "dev", server });
    await stack.config("oidcClientSecret", CLIENT_SECRET, { secret: true });
    secrets.providerToken = server.token;
    secrets.clientSecret = CLIENT_SECRET;
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`yaml e2e timings: ${stack.timingLine()}\n`);
    await server?.close();
    removeWork(work);
  });

  it(
    "up creates every object; secret outputs are secret and real",
    async () => {
      const up = await stack.up();
      expect(up.resourceChanges.create).toBe(17); // 16 resources and the stack
      const now = countInventory(await server.inventory());
      const before = countInventory(baseline);
      const created = Object.fromEntries(
        INVENTORY_KINDS.map((k) => [k, now[k] - before[k]]).filter(([, n]) => n),
      );
      expect(created).toMatchObject({ groups: 3, policies: 1, setupKeys: 1, dnsZones: 1, dnsRecords: 1 });
      const outputs = await stack.outputs();
      expect(outputs.gatewaySetupKey).toBe("[secret]");
      expect(outputs.ciAccessToken).toBe("[secret]");
      expect(typeof outputs.everyoneGroupId).toBe("string");
      const shown = await stack.outputs(true);
      secrets.setupKey = shown.gatewaySetupKey as string;
      secrets.pat = shown.ciAccessToken as string;
      expect(secrets.setupKey).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
      const group = await server.client.call<{ name: string }>("getGroup", {
        params: { groupId: outputs.engineeringGroupId },
      });
      expect(group.name).toBe("engineering");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the next preview shows no changes, and refresh shows no drift",
    async () => {
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "every plugin process the engine and the YAML host start ends on its own when stopped, with code 0",
    async () => {
      // A launcher beside ours that records each start and how the plugin ended. The engine stops a plugin with
      // SIGINT to its process group and kills the group 5 s later if it has not ended: a killed plugin leaves its
      // start without an end (the recorder goes with it).
      const dir = path.join(work, "recording-plugin");
      const record = path.join(work, "plugin-ends.txt");
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, "pulumi-resource-privnet"),
        `#!/bin/sh\ntrap ':' INT TERM\necho start >> '${record}'\n` +
          `'${path.join(repoRoot, "bin", "pulumi-resource-privnet")}' "$@"\necho "end $?" >> '${record}'\n`,
        { mode: 0o755 },
      );
      const file = path.join(stack.project.dir, "Pulumi.yaml");
      const text = fs.readFileSync(file, "utf8");
      fs.writeFileSync(file, text.replace(`path: ${path.join(repoRoot, "bin")}`, `path: ${dir}`));
      try {
        expect(changesOf(await stack.preview())).toEqual([]);
      } finally {
        fs.writeFileSync(file, text);
      }
      const lines = fs.readFileSync(record, "utf8").trim().split("\n");
      const starts = lines.filter((l) => l === "start").length;
      expect(starts).toBeGreaterThanOrEqual(2); // the YAML host's (for the schema) and the engine's
      expect(lines.filter((l) => l !== "start")).toEqual(Array(starts).fill("end 0"));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a rename is one in-place update whose detailed diff names exactly name",
    async () => {
      await stack.config("teamName", "platform");
      const r = await stack.cli(["preview", "--json", "--diff"]);
      const preview = JSON.parse(r.stdout) as {
        steps: { op: string; urn: string; detailedDiff?: Record<string, unknown> }[];
      };
      const changed = preview.steps.filter((s) => s.op !== "same");
      expect(changed.map((s) => `${s.op} ${s.urn.split("::").pop()}`)).toEqual(["update engineering"]);
      expect(Object.keys(changed[0]!.detailedDiff ?? {})).toEqual(["name"]);
      const up = await stack.up();
      expect(up.resourceChanges).toMatchObject({ update: 1 });
      expect(up.changes).toEqual(["update privnet:index:Group::engineering"]);
      expect(changesOf(await stack.preview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a rotated token changes no resource and no provider",
    async () => {
      const me = await server.client.call<{ id: string }>("getCurrentUser");
      const pat = await server.client.call<{ plain_token: string }>("createToken", {
        params: { userId: me.id },
        body: { name: "rotated", expires_in: 1 },
      });
      secrets.rotated = pat.plain_token;
      await stack.config("privnet:token", pat.plain_token, { secret: true });
      const preview = await stack.preview();
      expect(changesOf(preview)).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "nothing secret is in plain text in the state or the backend",
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
    "pulumi import of a group prints YAML code that previews with no changes",
    async () => {
      const made = await server.client.call<{ id: string }>("createGroup", {
        body: { name: "made-by-hand" },
      });
      const project = yamlProject(work, "adopt-yaml", "name: privnet-adopt-yaml\nruntime: yaml\n");
      const adopt = await PulumiStack.init({ project, work, name: "adopt", server });
      const r = await adopt.cli(["import", "privnet:index:Group", "by-hand", made.id], { yes: true });
      expect(r.stdout).toMatch(/type: privnet:Group/);
      expect(r.stdout).toMatch(/name: made-by-hand/);
      // The code the CLI printed, pasted into the program.
      const code = r.stdout.slice(r.stdout.indexOf("resources:"));
      fs.appendFileSync(path.join(project.dir, "Pulumi.yaml"), code);
      await adopt.cli(["preview", "--expect-no-changes"]);
      const groups = await server.client.call<{ name: string }[]>("listGroups");
      expect(groups.filter((g) => g.name === "made-by-hand")).toHaveLength(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "an explicit provider resource takes its arguments (no stack credentials), and its token stays secret",
    async () => {
      const project = yamlProject(
        work,
        "explicit-yaml",
        [
          "name: privnet-explicit-yaml",
          "runtime: yaml",
          "config:",
          "  url:",
          "    type: string",
          "  tok:",
          "    type: string",
          "    secret: true",
          "resources:",
          "  other:",
          "    type: pulumi:providers:privnet",
          "    properties:",
          "      apiUrl: ${url}",
          "      token: ${tok}",
          "  g:",
          "    type: privnet:Group",
          "    properties:",
          "      name: via-explicit-provider",
          "    options:",
          "      provider: ${other}",
          "",
        ].join("\n"),
      );
      // No privnet:apiUrl / privnet:token: only the provider's arguments reach the server.
      const explicit = await PulumiStack.init({ project, work, name: "explicit" });
      await explicit.config("url", server.url);
      await explicit.config("tok", server.token, { secret: true });
      expect((await explicit.up()).changes).toContain("create privnet:index:Group::g");
      const groups = await server.client.call<{ name: string }[]>("listGroups");
      expect(groups.filter((g) => g.name === "via-explicit-provider")).toHaveLength(1);
      expect(await explicit.exportText()).not.toContain(server.token);
      expect(changesOf(await explicit.preview())).toEqual([]);
      await explicit.destroy();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "installed from npm run plugin:pack with pulumi plugin install --file, a project needs no path to it",
    async () => {
      const pack = await stack.exec("bash", [path.join(repoRoot, "scripts", "plugin-pack.sh")]);
      // The script prints the tarball's path alone on its last stdout line (progress goes to stderr).
      const tarball = /^(\/\S+\/pulumi-resource-privnet-v\d+\.\d+\.\d+-linux-\w+\.tar\.gz)$/m.exec(pack)?.[1];
      if (!tarball) throw new Error(`no tarball path in:\n${pack}`);
      const version = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).version;
      await stack.cli(["plugin", "install", "resource", "privnet", version, "--file", tarball], {
        stackFlag: false,
      });
      // No plugins entry, and the checkout's bin/ is not on PATH: the engine takes the installed plugin.
      const dir = path.join(work, "installed");
      fs.mkdirSync(dir);
      fs.writeFileSync(
        path.join(dir, "Pulumi.yaml"),
        "name: privnet-installed\nruntime: yaml\nresources:\n  g:\n    type: privnet:Group\n    properties:\n      name: from-installed-plugin\n",
      );
      expect(stack.env.PATH!.split(":")).not.toContain(path.join(repoRoot, "bin"));
      const installed = await PulumiStack.init({
        project: { dir, programDir: dir },
        work,
        name: "installed",
        server,
      });
      expect((await installed.up()).changes).toContain("create privnet:index:Group::g");
      const groups = await server.client.call<{ name: string }[]>("listGroups");
      expect(groups.filter((g) => g.name === "from-installed-plugin")).toHaveLength(1);
      await installed.destroy();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroy leaves nothing the program made",
    async () => {
      await stack.destroy();
      const after = countInventory(await server.inventory());
      const before = countInventory(baseline);
      for (const kind of INVENTORY_KINDS) {
        // The import test's group stays (its stack is not destroyed) and so do the owner's extra tokens.
        if (kind === "groups") expect(after[kind] - before[kind]).toBe(1);
        else if (kind !== "personalAccessTokens")
          expect({ kind, n: after[kind] }).toEqual({ kind, n: before[kind] });
      }
    },
    TEST_TIMEOUT_MS,
  );
});
