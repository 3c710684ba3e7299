/**
 * The generated Java SDK (sdk/java, written by pulumi-java's generator through tools/codegen) compiles: Maven
 * builds its sources against Pulumi's Java SDK `com.pulumi:pulumi` from Maven Central, at the version its
 * generator (pulumi-java/pkg v0.19.0) writes for (the generated Gradle build would name the same two
 * dependencies). The .NET SDK cannot be built here: no .NET SDK and no NuGet (docs/languages.md).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./engine";
import { run } from "./inline";
import { makeWork, removeWork, TEST_TIMEOUT_MS } from "./project";

/** Pulumi's Java SDK that pulumi-java/pkg v0.19.0 generates for (its InvokeOutputOptions first came in 0.19.0). */
const JAVA_SDK = "0.19.0";

const has = (cmd: string) => {
  try {
    execFileSync(cmd, ["-version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

describe("the generated Java SDK", () => {
  let work = "";
  beforeAll(() => {
    work = makeWork("java-sdk");
  });
  afterAll(() => removeWork(work));

  it(
    "compiles against com.pulumi:pulumi with Maven",
    async () => {
      // The machines this project runs on have a JDK and Maven (Debian's); say so plainly where one lacks them.
      expect({ javac: has("javac"), mvn: has("mvn") }).toEqual({ javac: true, mvn: true });
      const sources = path.join(repoRoot, "sdk", "java", "src", "main", "java");
      fs.writeFileSync(
        path.join(work, "pom.xml"),
        `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.github.pulumiprivnet</groupId>
  <artifactId>privnet-sdk-check</artifactId>
  <version>0.0.0</version>
  <properties>
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>com.pulumi</groupId><artifactId>pulumi</artifactId><version>${JAVA_SDK}</version></dependency>
    <dependency><groupId>com.google.code.findbugs</groupId><artifactId>jsr305</artifactId><version>3.0.2</version></dependency>
  </dependencies>
  <build>
    <sourceDirectory>${sources}</sourceDirectory>
    <directory>${path.join(work, "target")}</directory>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
      </plugin>
    </plugins>
  </build>
</project>
`,
      );
      await run("mvn", ["-q", "-B", "compile"], process.env, 900_000, work);
      const classes = path.join(work, "target", "classes", "io", "github", "pulumiprivnet", "privnet");
      expect(fs.existsSync(path.join(classes, "Policy.class"))).toBe(true);
      expect(fs.existsSync(path.join(classes, "inputs", "PolicyRuleArgs.class"))).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
