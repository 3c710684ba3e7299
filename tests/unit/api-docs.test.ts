/**
 * docs/api/ (written by `npm run gen` with Pulumi's docs generator, tools/codegen, then scripts/apidocs.ts): one
 * page per resource and per function of the committed schema, each with its example in TypeScript, Python, Go and
 * YAML, its inputs and outputs; a resource's page says how to import it and which outputs are secrets. `npm run
 * gen:check` keeps the pages as the generator writes them from the schema; this checks what they hold, and that a
 * function's Java signatures are the Java SDK's (sdk/java).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { COMPONENTS } from "../../components/registry";
import { PROVIDERS } from "../../provider/registry";
import { apiPage } from "../../scripts/apidocs";

const root = path.resolve(__dirname, "..", "..");
const dir = path.join(root, "docs", "api");
const schema = JSON.parse(fs.readFileSync(path.join(root, "plugin", "schema.json"), "utf8")) as {
  resources: Record<string, { properties: Record<string, { secret?: boolean }> }>;
  functions: Record<string, unknown>;
};
const page = (name: string) => path.join(dir, `${name.toLowerCase()}.md`);
const resources = Object.keys(schema.resources).map((t) => t.split(":")[2]!);
const functions = Object.keys(schema.functions).map((t) => t.split(":")[2]!);
const javaFunctions = fs.readFileSync(
  path.join(
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
    "PrivnetFunctions.java",
  ),
  "utf8",
);

describe("docs/api", () => {
  it("has a page for every resource and every function, and an index linking them", () => {
    expect(resources.sort()).toEqual(
      [...PROVIDERS.map((p) => p.spec.name), ...COMPONENTS.map((c) => c.name)].sort(),
    );
    const missing = [...resources, ...functions].filter((n) => !fs.existsSync(page(n)));
    expect(missing).toEqual([]);
    const index = fs.readFileSync(path.join(dir, "README.md"), "utf8");
    expect(
      [...resources, ...functions].filter((n) => !index.includes(`href="${n.toLowerCase()}.md"`)),
    ).toEqual([]);
  });

  it.each([...resources, ...functions])("%s: an example in each language, inputs and outputs", (name) => {
    const text = fs.readFileSync(page(name), "utf8");
    expect(text).toContain("## Example Usage");
    for (const fence of ["```typescript", "```python", "```go", "```java", "```yaml"])
      expect([name, text.includes(fence)]).toEqual([name, true]);
    // No part of the site's page machinery is left.
    expect(text).not.toMatch(/<pulumi-choos|\{\{[%<]|^---$/m);
    if (resources.includes(name)) {
      expect(text).toMatch(/### Inputs/);
      expect(text).toMatch(/### Outputs/);
      // A component is not imported: its children are.
      if (!COMPONENTS.some((c) => c.name === name))
        expect(text).toMatch(/## Import\n\n.*pulumi import privnet:index:/);
      for (const [prop, spec] of Object.entries(schema.resources[`privnet:index:${name}`]!.properties)) {
        if (spec.secret)
          expect([name, prop, new RegExp(`${prop}[^]*?\\(secret`, "i").test(text)]).toEqual([
            name,
            prop,
            true,
          ]);
      }
    }
  });

  it.each(functions)("%s: the Java signatures are those of the Java SDK's PrivnetFunctions", (name) => {
    const text = fs.readFileSync(page(name), "utf8");
    const block = /\*\*Java\*\*\n\n<div class="highlight">[^]*?<\/code>/.exec(
      text.slice(text.indexOf("## Using")),
    )?.[0];
    expect([name, block !== undefined]).toEqual([name, true]);
    const signatures = block!
      .replace(/<[^>]+>/g, "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .split("\n")
      .filter((l) => l.startsWith("public static"));
    expect(signatures.length).toBe(3);
    expect(signatures.filter((l) => !javaFunctions.includes(`${l} {`))).toEqual([]);
  });

  it("the conversion keeps this package's languages, each under its name, and drops the site's chooser", () => {
    const generated = [
      "---",
      'title: "Widget"',
      "---",
      '<div><pulumi-chooser type="language" options="csharp,go,typescript"></pulumi-chooser></div>',
      '<div>\n<pulumi-choosable type="language" values="csharp">\n\n```csharp\nvar w;\n```\n\n</pulumi-choosable>\n</div>',
      '<div>\n<pulumi-choosable type="language" values="python">\n\n```python\nw = 1\n```\n\n</pulumi-choosable>\n</div>',
      "## Inputs {#inputs}",
      '<a href="/docs/concepts/">x</a>',
    ].join("\n");
    const out = apiPage(generated);
    expect(out).toContain("# Widget");
    expect(out).toContain("**Python**\n\n```python\nw = 1\n```");
    expect(out).not.toContain("csharp");
    expect(out).toContain('<a id="inputs"></a>\n\n## Inputs');
    expect(out).toContain('href="https://www.pulumi.com/docs/concepts/"');
  });
});
