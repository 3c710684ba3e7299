/**
 * The examples as a user gets them: installed with scripts/install-example.sh (pulumi-privnet as a copy, its
 * dependencies linked), type-checked against the installed package; and the main job (`npm run main`) end to end.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./engine";
import { copyProject, makeWork, removeWork, SETUP_TIMEOUT_MS, TEST_TIMEOUT_MS } from "./project";

const EXAMPLES: { name: string; paths: string[]; programDir: string }[] = [
  {
    name: "network (the root program)",
    paths: ["Pulumi.yaml", "examples/network"],
    programDir: "examples/network",
  },
  { name: "core", paths: ["examples/core"], programDir: "examples/core" },
  { name: "app", paths: ["examples/app"], programDir: "examples/app" },
  { name: "adopt", paths: ["examples/adopt"], programDir: "examples/adopt" },
  { name: "two-accounts", paths: ["examples/two-accounts"], programDir: "examples/two-accounts" },
  { name: "access-guard", paths: ["examples/access-guard"], programDir: "examples/access-guard" },
];

interface Exec {
  code: number | null;
  output: string;
}

function exec(
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Exec> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd: opts.cwd, env: opts.env ?? process.env, timeout: opts.timeoutMs, maxBuffer: 32 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : null) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe("examples", () => {
  let work = "";
  beforeAll(() => {
    work = makeWork("examples");
  });
  afterAll(() => removeWork(work));

  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };

  it.each(EXAMPLES)(
    "$name installs pulumi-privnet as a copy and type-checks against it",
    async ({ paths, programDir }) => {
      const project = await copyProject(paths, work, programDir);
      const installed = path.join(project.programDir, "node_modules", "pulumi-privnet");
      // A real directory with the built package, not a link into the repo (see scripts/install-example.sh).
      expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
      expect(fs.realpathSync(installed)).toBe(installed);
      const installedPkg = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8")) as {
        version: string;
      };
      expect(installedPkg.version).toBe(pkg.version);
      expect(fs.existsSync(path.join(installed, "dist", "sdk", "index.js"))).toBe(true);
      expect(fs.existsSync(path.join(installed, "dist", "provider", "resources", "group.js"))).toBe(true);
      // @pulumi/pulumi is real files in the project, as npm installs it (hard links to the repo's copy); the
      // other dependencies resolve to the repo's copies.
      const sdk = path.join(project.programDir, "node_modules", "@pulumi", "pulumi");
      expect(fs.lstatSync(sdk).isSymbolicLink()).toBe(false);
      expect(fs.realpathSync(path.join(project.programDir, "node_modules", "zod"))).toBe(
        path.join(repoRoot, "node_modules", "zod"),
      );
      // The program compiles against the installed package's types.
      const tsc = await exec(path.join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", project.programDir], {
        cwd: project.programDir,
        timeoutMs: 120_000,
      });
      expect(tsc).toEqual({ code: 0, output: "" });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the main job (npm run main) deploys the root program to a local server and shows what it created",
    async () => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: `${path.join(repoRoot, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
        // `npm test` built dist/ already; a second build would rewrite files other test workers load.
        PRIVNET_MAIN_SKIP_BUILD: "1",
        // Keep the temp dir, to check the job never printed the owner token (removed below).
        PRIVNET_MAIN_KEEP: "1",
      };
      delete env.PRIVNET_TOKEN;
      delete env.PRIVNET_API_URL;
      const r = await exec("bash", [path.join(repoRoot, "scripts", "main-job.sh")], {
        cwd: repoRoot,
        env,
        // The job runs scripts/engine.sh: on a cold machine it may be the one that builds the engine.
        timeoutMs: SETUP_TIMEOUT_MS - 60_000,
      });
      const keptDir = /kept (\S+) \(state backend/.exec(r.output)?.[1];
      try {
        if (r.code !== 0) throw new Error(`main job exited ${r.code}:\n${r.output}`);
        expect(r.output).toMatch(/=== pulumi preview[\s\S]*\+ 20 to create/);
        expect(r.output).toMatch(/=== pulumi up[\s\S]*\+ 20 created/);
        expect(r.output).toMatch(/gatewaySetupKey\s+\[secret\]/);
        expect(r.output).toMatch(/^ {2}peers\s+5\s/m);
        expect(r.output).toMatch(/^ {2}networkRouters\s+1\s/m);
        expect(r.output).toMatch(/privnet-server stopped/);
        expect(r.output).toMatch(/main: finished in \d+s/);
        expect(keptDir).toBeDefined();
        const token = fs.readFileSync(path.join(keptDir as string, "owner-token"), "utf8").trim();
        expect(token.length).toBeGreaterThan(20);
        expect(r.output).not.toContain(token);
        // The stack's config file next to Pulumi.yaml is removed on exit.
        const stackName = /Created stack '(main-job-\d+)'/.exec(r.output)?.[1];
        expect(stackName).toBeDefined();
        expect(fs.existsSync(path.join(repoRoot, `Pulumi.${stackName}.yaml`))).toBe(false);
      } finally {
        if (keptDir && keptDir.includes("privnet-main."))
          fs.rmSync(keptDir, { recursive: true, force: true });
      }
    },
    SETUP_TIMEOUT_MS,
  );
});

describe("the YAML example job (npm run example:yaml)", () => {
  it(
    "deploys examples/network-yaml through the resource plugin to a local server and shows what it created",
    async () => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: `${path.join(repoRoot, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
        PRIVNET_MAIN_SKIP_BUILD: "1",
      };
      delete env.PRIVNET_TOKEN;
      delete env.PRIVNET_API_URL;
      const r = await exec("bash", [path.join(repoRoot, "scripts", "main-job.sh"), "--yaml"], {
        cwd: repoRoot,
        env,
        timeoutMs: SETUP_TIMEOUT_MS - 60_000,
      });
      if (r.code !== 0) throw new Error(`example job exited ${r.code}:\n${r.output}`);
      expect(r.output).toMatch(/=== pulumi preview[\s\S]*\+ 17 to create/);
      expect(r.output).toMatch(/=== pulumi up[\s\S]*\+ 17 created/);
      expect(r.output).toMatch(/gatewaySetupKey\s+\[secret\]/);
      expect(r.output).toMatch(/^ {2}dnsRecords\s+1\s/m);
      expect(r.output).toMatch(/main: finished in \d+s/);
      const stackName = /Created stack '(main-job-\d+)'/.exec(r.output)?.[1];
      expect(stackName).toBeDefined();
      expect(fs.existsSync(path.join(repoRoot, "examples", "network-yaml", `Pulumi.${stackName}.yaml`))).toBe(
        false,
      );
    },
    SETUP_TIMEOUT_MS,
  );
});
