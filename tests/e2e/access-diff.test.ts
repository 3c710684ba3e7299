/**
 * privnet-access diff under the real Pulumi CLI: the stack's program (tests/e2e/programs/access-diff) runs against
 * an offline twin of the account, and the diff lists what the pending change grants and withdraws. Each case
 * checks that nothing reached the real account but reads, that the stack's state and config are unchanged, and
 * that no temporary directory is left behind.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { run } from "../../access/cli";
import { buildAccessAccount, type AccessAccount } from "../support/access-account";
import type { E2EServer, Project } from "./project";
import {
  copyProject,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  writes,
} from "./project";

const PROGRAM = "tests/e2e/programs/access-diff";

/** Fails with what the command printed when its exit code is not `code`. */
function expectCode(r: { code: number; stderr: string; stdout: string }, code: number): void {
  if (r.code !== code) throw new Error(`exit ${r.code}, expected ${code}\n${r.stderr}\n${r.stdout}`);
}

describe("privnet-access diff (real CLI, offline twin)", () => {
  let work = "";
  let server: E2EServer;
  let second: E2EServer;
  let acc: AccessAccount;
  let project: Project;
  let stack: PulumiStack;

  beforeAll(async () => {
    work = makeWork("access-diff");
    [server, second] = await Promise.all([startE2EServer(), startE2EServer()]);
    acc = await buildAccessAccount(server.url, server.token);
    project = await copyProject([PROGRAM], work, PROGRAM);
    stack = await PulumiStack.init({ project, work, name: "dev", server });
    const ids = {
      laptops: acc.groups.laptops,
      db: acc.groups.db,
      admins: acc.groups.admins,
      routers: acc.groups.routers,
      gw: acc.peers["gw-1"],
      files: acc.resource,
    };
    await stack.config("ids", JSON.stringify(ids));
    await stack.config("sources", JSON.stringify(["admins"]));
    await stack.config("secondUrl", second.url);
    await stack.config("secondToken", second.token, { secret: true });
    await stack.up();
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`access-diff e2e timings: ${stack.timingLine()}\n`);
    await acc?.client.close();
    await server?.close();
    await second?.close();
    removeWork(work);
  });

  /** Every file under a directory with its size (plugins included), sorted. */
  const filesUnder = (dir: string): string[] =>
    fs.existsSync(dir)
      ? (fs.readdirSync(dir, { recursive: true }) as string[])
          .map((f) => path.join(dir, f))
          .filter((f) => fs.statSync(f).isFile())
          .map((f) => `${f} ${fs.statSync(f).size}`)
          .sort()
      : [];
  const twinDirs = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith("privnet-access-twin-"));

  /** Runs the diff; checks that nothing but reads reached either server and that the stack is as it was. */
  async function diff(extra: string[] = [], stackName = "dev") {
    const exportBefore = await stack.exportText();
    const configFile = path.join(project.dir, `Pulumi.${stackName}.yaml`);
    const configBefore = fs.existsSync(configFile) ? fs.readFileSync(configFile, "utf8") : "";
    const inventoryBefore = await server.inventory();
    const dirsBefore = twinDirs();
    const homeBefore = filesUnder(stack.env.PULUMI_HOME as string);
    const mark = server.requests.length;
    const markSecond = second.requests.length;
    let stdout = "";
    let stderr = "";
    const started = Date.now();
    const code = await run(["diff", "--cwd", project.dir, "--stack", stackName, ...extra], {
      stdout: (s) => (stdout += s),
      stderr: (s) => (stderr += s),
      env: stack.env,
    });
    process.stdout.write(`privnet-access diff ${extra.join(" ")}: ${Date.now() - started} ms\n`);
    expect(writes(server.since(mark))).toEqual([]);
    expect(second.since(markSecond)).toEqual([]);
    expect(await stack.exportText()).toBe(exportBefore);
    expect(fs.existsSync(configFile) ? fs.readFileSync(configFile, "utf8") : "").toBe(configBefore);
    expect(await server.inventory()).toEqual(inventoryBefore);
    expect(twinDirs()).toEqual(dirsBefore);
    // Nothing of the twin's run stays in PULUMI_HOME (no workspace file, no state, no log of its update): what is
    // new there is only the CLI's logs of the reads of the real stack, which hold no secret.
    const added = filesUnder(stack.env.PULUMI_HOME as string).filter((f) => !homeBefore.includes(f));
    for (const f of added) {
      expect(f).toMatch(/\/logs\/[^/]+\.log \d+$/);
      const text = fs.readFileSync(f.replace(/ \d+$/, ""), "utf8");
      for (const secret of [server.token, second.token]) expect(text).not.toContain(secret);
    }
    for (const secret of [server.token, second.token]) {
      expect(stdout).not.toContain(secret);
      expect(stderr).not.toContain(secret);
    }
    return { code, stdout, stderr };
  }

  test(
    "a change that gains access: the gained pairs with port and policy",
    async () => {
      await stack.config("sources", JSON.stringify(["admins", "routers"]));
      const r = await diff();
      expect(r.stderr).toContain("privnet-access: running the program against the twin (pulumi up)");
      expectCode(r, 0);
      expect(r.stdout.split("\n").filter((l) => /^[+-] /.test(l))).toEqual([
        '+ gw-1 → db-1 tcp/5432 (policy "app to db", rule "postgres")',
      ]);
      expect(r.stdout).toContain(
        "1 gained, 0 lost; pairs: 1 newly reachable, 0 no longer reachable; peers affected: 2",
      );
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a change that withdraws access, and the access test it breaks fails by name while an unrelated one passes",
    async () => {
      await stack.config("sources", JSON.stringify(["routers"]));
      const tests = path.join(work, "tests.yaml");
      fs.writeFileSync(
        tests,
        [
          "tests:",
          "  - {name: admins reach the database, from: {group: admins}, to: {peer: db-1}, port: 5432, expect: accept}",
          "  - {name: laptops reach the database, from: {group: laptops}, to: {peer: db-1}, port: 5432, expect: accept}",
          "  - {name: routers never reach the database, from: {group: routers}, to: {peer: db-1}, protocol: all, expect: deny}",
          "",
        ].join("\n"),
      );
      const r = await diff(["--tests", tests]);
      expect(r.stdout.split("\n").filter((l) => /^[+-] /.test(l))).toEqual([
        '+ gw-1 → db-1 tcp/5432 (policy "app to db", rule "postgres")',
        '- admin-1 → db-1 tcp/5432 (policy "app to db", rule "postgres")',
      ]);
      expect(r.stdout).toContain("FAIL admins reach the database");
      expect(r.stdout).toContain("admin-1 → db-1 tcp/5432 is not allowed: no rule grants it");
      expect(r.stdout).toContain("PASS laptops reach the database");
      // A deny test about all traffic names what does flow, not the test's own traffic.
      expect(r.stdout).toContain("FAIL routers never reach the database");
      expect(r.stdout).toContain('gw-1 → db-1 tcp/5432 is allowed by policy "app to db", rule "postgres"');
      expectCode(r, 1);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a change through a posture check: peers below the version lose access",
    async () => {
      await stack.config("sources", JSON.stringify(["admins"]));
      await stack.config("minVersion", "99.0.0");
      const r = await diff(["--json"]);
      await stack.configRemove("minVersion");
      expectCode(r, 0);
      const d = JSON.parse(r.stdout);
      expect(d.gained).toEqual([]);
      expect(
        d.lost.map(
          (l: { from: { name: string }; to: { name: string }; traffic: string }) =>
            `${l.from.name} ${l.to.name} ${l.traffic}`,
        ),
      ).toEqual(["admin-1 db-1 tcp/5432"]);
      expect(d.totals.lost_pairs).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a change through a network resource and its router",
    async () => {
      await stack.config("lab", "true");
      const r = await diff();
      await stack.configRemove("lab");
      expectCode(r, 0);
      expect(r.stdout.split("\n").filter((l) => /^[+-] /.test(l))).toEqual([
        '+ laptop-1 → resource lab-db (10.30.0.7 via gw-1) tcp/5432 (policy "lab", rule "lab postgres")',
        '+ laptop-2 → resource lab-db (10.30.0.7 via gw-1) tcp/5432 (policy "lab", rule "lab postgres")',
      ]);
      expect(r.stdout).toContain("pairs: 2 newly reachable");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a change that publishes a resource through a reverse proxy is a + line, and breaks a not-published test",
    async () => {
      // A proxy of the account's own registers first: the twin gets the account's clusters.
      const token = await server.client.call<{ plain_token: string }>("createProxyToken", {
        body: { name: "edge" },
      });
      const reg = await server.server.raw("POST", "/sim/proxies", {
        body: JSON.stringify({ token: token.plain_token, address: "edge.example.test" }),
        headers: { "Content-Type": "application/json" },
      });
      expect(reg.status).toBe(200);
      await stack.config("publish", "edge.example.test");
      await stack.config("filesPassword", "files-e2e-password-81c2", { secret: true });
      const tests = path.join(work, "published.yaml");
      fs.writeFileSync(
        tests,
        [
          "tests:",
          "  - name: the file server is not published",
          "    published: { resource: files }",
          "    expect: not-published",
          "  - name: the file server is only published behind auth",
          "    published: { resource: files }",
          "    expect: only-with-auth",
        ].join("\n"),
      );
      const r = await diff(["--tests", tests]);
      await stack.configRemove("publish");
      expectCode(r, 1);
      expect(r.stdout.split("\n").filter((l) => /^[+-] /.test(l))).toEqual([
        "+ published: https://files.edge.example.test → resource files (10.20.0.5:8080, network office) http, " +
          'public, guarded by password (service "files")',
      ]);
      expect(r.stdout).toContain("published through reverse proxies: 1 gained, 0 lost");
      expect(r.stdout).toContain("FAIL the file server is not published");
      expect(r.stdout).toContain(
        'resource files is published publicly by service "files" at https://files.edge.example.test',
      );
      expect(r.stdout).toContain("PASS the file server is only published behind auth");
      expect(r.stdout).not.toContain("files-e2e-password-81c2");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "an explicit provider pointing at a second server: that server receives no request",
    async () => {
      await stack.config("second", "true");
      const r = await diff();
      await stack.configRemove("second");
      expectCode(r, 0);
      expect(r.stdout).toContain("No change of access.");
      expect(await second.inventory()).toMatchObject({});
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "bad input: a stack that does not exist, a stack with pending operations",
    async () => {
      const missing = await diff([], "nope");
      expectCode(missing, 3);
      expect(missing.stderr).toMatch(/privnet-access: cannot read stack nope: /);
      // A copy of the stack whose last update was interrupted: `stack import` drops pending operations, so they
      // are written into the file backend's checkpoint, as a killed `pulumi up` leaves them.
      await stack.cli(["stack", "init", "pending", "--secrets-provider", "passphrase"], { stackFlag: false });
      const pending = await PulumiStack.open({
        project,
        work,
        name: "pending",
        backendDir: path.join(work, "state"),
      });
      await pending.cli(["stack", "import", "--force"], { input: await stack.exportText() });
      const file = path.join(work, "state", ".pulumi", "stacks", "privnet-e2e-access-diff", "pending.json");
      const checkpoint = JSON.parse(fs.readFileSync(file, "utf8"));
      const res = checkpoint.checkpoint.latest.resources.find((x: { type: string }) =>
        x.type.startsWith("pulumi-nodejs:dynamic"),
      );
      checkpoint.checkpoint.latest.pending_operations = [{ resource: res, type: "updating" }];
      fs.writeFileSync(file, JSON.stringify(checkpoint));
      const r = await diff([], "pending");
      expectCode(r, 3);
      expect(r.stderr).toContain("privnet-access: stack pending has 1 pending operation");
    },
    TEST_TIMEOUT_MS,
  );
});
