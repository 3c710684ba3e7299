/**
 * Generated files are written as prettier would write them, so they pass `prettier --check` like the rest of the
 * repo and a generator needs no layout rules of its own.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as prettier from "prettier";

/** The repository (the generators run from dist/scripts). */
// From dist/scripts (the built generators) or scripts/ (the tests, which load the sources): the directory with package.json.
export const root = [path.resolve(__dirname, "..", ".."), path.resolve(__dirname, "..")].find((d) =>
  fs.existsSync(path.join(d, "package.json")),
)!;

/**
 * `files` (repo-relative path -> text) formatted with prettier and the repo's config, in the same order. Files
 * .prettierignore excludes (the reference docs: prettier would pad every table row to its widest cell) are left
 * as generated.
 */
export async function formatted(files: Map<string, string>): Promise<Map<string, string>> {
  const ignorePath = path.join(root, ".prettierignore");
  const out = new Map<string, string>();
  for (const [rel, text] of files) {
    const file = path.join(root, rel);
    if ((await prettier.getFileInfo(file, { ignorePath })).ignored) out.set(rel, text);
    else
      out.set(rel, await prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file }));
  }
  return out;
}
