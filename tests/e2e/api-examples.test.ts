/**
 * Every example of the package schema (one per resource kind and per function, scripts/examples, rendered by
 * scripts/examples/render.ts into the descriptions) compiles or runs in each of its five languages, and so do the
 * shapes of a value no example uses yet (SHAPES below):
 *
 * - TypeScript: `tsc --strict` over all of them against the `pulumi-privnet` package of this checkout;
 * - Python: compiled, then run with the generated SDK (sdk/python) under Pulumi's mocks, so a wrong class,
 *   argument or keyword fails;
 * - Go: `go vet` (a build) of each against the generated SDK (sdk/go), and gofmt finds nothing to change;
 * - Java: one Maven project (docs/languages.md's pom, offline against sdk/java installed once by
 *   scripts/java-sdk.sh) holding each example's program as its own class, compiled by one `mvn compile`;
 * - YAML and Java: `pulumi preview` against a local server through the resource plugin, under the real YAML and
 *   Java language hosts, of the examples merged into one program: the resources' examples and the functions'
 *   examples that need no existing object preview with only creates, each declared resource among them; the
 *   functions' examples that read an object named by an id in the stack's config (or that must exist) run too, and
 *   may fail only with the lookup's "not found" (their ids name nothing on a new server).
 *
 * An example that does not compile is a failing test, naming it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { FUNCTION_EXAMPLES } from "../../scripts/examples/functions";
import { RESOURCE_EXAMPLES } from "../../scripts/examples/resources";
import {
  call,
  config,
  isConfig,
  isRef,
  ref,
  resource,
  secret,
  type Example,
  type Value,
} from "../../scripts/examples/spec";
import { exampleRenderer } from "../../scripts/examples";
import type { PackageSchema } from "../../scripts/schemagen";
import { startTestServer, type TestServer } from "../support/server";
import { repoRoot } from "./engine";
import { pythonWithSdk, run } from "./inline";
import { javaProject } from "./java";
import {
  changesOf,
  makeWork,
  type PreviewJson,
  type Project,
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

/**
 * Beyond the docs: the shapes of a value (scripts/examples/spec.ts) that no example above uses yet, rendered,
 * compiled and previewed with them so that a wrong rendering fails before an example uses one: a map of plain
 * values and a map of lists holding a secret, lists mixing an output, a literal and config values, an output other
 * than the id as an input, a lookup's output as another's argument, and stack outputs that are objects of a
 * resource and of a lookup, or that the resource may leave unset.
 */
const SHAPES: Example = {
  title: "Every shape of a value",
  resources: [
    resource("team", "Group", { name: "team" }),
    resource("teamCopy", "Group", { name: ref("team", "name") }),
    resource("office", "Network", { name: "office", description: "Office LAN" }),
    resource("ssh", "Policy", {
      name: "ssh",
      enabled: true,
      sourcePostureChecks: ["baseline", config("postureCheckId")],
      rules: [
        {
          name: "ssh",
          enabled: true,
          action: "accept",
          bidirectional: false,
          protocol: "tcp",
          ports: ["22"],
          sources: [ref("team"), config("extraGroupId")],
          destinations: [ref("teamCopy"), secret("hiddenGroupId")],
          authorizedGroups: { admins: ["root", secret("sshUser")] },
        },
      ],
    }),
    resource("hook", "NotificationChannel", {
      type: "webhook",
      enabled: false,
      eventTypes: ["user.join"],
      target: {
        url: "https://hooks.example.com/privnet",
        headers: { "X-Team": "ops", Accept: "application/json" },
      },
    }),
  ],
  calls: [call("all", "getGroup", { name: "All" }), call("again", "getGroup", { name: ref("all", "name") })],
  outputs: {
    rules: ref("ssh", "rules"),
    officeDescription: ref("office", "description"),
    allPeers: ref("again", "peers"),
  },
};

