/**
 * The integrations' earlier names under existing stacks: stacks of EdrVendorA, EdrVendorB, EdrVendorC,
 * DirectorySyncVendorD and DirectorySyncVendorE made by the package before the kinds took the service's names
 * (tests/fixtures/upgrade-integrations: YAML and Python through the resource plugin, TypeScript through the dynamic
 * providers) are imported into new stacks against their server's database and previewed with the current package:
 *
 * - the programs under today's names (EdrSentinelOne, EdrIntune, EdrFalcon, GoogleWorkspaceSync, AzureAdSync):
 *   nothing is replaced, created or deleted, and the preview's steps name the new kinds (each new kind carries a
 *   type alias of its earlier type); `up` moves the state to them and the next preview is empty;
 * - the programs as they were: no change at all, and the preview warns that each old kind is deprecated, naming the
 *   new one.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { kindOfType } from "../../model/hidden-inputs";
import { startTestServer } from "../support/server";
import { repoRoot } from "./engine";
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
  type PreviewJson,
  type Project,
} from "./project";

const FIXTURE = path.join(__dirname, "..", "fixtures", "upgrade-integrations");
const PROGRAMS = path.join(__dirname, "programs");
const PASSPHRASE = "upgrade-passphrase";
/** The servers the fixture's stacks were made against: their URLs are the only thing rewritten. */
const FIXTURE_URLS = {
  yaml: "http://127.0.0.1:18937",
  typescript: "http://127.0.0.1:18938",
  python: "http://127.0.0.1:18939",
};
type Which = keyof typeof FIXTURE_URLS;

const RENAMED: Record<string, string> = {
  EdrVendorA: "EdrSentinelOne",
  EdrVendorB: "EdrIntune",
  EdrVendorC: "EdrFalcon",
  DirectorySyncVendorD: "GoogleWorkspaceSync",
  DirectorySyncVendorE: "AzureAdSync",
};
const NEW_KINDS = Object.values(RENAMED).sort();
/** Every secret the programs hold: none may be in a state, the CLI's output or a database file in plain text. */
const SECRETS = /edr-a-token|edr-b-secret|edr-c-client|edr-c-secret|ZGlyLWQta2V5|ZGlyLWUtc2VjcmV0/;

/** The privnet kinds a list of URNs names, sorted. */
function kindsOf(urns: string[]): string[] {
  return urns
    .map((u) => kindOfType(u.split("::")[2] ?? ""))
    .filter((k): k is string => k !== undefined && k !== "Group")
    .sort();
}

/** The deprecation warnings of a preview, by old kind. */
function deprecations(preview: Pick<PreviewJson, "diagnostics">): string[] {
  return Object.keys(RENAMED)
    .filter((old) =>
      (preview.diagnostics ?? []).some((d) =>
        (d.message ?? "").includes(`${old} is deprecated: use ${RENAMED[old]}`),
      ),
    )
    .sort();
}

