/**
 * The access guard (policy/, a policy pack) under the real CLI with a TypeScript-style program on the dynamic
 * providers (tests/e2e/programs/access-diff), used from where the docs say: node_modules/pulumi-privnet/policy.
 *
 * - It agrees with `privnet-access diff` (the offline twin): for several changes, the gained and lost lines the
 *   pack lists in `pulumi preview` equal the twin's. Where they cannot agree (two new groups, each holding a peer,
 *   named by one policy: which is which is unknown before apply), the pack says so and the twin shows the lines.
 * - A change that breaks an access test fails `pulumi up` before anything is applied, naming the test.
 * - Reverse-proxy services (a proxy registered through the simulated agent): a public service publishing what the
 *   tests file says is not published fails `pulumi up` before anything is applied, naming the test and the service;
 *   a harmless one passes, and its published line equals the twin's.
 * - It only reads: the server's request log holds GETs alone for every run of the pack, and the token is never
 *   printed. An unreachable account fails the check with one message; a tests file that does not validate names
 *   the entry and the field.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildAccessAccount, type AccessAccount } from "../support/access-account";
import type { E2EServer, Project } from "./project";
import {
  accessLinesOf,
  publishedLinesOf,
  twinDiff,
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
/** The proxy cluster a proxy of the account registers (the simulated agent). */
const CLUSTER = "guard.edge.example.test";
const FILES_PASSWORD = "guard-e2e-files-pw-3b7d";

