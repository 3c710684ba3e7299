/**
 * Upgrading the package under existing stacks of the resource plugin: a YAML stack and a Python stack made by an
 * earlier version of the package (tests/fixtures/upgrade: made before the nested types were renamed) are
 * imported into new stacks against their server's database, and previewed with the current package, its schema
 * and its generated Python SDK: nothing changes. The YAML program is the one that made its stack; the Python
 * program is the one that made its stack with today's type names (tests/e2e/programs/upgrade).
 *
 * The same for stacks with a DnsZoneBundle made by a build that named a record alone in its set without its
 * content (tests/fixtures/upgrade-components), in YAML (the plugin's Construct) and on the dynamic providers
 * (pulumi-privnet's ComponentResource): nothing changes (the earlier names are the records' aliases); after one
 * `up`, a record added to the set of one is one create and a record removed from the set of two one delete.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startTestServer } from "../support/server";
import { repoRoot } from "./engine";
import type { PreviewJson } from "./project";
import { pythonWithSdk, run, type InlineStep } from "./inline";
import {
  changesOf,
  copyProject,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  TEST_TIMEOUT_MS,
  yamlProject,
  type Project,
} from "./project";

const FIXTURE = path.join(__dirname, "..", "fixtures", "upgrade");
const PROGRAMS = path.join(__dirname, "programs", "upgrade");
/** The server the fixture's stacks were made against: its URL is the only thing rewritten. */
const FIXTURE_URL = "http://127.0.0.1:18936";
const PASSPHRASE = "upgrade-passphrase";
/** The program's objects and the stack itself. */
const RESOURCES = 8;

