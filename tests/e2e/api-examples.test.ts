/**
 * Every example of the package schema (one per resource kind and per function, scripts/examples, rendered by
 * scripts/examples/render.ts into the descriptions) compiles or runs in each of its four languages:
 *
 * - TypeScript: `tsc --strict` over all of them against the `pulumi-privnet` package of this checkout;
 * - Python: compiled, then run with the generated SDK (sdk/python) under Pulumi's mocks, so a wrong class,
 *   argument or keyword fails;
 * - Go: `go vet` (a build) of each against the generated SDK (sdk/go), and gofmt finds nothing to change;
 * - YAML: `pulumi preview` against a local server through the resource plugin, the YAML language host checking
 *   every type: the resources' examples and the functions' examples that need no existing object preview with
 *   only creates; the functions' examples that read an object named by an id in the stack's config are checked
 *   the same way, and may fail only with the lookup's "not found" (their ids name nothing on a new server).
 *
 * An example that does not compile is a failing test, naming it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { FUNCTION_EXAMPLES } from "../../scripts/examples/functions";
import { RESOURCE_EXAMPLES } from "../../scripts/examples/resources";
import { isConfig, isRef, type Example, type Value } from "../../scripts/examples/spec";
import { exampleRenderer } from "../../scripts/examples";
import type { PackageSchema } from "../../scripts/schemagen";
import { startTestServer, type TestServer } from "../support/server";
import { repoRoot } from "./engine";
import { pythonWithSdk, run } from "./inline";
import {
  changesOf,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  TEST_TIMEOUT_MS,
  yamlProject,
} from "./project";

// The committed schema (npm run gen:check keeps it as the generators write it).
const schema = JSON.parse(
  fs.readFileSync(path.join(repoRoot, "plugin", "schema.json"), "utf8"),
) as PackageSchema;
const renderer = exampleRenderer(schema);
const examples: [string, Example][] = [
  ...Object.entries(RESOURCE_EXAMPLES),
  ...Object.entries(FUNCTION_EXAMPLES),
];

/** Every config key the examples read, with a value for the checks (a secret is a secret). */
function configKeys(): Map<string, boolean> {
  const keys = new Map<string, boolean>();
  const walk = (v: Value): void => {
    if (isConfig(v)) keys.set(v.$config, v.secret);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object" && !isRef(v)) Object.values(v).forEach(walk);
  };
  for (const [, e] of examples) {
    for (const r of e.resources ?? []) walk(r.inputs);
    for (const c of e.calls ?? []) walk(c.args ?? {});
  }
  return keys;
}

/** Whether an example reads objects that must exist (by an id from config, or as it says). */
const readsExisting = (e: Example): boolean =>
  e.readsExisting === true || JSON.stringify([e.resources ?? [], e.calls ?? []]).includes('"$config"');

/** The config value the checks give a key: an id, or a secret (base64, as some credentials must be). */
const sample = (key: string, secret: boolean) =>
  secret ? Buffer.from(`example ${key}`).toString("base64") : `example-${key}`;

const file = (name: string) => name.replace(/[^A-Za-z0-9]/g, "_");

/** The examples as one program: every name prefixed with its example's key (`Policy-ops`). */
function merged(list: [string, Example][]): Example {
  const rename = (key: string, v: Value): Value => {
    if (isRef(v)) return { $ref: `${key}-${v.$ref}`, attr: v.attr };
    if (isConfig(v)) return v;
    if (Array.isArray(v)) return v.map((x) => rename(key, x));
    if (typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rename(key, x)]));
    return v;
  };
  const out = { title: "all", resources: [], calls: [], outputs: {} } as Required<
    Omit<Example, "readsExisting">
  >;
  for (const [key, e] of list) {
    for (const r of e.resources ?? []) {
      out.resources.push({
        ...r,
        name: `${key}-${r.name}`,
        inputs: rename(key, r.inputs) as Record<string, Value>,
      });
    }
    for (const c of e.calls ?? []) {
      out.calls.push({
        ...c,
        name: `${key}-${c.name}`,
        args: rename(key, c.args ?? {}) as Record<string, Value>,
      });
    }
    for (const [name, r] of Object.entries(e.outputs ?? {})) {
      out.outputs[`${key}-${name}`] = { $ref: `${key}-${r.$ref}`, attr: r.attr };
    }
  }
  return out;
}