describe("stacks of the integrations' earlier names preview with no replacement on the current package", () => {
  let work = "";
  const servers: Partial<Record<Which, Awaited<ReturnType<typeof startTestServer>>>> = {};

  /** A server on a copy of the fixture's database of `which`. */
  async function serverOf(which: Which) {
    if (servers[which]) return servers[which];
    const dir = path.join(work, `db-${which}`);
    fs.mkdirSync(dir, { recursive: true });
    const db = path.join(dir, "privnet.db");
    fs.copyFileSync(path.join(FIXTURE, which, "privnet.db"), db);
    fs.copyFileSync(path.join(FIXTURE, which, "privnet.db.key"), `${db}.key`);
    fs.chmodSync(`${db}.key`, 0o600); // git keeps no mode but the executable bit
    const token = fs.readFileSync(path.join(FIXTURE, which, "owner-token"), "utf8").trim();
    const s = await startTestServer({ dbFile: db, token });
    servers[which] = s;
    return s;
  }

  /** A new stack `upgrade` of `project` (its own backend under `caseWork`) holding the fixture's stack `which`. */
  async function importStack(project: Project, caseWork: string, which: Which): Promise<PulumiStack> {
    const server = await serverOf(which);
    const stack = await PulumiStack.init({
      project,
      work: caseWork,
      name: "upgrade",
      passphrase: PASSPHRASE,
    });
    const rewrite = (file: string) =>
      fs
        .readFileSync(path.join(FIXTURE, which, file), "utf8")
        .split(FIXTURE_URLS[which])
        .join(server.url);
    fs.writeFileSync(path.join(project.dir, "Pulumi.upgrade.yaml"), rewrite("Pulumi.upgrade.yaml"));
    const state = path.join(caseWork, "state.json");
    fs.writeFileSync(state, rewrite("state.json"));
    await stack.cli(["stack", "import", "--file", state]);
    expect(kindsOf((await stack.stateResources()).map((r) => r.urn))).toEqual(Object.keys(RENAMED).sort());
    return stack;
  }

  /**
   * The checks of a preview of today's program: nothing replaced, created or deleted; the steps (the unchanged ones
   * shown, `--show-sames`) name the new kinds, each the same resource as its old kind's (the old state's type); then
   * up, and an empty preview.
   */
  async function movesToNewKinds(stack: PulumiStack, which: Which): Promise<void> {
    const preview = JSON.parse((await stack.cli(["preview", "--json", "--show-sames"])).stdout) as Omit<
      PreviewJson,
      "steps"
    > & { steps: { op: string; urn: string; oldState?: { type?: string } }[] };
    expect(changesOf(preview)).toEqual([]);
    expect(kindsOf(preview.steps.map((s) => s.urn))).toEqual(NEW_KINDS);
    const moved = preview.steps
      .filter((s) => ![undefined, "Group"].includes(kindOfType(s.oldState?.type ?? "")))
      .map((s) => `${kindOfType(s.oldState?.type ?? "") ?? ""} -> ${kindsOf([s.urn])[0] ?? ""}`)
      .sort();
    expect(moved).toEqual(
      Object.entries(RENAMED)
        .map(([old, now]) => `${old} -> ${now}`)
        .sort(),
    );
    expect(deprecations(preview)).toEqual([]);
    await stack.up();
    expect(kindsOf((await stack.stateResources()).map((r) => r.urn))).toEqual(NEW_KINDS);
    expect(changesOf(await stack.preview())).toEqual([]);
    expect(await stack.exportText()).not.toMatch(SECRETS);
    expect(stack.transcript.join("\n")).not.toMatch(SECRETS);
    expect(fs.readFileSync((await serverOf(which)).dbFile).toString("latin1")).not.toMatch(SECRETS);
  }

  beforeAll(() => {
    work = makeWork("upgrade-integrations");
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    for (const s of Object.values(servers)) await s?.close();
    removeWork(work);
  });

  it(
    "YAML: the program as it was changes nothing and warns; under today's names nothing is replaced",
    async () => {
      const before = fs.readFileSync(path.join(FIXTURE, "programs", "yaml", "Pulumi.yaml"), "utf8");
      const oldWork = path.join(work, "yaml-old");
      const old = await importStack(yamlProject(oldWork, "project", before), oldWork, "yaml");
      const preview = await old.preview();
      expect(changesOf(preview)).toEqual([]);
      expect(preview.changeSummary).toEqual({ same: 7 });
      expect(deprecations(preview)).toEqual(Object.keys(RENAMED).sort());

      const today = fs.readFileSync(path.join(PROGRAMS, "upgrade-integrations", "Pulumi.yaml"), "utf8");
      const newWork = path.join(work, "yaml-new");
      await movesToNewKinds(
        await importStack(yamlProject(newWork, "project", today), newWork, "yaml"),
        "yaml",
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "TypeScript (dynamic providers): the same, through the type aliases of the dynamic types",
    async () => {
      const oldWork = path.join(work, "ts-old");
      fs.mkdirSync(oldWork, { recursive: true });
      const oldDir = "tests/fixtures/upgrade-integrations/programs/typescript";
      const old = await importStack(await copyProject([oldDir], oldWork, oldDir), oldWork, "typescript");
      const preview = await old.preview();
      expect(changesOf(preview)).toEqual([]);
      expect(deprecations(preview)).toEqual(Object.keys(RENAMED).sort());

      const newWork = path.join(work, "ts-new");
      fs.mkdirSync(newWork, { recursive: true });
      const newDir = "tests/e2e/programs/upgrade-integrations-ts";
      const stack = await importStack(await copyProject([newDir], newWork, newDir), newWork, "typescript");
      await movesToNewKinds(stack, "typescript");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "Python (the generated SDK's aliases): nothing replaced under today's names, and the state moves to them",
    async () => {
      const python = await pythonWithSdk(work);
      const server = await serverOf("python");
      const inline = async (program: string, caseWork: string, command: "preview" | "up") => {
        const dir = path.join(caseWork, "project");
        const out = await run(python, [program, command], {
          ...stackOf[caseWork]!.env,
          PATH: `${path.join(repoRoot, "bin")}:${stackOf[caseWork]!.env.PATH}`,
          PRIVNET_TEST_URL: server.url,
          PRIVNET_TEST_TOKEN: server.token,
          PRIVNET_TEST_WORK: dir,
        });
        const step = out
          .split("\n")
          .filter((l) => l.startsWith("STEP "))
          .map((l) => JSON.parse(l.slice(5)) as InlineStep & { stdout?: string })[0];
        if (!step) process.stderr.write(out);
        return step;
      };
      const stackOf: Record<string, PulumiStack> = {};
      for (const name of ["py-old", "py-new"]) {
        const caseWork = path.join(work, name);
        const dir = path.join(caseWork, "project");
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(
          path.join(dir, "Pulumi.yaml"),
          "name: privnet-upgrade-integrations-python\nruntime: python\n",
        );
        stackOf[caseWork] = await importStack({ dir, programDir: dir }, caseWork, "python");
      }
      const oldStep = await inline(
        path.join(FIXTURE, "programs", "python", "before.py"),
        path.join(work, "py-old"),
        "preview",
      );
      expect(oldStep?.changes).toEqual({ same: 7 });

      const program = path.join(PROGRAMS, "upgrade-integrations", "upgrade.py");
      const newWork = path.join(work, "py-new");
      const step = await inline(program, newWork, "preview");
      if (JSON.stringify(step?.changes) !== JSON.stringify({ same: 7 }))
        process.stderr.write(step?.stdout ?? "");
      expect(step?.changes).toEqual({ same: 7 });
      expect((await inline(program, newWork, "up"))?.changes).toEqual({ same: 7 });
      const moved = stackOf[newWork]!;
      expect(kindsOf((await moved.stateResources()).map((r) => r.urn))).toEqual(NEW_KINDS);
      expect(await moved.exportText()).not.toMatch(SECRETS);
    },
    TEST_TIMEOUT_MS,
  );
});
