/**
 * The generated Java SDK (sdk/java, written by pulumi-java's generator through tools/codegen) builds with its own
 * Maven build (sdk/java/pom.xml): `mvn install`, as docs/languages.md tells a user, puts
 * io.github.pulumiprivnet:privnet into a local Maven repository (scripts/java-sdk.sh, the one the Java programs of
 * the tests build against), compiled against Pulumi's Java SDK `com.pulumi:pulumi` from Maven Central at the
 * version its generator (pulumi-java/pkg v0.19.0) writes for. The .NET SDK cannot be built here: no .NET SDK and
 * no NuGet (docs/languages.md).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./engine";
import { ensureJava } from "./java";
import { SETUP_TIMEOUT_MS } from "./project";

/** Pulumi's Java SDK that pulumi-java/pkg v0.19.0 generates for (its InvokeOutputOptions first came in 0.19.0). */
const JAVA_SDK = "0.19.0";

test(
  "mvn install of sdk/java gives io.github.pulumiprivnet:privnet, built against com.pulumi:pulumi",
  async () => {
    const { repo } = await ensureJava();
    const version = fs
      .readFileSync(
        path.join(
          repoRoot,
          "sdk",
          "java",
          "src",
          "main",
          "resources",
          "io",
          "github",
          "pulumiprivnet",
          "privnet",
          "version.txt",
        ),
        "utf8",
      )
      .trim();
    const dir = path.join(repo, "io", "github", "pulumiprivnet", "privnet", version);
    const pom = fs.readFileSync(path.join(dir, `privnet-${version}.pom`), "utf8");
    expect(pom).toContain(
      `<groupId>com.pulumi</groupId>\n      <artifactId>pulumi</artifactId>\n      <version>${JAVA_SDK}</version>`,
    );
    const entries = execFileSync("jar", ["tf", path.join(dir, `privnet-${version}.jar`)], {
      encoding: "utf8",
    }).split("\n");
    for (const entry of [
      "io/github/pulumiprivnet/privnet/Policy.class",
      "io/github/pulumiprivnet/privnet/inputs/PolicyRuleArgs.class",
      "io/github/pulumiprivnet/privnet/Segment.class",
      "io/github/pulumiprivnet/privnet/PrivnetFunctions.class",
      "io/github/pulumiprivnet/privnet/version.txt",
    ])
      expect(entries).toContain(entry);
    // The classes are Java 11 (the release Pulumi's Java SDK targets): class file major version 55.
    const policy = execFileSync(
      "javap",
      ["-v", "-cp", path.join(dir, `privnet-${version}.jar`), "io.github.pulumiprivnet.privnet.Policy"],
      {
        encoding: "utf8",
      },
    );
    expect(policy).toMatch(/major version: 55/);
  },
  SETUP_TIMEOUT_MS,
);
