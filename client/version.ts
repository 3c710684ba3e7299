/**
 * The package version, for the default User-Agent (`pulumi-privnet/<version>`).
 */
import * as fs from "node:fs";
import * as path from "node:path";

let cached: string | undefined;

/**
 * Reads `version` from this package's package.json. Looked up from this file's directory upwards, because the
 * file sits at `client/` when run from source and at `dist/client/` when installed; importing the JSON instead
 * would copy package.json into dist.
 */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  cached = "0.0.0";
  let dir = __dirname;
  for (let i = 0; i < 4; i++) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === "pulumi-privnet" && typeof pkg.version === "string") {
        cached = pkg.version;
        break;
      }
    } catch {
      // no package.json at this level: keep walking up
    }
    dir = path.dirname(dir);
  }
  return cached;
}
