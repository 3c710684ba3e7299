/**
 * Upgrading the package under existing stacks of the resource plugin: a YAML stack and a Python stack made by an
 * earlier version of the package (tests/fixtures/upgrade: made before the nested types were renamed) are
 * imported into new stacks against their server's database, and previewed with the current package, its schema
 * and its generated Python SDK: nothing changes. The YAML program is the one that made its stack; the Python
 * program is the one that made its stack with today's type names (tests/e2e/programs/upgrade).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startTestServer } from "../support/server";
import { repoRoot } from "./engine";
import { pythonWithSdk, run, type InlineStep } from "./inline";
import {
  changesOf,
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
