/**
 * What reverse-proxy services publish (netmap/exposure.ts) and how privnet-access reports it: the published
 * lines of show, their diff (`+` when a change publishes a target), and access tests about publication.
 */
import { diffAccess, diffText } from "../../access/diff";
import { parseTests, runTests, TestsFileError } from "../../access/expectations";
import { accountOf, publishedLines, publishedText } from "../../access/report";
import { exposuresOf, type SnapshotProxyService } from "../../netmap";
import { Account } from "../support/netmap-account";

/** An account with a database host in a network, two peers and a group. */
function account() {
  const a = new Account();
  const alice = a.peer("alice");
  const bob = a.peer("bob");
  a.group("ops", [alice]);
  a.group("everyone", [alice, bob]);
  a.s.networks.push({
    id: "net1",
    name: "dc",
    resources: [
      { id: "db", name: "db", address: "10.0.0.5/32", type: "host", enabled: true },
      { id: "wiki", name: "wiki", address: "10.0.0.7/32", type: "host", enabled: true },
    ],
    routers: [],
  });
  return a;
}

function service(over: Partial<SnapshotProxyService> = {}): SnapshotProxyService {
  return {
    id: "svc1",
    name: "db admin",
    domain: "db.proxy.example.test",
    enabled: true,
    mode: "http",
    proxy_cluster: "proxy.example.test",
    private: false,
    access_groups: [],
    auth: { password: true, pin: false, bearer: false, bearer_groups: [], link: false, headers: [] },
    targets: [
      { target_id: "db", target_type: "host", host: "10.0.0.5", port: 8080, protocol: "http", enabled: true },
    ],
    ...over,
  };
}

test("a public service publishes its enabled targets with the auth that guards them", () => {
  const a = account();
  a.s.proxy_services = [
    service({
      auth: {
        password: true,
        pin: true,
        bearer: true,
        bearer_groups: ["ops"],
        link: false,
        headers: ["X-Key"],
      },
      access_restrictions: { allowed_cidrs: ["192.0.2.0/24"], blocked_countries: ["CN"] },
    }),
  ];
  expect(exposuresOf(a.s)).toEqual([
    {
      service_id: "svc1",
      service_name: "db admin",
      url: "https://db.proxy.example.test",
      mode: "http",
      cluster: "proxy.example.test",
      audience: "public",
      auth: ["password", "PIN", "SSO (users of ops)", "header X-Key"],
      restrictions: ["only from 192.0.2.0/24", "not from countries CN"],
      groups: [],
      peers: [],
      targets: [
        {
          kind: "resource",
          id: "db",
          name: "db",
          address: "10.0.0.5",
          port: 8080,
          protocol: "http",
          network: "dc",
        },
      ],
    },
  ]);
  expect(publishedLines(accountOf(a.s)).map(publishedText)).toEqual([
    "published: https://db.proxy.example.test → resource db (10.0.0.5:8080, network dc) http, public, guarded by " +
      'password, PIN, SSO (users of ops), header X-Key; only from 192.0.2.0/24; not from countries CN (service "db admin")',
  ]);
});

test("no auth is said plainly; a private service is for its groups' peers; disabled ones publish nothing", () => {
  const a = account();
  a.s.proxy_services = [
    service({
      auth: { password: false, pin: false, bearer: false, bearer_groups: [], link: false, headers: [] },
    }),
    service({
      id: "svc2",
      name: "wiki",
      domain: "wiki.proxy.example.test",
      private: true,
      access_groups: ["ops"],
      targets: [
        {
          target_id: "wiki",
          target_type: "host",
          host: "10.0.0.7",
          port: 80,
          protocol: "http",
          enabled: true,
        },
        {
          target_id: "bob",
          target_type: "peer",
          host: "100.64.0.2",
          port: 81,
          protocol: "http",
          enabled: false,
        },
      ],
    }),
    service({ id: "svc3", name: "off", enabled: false }),
    service({
      id: "svc4",
      name: "pg",
      mode: "tcp",
      listen_port: 15432,
      targets: [
        {
          target_id: "bob",
          target_type: "peer",
          host: "100.64.0.2",
          port: 5432,
          protocol: "tcp",
          enabled: true,
        },
      ],
    }),
  ];
  expect(publishedLines(accountOf(a.s)).map(publishedText)).toEqual([
    'published: https://db.proxy.example.test → resource db (10.0.0.5:8080, network dc) http, public, no auth: anyone who can connect (service "db admin")',
    'published: https://wiki.proxy.example.test → resource wiki (10.0.0.7:80, network dc) http, private: peers of ops (1 peer) (service "wiki")',
    'published: tcp://db.proxy.example.test:15432 → peer bob (100.64.0.2:5432) tcp, public, guarded by password (service "pg")',
  ]);
});