/** Every config key the examples read, with a value for the checks (a secret is a secret). */
function configKeys(): Map<string, boolean> {
  const keys = new Map<string, boolean>();
  const walk = (v: Value): void => {
    if (isConfig(v)) keys.set(v.$config, v.secret);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object" && !isRef(v)) Object.values(v).forEach(walk);
  };
  for (const [, e] of [...examples, ["shapes", SHAPES] as const]) {
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

/** What each language compiles: the examples and the shapes beyond them. */
const compiled: [string, Example][] = [...examples, ["shapes", SHAPES]];
/** What the previews run: every resource's example, every function's that reads no existing object, the shapes... */
const creates = compiled.filter(
  ([key, e]) => key in RESOURCE_EXAMPLES || key === "shapes" || !readsExisting(e),
);
/** ...and the functions' that read objects that must exist (by an id from config, or as the example says). */
const lookups = examples.filter(([key, e]) => key in FUNCTION_EXAMPLES && readsExisting(e));

/** The Java package of an example's program (`examples.policy`), in the one Maven project of them all. */
const javaPackage = (key: string) => `examples.${file(key).toLowerCase()}`;

/**
 * The Maven project's main class (myproject.App, as docs/languages.md's pom names it): the merged program of the
 * previews' two lists, one per stack (`creates`, `lookups`), so one build runs both.
 */
const JAVA_MAIN = `package myproject;

import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            if (ctx.stackName().equals("lookups")) merged.lookups.App.stack(ctx);
            else merged.creates.App.stack(ctx);
        });
    }
}
`;

/** A preview of the merged `list` creates each of its resources, and does nothing else. */
function expectOnlyCreates(preview: PreviewJson, list: [string, Example][]): void {
  const changes = changesOf(preview);
  expect([...new Set(changes.map((c) => c.split(" ")[0]))]).toEqual(["create"]);
  const declared = (merged(list).resources ?? []).map((r) => `create privnet:index:${r.kind}::${r.name}`);
  expect(declared.filter((d) => !changes.includes(d))).toEqual([]);
}

/** A failed preview's lookups that ran reached the provider and the server, which found nothing. */
function expectNotFound(text: string): void {
  const errors = [...text.matchAll(/invocation of privnet:index:(\w+) returned an error: ([^\n"]*)/g)]
    .map((m) => `${m[1]}: ${m[2]}`)
    .filter((m) => !m.includes("the client connection is closing"));
  expect(errors.length).toBeGreaterThan(0);
  expect(errors.filter((m) => !/: privnet: (get\w+: no |GET \S+ 404: |get\w+: .* 404: )/.test(m))).toEqual(
    [],
  );
}

describe("the examples of the package schema compile and run in every language", () => {
  let work = "";
  let javaBuild: Promise<Project> | undefined;

  /**
   * One Maven project (docs/languages.md's pom, offline on the run's Maven repository with sdk/java installed
   * once): every example's program as its own class, and the previews' two merged programs; one `mvn compile`
   * compiles them all (the previews' Maven runs find the classes up to date).
   */
  function javaExamples(): Promise<Project> {
    javaBuild ??= (async () => {
      const sources: Record<string, string> = {};
      for (const [key, e] of compiled) {
        const pkg = javaPackage(key);
        sources[`${pkg.replace(/\./g, "/")}/App.java`] = renderer.javaProgram(e, pkg);
      }
      sources["merged/creates/App.java"] = renderer.javaProgram(merged(creates), "merged.creates");
      sources["merged/lookups/App.java"] = renderer.javaProgram(merged(lookups), "merged.lookups");
      const project = await javaProject(work, "java-examples", JAVA_MAIN, { sources });
      await run("mvn", ["-q", "compile"], process.env, 600_000, project.dir);
      return project;
    })();
    return javaBuild;
  }

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
      for (const [key, e] of compiled) {
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
      for (const [key, e] of compiled) {
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
      const files = compiled.map(([key]) => path.join(dir, `${file(key)}.py`));
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
      for (const [key, e] of compiled) {
        fs.mkdirSync(path.join(dir, file(key)));
        fs.writeFileSync(path.join(dir, file(key), "main.go"), renderer.snippet(e, "go", stringify));
      }
      const env = { ...process.env, GOFLAGS: "-mod=mod" };
      await run("go", ["vet", "./..."], env, 900_000, dir);
      expect(await run("gofmt", ["-l", "."], env, 60_000, dir)).toBe("");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "Java: every example compiles in one Maven project against the generated SDK",
    async () => {
      const project = await javaExamples();
      const classes = path.join(project.dir, "target", "classes");
      for (const [key] of compiled)
        expect([key, fs.existsSync(path.join(classes, ...javaPackage(key).split("."), "App.class"))]).toEqual(
          [key, true],
        );
      // The docs show each one as App.java of package myproject (docs/languages.md's layout).
      const [key, e] = examples[0]!;
      expect(renderer.snippet(e, "java", stringify)).toBe(
        renderer.javaProgram(e, "myproject").replace(`package ${javaPackage(key)};`, "package myproject;"),
      );
    },
    TEST_TIMEOUT_MS,
  );

  describe("pulumi preview against a local server", () => {
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
      "YAML: the resources' examples and the functions' that read no existing object: only creates",
      async () => {
        const stack = await preview("yaml-examples", creates);
        expectOnlyCreates(await stack.preview(), creates);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "YAML: the functions' that read objects that must exist: type-checked, then not found",
      async () => {
        const stack = await preview("yaml-lookups", lookups);
        const r = await stack.cli(["preview"], { expect: "nonzero" });
        const text = `${r.stdout}\n${r.stderr}`;
        // The program type-checked (a type error names the property and "is not assignable"), then ran a lookup.
        expect(text).not.toMatch(/not assignable|Cannot assign|unknown property|does not exist on/i);
        expectNotFound(text);
      },
      TEST_TIMEOUT_MS,
    );

    /** A stack of the Java project: `creates` or `lookups` (which merged program myproject.App runs). */
    async function javaStack(name: "creates" | "lookups") {
      const project = await javaExamples();
      const stack = await PulumiStack.init({ project, work, name, server });
      const code = fs.readFileSync(
        path.join(project.dir, "src", "main", "java", "merged", name, "App.java"),
        "utf8",
      );
      const values = [...configKeys()]
        .filter(([key]) => code.includes(`(${JSON.stringify(key)}`))
        .flatMap(([key, secret]) => [secret ? "--secret" : "--plaintext", `${key}=${sample(key, secret)}`]);
      if (values.length) await stack.cli(["config", "set-all", ...values]);
      return stack;
    }

    it(
      "Java: the resources' examples and the functions' that read no existing object: only creates",
      async () => {
        const stack = await javaStack("creates");
        expectOnlyCreates(await stack.preview(), creates);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "Java: the functions' that read objects that must exist: not found",
      async () => {
        const stack = await javaStack("lookups");
        // The program compiled (above); it stops at the first lookup that fails.
        const r = await stack.cli(["preview"], { expect: "nonzero" });
        expectNotFound(`${r.stdout}\n${r.stderr}`);
      },
      TEST_TIMEOUT_MS,
    );
  });
});
