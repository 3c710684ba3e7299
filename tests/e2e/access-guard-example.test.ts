/**
 * examples/access-guard as its header says: installed as a user installs it, the pack used from
 * node_modules/pulumi-privnet/policy with the example's policy-config.json (a tests file named relative to the
 * directory the command runs in). A change that opens the database to laptops is stopped by `pulumi up` (non-zero
 * exit, the test named, no write on the server); a harmless change goes through with the advisory lines shown.
 */
import type { E2EServer } from "./project";
import {
  accessLinesOf,
  copyProject,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  writes,
} from "./project";

const EXAMPLE = "examples/access-guard";
const GUARD = [
  "--policy-pack",
  "node_modules/pulumi-privnet/policy",
  "--policy-pack-config",
  "policy-config.json",
];

describe("examples/access-guard", () => {
  let work = "";
  let server: E2EServer;
  let stack: PulumiStack;

  beforeAll(async () => {
    work = makeWork("access-guard-example");
    server = await startE2EServer();
    const project = await copyProject([EXAMPLE], work, EXAMPLE);
    stack = await PulumiStack.init({ project, work, name: "dev", server });
    // As a shell in the project directory has it: the tests file is named relative to it.
    stack.env.PWD = project.dir;
    // The first up makes the groups, empty until devices enroll with their setup keys.
    await stack.up();
    const keys = await stack.outputs(true);
    for (const [key, hosts] of [
      ["laptopsSetupKey", ["laptop-1", "laptop-2"]],
      ["appServersSetupKey", ["app-1"]],
      ["databasesSetupKey", ["db-1"]],
    ] as const) {
      for (const hostname of hosts) {
        const res = await server.server.raw("POST", "/sim/enroll", {
          body: JSON.stringify({ setup_key: keys[key], hostname }),
          headers: { "Content-Type": "application/json" },
        });
        if (res.status !== 200)
          throw new Error(`enroll ${hostname}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`access-guard example timings: ${stack.timingLine()}\n`);
    await server?.close();
    removeWork(work);
  });

  test(
    "with the devices enrolled, the stack as it is passes: the tests hold and no access changes",
    async () => {
      const r = await stack.cli(["preview", ...GUARD]);
      expect(r.stdout).toContain("privnet-access-guard@v");
      expect(r.stdout).not.toContain("[mandatory]");
      expect(accessLinesOf(r.stdout)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "opening the database to laptops: up stops before anything is applied, naming the test",
    async () => {
      await stack.config("dbClients", JSON.stringify(["app-servers", "laptops"]));
      const mark = server.requests.length;
      const r = await stack.cli(["up", "--yes", ...GUARD], { expect: "nonzero" });
      expect(writes(server.since(mark))).toEqual([]);
      expect(r.stdout).toContain("[mandatory]  access-tests");
      expect(r.stdout).toContain(
        "FAIL laptops never reach the database (expect deny, 2 pairs) after this change",
      );
      expect(r.stdout).toContain(
        'laptop-1 → db-1 tcp/5432 is allowed by policy "apps to db", rule "postgres"',
      );
      expect(r.stdout).toContain('policies responsible: "apps to db"');
      expect(r.stdout).not.toContain(server.token);
      await stack.config("dbClients", JSON.stringify(["app-servers"]));
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a harmless change goes through, with the advisory lines shown",
    async () => {
      await stack.config("appPorts", JSON.stringify(["443", "8443"]));
      const r = await stack.cli(["up", "--yes", ...GUARD]);
      expect(r.stdout).toContain("[advisory]  access-changes");
      expect(accessLinesOf(r.stdout)).toEqual(
        [
          '+ laptop-1 → app-1 tcp/443,8443 (policy "laptops to apps", rule "https")',
          '+ laptop-2 → app-1 tcp/443,8443 (policy "laptops to apps", rule "https")',
          '- laptop-1 → app-1 tcp/443 (policy "laptops to apps", rule "https")',
          '- laptop-2 → app-1 tcp/443 (policy "laptops to apps", rule "https")',
        ].sort(),
      );
      expect(r.stdout).not.toContain("[mandatory]");
      const policies =
        await server.client.call<{ name: string; rules: { ports?: string[] }[] }[]>("listPolicies");
      expect(policies.find((p) => p.name === "laptops to apps")?.rules[0]?.ports).toEqual(["443", "8443"]);
    },
    TEST_TIMEOUT_MS,
  );
});
