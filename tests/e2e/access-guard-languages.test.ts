/**
 * The access guard for programs in other languages, whose resources the resource plugin serves (types
 * `privnet:index:<Kind>`): a Pulumi YAML program under the real CLI and the YAML language host, a Java program
 * (a Maven project on the generated SDK) under the real CLI and the Java language host, and a Python
 * Automation API inline program (`policy_packs` and `policy_pack_configs` of `preview` and `up`). The pack is used
 * from a package installed beside the program (node_modules/pulumi-privnet/policy), as a user of any language
 * installs it with npm. For YAML the pack's lines equal privnet-access diff's, the lines of what reverse-proxy
 * services publish included; both runs only read the account. For Java too, once the new objects a list names are
 * applied: a Java input list is one value, unknown as a whole until then, which the pack reports as undecided.
 * The Automation API's `up` skips the preview (`--skip-preview`), where a pack would stop it: a program guards it
 * with a `preview` with the pack first (tests/e2e/programs/python-inline/access_guard.py).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { buildAccessAccount, type AccessAccount } from "../support/access-account";
import { repoRoot, runPulumi } from "./engine";
import { pythonWithSdk, runInline, type InlineStep } from "./inline";
import { javaProgram, javaProject } from "./java";
import type { E2EServer } from "./project";
import {
  accessLinesOf,
  publishedLinesOf,
  twinDiff,
  makeWork,
  packConfig,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  writes,
  yamlProject,
} from "./project";

/** pulumi-privnet installed in `dir` as a user installs it (a copy of the package; scripts/install-example.sh). */
function installPackage(dir: string): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(dir, "package.json")))
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: path.basename(dir), private: true, dependencies: { "pulumi-privnet": "*" } }),
    );
  return new Promise((resolve, reject) =>
    execFile(
      "bash",
      [path.join(repoRoot, "scripts", "install-example.sh"), dir],
      {
        cwd: repoRoot,
        timeout: 180_000,
        env: { ...process.env, PATH: `${repoRoot}/node_modules/.bin:${process.env.PATH}` },
      },
      (err, _out, stderr) =>
        err
          ? reject(new Error(`install-example.sh ${dir}: ${err.message}\n${stderr}`))
          : resolve(path.join(dir, "node_modules", "pulumi-privnet", "policy")),
    ),
  );
}

const KEPT = [
  "{name: admins reach the database, from: {group: admins}, to: {peer: db-1}, port: 5432, expect: accept}",
];
/** A YAML program of reverse-proxy services on a proxy cluster (`cluster`): the file server behind a password. */
const SERVICES_YAML = `name: privnet-guard-yaml-services
runtime: yaml
description: Reverse-proxy services under the access guard
config:
  cluster:
    type: string
  files:
    type: string
  db1:
    type: string
  filesPassword:
    type: string
resources:
  filesWeb:
    type: privnet:ReverseProxyService
    properties:
      name: yaml files
      domain: files.\${cluster}
      enabled: true
      targets:
        - targetId: \${files}
          targetType: host
          protocol: http
          port: 8080
          enabled: true
      auth:
        passwordAuth:
          enabled: true
          password: \${filesPassword}
`;

/** ...and one more, publishing the database peer to anyone. */
const DB_CONSOLE_YAML = `  dbConsole:
    type: privnet:ReverseProxyService
    properties:
      name: yaml db console
      domain: db.\${cluster}
      enabled: true
      targets:
        - targetId: \${db1}
          targetType: peer
          protocol: http
          port: 8080
          enabled: true
`;

const PUBLISHED = [
  "{name: the database is not published, published: {peer: db-1}, expect: not-published}",
  "{name: the file server only behind auth, published: {resource: files}, expect: only-with-auth}",
];

const BROKEN = [
  "{name: routers never reach the database, from: {group: routers}, to: {peer: db-1}, port: 5432, expect: deny}",
];