describe("the access guard (real CLI, dynamic providers)", () => {
  let work = "";
  let server: E2EServer;
  let acc: AccessAccount;
  let project: Project;
  let stack: PulumiStack;
  let pack = "";
  let testsFile = "";
  let config = "";

  beforeAll(async () => {
    work = makeWork("access-guard");
    server = await startE2EServer();
    acc = await buildAccessAccount(server.url, server.token);
    project = await copyProject([PROGRAM], work, PROGRAM);
    pack = path.join(project.programDir, "node_modules", "pulumi-privnet", "policy");
    stack = await PulumiStack.init({ project, work, name: "dev", server });
    await stack.config(
      "ids",
      JSON.stringify({
        laptops: acc.groups.laptops,
        db: acc.groups.db,
        admins: acc.groups.admins,
        routers: acc.groups.routers,
        gw: acc.peers["gw-1"],
        db1: acc.peers["db-1"],
        files: acc.resource,
      }),
    );
    const proxyToken = await acc.client.call<{ plain_token: string }>("createProxyToken", {
      body: { name: "edge" },
    });
    const reg = await server.server.raw("POST", "/sim/proxies", {
      body: JSON.stringify({ token: proxyToken.plain_token, address: CLUSTER }),
      headers: { "Content-Type": "application/json" },
    });
    if (reg.status !== 200) throw new Error(`register proxy: ${reg.status} ${JSON.stringify(reg.body)}`);
    await stack.config("filesPassword", FILES_PASSWORD, { secret: true });
    await stack.config("sources", JSON.stringify(["admins"]));
    await stack.up();
    testsFile = path.join(work, "access-tests.yaml");
    fs.writeFileSync(
      testsFile,
      [
        "tests:",
        "  - {name: admins reach the database, from: {group: admins}, to: {peer: db-1}, port: 5432, expect: accept}",
        "  - {name: laptops reach the database, from: {group: laptops}, to: {peer: db-1}, port: 5432, expect: accept}",
        "  - {name: the database is not published, published: {peer: db-1}, expect: not-published}",
        "  - {name: the file server only behind auth, published: {resource: files}, expect: only-with-auth}",
        "",
      ].join("\n"),
    );
    config = path.join(work, "policy-config.json");
    fs.writeFileSync(
      config,
      JSON.stringify({ "access-tests": { testsFile }, "no-broad-access": { sensitiveGroups: ["db"] } }),
    );
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`access-guard e2e timings: ${stack.timingLine()}\n`);
    await acc?.client.close();
    await server?.close();
    removeWork(work);
  });

  /** `pulumi <command> --policy-pack` with the pack; checks that the server got reads only and no token was shown. */
  async function withPack(
    command: string[],
    opts: { expect?: number | "nonzero"; config?: string; reads?: "only" | "any" } = {},
  ) {
    const mark = server.requests.length;
    const r = await stack.cli(
      [...command, "--policy-pack", pack, "--policy-pack-config", opts.config ?? config],
      {
        expect: opts.expect ?? 0,
      },
    );
    if (opts.reads !== "any") expect(writes(server.since(mark))).toEqual([]);
    expect(`${r.stdout}\n${r.stderr}`).not.toContain(server.token);
    return r;
  }

  /** The twin's lines for the pending change (privnet-access diff). */
  async function twin(): Promise<string[]> {
    return accessLinesOf(await twinDiff(project, stack));
  }

  /** The pack's lines and the twin's for the pending change: equal, and as expected. */
  async function agree(expected: string[], exit: number | "nonzero" = 0): Promise<string> {
    const r = await withPack(["preview"], { expect: exit });
    const mine = accessLinesOf(r.stdout);
    expect(mine).toEqual([...expected].sort());
    expect(await twin()).toEqual(mine);
    return r.stdout;
  }

  test(
    "it agrees with privnet-access diff: sources widened (a gain), a posture check added through a new object's id",
    async () => {
      await stack.config("sources", JSON.stringify(["admins", "routers"]));
      const out = await agree(['+ gw-1 → db-1 tcp/5432 (policy "app to db", rule "postgres")']);
      expect(out).toContain("[advisory]  access-changes");
      expect(out).toContain(
        "1 gained, 0 lost; pairs: 1 newly reachable, 0 no longer reachable; peers affected: 2",
      );
      await stack.config("sources", JSON.stringify(["admins"]));
      await stack.config("minVersion", "99.0.0");
      // ...which breaks the access test "admins reach the database": the preview fails.
      const out2 = await agree(
        ['- admin-1 → db-1 tcp/5432 (policy "app to db", rule "postgres")'],
        "nonzero",
      );
      expect(out2).toContain("FAIL admins reach the database");
      await stack.configRemove("minVersion");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "it agrees on new objects whose ids are unknown at preview (a network, its resource, router and group), then on their removal",
    async () => {
      await stack.config("lab", "true");
      const lab = [
        '+ laptop-1 → resource lab-db (10.30.0.7 via gw-1) tcp/5432 (policy "lab", rule "lab postgres")',
        '+ laptop-2 → resource lab-db (10.30.0.7 via gw-1) tcp/5432 (policy "lab", rule "lab postgres")',
      ];
      await agree(lab);
      // Applied with the pack: its preview phase lists the lines, its update phase checks the tests again.
      const up = await withPack(["up", "--yes"], { reads: "any" });
      expect(accessLinesOf(up.stdout)).toEqual([...lab].sort());
      await stack.configRemove("lab");
      await agree(lab.map((l) => l.replace(/^\+/, "-")));
      await stack.up();
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a change that breaks an access test: up fails before anything is applied, naming the test, the pair and the policy",
    async () => {
      await stack.config("sources", JSON.stringify(["routers"]));
      try {
        const fromTwin = await twin();
        const r = await withPack(["up", "--yes"], { expect: "nonzero" });
        expect(r.stdout).toContain("[mandatory]  access-tests");
        expect(r.stdout).toContain(
          "FAIL admins reach the database (expect accept, 1 pair) after this change",
        );
        expect(r.stdout).toContain("admin-1 → db-1 tcp/5432 is not allowed: no rule grants it");
        expect(r.stdout).not.toContain("FAIL laptops reach the database");
        expect(accessLinesOf(r.stdout)).toEqual(
          [
            '+ gw-1 → db-1 tcp/5432 (policy "app to db", rule "postgres")',
            '- admin-1 → db-1 tcp/5432 (policy "app to db", rule "postgres")',
          ].sort(),
        );
        expect(fromTwin).toEqual(accessLinesOf(r.stdout));
      } finally {
        await stack.config("sources", JSON.stringify(["admins"]));
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a public service publishing what the tests file says is not published: up fails before anything is applied, naming the test and the service",
    async () => {
      await stack.config("exposeDb", CLUSTER);
      try {
        const fromTwin = publishedLinesOf(await twinDiff(project, stack));
        const r = await withPack(["up", "--yes"], { expect: "nonzero" });
        expect(r.stdout).toContain("[mandatory]  access-tests");
        expect(r.stdout).toContain(
          "FAIL the database is not published (expect not-published, 1 pair) after this change",
        );
        expect(r.stdout).toContain(
          `db-1 is published publicly by service "db console" at https://db.${CLUSTER} (public, no auth: anyone who can connect)`,
        );
        expect(r.stdout).toContain('services responsible: "db console"');
        // Reported on the service's resource.
        expect(r.stdout).toMatch(
          /access-tests {2}\(pulumi-nodejs:dynamic\/privnet:ReverseProxyService: db-console\)/,
        );
        expect(r.stdout).not.toContain("FAIL the file server only behind auth");
        // The access-changes lines list the publication as the twin does.
        const mine = publishedLinesOf(r.stdout);
        expect(mine).toHaveLength(1);
        expect(mine[0]).toMatch(
          new RegExp(`^\\+ published: https://db\\.${CLUSTER.replace(/\./g, "\\.")} → peer db-1 \\(`),
        );
        expect(mine).toEqual(fromTwin);
        // Nothing applied: the server holds no service.
        expect(await server.client.call<unknown[]>("listReverseProxyServices")).toEqual([]);
      } finally {
        await stack.configRemove("exposeDb");
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a harmless service (behind a password, as the tests file wants) passes; its published line equals the twin's",
    async () => {
      await stack.config("publish", CLUSTER);
      let published = true;
      try {
        const expected = [
          `+ published: https://files.${CLUSTER} → resource files (10.20.0.5:8080, network office) http, public, ` +
            'guarded by password (service "files")',
        ];
        const fromTwin = publishedLinesOf(await twinDiff(project, stack));
        expect(fromTwin).toEqual(expected);
        const r = await withPack(["preview"]);
        expect(r.stdout).toContain("[advisory]  access-changes");
        expect(r.stdout).toContain("published through reverse proxies: 1 gained, 0 lost");
        expect(publishedLinesOf(r.stdout)).toEqual(fromTwin);
        expect(accessLinesOf(r.stdout)).toEqual([]);
        expect(r.stdout).not.toContain("access-tests  (");
        // Applied with the pack: its update phase checks the tests again, on the account with the service.
        const up = await withPack(["up", "--yes"], { reads: "any" });
        expect(publishedLinesOf(up.stdout)).toEqual(expected);
        expect(
          (await server.client.call<{ name: string }[]>("listReverseProxyServices")).map((s) => s.name),
        ).toEqual(["files"]);
        expect(`${r.stdout}${up.stdout}${up.stderr}`).not.toContain(FILES_PASSWORD);
        // Unchanged, the next preview lists nothing published.
        const again = await withPack(["preview"]);
        expect(publishedLinesOf(again.stdout)).toEqual([]);
        // Its removal is the - line, as the twin says.
        await stack.configRemove("publish");
        published = false;
        const gone = await withPack(["preview"]);
        expect(publishedLinesOf(gone.stdout)).toEqual(expected.map((l) => l.replace(/^\+/, "-")));
        expect(publishedLinesOf(await twinDiff(project, stack))).toEqual(publishedLinesOf(gone.stdout));
      } finally {
        if (published) await stack.configRemove("publish");
        await stack.up();
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "where the twin and the pack cannot agree: two new groups each holding a peer, named by one new policy",
    async () => {
      await stack.config("pair", JSON.stringify({ from: acc.peers["laptop-1"], to: acc.peers["gw-1"] }));
      const r = await withPack(["preview"]);
      // The twin applies the program, so it knows which group is the source.
      expect(await twin()).toEqual(['+ laptop-1 → gw-1 tcp/8080 (policy "pair", rule "web")']);
      // Before apply both new groups are candidates for both ids: the pack does not guess, and says so.
      expect(accessLinesOf(r.stdout)).toEqual([]);
      expect(r.stdout).toContain("Cannot decide before apply");
      expect(r.stdout).toContain(
        'Policy "pair": rules[0].sources[0] is one of 2 objects this change creates (Group "pair-from", Group "pair-to")',
      );
      await stack.configRemove("pair");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "an unreachable account fails the check once, with one message; the enforcement level decides",
    async () => {
      const down = path.join(work, "down.json");
      fs.writeFileSync(down, JSON.stringify({ "access-tests": { testsFile, apiUrl: "http://127.0.0.1:9" } }));
      const r = await withPack(["preview"], { config: down, expect: "nonzero" });
      const lines = r.stdout.split("\n").filter((l) => l.includes("cannot check access"));
      expect(lines).toHaveLength(1);
      expect(lines[0]?.trim()).toMatch(
        /^cannot check access: cannot reach the management API at http:\/\/127\.0\.0\.1:9: .*ECONNREFUSED/,
      );
      // The other policies read the stack's account: their checks ran.
      expect(r.stdout).toContain("[mandatory]  access-tests");
      const advisory = path.join(work, "down-advisory.json");
      fs.writeFileSync(
        advisory,
        JSON.stringify({
          "access-tests": { testsFile, apiUrl: "http://127.0.0.1:9", enforcementLevel: "advisory" },
        }),
      );
      const ok = await withPack(["preview"], { config: advisory });
      expect(ok.stdout).toContain("cannot check access: cannot reach the management API");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a tests file that does not validate names the entry and the field",
    async () => {
      const bad = path.join(work, "bad-tests.yaml");
      fs.writeFileSync(
        bad,
        "tests:\n  - {name: ok, from: {group: admins}, to: {peer: db-1}, port: 5432, expect: accept}\n" +
          "  - {name: no port, from: {group: admins}, to: {peer: db-1}, expect: accept}\n",
      );
      const cfg = path.join(work, "bad.json");
      fs.writeFileSync(cfg, JSON.stringify({ "access-tests": { testsFile: bad } }));
      const r = await withPack(["preview"], { config: cfg, expect: "nonzero" });
      expect(r.stdout).toContain(`${bad}: tests[1] ("no port").port: is required for tcp`);
    },
    TEST_TIMEOUT_MS,
  );
});
