/**
 * The generated Python, Go and Java SDKs document the package in their own language: no Python docstring, Go
 * comment or Javadoc holds TypeScript (a call with an object literal, an arrow function, `new X(`, `const`,
 * `await`, an `import * as`; in Java, whose own code has `new X(` and camelCase lookups, the others), and each
 * resource's and function's doc holds its example in the SDK's language (the schema's per-language example
 * blocks, filtered by each SDK's generator). Read from the committed generated files.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "..", "..");

/** TypeScript that has no business in another language's docs. */
const TYPESCRIPT: [string, RegExp][] = [
  ["a call with an object literal", /\b[A-Za-z_$][\w$]*\(\{/],
  ["an arrow function", /=>/],
  ["new X(...)", /\bnew [A-Z]\w*\(/],
  ["a const or let declaration", /\b(const|let) [A-Za-z_$][\w$]* =/],
  ["await", /\bawait\b/],
  ["import * as", /\bimport \* as\b/],
  ["a camelCase lookup call", /\bget[A-Z]\w*(Output)?\(/],
  ["a TypeScript fence", /```(typescript|ts)\b/],
];

function files(dir: string, ext: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .flatMap((d) => (d.isFile() && d.name.endsWith(ext) ? [path.join(d.parentPath, d.name)] : []));
}

/** The docstrings of a Python file (the text of its triple-quoted strings). */
function docstrings(text: string): string[] {
  return [...text.matchAll(/"""([\s\S]*?)"""/g)].map((m) => m[1]!);
}

/** The comments of a Go file, each run of `//` lines as one text. */
function comments(text: string): string[] {
  const runs: string[] = [];
  let run: string[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*\/\/ ?(.*)$/.exec(line);
    if (m) run.push(m[1]!);
    else if (run.length) {
      runs.push(run.join("\n"));
      run = [];
    }
  }
  if (run.length) runs.push(run.join("\n"));
  return runs;
}

/** The Javadoc comments of a Java file (the text of its `/** ... *\/` blocks, the leading `*` dropped). */
function javadocs(text: string): string[] {
  return [...text.matchAll(/\/\*\*([\s\S]*?)\*\//g)].map((m) =>
    m[1]!
      .split("\n")
      .map((l) => l.replace(/^\s*\* ?/, ""))
      .join("\n"),
  );
}

/** What Java itself writes: `new Group(...)`, `PrivnetFunctions.getGroup(...)`. */
const JAVA_OWN = new Set(["new X(...)", "a camelCase lookup call"]);

function offences(docs: [string, string[]][], allowed = new Set<string>()): string[] {
  return docs.flatMap(([file, texts]) =>
    texts.flatMap((t) =>
      TYPESCRIPT.filter(([what]) => !allowed.has(what)).flatMap(([what, re]) => {
        const m = re.exec(t);
        return m
          ? [`${path.relative(root, file)}: ${what}: ${t.slice(Math.max(0, m.index - 40), m.index + 40)}`]
          : [];
      }),
    ),
  );
}

const python = files(path.join(root, "sdk", "python", "pulumi_privnet"), ".py").map(
  (f): [string, string[]] => [f, docstrings(fs.readFileSync(f, "utf8"))],
);
const go = files(path.join(root, "sdk", "go", "privnet"), ".go").map((f): [string, string[]] => [
  f,
  comments(fs.readFileSync(f, "utf8")),
]);

const javaDir = path.join(
  root,
  "sdk",
  "java",
  "src",
  "main",
  "java",
  "io",
  "github",
  "pulumiprivnet",
  "privnet",
);
const java = files(javaDir, ".java").map((f): [string, string[]] => [
  f,
  javadocs(fs.readFileSync(f, "utf8")),
]);

describe("the generated SDKs' docs are in their own language", () => {
  it("the check finds TypeScript where there is some", () => {
    expect(offences([["x.py", ['Look it up with `getGroup({ name: "All" })`.']]])).toHaveLength(2);
    expect(offences([["x.go", ["const all = privnet.getGroupOutput({ name: x });"]]])).not.toEqual([]);
    expect(offences([["x.py", ['all = privnet.get_group_output(name="All")']]])).toEqual([]);
  });

  it("no Python docstring holds TypeScript", () => {
    expect(python.length).toBeGreaterThan(50);
    expect(offences(python)).toEqual([]);
  });

  it("no Go comment holds TypeScript", () => {
    expect(go.length).toBeGreaterThan(50);
    expect(offences(go)).toEqual([]);
  });

  it("no Javadoc holds TypeScript", () => {
    expect(java.length).toBeGreaterThan(50);
    expect(offences(java, JAVA_OWN)).toEqual([]);
    expect(
      offences([["X.java", ["var found = privnet.getGroupOutput({ name: x });"]]], JAVA_OWN),
    ).not.toEqual([]);
  });

  it("each resource and function shows its example in Python, in Go and in Java", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(root, "plugin", "schema.json"), "utf8")) as {
      resources: Record<string, unknown>;
      functions: Record<string, unknown>;
    };
    const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
    const missing: string[] = [];
    for (const tok of [...Object.keys(schema.resources), ...Object.keys(schema.functions)]) {
      const name = tok.split(":")[2]!;
      const py = fs.readFileSync(
        path.join(root, "sdk", "python", "pulumi_privnet", `${snake(name)}.py`),
        "utf8",
      );
      if (!py.includes("```python") || !py.includes("import pulumi_privnet as privnet"))
        missing.push(`python ${name}`);
      const goFile = path.join(
        root,
        "sdk",
        "go",
        "privnet",
        `${name.charAt(0).toLowerCase()}${name.slice(1)}.go`,
      );
      const goText = fs.readFileSync(goFile, "utf8");
      if (!goText.includes("// ```go") || !goText.includes("pulumi.Run(")) missing.push(`go ${name}`);
      // A resource's class documents it; a function's is a method of PrivnetFunctions.
      const javaDocs = /^[A-Z]/.test(name)
        ? javadocs(fs.readFileSync(path.join(javaDir, `${name}.java`), "utf8"))
        : javadocs(fs.readFileSync(path.join(javaDir, "PrivnetFunctions.java"), "utf8")).filter((d) =>
            d.includes(`PrivnetFunctions.${name}(`),
          );
      if (!javaDocs.some((d) => d.includes("<pre>") && d.includes("Pulumi.run(App::stack)")))
        missing.push(`java ${name}`);
    }
    expect(missing).toEqual([]);
  });
});
