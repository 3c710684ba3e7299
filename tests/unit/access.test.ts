/**
 * privnet-access's pure parts: access lines from the network map (drop rules taken away, conditional grants
 * marked), the diff of two maps, the tests file's validation and evaluation, and the JSON Schema.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { diffAccess } from "../../access/diff";
import {
  addressIn,
  lets,
  parseTests,
  runTests,
  testsJsonSchema,
  TestsFileError,
} from "../../access/expectations";
import { accessLines, accountOf, lineText } from "../../access/report";
import { MAX_ROWS, renderHtml } from "../../access/html";
import { Account, randomSnapshot } from "../support/netmap-account";

function account() {
  const a = new Account();
  const l1 = a.peer("laptop-1");
  const l2 = a.peer("laptop-2");
  const db = a.peer("db-1");
  a.group("laptops", [l1, l2]);
  a.group("db", [db]);
  a.policy(
    { name: "postgres", protocol: "tcp", ports: ["5432", "22"], sources: ["laptops"], destinations: ["db"] },
    { name: "web to db" },
  );
  a.policy(
    {
      name: "block",
      action: "drop",
      protocol: "tcp",
      ports: ["22"],
      sources: ["laptops"],
      destinations: ["db"],
    },
    { name: "no ssh" },
  );
  return a;
}

test("a line per accept grant, with what the drop rules leave of it", () => {
  const lines = accessLines(accountOf(account().s)).map(lineText);
  expect(lines).toEqual([
    'laptop-1 → db-1 tcp/5432 (policy "web to db", rule "postgres")',
    'laptop-2 → db-1 tcp/5432 (policy "web to db", rule "postgres")',
  ]);
});

test("a grant behind a posture check the snapshot cannot decide is a conditional line", () => {
  const a = account();
  a.s.posture_checks.push({
    id: "net",
    name: "office",
    checks: { peer_network_range_check: { action: "allow", ranges: ["10.0.0.0/8"] } },
  });
  a.s.policies[0]!.source_posture_checks = ["net"];
  delete a.s.peers[0]!.meta.network_addresses;
  const lines = accessLines(accountOf(a.s)).map(lineText);
  expect(lines[0]).toBe(
    'laptop-1 → db-1 tcp/5432 (policy "web to db", rule "postgres") [only if laptop-1 passes "office": unknown network_addresses]',
  );
});

test("the diff lists gained and lost lines and counts pairs and peers", () => {
  const before = account();
  const after = account();
  after.s.policies[0]!.rules[0]!.sources = ["db"];
  after.s.policies[0]!.rules[0]!.destinations = ["laptops"];
  const d = diffAccess(accountOf(before.s), accountOf(after.s));
  expect(d.gained.map(lineText)).toEqual([
    'db-1 → laptop-1 tcp/22,5432 (policy "web to db", rule "postgres")',
    'db-1 → laptop-2 tcp/22,5432 (policy "web to db", rule "postgres")',
  ]);
  expect(d.lost).toHaveLength(2);
  expect(d.totals).toEqual({
    gained_lines: 2,
    lost_lines: 2,
    gained_pairs: 2,
    lost_pairs: 2,
    peers_affected: 3,
  });
});

test("traffic checks: ports, ranges, all", () => {
  expect(lets([{ protocol: "tcp", ports: ["8000-8999"] }], "tcp", 8080)).toBe(true);
  expect(lets([{ protocol: "tcp", ports: ["8000-8999"] }], "tcp", 9000)).toBe(false);
  expect(lets([{ protocol: "all" }], "udp", 53)).toBe(true);
  expect(lets([{ protocol: "tcp" }], "all")).toBe(false);
  expect(addressIn("10.20.0.5", "10.20.0.0/24")).toBe(true);
  expect(addressIn("10.20.1.5", "10.20.0.0/24")).toBe(false);
  expect(addressIn("10.20.0.5", "10.20.0.5")).toBe(true);
});

test("tests: deny names the accept rule, accept names the drop rule", () => {
  const tests = parseTests(
    JSON.stringify({
      tests: [
        { name: "no db", from: { group: "laptops" }, to: { peer: "db-1" }, port: 5432, expect: "deny" },
        { name: "ssh", from: { peer: "laptop-1" }, to: { group: "db" }, port: 22, expect: "accept" },
        {
          name: "pg",
          from: { peer: "laptop-1" },
          to: { address: "100.64.0.3" },
          port: 5432,
          expect: "accept",
        },
      ],
    }),
    "t.json",
  );
  const r = runTests(accountOf(account().s), tests);
  expect(r.map((x) => [x.name, x.passed, x.policies])).toEqual([
    ["no db", false, ["web to db"]],
    ["ssh", false, ["no ssh"]],
    ["pg", true, []],
  ]);
});

test("a failing deny pair names the traffic the rules allow, not the test's own", () => {
  const a = new Account();
  const a1 = a.peer("a1");
  const b1 = a.peer("b1");
  a.group("rp-a", [a1]);
  a.group("rp-b", [b1]);
  a.policy(
    { name: "pg", protocol: "tcp", ports: ["5432"], sources: ["rp-a"], destinations: ["rp-b"] },
    { name: "a to b" },
  );
  const tests = parseTests(
    JSON.stringify({
      tests: [
        { name: "all", from: { group: "rp-a" }, to: { group: "rp-b" }, protocol: "all", expect: "deny" },
        { name: "pg", from: { peer: "a1" }, to: { peer: "b1" }, port: 5432, expect: "deny" },
        { name: "icmp", from: { peer: "a1" }, to: { peer: "b1" }, protocol: "icmp", expect: "deny" },
      ],
    }),
    "t.json",
  );
  const once = runTests(accountOf(a.s), tests);
  expect(once.map((r) => [r.name, r.passed, r.failures])).toEqual([
    ["all", false, ['a1 → b1 tcp/5432 is allowed by policy "a to b", rule "pg"']],
    ["pg", false, ['a1 → b1 tcp/5432 is allowed by policy "a to b", rule "pg"']],
    ["icmp", true, []],
  ]);

  // Two rules allowing different traffic: the pair names all of it (as `privnet-access show` writes traffic),
  // each rule its own share where it differs; what a drop rule takes away is claimed by no rule.
  a.policy(
    { name: "dns", protocol: "udp", ports: ["53"], sources: ["rp-a"], destinations: ["rp-b"] },
    { name: "d" },
  );
  const twice = runTests(accountOf(a.s), tests);
  expect(twice[0]!.failures).toEqual([
    'a1 → b1 tcp/5432 udp/53 is allowed by policy "a to b", rule "pg" (tcp/5432); policy "d", rule "dns" (udp/53)',
  ]);
  expect(twice[1]!.failures).toEqual(['a1 → b1 tcp/5432 is allowed by policy "a to b", rule "pg"']);
  a.policy({ name: "any", protocol: "all", sources: ["rp-a"], destinations: ["rp-b"] }, { name: "wide" });
  a.policy(
    {
      name: "no pg",
      action: "drop",
      protocol: "tcp",
      ports: ["5432"],
      sources: ["rp-a"],
      destinations: ["rp-b"],
    },
    { name: "block" },
  );
  const wide = runTests(accountOf(a.s), tests);
  expect(wide[0]!.failures).toEqual([
    'a1 → b1 icmp other tcp/1-5431,5433-65535 udp is allowed by policy "d", rule "dns" (udp/53); policy "wide", rule "any"',
  ]);
  expect(wide[1]!.passed).toBe(true);
  expect(wide[2]!.failures).toEqual(['a1 → b1 icmp is allowed by policy "wide", rule "any"']);
});

test("a tests file that does not validate names the entry and the field", () => {
  const bad = (o: unknown) => () => parseTests(JSON.stringify(o), "f.json");
  expect(
    bad({
      tests: [
        { name: "a", from: { peer: "x" }, to: { peer: "y" }, protocol: "icmp", port: 1, expect: "deny" },
      ],
    }),
  ).toThrow('f.json: tests[0] ("a").port: is not allowed for icmp');
  expect(
    bad({ tests: [{ name: "b", from: { peer: "x" }, to: { peer: "y" }, port: 70000, expect: "deny" }] }),
  ).toThrow(/tests\[0\] \("b"\)\.port: /);
  expect(
    bad({
      tests: [{ name: "c", from: { peer: "x" }, to: { peer: "y" }, port: 1, expect: "deny", extra: 1 }],
    }),
  ).toThrow(/tests\[0\] \("c"\): .*extra/);
  expect(() => parseTests("tests: [", "f.yaml")).toThrow(TestsFileError);
});

test("the committed JSON Schema is the validator's, and the example validates", () => {
  const root = path.join(__dirname, "..", "..");
  expect(JSON.parse(fs.readFileSync(path.join(root, "docs/access-tests.schema.json"), "utf8"))).toEqual(
    testsJsonSchema(),
  );
  const text = fs.readFileSync(path.join(root, "examples/access-tests/access-tests.yaml"), "utf8");
  expect(parseTests(text, "example").length).toBeGreaterThan(0);
});

test("a large account's page draws the matrix of groups and lists the first lines only", () => {
  const s = randomSnapshot(3, { peers: 120, groups: 8, policies: 20, resources: 10 });
  const a = accountOf(s);
  const lines = accessLines(a);
  const html = renderHtml(a, lines, { title: "generated" });
  expect(html).toContain('aria-label="access between groups"');
  expect(html).toContain(">group0 (");
  expect((html.match(/<tr>/g) ?? []).length).toBe(Math.min(lines.length, MAX_ROWS) + 1);
  if (lines.length > MAX_ROWS) expect(html).toContain(`and ${lines.length - MAX_ROWS} more lines`);
});
