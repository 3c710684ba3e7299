/**
 * privnet-access show and test against a privnet-server (the account of tests/support/access-account.ts), and the
 * one-line errors of bad input.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { run } from "../../access/cli";
import { buildAccessAccount, type AccessAccount } from "../support/access-account";
import { startTestServer, tempDir, type TestServer } from "../support/server";

let t: TestServer;
let acc: AccessAccount;
let dir: string;

beforeAll(async () => {
  t = await startTestServer({ simulate: true });
  acc = await buildAccessAccount(t.url, t.token);
  dir = tempDir("privnet-access-");
  fs.writeFileSync(path.join(dir, "token"), `${t.token}\n`);
}, 60_000);

afterAll(async () => {
  await acc?.client.close();
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[], env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const code = await run(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: { PRIVNET_API_URL: t.url, PRIVNET_TOKEN: t.token, ...env },
  });
  return { code, stdout, stderr };
}

describe("show", () => {
  test("text: per peer, what it reaches, with traffic, policy and rule; drops taken away", async () => {
    const r = await cli(["show"]);
    expect(r.stderr).toContain("privnet-access: reading the account at");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("laptop-1 (100.");
    expect(r.stdout).toContain('  → db-1 tcp/5432 (policy "web to db", rule "postgres")');
    expect(r.stdout).toContain(
      '  → resource files (10.20.0.5 via gw-1) tcp/445 (policy "files", rule "smb")',
    );
    // The drop rule is no access line; the posture-checked admin's ssh depends on metadata the API does not show.
    expect(r.stdout).not.toContain('rule "block"');
    expect(r.stdout).toMatch(
      /admin-1 .*\n(?:.*\n)*? {2}→ db-1 tcp\/22 \(policy "ssh admin", rule "ssh"\) \[only if admin-1 passes "office network": unknown network_addresses\]/,
    );
    expect(r.stdout).toContain("Cannot decide");
    expect(r.stdout).not.toContain(t.token);
    expect(r.stderr).not.toContain(t.token);
  });

  test("json and --peer by IP", async () => {
    const all = JSON.parse((await cli(["show", "--json"])).stdout);
    const laptop = all.peers.find((p: { name: string }) => p.name === "laptop-1");
    const r = await cli(["show", "--peer", laptop.ip, "--json"]);
    expect(r.code).toBe(0);
    const one = JSON.parse(r.stdout);
    expect(one.peers.map((p: { name: string }) => p.name)).toEqual(["laptop-1"]);
    expect(one.peers[0].groups).toEqual(["laptops"]);
    expect(
      one.peers[0].reaches.map(
        (l: { to: { name: string }; traffic: string; policy: { name: string } }) =>
          `${l.to.name} ${l.traffic} ${l.policy.name}`,
      ),
    ).toEqual(["db-1 tcp/5432 web to db", "files tcp/445 files"]);
  });
});

describe("test", () => {
  test("the example passes against this account", async () => {
    const r = await cli([
      "test",
      "--tests",
      path.join(__dirname, "../../examples/access-tests/access-tests.yaml"),
    ]);
    expect(r.stdout).toMatch(/privnet-access: 4 of 4 tests passed/);
    expect(r.code).toBe(0);
  });

  test("a broken expectation fails naming it and the policy responsible; an unrelated one passes", async () => {
    const file = path.join(dir, "t.yaml");
    fs.writeFileSync(
      file,
      [
        "tests:",
        "  - name: laptops cannot reach the database",
        "    from: { group: laptops }",
        "    to: { peer: db-1 }",
        "    port: 5432",
        "    expect: deny",
        "  - name: ssh to the database is blocked",
        "    from: { peer: laptop-2 }",
        "    to: { peer: db-1 }",
        "    port: 22",
        "    expect: accept",
        "  - name: files over smb",
        "    from: { group: laptops }",
        "    to: { address: 10.20.0.5 }",
        "    port: 445",
        "    expect: accept",
        "  - name: laptops never reach the database at all",
        "    from: { peer: laptop-1 }",
        "    to: { peer: db-1 }",
        "    protocol: all",
        "    expect: deny",
        "",
      ].join("\n"),
    );
    const r = await cli(["test", "--tests", file]);
    expect(r.code).toBe(1);
    // What flows (tcp/5432, as `show` says), not the test's own "all traffic".
    expect(r.stdout).toContain(
      'laptop-1 → db-1 tcp/5432 is allowed by policy "web to db", rule "postgres"\n',
    );
    expect(r.stdout).not.toContain("all traffic is allowed");
    expect(r.stdout).toContain("FAIL laptops cannot reach the database (expect deny, 2 pairs)");
    expect(r.stdout).toContain('laptop-1 → db-1 tcp/5432 is allowed by policy "web to db", rule "postgres"');
    expect(r.stdout).toContain("FAIL ssh to the database is blocked");
    expect(r.stdout).toContain(
      'laptop-2 → db-1 tcp/22 is not allowed: denied by policy "no ssh to db", rule "block"',
    );
    expect(r.stdout).toContain("PASS files over smb");
    const j = JSON.parse((await cli(["test", "--tests", file, "--json"])).stdout);
    expect(j.results[0].policies).toEqual(["web to db"]);
    expect(j.results[1].policies).toEqual(["no ssh to db"]);
  });

  test("a grant that depends on unknown metadata fails an accept and says why", async () => {
    const file = path.join(dir, "cond.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        tests: [
          { name: "admin ssh", from: { peer: "admin-1" }, to: { group: "db" }, port: 22, expect: "accept" },
        ],
      }),
    );
    const r = await cli(["test", "--tests", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'admin-1 → db-1 tcp/22 is not allowed: cannot be decided: policy "ssh admin", rule "ssh" holds only if admin-1 passes "office network" (the API does not show network_addresses)',
    );
  });
});

describe("bad input: one line, non-zero exit, nothing read", () => {
  const oneLine = (s: string) => expect(s.trim().split("\n")).toHaveLength(1);

  test.each([
    [
      "no port for tcp",
      { tests: [{ name: "x", from: { peer: "a" }, to: { peer: "b" }, expect: "accept" }] },
      'tests[0] ("x").port: is required for tcp',
    ],
    [
      "a bad expect",
      { tests: [{ name: "y", from: { peer: "a" }, to: { peer: "b" }, port: 1, expect: "allow" }] },
      'tests[0] ("y").expect:',
    ],
    [
      "a bad source",
      { tests: [{ name: "z", from: { host: "a" }, to: { peer: "b" }, port: 1, expect: "deny" }] },
      'tests[0] ("z").from: must be one of {peer: NAME}, {group: NAME}, {user: NAME}',
    ],
    ["no tests", { tests: [] }, "tests:"],
  ])("a tests file with %s", async (_what, content, message) => {
    const file = path.join(dir, "bad.json");
    fs.writeFileSync(file, JSON.stringify(content));
    const mark = t.server.state.store.count("policy");
    const r = await cli(["test", "--tests", file], { PRIVNET_API_URL: "http://127.0.0.1:1" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    oneLine(r.stderr);
    expect(t.server.state.store.count("policy")).toBe(mark);
  });

  test("a name the account does not hold is named with its entry", async () => {
    const file = path.join(dir, "unknown.yaml");
    fs.writeFileSync(
      file,
      "tests:\n  - {name: n, from: {group: nope}, to: {peer: db-1}, port: 1, expect: deny}\n",
    );
    const r = await cli(["test", "--tests", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('tests[0] ("n").from.group: no group "nope" in the account');
  });

  test("an unreachable server", async () => {
    const r = await cli(["show"], { PRIVNET_API_URL: "http://127.0.0.1:1" });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/privnet-access: cannot reach the management API at http:\/\/127\.0\.0\.1:1/);
    expect(
      r.stderr
        .trim()
        .split("\n")
        .filter((l) => !l.includes("reading the account")),
    ).toHaveLength(1);
  });

  test("a rejected token, never printed", async () => {
    const r = await cli(["show"], { PRIVNET_TOKEN: "nbp_wrongwrongwrongwrongwrongwrongwrong" });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("rejected the token (401");
    expect(r.stderr).not.toContain("nbp_wrong");
  });

  test("usage errors", async () => {
    expect((await cli([])).code).toBe(2);
    expect((await cli(["show", "--format", "pdf"])).stderr).toContain(
      "--format: expected text, json or html",
    );
    expect((await cli(["test"])).stderr).toContain("test: --tests FILE is required");
    expect((await cli(["diff", "--cwd", path.join(dir, "nope"), "--stack", "dev"])).stderr).toContain(
      "no such directory",
    );
    expect((await cli(["diff", "--cwd", dir, "--stack", "dev"])).stderr).toContain("no Pulumi project there");
    expect((await cli(["show", "--peer", "nobody"])).stderr).toContain('--peer: no peer "nobody"');
  });
});

describe("what reverse-proxy services publish", () => {
  test("show names the published target and the auth; a not-published test fails for it", async () => {
    const token = await acc.client.call<{ plain_token: string }>("createProxyToken", {
      body: { name: "edge" },
    });
    const reg = await t.raw("POST", "/sim/proxies", {
      body: JSON.stringify({ token: token.plain_token, address: "edge.example.test" }),
      headers: { "Content-Type": "application/json" },
    });
    expect(reg.status).toBe(200);
    const svc = await acc.client.call<{ id: string }>("createReverseProxyService", {
      body: {
        name: "files portal",
        domain: "files.edge.example.test",
        enabled: true,
        targets: [
          { target_id: acc.resource, target_type: "host", protocol: "http", port: 8080, enabled: true },
        ],
        auth: { password_auth: { enabled: true, password: "portal-password-6d2a" } },
      },
    });
    try {
      const r = await cli(["show"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("Published through reverse proxies");
      expect(r.stdout).toContain(
        "  https://files.edge.example.test → resource files (10.20.0.5:8080, network office) http, public, " +
          'guarded by password (service "files portal")',
      );
      expect(r.stdout).not.toContain("portal-password-6d2a");
      const json = JSON.parse((await cli(["show", "--json"])).stdout);
      expect(json.published).toEqual([
        expect.objectContaining({
          service: { id: svc.id, name: "files portal" },
          audience: "public",
          auth: ["password"],
          to: expect.objectContaining({ kind: "resource", id: acc.resource, name: "files" }),
        }),
      ]);
      // Only the lines that concern the peer asked for: files is a resource, so laptop-1 sees none.
      expect(JSON.parse((await cli(["show", "--peer", "laptop-1", "--json"])).stdout).published).toEqual([]);

      const file = path.join(dir, "published.yaml");
      fs.writeFileSync(
        file,
        [
          "tests:",
          "  - name: the file server is not published",
          "    published: { resource: files }",
          "    expect: not-published",
          "  - name: db-1 is not published",
          "    published: { peer: db-1 }",
          "    expect: not-published",
        ].join("\n"),
      );
      const tested = await cli(["test", "--tests", file]);
      expect(tested.code).toBe(1);
      expect(tested.stdout).toContain("FAIL the file server is not published");
      expect(tested.stdout).toContain(
        '  resource files is published publicly by service "files portal" at https://files.edge.example.test ' +
          "(public, guarded by password)",
      );
      expect(tested.stdout).toContain("PASS db-1 is not published");
    } finally {
      await acc.client.call("deleteReverseProxyService", { params: { serviceId: svc.id } });
    }
  });
});