describe("the examples of the package schema compile and run in every language", () => {
  let work = "";

  beforeAll(() => {
    work = makeWork("api-examples");
  });

  afterAll(() => removeWork(work));

  it("there is one per resource kind and per function", () => {
    expect(Object.keys(RESOURCE_EXAMPLES).sort()).toEqual(
      Object.keys(schema.resources)
        .map((t) => t.split(":")[2])
        .sort(),
    );
    expect(Object.keys(FUNCTION_EXAMPLES).sort()).toEqual(
      Object.keys(schema.functions)
        .map((t) => t.split(":")[2])
        .sort(),
    );
  });

  it(
    "TypeScript: tsc --strict against the pulumi-privnet package",
    async () => {
      const dir = path.join(work, "ts");
      fs.mkdirSync(dir, { recursive: true });
      for (const [key, e] of examples) {
        fs.writeFileSync(path.join(dir, `${file(key)}.ts`), renderer.snippet(e, "typescript", stringify));
      }
      const modules = path.join(repoRoot, "node_modules");
      fs.writeFileSync(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: "es2022",
            module: "commonjs",
            moduleResolution: "node",
            esModuleInterop: true,
            skipLibCheck: true,
            types: ["node"],
            typeRoots: [path.join(modules, "@types")],
            baseUrl: dir,
            paths: {
              "pulumi-privnet": [path.join(repoRoot, "sdk", "index.ts")],
              "@pulumi/pulumi": [path.join(modules, "@pulumi", "pulumi")],
              "@pulumi/pulumi/*": [path.join(modules, "@pulumi", "pulumi", "*")],
              "*": [path.join(modules, "*"), path.join(modules, "@types", "*")],
            },
          },
          include: ["*.ts"],
        }),
      );
      await run(path.join(modules, ".bin", "tsc"), ["-p", dir], process.env, 300_000);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "Python: compiled, and run under Pulumi's mocks with the generated SDK",
    async () => {
      const python = await pythonWithSdk(work);
      const dir = path.join(work, "py");
      fs.mkdirSync(dir, { recursive: true });
      for (const [key, e] of examples) {
        fs.writeFileSync(path.join(dir, `${file(key)}.py`), renderer.snippet(e, "python", stringify));
      }
      const config = Object.fromEntries(
        [...configKeys().keys()].map((k) => [`project:${k}`, `example-${k}`]),
      );
      fs.writeFileSync(
        path.join(dir, "run_all.py"),
        [
          "import json, py_compile, runpy, sys",
          "import pulumi",
          "",
          "class Mocks(pulumi.runtime.Mocks):",
          "    def new_resource(self, args):",
          '        return [f"{args.name}-id", dict(args.inputs)]',
          "    def call(self, args):",
          "        return {}",
          "",
          "failed = []",
          "for path in sys.argv[1:]:",
          "    try:",
          "        py_compile.compile(path, doraise=True)",
          "        pulumi.runtime.set_mocks(Mocks(), preview=False)",
          `        pulumi.runtime.set_all_config(json.loads(${JSON.stringify(JSON.stringify(config))}))`,
          "        runpy.run_path(path)",
          "    except Exception as err:",
          '        failed.append(f"{path}: {type(err).__name__}: {err}")',
          'print("\\n".join(failed) or "all ran")',
          "sys.exit(1 if failed else 0)",
        ].join("\n"),
      );
      const files = examples.map(([key]) => path.join(dir, `${file(key)}.py`));
      const out = await run(python, [path.join(dir, "run_all.py"), ...files], process.env, 300_000);
      expect(out.trim()).toBe("all ran");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "Go: go vet builds each against the generated SDK; gofmt changes nothing",
    async () => {
      const dir = path.join(work, "go");
      fs.mkdirSync(dir, { recursive: true });
      const inline = path.join(__dirname, "programs", "go-inline");
      const mod = fs
        .readFileSync(path.join(inline, "go.mod"), "utf8")
        .replace(/^module .*$/m, "module privnet-api-examples")
        .replace(/=> \S*sdk\/go/, `=> ${path.join(repoRoot, "sdk", "go")}`);
      fs.writeFileSync(path.join(dir, "go.mod"), mod);
      fs.copyFileSync(path.join(inline, "go.sum"), path.join(dir, "go.sum"));
      for (const [key, e] of examples) {
        fs.mkdirSync(path.join(dir, file(key)));
        fs.writeFileSync(path.join(dir, file(key), "main.go"), renderer.snippet(e, "go", stringify));
      }
      const env = { ...process.env, GOFLAGS: "-mod=mod" };
      await run("go", ["vet", "./..."], env, 900_000, dir);
      expect(await run("gofmt", ["-l", "."], env, 60_000, dir)).toBe("");
    },
    TEST_TIMEOUT_MS,
  );

  describe("YAML: pulumi preview against a local server", () => {
    let server: TestServer;

    beforeAll(async () => {
      // Every operation served: the cloud offering's and the embedded identity provider's too.
      server = await startTestServer({ cloud: true, embeddedIdp: true });
    }, SETUP_TIMEOUT_MS);

    afterAll(async () => server?.close());

    async function preview(name: string, list: [string, Example][]) {
      const sections = renderer.yamlSections(merged(list));
      const text = stringify({ name, runtime: "yaml", ...sections });
      const stack = await PulumiStack.init({
        project: yamlProject(work, name, text),
        work,
        name: "dev",
        server,
      });
      for (const [key, secret] of configKeys()) {
        if (text.includes(`\${${key}}`)) await stack.config(key, sample(key, secret), { secret });
      }
      return stack;
    }

    it(
      "the resources' examples and the functions' that read no existing object: only creates",
      async () => {
        const list = examples.filter(([key, e]) => key in RESOURCE_EXAMPLES || !readsExisting(e));
        const stack = await preview("yaml-examples", list);
        const result = await stack.preview();
        const ops = new Set(changesOf(result).map((c) => c.split(" ")[0]));
        expect([...ops]).toEqual(["create"]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "the functions' that read objects that must exist: type-checked, then not found",
      async () => {
        const list = examples.filter(([key, e]) => key in FUNCTION_EXAMPLES && readsExisting(e));
        const stack = await preview("yaml-lookups", list);
        const r = await stack.cli(["preview"], { expect: "nonzero" });
        const text = `${r.stdout}\n${r.stderr}`;
        // The program type-checked (a type error names the property and "is not assignable"), then ran a lookup.
        expect(text).not.toMatch(/not assignable|Cannot assign|unknown property|does not exist on/i);
        const errors = [...text.matchAll(/invocation of privnet:index:(\w+) returned an error: ([^\n"]*)/g)]
          .map((m) => `${m[1]}: ${m[2]}`)
          .filter((m) => !m.includes("the client connection is closing"));
        expect(errors.length).toBeGreaterThan(0);
        // Each lookup that ran reached the provider and the server, which found nothing.
        expect(
          errors.filter((m) => !/: privnet: (get\w+: no |GET \S+ 404: |get\w+: .* 404: )/.test(m)),
        ).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );
  });
});
