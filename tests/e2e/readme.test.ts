/**
 * The README's quick starts, taken from the README itself, run as a new user would run them, under the real CLI
 * against a local server: each is at most 15 lines, and
 *
 * - TypeScript (dynamic providers, and the same program through the plugin with the README's `Pulumi.yaml` lines):
 *   `pulumi up` makes the group and the setup key, the key is a secret output, a second preview shows no change,
 *   destroy leaves nothing;
 * - Python: the quick start file run as the program of a stack (an Automation API inline program executes it as
 *   `__main__.py`; no Python language host is needed), through the plugin and the generated SDK: the same life;
 * - Go: it builds against the generated SDK and gofmt changes nothing (a Go program needs the Go language host
 *   to run, which these machines' package sources do not serve);
 * - Java: the quick start as App.java of a Maven project (docs/languages.md's pom.xml) under the real Java language
 *   host, through the plugin and the generated SDK (sdk/java): the same life, and the key in no file of the state;
 * - YAML: the same life as TypeScript's.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { tsconfigJson } from "../../importer/project";
import { installPackageCopy } from "../support/package-copy";
import { repoRoot } from "./engine";
import { run, runPythonProgram } from "./inline";
import { javaProject } from "./java";
import {
  changesOf,
  makeWork,
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

const README = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");

/** The code blocks of the README's "Quick start" section, in order, with their fence's language. */
function quickStarts(): { lang: string; code: string }[] {
  const start = README.indexOf("\n## Quick start\n");
  const end = README.indexOf("\n## ", start + 1);
  if (start < 0) throw new Error('README.md has no "## Quick start" section');
  const section = README.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
}

const blocks = quickStarts();
const block = (lang: string, nth = 0): string => {
  const found = blocks.filter((b) => b.lang === lang)[nth];
  if (!found) throw new Error(`README.md's quick start has no ${lang} block number ${nth + 1}`);
  return found.code;
};
/** The TypeScript program, the plugin lines of Pulumi.yaml, the Python, Go, Java and YAML programs. */
const TS = block("ts");
const PLUGIN_LINES = block("yaml", 0);
const PYTHON = block("python");
const GO = block("go");
const JAVA = block("java");
const YAML = block("yaml", 1);

test("each quick start is 15 lines or fewer, in the six forms the README promises", () => {
  expect(blocks.map((b) => b.lang)).toEqual(["ts", "yaml", "python", "go", "java", "yaml"]);
  expect(blocks.map((b) => [b.lang, b.code.trimEnd().split("\n").length <= 15])).toEqual(
    blocks.map((b) => [b.lang, true]),
  );
  // The plugin form is the same program with the plugin's entry.
  expect(TS).toContain('from "pulumi-privnet";');
});

describe("the README's quick starts under the real CLI", () => {
  let work = "";
  let server: E2EServer;

  beforeAll(async () => {
    work = makeWork("readme");
    server = await startE2EServer();
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    removeWork(work);
  });

  /**
   * up, a second preview, destroy; the group and the key exist between, and nothing after. The key is a secret
   * output, and in no file of the state backend, `pulumi stack export` included.
   */
  async function life(stack: PulumiStack): Promise<void> {
    const up = await stack.up();
    expect(up.resourceChanges.create).toBe(3); // the stack, the group, the setup key
    expect((await stack.outputs()).setupKey).toBe("[secret]");
    const key = String((await stack.outputs(true)).setupKey);
    expect(key).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-/);
    expect(await stack.exportText()).not.toContain(key);
    const state = readAllFiles(path.join(work, "state"));
    expect(state.length).toBeGreaterThan(0);
    for (const [file, text] of state)
      expect({ file, found: text.includes(key) }).toEqual({ file, found: false });
    const groups = await server.client.call<{ name: string }[]>("listGroups");
    expect(groups.filter((g) => g.name === "servers")).toHaveLength(1);
    expect(changesOf(await stack.preview())).toEqual([]);
    await stack.destroy();
    const after = await server.client.call<{ name: string }[]>("listGroups");
    expect(after.filter((g) => g.name === "servers")).toHaveLength(0);
  }

  async function tsStack(name: string, program: string, pluginLines = ""): Promise<PulumiStack> {
    const dir = path.join(work, name);
    installPackageCopy({
      dir,
      projectName: name,
      writeProject: false,
      extraLinks: ["typescript", "@types/node"],
    });
    const runtime = "runtime:\n  name: nodejs\n  options:\n    typescript: true\nmain: index.ts\n";
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\n${runtime}${pluginLines}`);
    fs.writeFileSync(path.join(dir, "package.json"), `{"name":"${name}","private":true,"main":"index.ts"}\n`);
    fs.writeFileSync(path.join(dir, "index.ts"), program);
    fs.writeFileSync(path.join(dir, "tsconfig.json"), tsconfigJson());
    const project: Project = { dir, programDir: dir };
    const stack = await PulumiStack.init({ project, work, name: "dev", server });
    stack.env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
    return stack;
  }

  it(
    "TypeScript on the dynamic providers",
    async () => {
      await life(await tsStack("quickstart-ts", TS));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "TypeScript through the plugin: the same program with pulumi-privnet/plugin and the README's plugin lines",
    async () => {
      const program = TS.replace('from "pulumi-privnet";', 'from "pulumi-privnet/plugin";');
      await life(await tsStack("quickstart-plugin-ts", program, PLUGIN_LINES));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "Python: the quick start as a stack's program, through the plugin and the generated SDK",
    async () => {
      const main = path.join(work, "python", "__main__.py");
      fs.mkdirSync(path.dirname(main), { recursive: true });
      fs.writeFileSync(main, PYTHON);
      const steps = await runPythonProgram("quickstart.py", path.join(work, "python"), server, {
        PRIVNET_TEST_MAIN: main,
      });
      expect(steps.up?.changes).toEqual({ create: 3 });
      expect(steps.up?.outputs?.setupKey?.secret).toBe(true);
      expect(steps.preview?.changes).toEqual({ same: 3 });
      expect(steps.destroy?.changes).toEqual({ delete: 3 });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "Go: builds against the generated SDK, and gofmt changes nothing",
    async () => {
      const dir = path.join(work, "go");
      fs.mkdirSync(dir, { recursive: true });
      const inline = path.join(__dirname, "programs", "go-inline");
      const mod = fs
        .readFileSync(path.join(inline, "go.mod"), "utf8")
        .replace(/^module .*$/m, "module privnet-quickstart")
        .replace(/=> \S*sdk\/go/, `=> ${path.join(repoRoot, "sdk", "go")}`);
      fs.writeFileSync(path.join(dir, "go.mod"), mod);
      fs.copyFileSync(path.join(inline, "go.sum"), path.join(dir, "go.sum"));
      fs.writeFileSync(path.join(dir, "main.go"), GO);
      const env = { ...process.env, GOFLAGS: "-mod=mod" };
      await run("go", ["vet", "./..."], env, 900_000, dir);
      expect(await run("gofmt", ["-l", "."], env, 60_000, dir)).toBe("");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "Java: the quick start as a Maven project's App.java, under the real Java language host",
    async () => {
      const project = await javaProject(work, "quickstart-java", JAVA);
      await life(await PulumiStack.init({ project, work, name: "dev", server }));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "YAML",
    async () => {
      const project = yamlProject(work, "quickstart-yaml", YAML);
      await life(await PulumiStack.init({ project, work, name: "dev", server }));
    },
    TEST_TIMEOUT_MS,
  );
});
