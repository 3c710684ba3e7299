/**
 * Smoke test of the engine toolchain: the real Pulumi CLI (scripts/engine.sh), our Node language host
 * (engine/language-host.js) and the real dynamic-provider plugin (pulumi-resource-pulumi-nodejs), on a
 * throw-away project with a file backend and passphrase secrets.
 *
 * The project gets `node_modules/@pulumi` as a symlink to the repo's node_modules/@pulumi: Node resolves the
 * symlink to its real path, so @pulumi/pulumi's own dependencies come from the repo's node_modules, and the
 * program, the SDK runner and the dynamic-provider host all load the same SDK copy. Symlinks only matter to
 * closure serialization when provider code captures a package; this provider captures nothing.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { RunPulumiResult } from "./engine";
import { ensureEngine, engineEnv, repoRoot, runPulumi, sdkVersion } from "./engine";

const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");

// A trivial dynamic provider, defined in the program and serialized into state by value.
const provider = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff(_id, olds, news) {
    return { changes: olds.name !== news.name, replaces: olds.name !== news.name ? ["name"] : [] };
  },
  async create(inputs) {
    return { id: "thing-" + inputs.name, outs: { name: inputs.name, greeting: "hello " + inputs.name } };
  },
  async delete() {},
};

class Thing extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(provider, name, { greeting: undefined, ...args }, opts);
  }
}

const config = new pulumi.Config();
const thing = new Thing("thing", { name: config.require("name") });
exports.greeting = thing.greeting;
exports.tokenLength = config.requireSecret("token").apply((t) => t.length);
`;

interface PreviewJson {
  steps?: { op: string; urn: string }[];
  changeSummary?: Record<string, number>;
}

describe("engine smoke: real CLI + our language host + dynamic provider", () => {
  let work = "";
  let project = "";
  let hostLog = "";
  let env: Record<string, string> = {};
  const timings: Record<string, number> = {};

  /** Runs pulumi in the project and fails with the full output when the exit code is not `expect`. */
  async function pulumi(
    label: string,
    args: string[],
    opts: { yes?: boolean; expect?: number } = {},
  ): Promise<RunPulumiResult> {
    const r = await runPulumi(args, { cwd: project, env, yes: opts.yes, timeoutMs: 180_000 });
    timings[label] = r.durationMs;
    if (r.code !== (opts.expect ?? 0)) {
      throw new Error(
        `pulumi ${args.join(" ")} exited ${r.code}${r.timedOut ? " (timed out)" : ""}\n` +
          `--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}\n--- language host log\n${readHostLog()}`,
      );
    }
    return r;
  }

  function readHostLog(): string {
    return fs.existsSync(hostLog) ? fs.readFileSync(hostLog, "utf8") : "(none)";
  }

  beforeAll(async () => {
    const bin = await ensureEngine();
    work = fs.mkdtempSync(path.join(os.tmpdir(), "privnet-engine-smoke-"));
    project = path.join(work, "project");
    hostLog = path.join(work, "language-host.log");
    fs.mkdirSync(path.join(project, "node_modules"), { recursive: true });
    fs.symlinkSync(
      path.join(repoRoot, "node_modules", "@pulumi"),
      path.join(project, "node_modules", "@pulumi"),
      "dir",
    );
    fs.writeFileSync(
      path.join(project, "Pulumi.yaml"),
      "name: engine-smoke\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n" +
        "description: engine smoke test\n",
    );
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify(
        {
          name: "engine-smoke",
          private: true,
          main: "index.js",
          dependencies: { "@pulumi/pulumi": sdkVersion() },
        },
        null,
        2,
      ),
    );
    fs.writeFileSync(path.join(project, "index.js"), PROGRAM);
    env = engineEnv({
      binDir: bin,
      backendDir: path.join(work, "state"),
      pulumiHome: path.join(work, "pulumi-home"),
      passphrase: "engine-smoke-passphrase",
      extra: { PRIVNET_LANGHOST_LOG: hostLog },
    });
  }, 50 * 60_000);

  afterAll(() => {
    if (Object.keys(timings).length > 0) {
      process.stdout.write(
        `engine smoke timings (ms): ${Object.entries(timings)
          .map(([k, v]) => `${k}=${v}`)
          .join(" ")}\n`,
      );
    }
    if (work && !process.env.PRIVNET_KEEP_E2E) fs.rmSync(work, { recursive: true, force: true });
  });

  it("reports the pinned version", async () => {
    const r = await pulumi("version", ["version"]);
    expect(r.stdout.trim()).toBe(`v${sdkVersion()}`);
  });

  it("uses our language host (pulumi about)", async () => {
    const r = await pulumi("about", ["about", "--json"]);
    const about = JSON.parse(r.stdout) as {
      plugins?: { name: string; kind: string; version: string }[];
      runtime?: Record<string, string>;
    };
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      version: string;
    };
    expect(about.plugins).toContainEqual({ name: "nodejs", kind: "language", version: pkg.version });
    expect(about.runtime?.languageHost).toBe(`pulumi-privnet ${pkg.version}`);
  });

  it("creates a stack with passphrase secrets and config", async () => {
    await pulumi("stack init", ["stack", "init", "dev", "--secrets-provider", "passphrase"]);
    await pulumi("config set", ["config", "set", "name", "world"]);
    await pulumi("config set secret", ["config", "set", "--secret", "token", "s3cr3t"]);
  }, 120_000);

  it("previews one create of the dynamic resource", async () => {
    const r = await pulumi("preview", ["preview", "--json"]);
    const preview = JSON.parse(r.stdout) as PreviewJson;
    const creates = (preview.steps ?? []).filter((s) => s.op === "create");
    expect(creates.filter((s) => s.urn.endsWith("::thing"))).toHaveLength(1);
    expect(creates.map((s) => s.urn.split("::").pop()).sort()).toEqual(["engine-smoke-dev", "thing"]);
    expect(preview.changeSummary?.create).toBe(2); // the stack resource + thing
    // Our language host served it, on the repo's Node (>= 22: @pulumi/pulumi 3.259 needs it).
    const log = readHostLog();
    expect(log).toMatch(/rpc Run/);
    const nodeMajor = Number(/ node=v(\d+)\./.exec(log)?.[1]);
    expect(nodeMajor).toBeGreaterThanOrEqual(22);
    expect(log).toMatch(/run .*@pulumi\/pulumi\/cmd\/run\/index\.js .*--dry-run/);
  }, 300_000);

  it("deploys it and exports its output", async () => {
    await pulumi("up", ["up"], { yes: true });
    const out = await pulumi("stack output", ["stack", "output", "--json", "--show-secrets"]);
    expect(JSON.parse(out.stdout)).toEqual({ greeting: "hello world", tokenLength: 6 });
    const state = await pulumi("stack export", ["stack", "export"]);
    expect(state.stdout).toContain('"type": "pulumi-nodejs:dynamic:Resource"');
    expect(state.stdout).not.toContain("s3cr3t");
  }, 300_000);

  it("finds no changes on a second preview", async () => {
    await pulumi("preview no changes", ["preview", "--expect-no-changes"]);
  }, 300_000);

  it("destroys it", async () => {
    const r = await pulumi("destroy", ["destroy"], { yes: true });
    expect(r.stdout).toMatch(/2 deleted/);
    const out = await pulumi("stack output after destroy", ["stack", "output", "--json"]);
    expect(JSON.parse(out.stdout)).toEqual({});
  }, 300_000);
});