describe("stacks made by an earlier version of the package preview with no changes", () => {
  let work = "";
  let server: Awaited<ReturnType<typeof startTestServer>>;

  /** A new stack `upgrade` of `project` holding the fixture's stack `which` (config file and state). */
  async function importStack(project: Project, which: "yaml" | "python"): Promise<PulumiStack> {
    const stack = await PulumiStack.init({ project, work, name: "upgrade", passphrase: PASSPHRASE });
    const rewrite = (file: string) =>
      fs.readFileSync(path.join(FIXTURE, file), "utf8").split(FIXTURE_URL).join(server.url);
    // The stack's config as the earlier version wrote it (the salt of its secrets), pointed at this server.
    fs.writeFileSync(path.join(project.dir, "Pulumi.upgrade.yaml"), rewrite(`${which}-Pulumi.upgrade.yaml`));
    const state = path.join(work, `${which}-state.json`);
    fs.writeFileSync(state, rewrite(`${which}-state.json`));
    await stack.cli(["stack", "import", "--file", state]);
    const imported = await stack.stateResources();
    expect(imported.filter((r) => r.type.startsWith("privnet:index:"))).toHaveLength(RESOURCES - 1);
    return stack;
  }

  beforeAll(async () => {
    work = makeWork("upgrade");
    const db = path.join(work, "privnet.db");
    fs.copyFileSync(path.join(FIXTURE, "privnet.db"), db);
    fs.copyFileSync(path.join(FIXTURE, "privnet.db.key"), `${db}.key`);
    fs.chmodSync(`${db}.key`, 0o600); // git keeps no mode but the executable bit
    const token = fs.readFileSync(path.join(FIXTURE, "owner-token"), "utf8").trim();
    server = await startTestServer({ dbFile: db, token });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    removeWork(work);
  });

  it(
    "YAML: the program that made the stack, on the current schema and plugin",
    async () => {
      const text = fs.readFileSync(path.join(PROGRAMS, "Pulumi.yaml"), "utf8");
      const stack = await importStack(yamlProject(work, "upgrade-yaml", text), "yaml");
      const preview = await stack.preview();
      expect(changesOf(preview)).toEqual([]);
      expect(preview.changeSummary).toEqual({ same: RESOURCES });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "Python: the program with today's type names, on the current generated SDK",
    async () => {
      const python = await pythonWithSdk(work);
      const dir = path.join(work, "upgrade-python");
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: privnet-upgrade-python\nruntime: python\n");
      const stack = await importStack({ dir, programDir: dir }, "python");
      const out = await run(python, [path.join(PROGRAMS, "upgrade.py"), "preview"], {
        ...stack.env,
        // The plugin from this checkout, found on PATH as `pulumi-resource-privnet`.
        PATH: `${path.join(repoRoot, "bin")}:${stack.env.PATH}`,
        PRIVNET_TEST_URL: server.url,
        PRIVNET_TEST_TOKEN: server.token,
        PRIVNET_TEST_WORK: dir,
      });
      const step = out
        .split("\n")
        .filter((l) => l.startsWith("STEP "))
        .map((l) => JSON.parse(l.slice(5)) as InlineStep & { stdout?: string })[0];
      // On a failure, what the preview printed (its diff) says what would change.
      if (JSON.stringify(step?.changes) !== JSON.stringify({ same: RESOURCES })) {
        process.stderr.write(step?.stdout ?? out);
      }
      expect(step?.changes).toEqual({ same: RESOURCES });
    },
    TEST_TIMEOUT_MS,
  );
});

const COMPONENTS_FIXTURE = path.join(__dirname, "..", "fixtures", "upgrade-components");
const COMPONENTS_PROGRAMS = "tests/e2e/programs/upgrade-components";
const COMPONENTS_URL = "http://127.0.0.1:18937";
/** The group, the component, the zone, its four records and the stack. */
const COMPONENT_RESOURCES = 8;

describe("stacks with a DnsZoneBundle made by an earlier build: no change, then one record per added or removed entry", () => {
  let work = "";
  let server: Awaited<ReturnType<typeof startTestServer>>;

  async function importStack(project: Project, which: "yaml" | "node"): Promise<PulumiStack> {
    const stack = await PulumiStack.init({ project, work, name: "upgrade", passphrase: PASSPHRASE });
    const rewrite = (file: string) =>
      fs.readFileSync(path.join(COMPONENTS_FIXTURE, file), "utf8").split(COMPONENTS_URL).join(server.url);
    fs.writeFileSync(path.join(project.dir, "Pulumi.upgrade.yaml"), rewrite(`${which}-Pulumi.upgrade.yaml`));
    const state = path.join(work, `${which}-components-state.json`);
    fs.writeFileSync(state, rewrite(`${which}-state.json`));
    await stack.cli(["stack", "import", "--file", state]);
    return stack;
  }

  /** The zone's records on the server, as `name type content`, sorted. */
  async function records(domain: string): Promise<string[]> {
    const zones = (await server.call<{ id: string; domain: string }[]>("listDnsZones")).body;
    const zone = zones.find((z) => z.domain === domain)!;
    const list = (
      await server.call<{ name: string; type: string; content: string }[]>("listDnsRecords", {
        params: { zoneId: zone.id },
      })
    ).body;
    return list.map((r) => `${r.name} ${r.type} ${r.content}`).sort();
  }

  /** A preview's changes, with the children's type as `DnsRecord` whichever hosting declared them. */
  const changes = (p: PreviewJson) =>
    changesOf(p).map((c) => c.replace("privnet:index:DnsRecord", "DnsRecord"));

  /** Imports, previews (no change), applies, then adds a record to `db`'s set of one and removes one of `www`'s. */
  async function life(stack: PulumiStack, domain: string, setRecords: (r: object[]) => Promise<void>) {
    const first = await stack.preview();
    expect(changes(first)).toEqual([]);
    expect(first.changeSummary).toEqual({ same: COMPONENT_RESOURCES });
    const before = await records(domain);
    expect(before).toHaveLength(4);
    const up = await stack.up();
    expect(up.changes).toEqual([]);
    expect(await records(domain)).toEqual(before);

    const base: object[] = [
      { name: "db", type: "A", content: "192.0.2.20" },
      { name: "www", type: "A", content: "192.0.2.10" },
      { name: "www", type: "A", content: "192.0.2.11" },
      { name: "docs", type: "CNAME", content: `www.${domain}` },
    ];
    await setRecords([...base, { name: "db", type: "A", content: "192.0.2.21" }]);
    const grow = await stack.preview();
    expect(changes(grow)).toEqual([`create DnsRecord::zone-db.${domain}-A-192.0.2.21`]);
    expect((await stack.up()).resourceChanges).toEqual({ create: 1, same: COMPONENT_RESOURCES });
    expect(await records(domain)).toEqual([...before, `db.${domain} A 192.0.2.21`].sort());

    await setRecords([...base.filter((_, i) => i !== 1), { name: "db", type: "A", content: "192.0.2.21" }]);
    const shrink = await stack.preview();
    expect(changes(shrink)).toEqual([`delete DnsRecord::zone-www.${domain}-A-192.0.2.10`]);
    expect((await stack.up()).resourceChanges).toEqual({ delete: 1, same: COMPONENT_RESOURCES });
    expect(await records(domain)).toEqual(
      [...before.filter((r) => !r.endsWith(" 192.0.2.10")), `db.${domain} A 192.0.2.21`].sort(),
    );
    expect(changes(await stack.preview())).toEqual([]);
  }

  beforeAll(async () => {
    work = makeWork("upgrade-components");
    const db = path.join(work, "privnet.db");
    fs.copyFileSync(path.join(COMPONENTS_FIXTURE, "privnet.db"), db);
    fs.copyFileSync(path.join(COMPONENTS_FIXTURE, "privnet.db.key"), `${db}.key`);
    fs.chmodSync(`${db}.key`, 0o600);
    const token = fs.readFileSync(path.join(COMPONENTS_FIXTURE, "owner-token"), "utf8").trim();
    server = await startTestServer({ dbFile: db, token });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    removeWork(work);
  });

  it(
    "YAML: the program that made the stack, through the current plugin's Construct",
    async () => {
      const text = fs.readFileSync(path.join(repoRoot, COMPONENTS_PROGRAMS, "Pulumi.yaml"), "utf8");
      const project = yamlProject(work, "upgrade-components-yaml", text);
      const stack = await importStack(project, "yaml");
      const file = path.join(project.dir, "Pulumi.yaml");
      const original = fs.readFileSync(file, "utf8");
      const block = original.slice(original.indexOf("      records:\n"), original.indexOf("\noutputs:"));
      await life(stack, "yaml.upgrade.example.com", async (list) => {
        const entries = list.map((r) =>
          Object.entries(r)
            .map(([k, v], i) => `${i ? "          " : "        - "}${k}: ${String(v)}`)
            .join("\n"),
        );
        fs.writeFileSync(file, original.replace(block, `      records:\n${entries.join("\n")}\n`));
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "Node: the program that made the stack, on the current dynamic providers",
    async () => {
      const project = await copyProject([`${COMPONENTS_PROGRAMS}/node`], work, `${COMPONENTS_PROGRAMS}/node`);
      const stack = await importStack(project, "node");
      await life(stack, "node.upgrade.example.com", (list) => stack.config("records", JSON.stringify(list)));
    },
    TEST_TIMEOUT_MS,
  );
});