test("a change that publishes a target is a + line of the diff, one that stops publishing it a - line", () => {
  const before = account();
  const after = account();
  after.s.proxy_services = [service()];
  const d = diffAccess(accountOf(before.s), accountOf(after.s));
  expect(d.published.gained.map(publishedText)).toEqual([
    'published: https://db.proxy.example.test → resource db (10.0.0.5:8080, network dc) http, public, guarded by password (service "db admin")',
  ]);
  expect(diffText(d)).toContain("+ published: https://db.proxy.example.test → resource db");
  expect(diffText(d)).toContain("published through reverse proxies: 1 gained, 0 lost");
  // Taking the password away is a change of who may reach it: the guarded line goes, the open one comes.
  const open = account();
  open.s.proxy_services = [
    service({
      auth: { password: false, pin: false, bearer: false, bearer_groups: [], link: false, headers: [] },
    }),
  ];
  const text = diffText(diffAccess(accountOf(after.s), accountOf(open.s)));
  expect(text).toContain("- published: https://db.proxy.example.test → resource db");
  expect(text).toContain(
    "+ published: https://db.proxy.example.test → resource db (10.0.0.5:8080, network dc) http, public, no auth",
  );
  expect(diffAccess(accountOf(after.s), accountOf(after.s)).published).toEqual({ gained: [], lost: [] });
});

test("access tests about publication: not-published, published, not-public, only-with-auth", () => {
  const a = account();
  a.s.proxy_services = [
    service(),
    service({
      id: "svc2",
      name: "wiki",
      domain: "wiki.proxy.example.test",
      private: true,
      access_groups: ["ops"],
      auth: { password: false, pin: false, bearer: false, bearer_groups: [], link: false, headers: [] },
      targets: [
        {
          target_id: "wiki",
          target_type: "host",
          host: "10.0.0.7",
          port: 80,
          protocol: "http",
          enabled: true,
        },
      ],
    }),
  ];
  const tests = parseTests(
    [
      "tests:",
      "  - name: the database is not published",
      "    published: { resource: db }",
      "    expect: not-published",
      "  - name: the wiki is not public",
      "    published: { resource: wiki }",
      "    expect: not-public",
      "  - name: the database only behind auth",
      "    published: { address: 10.0.0.5 }",
      "    expect: only-with-auth",
      "  - name: bob is published",
      "    published: { peer: bob }",
      "    expect: published",
      "  - name: the wiki is published",
      "    published: { resource: wiki }",
      "    expect: published",
    ].join("\n"),
    "t.yaml",
  );
  const results = runTests(accountOf(a.s), tests);
  expect(results.map((r) => [r.name, r.passed])).toEqual([
    ["the database is not published", false],
    ["the wiki is not public", true],
    ["the database only behind auth", true],
    ["bob is published", false],
    ["the wiki is published", true],
  ]);
  expect(results[0]?.failures).toEqual([
    'resource db is published publicly by service "db admin" at https://db.proxy.example.test (public, guarded by password)',
  ]);
  expect(results[3]?.failures).toEqual(["bob is not published by any enabled reverse-proxy service"]);
  // A name the account does not hold is an error of the file, naming the entry and the field.
  expect(() =>
    runTests(
      accountOf(a.s),
      parseTests('{"tests":[{"name":"x","published":{"resource":"nope"},"expect":"published"}]}', "t"),
    ),
  ).toThrow(/tests\[0\] \("x"\)\.published\.resource: no network resource "nope"/);
  expect(() =>
    parseTests('{"tests":[{"name":"y","published":{"resource":"db"},"expect":"deny"}]}', "t.json"),
  ).toThrow(TestsFileError);
  expect(() =>
    parseTests('{"tests":[{"name":"y","published":{"resource":"db"},"expect":"deny"}]}', "t.json"),
  ).toThrow(/t\.json: tests\[0\] \("y"\)\.expect: .*"not-published"/);
});
