/**
 * What the Java language host built here (scripts/language-java.sh, pulumi-java v0.19.0) runs when Pulumi.yaml
 * names a prebuilt jar (`runtime.options.binary`), under the real CLI, and that docs/languages.md says so.
 *
 * Pulumi documents `binary` as "run this jar with `java -jar`". The engine here (v3.259.0) sends runtime options in
 * each request and starts a language host with its address alone; v0.19.0 reads `binary` only from a `-binary`
 * flag. So the program runs through Maven: the docs must say that, and this test fails the day either changes
 * (a host that runs the jar while the docs say Maven, or docs that promise the jar while Maven runs).
 *
 * Both candidates write which JVM command ran them into `ran-by.txt` in the program directory (the JVM's own
 * `sun.java.command`): App.java (the Maven project's program, a Pulumi program with no resources) and Probe, the
 * only class of the jar `binary` names.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot, runPulumi } from "./engine";
import { ensureJava, javaProject } from "./java";
import {
  COMMAND_TIMEOUT_MS,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  TEST_TIMEOUT_MS,
} from "./project";

const APP = `package myproject;

import com.pulumi.Pulumi;
import java.nio.file.Files;
import java.nio.file.Path;

public class App {
    public static void main(String[] args) throws Exception {
        Files.writeString(Path.of("ran-by.txt"), "program: " + System.getProperty("sun.java.command"));
        Pulumi.run(ctx -> ctx.export("ran", com.pulumi.core.Output.of("yes")));
    }
}
`;

const PROBE = `import java.nio.file.Files;
import java.nio.file.Path;

public class Probe {
    public static void main(String[] args) throws Exception {
        Files.writeString(Path.of("ran-by.txt"), "jar: " + System.getProperty("sun.java.command"));
    }
}
`;

/** The jar Pulumi.yaml names, relative to the program directory. */
const JAR = path.join("target", "probe.jar");

/** docs/languages.md's section on Java programs. */
function javaSection(): string {
  const text = fs.readFileSync(path.join(repoRoot, "docs", "languages.md"), "utf8");
  const start = text.indexOf("\n## Java programs");
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/**
 * What the docs say runs a program whose Pulumi.yaml names a jar: "maven" (the option has no effect with this
 * host), "jar" (the host runs `java -jar`), or what is wrong with them.
 */
function docsSay(section: string): string {
  const maven = section.includes("`runtime.options.binary` has no effect with this host");
  const jar = /\bhost (?:then )?runs `java -jar`/.test(section);
  if (maven && jar) return "both (contradictory)";
  if (maven) return "maven";
  if (jar) return "jar";
  return "nothing";
}

describe("runtime.options.binary under the Java host built here", () => {
  let work = "";

  beforeAll(async () => {
    work = makeWork("java-host");
    await ensureJava();
  }, SETUP_TIMEOUT_MS);

  afterAll(() => removeWork(work));

  it(
    "a preview runs the program the way docs/languages.md says: through Maven, not the jar Pulumi.yaml names",
    async () => {
      const project = await javaProject(work, "binary-java", APP, { runtimeOptions: { binary: JAR } });
      const probe = path.join(work, "probe");
      fs.mkdirSync(probe);
      fs.writeFileSync(path.join(probe, "Probe.java"), PROBE);
      execFileSync("javac", [
        "--release",
        "11",
        "-d",
        path.join(probe, "classes"),
        path.join(probe, "Probe.java"),
      ]);
      fs.mkdirSync(path.join(project.dir, "target"), { recursive: true });
      execFileSync("jar", [
        "--create",
        "--file",
        path.join(project.dir, JAR),
        "--main-class",
        "Probe",
        "-C",
        path.join(probe, "classes"),
        ".",
      ]);
      expect(fs.readFileSync(path.join(project.dir, "Pulumi.yaml"), "utf8")).toContain(`binary: "${JAR}"`);

      const stack = await PulumiStack.init({ project, work, name: "dev" });
      const r = await runPulumi(["preview", "--stack", "dev"], {
        cwd: project.dir,
        env: stack.env,
        timeoutMs: COMMAND_TIMEOUT_MS,
      });
      const ranBy = path.join(project.dir, "ran-by.txt");
      const command = fs.existsSync(ranBy) ? fs.readFileSync(ranBy, "utf8") : "";
      const ran = /^program: org\.codehaus\.plexus\.classworlds\.launcher\.Launcher .*\bexec:java\b/.test(
        command,
      )
        ? "maven"
        : command.startsWith(`jar: ${JAR}`)
          ? "jar"
          : `neither (ran-by.txt: ${JSON.stringify(command)}; pulumi exited ${r.code}:\n${r.stdout}\n${r.stderr})`;
      // What the docs say is what runs.
      expect({ ran, docsSay: docsSay(javaSection()) }).toEqual({ ran, docsSay: ran });
      // Through Maven the program is the project's own, and the preview goes through.
      if (ran === "maven") expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: r.stderr });
    },
    TEST_TIMEOUT_MS,
  );
});
