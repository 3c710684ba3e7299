/**
 * Python for the programs that use the generated SDK (tests/e2e/plugin-python.test.ts, bench/peer.ts): a venv with
 * `pulumi` at the engine's version, and sdk/python installed into it.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { engineCacheDir, repoRoot, sdkVersion } from "./engine";

export function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 600_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(" ")} failed: ${err.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/**
 * A venv with `pulumi` at the engine's version and setuptools (cached beside the engine: pip downloads from PyPI
 * once), and the generated SDK installed from a copy of sdk/python (a build writes into its source directory).
 */
export async function pythonWithSdk(work: string): Promise<string> {
  const venv = path.join(engineCacheDir(), `v${sdkVersion()}`, "python-venv");
  const python = path.join(venv, "bin", "python");
  // setuptools >= 70.1 builds wheels without the `wheel` package (the venv's own is older).
  // The generated SDK depends on parver and semver besides pulumi.
  const requirements = [`pulumi==${sdkVersion()}`, "setuptools>=70.1", "parver>=0.2.1", "semver>=2.8.1"];
  const ready = path.join(venv, ".ready");
  if (!fs.existsSync(ready) || fs.readFileSync(ready, "utf8") !== requirements.join(" ")) {
    fs.rmSync(venv, { recursive: true, force: true });
    await run("python3", ["-m", "venv", venv], process.env);
    await run(python, ["-m", "pip", "install", "--quiet", ...requirements], process.env);
    fs.writeFileSync(ready, requirements.join(" "));
  }
  const sdk = path.join(work, "sdk-python");
  fs.cpSync(path.join(repoRoot, "sdk", "python"), sdk, {
    recursive: true,
    filter: (src) => !/(^|\/)(build|[^/]*\.egg-info)$/.test(src),
  });
  await run(
    python,
    ["-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--force-reinstall", sdk],
    process.env,
  );
  return python;
}
