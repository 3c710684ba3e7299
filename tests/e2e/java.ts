/**
 * Java programs under the real Java language host (pulumi-language-java, built beside the engine by
 * scripts/language-java.sh): Maven projects as docs/languages.md describes them, on the generated SDK (sdk/java).
 *
 * Every Java project of a test run builds offline against one local Maven repository, made once per content of
 * sdk/java and of the documented pom.xml by scripts/java-sdk.sh (sdk/java installed with `mvn install`, the
 * program build's plugins resolved; cached outside the repository): one compiled SDK for all of them, Maven
 * Central reached only when that repository is made. Each project names it in `.mvn/maven.config`.
 *
 *   const project = await javaProject(work, "quickstart-java", appJava);
 *   const stack = await PulumiStack.init({ project, work, name: "dev", server });
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureEngine, repoRoot } from "./engine";
import { run } from "./inline";
import { pluginsYaml, type Project } from "./project";

const DOCS = path.join(repoRoot, "docs", "languages.md");

/** The program pom.xml of docs/languages.md (the first `xml` block of its Java section). */
export function documentedPom(): string {
  const text = fs.readFileSync(DOCS, "utf8");
  const start = text.indexOf("\n## Java programs");
  if (start < 0) throw new Error("docs/languages.md has no section on Java programs");
  const end = text.indexOf("\n## ", start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  const pom = /^```xml\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (!pom) throw new Error("docs/languages.md's Java section has no pom.xml");
  return pom;
}

export interface JavaSetup {
  /** The engine's bin directory, where pulumi-language-java is. */
  bin: string;
  /** The local Maven repository every Java project of the run builds against, offline. */
  repo: string;
}

let ensured: Promise<JavaSetup> | undefined;

/** Builds (or finds) the Java language host and the run's Maven repository; once per process. */
export function ensureJava(): Promise<JavaSetup> {
  ensured ??= (async () => {
    const engineBin = await ensureEngine();
    const env = {
      ...process.env,
      PATH: `${path.join(repoRoot, "node_modules", ".bin")}:${process.env.PATH}`,
    };
    const last = (out: string) => out.trim().split("\n").pop()!.trim();
    const bin = last(
      await run("bash", [path.join(repoRoot, "scripts", "language-java.sh")], env, 45 * 60_000),
    );
    if (bin !== engineBin || !fs.existsSync(path.join(bin, "pulumi-language-java")))
      throw new Error(`scripts/language-java.sh printed ${bin}; the engine is in ${engineBin}`);
    const pom = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "privnet-java-pom-")), "pom.xml");
    fs.writeFileSync(pom, documentedPom());
    try {
      const repo = last(
        await run("bash", [path.join(repoRoot, "scripts", "java-sdk.sh"), pom], env, 30 * 60_000),
      );
      return { bin, repo };
    } finally {
      fs.rmSync(path.dirname(pom), { recursive: true, force: true });
    }
  })();
  return ensured;
}

export interface JavaProjectOptions {
  /**
   * `runtime.options` of Pulumi.yaml (default none: `runtime: java`). The Java host built here ignores them
   * (docs/languages.md: pulumi-java v0.19.0 reads `binary` only from a flag the engine no longer passes);
   * tests/e2e/java-host.test.ts names a jar this way to check that what the docs say is what runs.
   */
  runtimeOptions?: Record<string, string>;
  /** More classes of the program: their paths under src/main/java -> their text, written before any build. */
  sources?: Record<string, string>;
}

/**
 * A Java project in `<work>/<name>`: Pulumi.yaml (`runtime: java`, the plugin of this checkout named under
 * `plugins`), the documented pom.xml, `.mvn/maven.config` (offline, on the run's Maven repository),
 * `.mvn/jvm.config` (Maven's JVM with the quick-starting compiler only) and `app` as
 * src/main/java/myproject/App.java (with `sources`, more classes beside it).
 */
export async function javaProject(
  work: string,
  name: string,
  app: string,
  opts: JavaProjectOptions = {},
): Promise<Project> {
  const { repo } = await ensureJava();
  const dir = path.join(work, name);
  fs.mkdirSync(path.join(dir, ".mvn"), { recursive: true });
  fs.writeFileSync(path.join(dir, "pom.xml"), documentedPom());
  fs.writeFileSync(
    path.join(dir, ".mvn", "maven.config"),
    `--offline\n--batch-mode\n-Dmaven.repo.local=${repo}\n`,
  );
  fs.writeFileSync(path.join(dir, ".mvn", "jvm.config"), "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC\n");
  const project = { dir, programDir: dir };
  writeApp(project, app);
  for (const [file, text] of Object.entries(opts.sources ?? {})) {
    const target = path.join(dir, "src", "main", "java", file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
  }
  const options = Object.entries(opts.runtimeOptions ?? {});
  const runtime = options.length
    ? `runtime:\n  name: java\n  options:\n${options.map(([k, v]) => `    ${k}: ${JSON.stringify(v)}\n`).join("")}`
    : "runtime: java\n";
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\n${runtime}${pluginsYaml()}`);
  return project;
}

/** Writes `app` as the project's src/main/java/myproject/App.java. */
export function writeApp(project: Project, app: string): void {
  const sources = path.join(project.dir, "src", "main", "java", "myproject");
  fs.mkdirSync(sources, { recursive: true });
  fs.writeFileSync(path.join(sources, "App.java"), app);
}

/** The Java program `tests/e2e/programs/java/<name>/App.java` (class myproject.App), as text. */
export function javaProgram(name: string): string {
  return fs.readFileSync(path.join(__dirname, "programs", "java", name, "App.java"), "utf8");
}