describe("the access guard for YAML and Python programs (resource plugin)", () => {
  let work = "";
  let server: E2EServer;
  let acc: AccessAccount;

  beforeAll(async () => {
    work = makeWork("access-guard-languages");
    server = await startE2EServer();
    acc = await buildAccessAccount(server.url, server.token);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await acc?.client.close();
    await server?.close();
    removeWork(work);
  });

  test(
    "YAML: the pack's lines equal privnet-access diff's, a new group's unknown id included; a broken test stops up",
    async () => {
      const text = fs.readFileSync(
        path.join(repoRoot, "tests", "e2e", "programs", "access-guard-yaml", "Pulumi.yaml"),
        "utf8",
      );
      const project = yamlProject(work, "guard-yaml", text);
      const pack = await installPackage(project.dir);
      const stack = await PulumiStack.init({ project, work, name: "dev", server });
      await stack.config("db", acc.groups.db as string);
      await stack.config("sources[0]", acc.groups.admins as string, { path: true });
      await stack.config("opsPeers[0]", acc.peers["gw-1"] as string, { path: true });
      const kept = packConfig(work, "yaml-kept", KEPT);
      const twin = async () => accessLinesOf(await twinDiff(project, stack));
      const guarded = async (command: string[], config: string, expect: number | "nonzero" = 0) => {
        const mark = server.requests.length;
        const r = await stack.cli([...command, "--policy-pack", pack, "--policy-pack-config", config], {
          expect,
        });
        return { r, writes: writes(server.since(mark)) };
      };

      // Everything new: the ops group's id, unknown before apply, stands for the group the change creates.
      const first = await guarded(["preview"], kept);
      expect(first.writes).toEqual([]);
      expect(accessLinesOf(first.r.stdout)).toEqual(
        [
          '+ admin-1 → db-1 tcp/5432 (policy "yaml app to db", rule "postgres")',
          '+ gw-1 → db-1 tcp/22 (policy "yaml ops ssh", rule "ssh")',
        ].sort(),
      );
      expect(first.r.stdout).not.toContain("Cannot decide before apply");
      expect(await twin()).toEqual(accessLinesOf(first.r.stdout));
      await stack.up();

      await stack.config("sources[1]", acc.groups.routers as string, { path: true });
      const second = await guarded(["preview"], kept);
      expect(second.writes).toEqual([]);
      expect(accessLinesOf(second.r.stdout)).toEqual([
        '+ gw-1 → db-1 tcp/5432 (policy "yaml app to db", rule "postgres")',
      ]);
      expect(await twin()).toEqual(accessLinesOf(second.r.stdout));

      const blocked = await guarded(["up", "--yes"], packConfig(work, "yaml-broken", BROKEN), "nonzero");
      expect(blocked.writes).toEqual([]);
      expect(blocked.r.stdout).toContain("FAIL routers never reach the database");
      expect(`${blocked.r.stdout}${blocked.r.stderr}`).not.toContain(server.token);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "YAML: a service's published line equals privnet-access diff's; one publishing what must not be stops up, naming the test and the service",
    async () => {
      const cluster = "yaml.edge.example.test";
      const proxyToken = await acc.client.call<{ plain_token: string }>("createProxyToken", {
        body: { name: "yaml edge" },
      });
      const reg = await server.server.raw("POST", "/sim/proxies", {
        body: JSON.stringify({ token: proxyToken.plain_token, address: cluster }),
        headers: { "Content-Type": "application/json" },
      });
      expect(reg.status).toBe(200);
      const project = yamlProject(work, "guard-yaml-services", SERVICES_YAML);
      const pack = await installPackage(project.dir);
      const stack = await PulumiStack.init({ project, work, name: "dev", server });
      await stack.config("cluster", cluster);
      await stack.config("files", acc.resource);
      await stack.config("db1", acc.peers["db-1"] as string);
      await stack.config("filesPassword", "yaml-guard-files-pw-90ad", { secret: true });
      const config = packConfig(work, "yaml-published", PUBLISHED);
      const twin = async () => publishedLinesOf(await twinDiff(project, stack));
      const guarded = async (command: string[], exit: number | "nonzero" = 0) => {
        const mark = server.requests.length;
        const r = await stack.cli([...command, "--policy-pack", pack, "--policy-pack-config", config], {
          expect: exit,
        });
        expect(`${r.stdout}${r.stderr}`).not.toContain("yaml-guard-files-pw-90ad");
        return { r, writes: writes(server.since(mark)) };
      };

      // The file server behind a password: the tests hold; the line is the twin's.
      const first = await guarded(["preview"]);
      expect(first.writes).toEqual([]);
      expect(publishedLinesOf(first.r.stdout)).toEqual([
        `+ published: https://files.${cluster} → resource files (10.20.0.5:8080, network office) http, public, ` +
          'guarded by password (service "yaml files")',
      ]);
      expect(first.r.stdout).not.toContain("Cannot decide before apply");
      expect(await twin()).toEqual(publishedLinesOf(first.r.stdout));
      await stack.up();
      const unchanged = await guarded(["preview"]);
      expect(publishedLinesOf(unchanged.r.stdout)).toEqual([]);

      // The database peer published to anyone: up stops before any write, naming the test and the service.
      const file = path.join(project.dir, "Pulumi.yaml");
      fs.writeFileSync(
        file,
        fs.readFileSync(file, "utf8").replace("\nplugins:", `${DB_CONSOLE_YAML}\nplugins:`),
      );
      const blocked = await guarded(["up", "--yes"], "nonzero");
      expect(blocked.writes).toEqual([]);
      expect(blocked.r.stdout).toContain(
        "FAIL the database is not published (expect not-published, 1 pair) after this change",
      );
      expect(blocked.r.stdout).toContain('db-1 is published publicly by service "yaml db console"');
      expect(blocked.r.stdout).toContain('services responsible: "yaml db console"');
      expect(publishedLinesOf(blocked.r.stdout)).toEqual(await twin());
      expect(
        (await server.client.call<{ name: string }[]>("listReverseProxyServices")).map((s) => s.name),
      ).toEqual(["yaml files"]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "YAML under `pulumi --cwd DIR` from DIR's parent: a relative testsFile is found in DIR, as the config file is; a tests file that cannot be read, or a bad level variable, stops the change in one line even when advisory",
    async () => {
      const parent = path.join(work, "cwd-case");
      const project = yamlProject(
        parent,
        "yaml",
        "name: privnet-guard-cwd\nruntime: yaml\nresources:\n  team:\n    type: privnet:Group\n    properties:\n      name: yaml cwd team\n",
      );
      const pack = await installPackage(path.join(parent, ".privnet"));
      const stack = await PulumiStack.init({ project, work, name: "dev", server });
      // The config and the tests file side by side in DIR, as examples/access-guard keeps them; the test is one
      // the account breaks today (laptops reach db-1 on tcp/5432), so the pack's answer shows it read the file.
      fs.writeFileSync(
        path.join(project.dir, "gk-tests.yaml"),
        "tests:\n  - {name: laptops never reach the database, from: {group: laptops}, to: {peer: db-1}, protocol: all, expect: deny}\n",
      );
      fs.writeFileSync(
        path.join(project.dir, "invalid.yaml"),
        "tests:\n  - {name: no port, from: {group: laptops}, to: {peer: db-1}, expect: accept}\n",
      );
      const configs = {
        "relative.json": { "access-tests": { testsFile: "gk-tests.yaml" } },
        "relative-advisory.json": {
          "access-tests": { testsFile: "gk-tests.yaml", enforcementLevel: "advisory" },
        },
        "missing-advisory.json": {
          "access-tests": { testsFile: "missing.yaml", enforcementLevel: "advisory" },
        },
        "invalid-advisory.json": {
          "access-tests": { testsFile: "invalid.yaml", enforcementLevel: "advisory" },
        },
      };
      for (const [name, cfg] of Object.entries(configs))
        fs.writeFileSync(path.join(project.dir, name), JSON.stringify(cfg));
      /** `pulumi --cwd yaml preview` run from the parent, with the parent as the shell's PWD. */
      const fromParent = async (config: string, extraEnv: Record<string, string> = {}) => {
        const mark = server.requests.length;
        const r = await runPulumi(
          [
            "--cwd",
            "yaml",
            "preview",
            "--stack",
            stack.name,
            "--policy-pack",
            pack,
            "--policy-pack-config",
            config,
          ],
          { cwd: parent, env: { ...stack.env, PWD: parent, ...extraEnv } },
        );
        expect(writes(server.since(mark))).toEqual([]);
        return { code: r.code, out: `${r.stdout}\n${r.stderr}` };
      };

      const strict = await fromParent("relative.json");
      expect(strict.out).toContain("[mandatory]  access-tests");
      expect(strict.out).toContain("FAIL laptops never reach the database (expect deny, 2 pairs)");
      expect(strict.out).toContain(
        'laptop-1 → db-1 tcp/5432 is allowed by policy "web to db", rule "postgres"',
      );
      expect(strict.out).toContain(`(access test from ${path.join(project.dir, "gk-tests.yaml")})`);
      expect(strict.code).not.toBe(0);

      // Advisory: a test that fails is reported and the preview goes on...
      const advisory = await fromParent("relative-advisory.json");
      expect(advisory.out).toContain("[advisory]  access-tests");
      expect(advisory.out).toContain("FAIL laptops never reach the database");
      expect(advisory.code).toBe(0);

      // ...but a tests file that cannot be read, or does not validate, is no pass: the change stops, naming it.
      for (const [config, why] of [
        [
          "missing-advisory.json",
          `access tests file ${path.join(project.dir, "missing.yaml")}: cannot read it (ENOENT)`,
        ],
        [
          "invalid-advisory.json",
          `${path.join(project.dir, "invalid.yaml")}: tests[0] ("no port").port: is required for tcp`,
        ],
      ]) {
        const notRun = await fromParent(config as string);
        expect(notRun.out).toContain("[mandatory]  access-tests");
        expect(notRun.out).toContain(why);
        expect(notRun.out).toContain("the access tests did not run");
        expect(notRun.out).not.toContain("✅");
        expect(notRun.code).not.toBe(0);
      }

      // A bad enforcement level in the environment: one line naming the variable and the values, no stack trace.
      const loose = await fromParent("relative.json", { PRIVNET_POLICY_ACCESS_TESTS: "loose" });
      expect(loose.code).not.toBe(0);
      const said = loose.out.split("\n").filter((l) => l.includes("PRIVNET_POLICY_ACCESS_TESTS"));
      expect(said.map((l) => l.trim())).toEqual([
        'PRIVNET_POLICY_ACCESS_TESTS: expected advisory, mandatory or disabled, got "loose"; the policy did not run, so this stops the change',
      ]);
      expect(loose.out).not.toMatch(/^\s+at /m);
      expect(loose.out).not.toContain("GuardConfigError");
      expect(loose.out).toContain("[mandatory]  access-tests");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "Python (Automation API inline): preview lists the lines with policy_packs; a broken test fails the preview that guards the up",
    async () => {
      const pyWork = path.join(work, "python");
      fs.mkdirSync(pyWork, { recursive: true });
      const python = await pythonWithSdk(pyWork);
      const pack = await installPackage(path.join(pyWork, "guard"));
      const mark = server.requests.length;
      const steps: Record<string, InlineStep> = await runInline(
        python,
        [path.join(__dirname, "programs", "python-inline", "access_guard.py")],
        pyWork,
        server,
        {
          PRIVNET_TEST_IDS: JSON.stringify({
            db: acc.groups.db,
            admins: acc.groups.admins,
            routers: acc.groups.routers,
            laptop: acc.peers["laptop-1"],
          }),
          PRIVNET_TEST_PACK: pack,
          PRIVNET_TEST_PACK_CONFIG: packConfig(pyWork, "py-kept", KEPT),
          PRIVNET_TEST_PACK_CONFIG_STRICT: packConfig(pyWork, "py-broken", BROKEN),
        },
      );
      expect(Object.keys(steps)).toEqual(["up", "preview", "preview-strict"]);
      expect(accessLinesOf(steps.preview?.stdout ?? "")).toEqual(
        [
          '+ gw-1 → db-1 tcp/5432 (policy "py app to db", rule "postgres")',
          '+ laptop-1 → db-1 tcp/3306 (policy "py lab to db", rule "mysql")',
        ].sort(),
      );
      expect(steps["preview-strict"]?.ok).toBe(false);
      expect(steps["preview-strict"]?.stdout).toContain("FAIL routers never reach the database");
      // The first up wrote the policy; nothing of the change was written (no new group or policy, the policy's
      // sources as they were).
      expect(writes(server.since(mark)).filter((w) => w.startsWith("POST"))).toEqual(["POST /api/policies"]);
      const policies =
        await server.client.call<{ name: string; rules: { sources: { id: string }[] }[] }[]>("listPolicies");
      expect(policies.find((p) => p.name === "py app to db")?.rules[0]?.sources.map((g) => g.id)).toEqual([
        acc.groups.admins,
      ]);
      expect(policies.map((p) => p.name)).not.toContain("py lab to db");
    },
    TEST_TIMEOUT_MS,
  );
});

describe("the access guard for a Java program (resource plugin, real Java language host)", () => {
  let work = "";
  let server: E2EServer;
  let acc: AccessAccount;

  beforeAll(async () => {
    work = makeWork("access-guard-java");
    server = await startE2EServer();
    acc = await buildAccessAccount(server.url, server.token);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await acc?.client.close();
    await server?.close();
    removeWork(work);
  });

  test(
    "a list naming a new group is unknown as a whole: undecided until the group is applied (pulumi up --target), then the lines equal privnet-access diff's; a broken test stops up before any write",
    async () => {
      const project = await javaProject(work, "guard-java", javaProgram("access-guard"));
      const pack = await installPackage(project.dir);
      const stack = await PulumiStack.init({ project, work, name: "dev", server });
      await stack.config("db", acc.groups.db as string);
      await stack.config("sources[0]", acc.groups.admins as string, { path: true });
      await stack.config("opsPeers[0]", acc.peers["gw-1"] as string, { path: true });
      const kept = packConfig(work, "java-kept", KEPT);
      const twin = async () => accessLinesOf(await twinDiff(project, stack));
      const guarded = async (command: string[], config: string, expect: number | "nonzero" = 0) => {
        const mark = server.requests.length;
        const r = await stack.cli([...command, "--policy-pack", pack, "--policy-pack-config", config], {
          expect,
        });
        return { r, writes: writes(server.since(mark)) };
      };

      // A Java input list is one Output: [ops.id] is unknown as a whole until the group exists, so the rule it
      // sources is left out, its line is not listed, and the test it could touch is undecided, stopping the preview.
      const first = await guarded(["preview"], kept, "nonzero");
      expect(first.writes).toEqual([]);
      expect(first.r.stdout).toContain("UNDECIDED admins reach the database");
      expect(first.r.stdout).toContain('Policy "java ops ssh": rules[0].sources is unknown until apply');
      expect(accessLinesOf(first.r.stdout)).toEqual([
        '+ admin-1 → db-1 tcp/5432 (policy "java app to db", rule "postgres")',
      ]);

      // As the guard says: apply the new group first; then everything is known and decided.
      await stack.cli(["up", "--target", "urn:pulumi:dev::guard-java::privnet:index:Group::ops"], {
        yes: true,
      });
      const decided = await guarded(["preview"], kept);
      expect(decided.writes).toEqual([]);
      expect(accessLinesOf(decided.r.stdout)).toEqual(
        [
          '+ admin-1 → db-1 tcp/5432 (policy "java app to db", rule "postgres")',
          '+ gw-1 → db-1 tcp/22 (policy "java ops ssh", rule "ssh")',
        ].sort(),
      );
      expect(decided.r.stdout).not.toContain("Cannot decide before apply");
      expect(await twin()).toEqual(accessLinesOf(decided.r.stdout));
      await stack.up();

      await stack.config("sources[1]", acc.groups.routers as string, { path: true });
      const second = await guarded(["preview"], kept);
      expect(second.writes).toEqual([]);
      expect(accessLinesOf(second.r.stdout)).toEqual([
        '+ gw-1 → db-1 tcp/5432 (policy "java app to db", rule "postgres")',
      ]);
      expect(await twin()).toEqual(accessLinesOf(second.r.stdout));

      const blocked = await guarded(["up", "--yes"], packConfig(work, "java-broken", BROKEN), "nonzero");
      expect(blocked.writes).toEqual([]);
      expect(blocked.r.stdout).toContain("FAIL routers never reach the database");
      expect(`${blocked.r.stdout}${blocked.r.stderr}`).not.toContain(server.token);
    },
    TEST_TIMEOUT_MS,
  );
});
