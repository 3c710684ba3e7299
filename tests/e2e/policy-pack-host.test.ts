/**
 * The language host runs Node policy packs (engine/language-host.js, RunPlugin): the real CLI with
 * `--policy-pack DIR` on a throw-away program. A pack written with @pulumi/policy sees the stack through the
 * environment the engine gives packs (stack, dry-run flag, the stack's config with secrets decrypted), its
 * mandatory violation fails the command, its advisory one is shown, and a pack whose dependencies are missing
 * gets the engine's own "dependencies are not installed" message.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { RunPulumiResult } from "./engine";
import { engineEnv, ensureEngine, repoRoot, runPulumi, sdkVersion } from "./engine";

const PACK = `"use strict";
const { PolicyPack } = require("@pulumi/policy");
const pulumi = require("@pulumi/pulumi");

new PolicyPack("host-check", {
  policies: [
    {
      name: "sees-the-stack",
      description: "reports what the engine told the pack",
      enforcementLevel: "advisory",
      validateStack: (args, report) => {
        const cfg = new pulumi.Config("policy-host");
        report(
          "stack=" + pulumi.getStack() + " dryRun=" + pulumi.runtime.isDryRun() + " greeting=" + cfg.get("greeting") +
            " secretLength=" + cfg.require("secret").length + " resources=" + args.resources.length,
        );
      },
    },
    {
      name: "blocks-when-asked",
      description: "a mandatory violation when the stack's config says so",
      enforcementLevel: "mandatory",
      validateStack: (_args, report) => {
        if (new pulumi.Config("policy-host").getBoolean("block")) report("blocked by the pack");
      },
    },
  ],
});
`;

describe("policy packs through our language host (RunPlugin)", () => {
  let work = "";
  let project = "";
  let pack = "";
  let hostLog = "";
  let env: Record<string, string> = {};

  async function pulumi(args: string[], expect: number | "nonzero" = 0): Promise<RunPulumiResult> {
    const r = await runPulumi(args, { cwd: project, env, timeoutMs: 180_000 });
    const ok = expect === "nonzero" ? r.code !== 0 && r.code !== null : r.code === expect;
    if (!ok)
      throw new Error(
        `pulumi ${args.join(" ")} exited ${r.code}, expected ${expect}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}` +
          `\n--- host log\n${fs.existsSync(hostLog) ? fs.readFileSync(hostLog, "utf8") : ""}`,
      );
    return r;
  }

  beforeAll(async () => {
    const bin = await ensureEngine();
    work = fs.mkdtempSync(path.join(os.tmpdir(), "privnet-policy-host-"));
    project = path.join(work, "project");
    pack = path.join(work, "pack");
    hostLog = path.join(work, "language-host.log");
    for (const dir of [project, pack]) {
      fs.mkdirSync(dir, { recursive: true });
      // The repo's packages (the real path keeps one copy of @pulumi/pulumi for the pack and the runner).
      fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
    }
    fs.writeFileSync(
      path.join(project, "Pulumi.yaml"),
      "name: policy-host\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
    );
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({
        name: "policy-host",
        main: "index.js",
        dependencies: { "@pulumi/pulumi": sdkVersion() },
      }),
    );
    fs.writeFileSync(path.join(project, "index.js"), "module.exports = {};\n");
    fs.writeFileSync(path.join(pack, "PulumiPolicy.yaml"), "runtime: nodejs\n");
    fs.writeFileSync(
      path.join(pack, "package.json"),
      JSON.stringify({ name: "host-check", version: "1.2.3" }),
    );
    fs.writeFileSync(path.join(pack, "index.js"), PACK);
    env = engineEnv({
      binDir: bin,
      backendDir: path.join(work, "state"),
      pulumiHome: path.join(work, "pulumi-home"),
      passphrase: "policy-host-passphrase",
      extra: { PRIVNET_LANGHOST_LOG: hostLog },
    });
    await pulumi(["stack", "init", "dev", "--secrets-provider", "passphrase"]);
    await pulumi(["config", "set", "greeting", "hello"]);
    await runPulumi(["config", "set", "--secret", "secret"], { cwd: project, env, input: "s3cr3t-value" });
  }, 50 * 60_000);

  afterAll(() => {
    if (work && !process.env.PRIVNET_KEEP_E2E) fs.rmSync(work, { recursive: true, force: true });
  });

  test("the pack runs, sees the stack and its config, and its advisory violation is shown", async () => {
    const r = await pulumi(["preview", "--policy-pack", pack]);
    expect(r.stdout).toContain("host-check@v1.2.3");
    expect(r.stdout).toContain("stack=dev dryRun=true greeting=hello secretLength=12 resources=1");
    const log = fs.readFileSync(hostLog, "utf8");
    expect(log).toMatch(/rpc RunPlugin kind=analyzer/);
    expect(log).toMatch(
      /run-plugin .*@pulumi\/pulumi\/cmd\/run-policy-pack\/index\.js .* \S+\/pack \(cwd \S+\/pack\)/,
    );
    // The pack's process is gone once the command ends.
    expect(log).toMatch(/run-plugin exited/);
  }, 300_000);

  test("a mandatory violation fails up before anything is applied; the update phase sees dryRun=false", async () => {
    await pulumi(["config", "set", "block", "true"]);
    const blocked = await pulumi(["up", "--yes", "--policy-pack", pack], "nonzero");
    expect(blocked.stdout).toContain("blocked by the pack");
    expect(blocked.stdout).not.toContain("s3cr3t-value");
    await pulumi(["config", "set", "block", "false"]);
    const up = await pulumi(["up", "--yes", "--policy-pack", pack]);
    expect(up.stdout).toContain("dryRun=false");
  }, 300_000);

  test("a pack without its dependencies: the engine's own message", async () => {
    const bare = path.join(work, "bare-pack");
    fs.mkdirSync(bare);
    fs.writeFileSync(path.join(bare, "PulumiPolicy.yaml"), "runtime: nodejs\n");
    fs.writeFileSync(path.join(bare, "index.js"), PACK);
    const r = await pulumi(["preview", "--policy-pack", bare], "nonzero");
    expect(`${r.stdout}\n${r.stderr}`).toContain(
      `it looks like the policy pack's dependencies are not installed; try running npm install or yarn install in "${bare}"`,
    );
  }, 300_000);
});
