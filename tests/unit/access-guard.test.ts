/**
 * The access guard's computation without Pulumi: an account as listed, a stack's state and the resources a stack
 * validation sees, through {@link Guard} with its reads replaced, to the three policies' violations.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { LiveObjects } from "../../access/live";
import { lineText, publishedText } from "../../access/report";
import { UNKNOWN } from "../../model/mapping";
import { Guard, SharedFailure, type Analysis } from "../../policy/analysis";
import { accessChangeViolations, accessTestViolations, broadAccessViolations } from "../../policy/checks";
import { connectionOf, levelOf, sensitiveGroupsOf, testsFileOf, GuardConfigError } from "../../policy/config";
import { kindOfType, parseState, plannedOf, providerUrl, rawProps } from "../../policy/stack";
import { parseTests } from "../../access/expectations";
import type { Listed } from "../../provider/spec";

import { resource, T, urn } from "../support/guard-stack";

/** The account now: laptops, a database, an office router with a network resource, one policy. */
function live(): Map<string, Listed[]> {
  const peer = (id: string, ip: string) => ({ id, object: { id, name: id, ip, dns_label: id }, parents: {} });
  const group = (
    id: string,
    name: string,
    peers: string[],
    resources: { id: string; type: string }[] = [],
  ) => ({
    id,
    object: { id, name, peers: peers.map((p) => ({ id: p, name: p })), resources },
    parents: {},
  });
  const rule = (over: Record<string, unknown>) => ({
    id: "r-pg",
    name: "postgres",
    enabled: true,
    action: "accept",
    bidirectional: false,
    protocol: "tcp",
    ports: ["5432"],
    sources: [{ id: "g-laptops", name: "laptops" }],
    destinations: [{ id: "g-db", name: "db" }],
    ...over,
  });
  return new Map<string, Listed[]>([
    ["AccountSettings", [{ id: "acc", object: { peer_login_expiration_enabled: false }, parents: {} }]],
    [
      "Peer",
      [
        peer("laptop-1", "100.64.0.1"),
        peer("laptop-2", "100.64.0.2"),
        peer("db-1", "100.64.0.3"),
        peer("gw-1", "100.64.0.4"),
      ],
    ],
    [
      "Group",
      [
        group("g-all", "All", ["laptop-1", "laptop-2", "db-1", "gw-1"]),
        group("g-laptops", "laptops", ["laptop-1", "laptop-2"]),
        group("g-db", "db", ["db-1"]),
        group("g-gw", "routers", ["gw-1"]),
        group("g-files", "files", [], [{ id: "res-files", type: "host" }]),
      ],
    ],
    [
      "Policy",
      [
        {
          id: "p-web",
          object: { id: "p-web", name: "web to db", enabled: true, rules: [rule({})] },
          parents: {},
        },
      ],
    ],
    ["Network", [{ id: "n-office", object: { id: "n-office", name: "office" }, parents: {} }]],
    [
      "NetworkResource",
      [
        {
          id: "res-files",
          object: { id: "res-files", name: "files", address: "10.20.0.5/32", type: "host", enabled: true },
          parents: { networkId: "n-office" },
        },
      ],
    ],
    [
      "NetworkRouter",
      [
        {
          id: "rt-1",
          object: { id: "rt-1", peer: "gw-1", metric: 10, masquerade: true, enabled: true },
          parents: { networkId: "n-office" },
        },
      ],
    ],
  ]);
}

/** A rule as a program writes it (Pulumi names). */
const rule = (over: Record<string, unknown> = {}) => ({
  name: "postgres",
  enabled: true,
  action: "accept",
  bidirectional: false,
  protocol: "tcp",
  ports: ["5432"],
  sources: ["g-laptops"],
  destinations: ["g-db"],
  ...over,
});

/** The state: the stack holds the policy "web to db" (its outputs as the provider keeps them). */
function state(
  extra: { urn: string; type: string; id: string; outputs: Record<string, unknown> }[] = [],
): string {
  const resources = [
    {
      urn: urn("Policy", "web"),
      type: `${T}Policy`,
      id: "p-web",
      outputs: {
        __kind: "Policy",
        name: "web to db",
        enabled: true,
        description: "",
        sourcePostureChecks: [],
        rules: [{ ...rule(), id: "r-pg", description: "" }],
      },
    },
    ...extra,
  ];
  return JSON.stringify({ version: 3, deployment: { resources } });
}

const webPolicy = (over: Record<string, unknown> = {}) =>
  resource("Policy", "web", { name: "web to db", enabled: true, rules: [rule()], ...over });

function guard(stateText = state(), env: NodeJS.ProcessEnv = {}, more: [string, Listed[]][] = []): Guard {
  const objects = live();
  for (const [kind, list] of more) objects.set(kind, list);
  const io = {
    env: {
      PULUMI_NODEJS_STACK: "dev",
      PULUMI_NODEJS_PROJECT: "proj",
      PULUMI_NODEJS_DRY_RUN: "true",
      PRIVNET_TOKEN: "t0k",
      ...env,
    },
    now: () => Date.parse("2026-05-01T12:00:00Z"),
    readLive: async (): Promise<LiveObjects> => ({ objects, users: new Map(), requests: 0 }),
    exportState: async () => stateText,
  };
  return new Guard(io);
}

const lines = (a: Analysis) => [
  ...a.diff.gained.map((l) => `+ ${lineText(l)}`),
  ...a.diff.lost.map((l) => `- ${lineText(l)}`),
];

test("an unchanged stack changes no access, and reports nothing", async () => {
  const a = await guard().analyze([webPolicy()], {});
  expect(lines(a)).toEqual([]);
  expect(accessChangeViolations(a)).toEqual([]);
  expect(a.result.undecided).toEqual([]);
});

test("an update: the rule keeps its id by name, so only what changed is gained or lost", async () => {
  const a = await guard().analyze([webPolicy({ rules: [rule({ sources: ["g-laptops", "g-gw"] })] })], {});
  expect(lines(a)).toEqual(['+ gw-1 → db-1 tcp/5432 (policy "web to db", rule "postgres")']);
  const [v] = accessChangeViolations(a);
  expect(v?.message).toContain(
    "1 gained, 0 lost; pairs: 1 newly reachable, 0 no longer reachable; peers affected: 2",
  );
});

test("a resource the program no longer declares is deleted: its access is lost", async () => {
  const a = await guard().analyze([], {});
  expect(lines(a)).toEqual([
    '- laptop-1 → db-1 tcp/5432 (policy "web to db", rule "postgres")',
    '- laptop-2 → db-1 tcp/5432 (policy "web to db", rule "postgres")',
  ]);
});

test("an unknown id stands for the new object its dependencies name; a new group has only the peers it lists", async () => {
  const ops = resource("Group", "ops", { name: "ops", peers: ["gw-1"] });
  const empty = resource("Group", "empty", { name: "empty" });
  const p = resource(
    "Policy",
    "ops-ssh",
    {
      name: "ops ssh",
      enabled: true,
      rules: [rule({ name: "ssh", ports: ["22"], sources: [UNKNOWN], destinations: ["g-db"] })],
    },
    { rules: [ops.urn] },
  );
  const q = resource(
    "Policy",
    "nobody",
    {
      name: "nobody",
      enabled: true,
      rules: [rule({ name: "x", sources: [UNKNOWN], destinations: ["g-db"] })],
    },
    { rules: [empty.urn] },
  );
  const a = await guard().analyze([webPolicy(), ops, empty, p, q], {});
  expect(lines(a)).toEqual(['+ gw-1 → db-1 tcp/22 (policy "ops ssh", rule "ssh")']);
  expect(a.result.undecided).toEqual([]);
});

test("several new groups: interchangeable when none holds a peer, undecided (and said) when one does", async () => {
  const g1 = resource("Group", "g1", { name: "g1" });
  const g2 = resource("Group", "g2", { name: "g2" });
  const pol = (name: string, deps: string[]) =>
    resource(
      "Policy",
      name,
      { name, enabled: true, rules: [rule({ name: "r", sources: [UNKNOWN], destinations: [UNKNOWN] })] },
      { rules: deps },
    );
  const quiet = await guard().analyze([webPolicy(), g1, g2, pol("between", [g1.urn, g2.urn])], {});
  expect(quiet.result.undecided).toEqual([]);
  expect(lines(quiet)).toEqual([]);

  const g3 = resource("Group", "g3", { name: "g3", peers: ["laptop-1"] });
  const g4 = resource("Group", "g4", { name: "g4", peers: ["db-1"] });
  const a = await guard().analyze([webPolicy(), g3, g4, pol("between", [g3.urn, g4.urn])], {});
  expect(lines(a)).toEqual([]);
  expect(a.result.undecided.map((u) => u.message)).toEqual([
    'Policy "between": rules[0].sources[0] is one of 2 objects this change creates (Group "g3", Group "g4"); ' +
      'rules[0].destinations[0] is one of 2 objects this change creates (Group "g3", Group "g4")',
  ]);
  const [v] = accessChangeViolations(a);
  expect(v?.message).toContain("Cannot decide before apply");
  // A test between those peers cannot be decided; one elsewhere can.
  const tests = parseTests(
    [
      "tests:",
      "  - {name: laptop to db, from: {peer: laptop-1}, to: {peer: db-1}, port: 9000, expect: deny}",
      "  - {name: gw to db, from: {peer: gw-1}, to: {peer: db-1}, port: 9000, expect: deny}",
      "",
    ].join("\n"),
    "t.yaml",
  );
  const out = accessTestViolations(a, tests, "t.yaml");
  expect(out).toHaveLength(1);
  expect(out[0]?.message).toMatch(
    /^UNDECIDED laptop to db \(expect deny, 1 pair\): cannot be decided before apply; with what is known it would pass/,
  );
});

test("a new network, its resource in a new group and its router: the ids resolved through the dependencies", async () => {
  const labDb = resource("Group", "lab-db", { name: "lab-db" });
  const lab = resource("Network", "lab", { name: "lab" });
  const res = resource(
    "NetworkResource",
    "lab-db",
    { networkId: UNKNOWN, name: "lab-db", address: "10.30.0.7", enabled: true, groups: [UNKNOWN] },
    { networkId: [lab.urn], groups: [labDb.urn] },
  );
  const router = resource(
    "NetworkRouter",
    "lab-gw",
    { networkId: UNKNOWN, peer: "gw-1", metric: 10, masquerade: true, enabled: true },
    { networkId: [lab.urn] },
  );
  const p = resource(
    "Policy",
    "lab",
    {
      name: "lab",
      enabled: true,
      rules: [rule({ name: "lab postgres", sources: ["g-laptops"], destinations: [UNKNOWN] })],
    },
    { rules: [labDb.urn] },
  );
  const a = await guard().analyze([webPolicy(), labDb, lab, res, router, p], {});
  expect(lines(a)).toEqual([
    '+ laptop-1 → resource lab-db (10.30.0.7 via gw-1) tcp/5432 (policy "lab", rule "lab postgres")',
    '+ laptop-2 → resource lab-db (10.30.0.7 via gw-1) tcp/5432 (policy "lab", rule "lab postgres")',
  ]);
});

test("deleting a network takes its resources (and their group memberships) and routers", async () => {
  const net = {
    urn: urn("Network", "office"),
    type: `${T}Network`,
    id: "n-office",
    outputs: { name: "office" },
  };
  const files = resource("Policy", "files", {
    name: "files",
    enabled: true,
    rules: [rule({ name: "smb", ports: ["445"], destinations: ["g-files"] })],
  });
  const kept = await guard(state([net])).analyze(
    [webPolicy(), files, resource("Network", "office", { name: "office" })],
    {},
  );
  expect(lines(kept)).toEqual([
    '+ laptop-1 → resource files (10.20.0.5/32 via gw-1) tcp/445 (policy "files", rule "smb")',
    '+ laptop-2 → resource files (10.20.0.5/32 via gw-1) tcp/445 (policy "files", rule "smb")',
  ]);
  const gone = await guard(state([net])).analyze([webPolicy(), files], {});
  expect(lines(gone)).toEqual([]);
  expect(gone.after.snapshot.groups.find((g) => g.name === "files")?.resources).toEqual([]);
});

test("an unknown port is not guessed: the rule is left out before and after, and named", async () => {
  const a = await guard().analyze([webPolicy({ rules: [rule({ ports: [UNKNOWN] })] })], {});
  expect(lines(a)).toEqual([]);
  expect(a.result.undecided.map((u) => u.message)).toEqual([
    'Policy "web to db": rules[0].ports[0] is unknown until apply',
  ]);
});

test("access tests: a failure names the test, the pair and the policy, on the stack's resource", async () => {
  const a = await guard().analyze([webPolicy({ rules: [rule({ sources: ["g-laptops", "g-gw"] })] })], {});
  const tests = parseTests(
    "tests:\n  - {name: routers never reach the database, from: {group: routers}, to: {peer: db-1}, protocol: all, expect: deny}\n",
    "t.yaml",
  );
  const [v] = accessTestViolations(a, tests, "t.yaml");
  expect(v?.message).toBe(
    [
      "FAIL routers never reach the database (expect deny, 1 pair) after this change",
      '  gw-1 → db-1 tcp/5432 is allowed by policy "web to db", rule "postgres"',
      'policies responsible: "web to db"',
      "(access test from t.yaml)",
    ].join("\n"),
  );
  expect(v?.urn).toBe(urn("Policy", "web"));
});

// --- reverse-proxy services ----------------------------------------------------------------------------------

/** The service "files" as the server holds it: the office file server published behind a password. */
const filesService = (over: Record<string, unknown> = {}): Listed => ({
  id: "svc-files",
  object: {
    id: "svc-files",
    name: "files",
    domain: "files.proxy.example.test",
    enabled: true,
    mode: "http",
    proxy_cluster: "proxy.example.test",
    private: false,
    targets: [
      {
        target_id: "res-files",
        target_type: "host",
        host: "10.20.0.5",
        port: 8080,
        protocol: "http",
        enabled: true,
      },
    ],
    auth: { password_auth: { enabled: true, password: "" } },
    ...over,
  },
  parents: {},
});

/** ...and in the stack's state: outputs as the provider keeps them, the auth encrypted as `stack export` shows it. */
const filesState = {
  urn: urn("ReverseProxyService", "files"),
  type: `${T}ReverseProxyService`,
  id: "svc-files",
  outputs: {
    __kind: "ReverseProxyService",
    name: "files",
    domain: "files.proxy.example.test",
    enabled: true,
    mode: "http",
    targets: [{ targetId: "res-files", targetType: "host", port: 8080, protocol: "http", enabled: true }],
    auth: {
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: "v1:AAAA",
    },
  },
};

/** ...and as the program declares it. */
const filesResource = (over: Record<string, unknown> = {}, deps: Record<string, string[]> = {}) =>
  resource(
    "ReverseProxyService",
    "files",
    {
      name: "files",
      domain: "files.proxy.example.test",
      enabled: true,
      targets: [{ targetId: "res-files", targetType: "host", protocol: "http", port: 8080, enabled: true }],
      auth: { passwordAuth: { enabled: true, password: "s3cret-files" } },
      ...over,
    },
    deps,
  );

const published = (a: Analysis) => [
  ...a.diff.published.gained.map((l) => `+ ${publishedText(l)}`),
  ...a.diff.published.lost.map((l) => `- ${publishedText(l)}`),
];

const FILES_LINE =
  "published: https://files.proxy.example.test → resource files (10.20.0.5:8080, network office) http, public, " +
  'guarded by password (service "files")';

const publishedTests = parseTests(
  [
    "tests:",
    "  - {name: the database is not published, published: {peer: db-1}, expect: not-published}",
    "  - {name: the file server only behind auth, published: {resource: files}, expect: only-with-auth}",
    "  - {name: routers never reach the database, from: {group: routers}, to: {peer: db-1}, port: 5432, expect: deny}",
  ].join("\n"),
  "t.yaml",
);

test("services: a new public service is a published line, and fails a not-published test naming it", async () => {
  const service = resource("ReverseProxyService", "db-console", {
    name: "db console",
    domain: "db.proxy.example.test",
    enabled: true,
    targets: [{ targetId: "db-1", targetType: "peer", protocol: "http", port: 8080, enabled: true }],
  });
  const a = await guard().analyze([webPolicy(), service], {});
  expect(lines(a)).toEqual([]);
  // The host is the peer's IP, as the server fills it in.
  expect(published(a)).toEqual([
    "+ published: https://db.proxy.example.test → peer db-1 (100.64.0.3:8080) http, public, no auth: anyone " +
      'who can connect (service "db console")',
  ]);
  expect(a.notes).toEqual([]);
  const [v] = accessChangeViolations(a);
  expect(v?.message).toContain("published through reverse proxies: 1 gained, 0 lost");
  const out = accessTestViolations(a, publishedTests, "t.yaml");
  expect(out.map((x) => x.message)).toEqual([
    [
      "FAIL the database is not published (expect not-published, 1 pair) after this change",
      '  db-1 is published publicly by service "db console" at https://db.proxy.example.test (public, no auth: ' +
        "anyone who can connect)",
      'services responsible: "db console"',
      "(access test from t.yaml)",
    ].join("\n"),
  ]);
  expect(out[0]?.urn).toBe(service.urn);
});

test("services: an update (auth dropped) changes the published line; unchanged, it changes nothing", async () => {
  const more: [string, Listed[]][] = [["ReverseProxyService", [filesService()]]];
  const same = await guard(state([filesState]), {}, more).analyze([webPolicy(), filesResource()], {});
  // The state's auth is encrypted, so the service is taken as written with the program's values: the same lines.
  expect(published(same)).toEqual([]);
  expect(accessTestViolations(same, publishedTests, "t.yaml")).toEqual([]);

  const open = await guard(state([filesState]), {}, more).analyze(
    [webPolicy(), filesResource({ auth: { passwordAuth: { enabled: false } } })],
    {},
  );
  expect(published(open)).toEqual([
    `+ ${FILES_LINE.replace("guarded by password", "no auth: anyone who can connect")}`,
    `- ${FILES_LINE}`,
  ]);
  expect(accessTestViolations(open, publishedTests, "t.yaml").map((x) => x.message.split("\n")[0])).toEqual([
    "FAIL the file server only behind auth (expect only-with-auth, 1 pair) after this change",
  ]);
});

test("services: a service the program no longer declares is deleted: what it published is lost", async () => {
  const more: [string, Listed[]][] = [["ReverseProxyService", [filesService()]]];
  const a = await guard(state([filesState]), {}, more).analyze([webPolicy()], {});
  expect(published(a)).toEqual([`- ${FILES_LINE}`]);
  // Left alone (not in the stack), the live service stays: nothing changes.
  const b = await guard(state(), {}, more).analyze([webPolicy()], {});
  expect(published(b)).toEqual([]);
  expect((b.after.snapshot.proxy_services ?? []).map((x) => x.id)).toEqual(["svc-files"]);
});

test("services: an unknown target id is the new object its dependencies name, else undecided, not guessed", async () => {
  // A new host resource, published by a new service through its unknown id: that resource.
  const res = resource(
    "NetworkResource",
    "lab-db",
    { networkId: "n-office", name: "lab-db", address: "10.20.0.9/32", enabled: true },
    {},
  );
  const svc = (deps: Record<string, string[]>) =>
    resource(
      "ReverseProxyService",
      "lab",
      {
        name: "lab",
        domain: "lab.proxy.example.test",
        enabled: true,
        targets: [{ targetId: UNKNOWN, targetType: "host", protocol: "http", port: 80, enabled: true }],
        // A password from another resource: unknown, and no matter (only which checks are on decides).
        auth: { passwordAuth: { enabled: true, password: UNKNOWN } },
      },
      { ...deps, auth: [urn("RandomPassword", "pw")] },
    );
  const a = await guard().analyze([webPolicy(), res, svc({ targets: [res.urn] })], {});
  expect(a.result.undecided).toEqual([]);
  expect(published(a)).toEqual([
    "+ published: https://lab.proxy.example.test → resource lab-db (10.20.0.9:80, network office) http, public, " +
      'guarded by password (service "lab")',
  ]);

  // An id unknown that names no object of this change (another stack's output, say): undecided.
  const b = await guard().analyze([webPolicy(), svc({})], {});
  expect(published(b)).toEqual([]);
  expect(b.result.undecided.map((u) => u.message)).toEqual([
    'ReverseProxyService "lab": targets[0].targetId is an id unknown until apply that names no object this ' +
      "change creates",
  ]);
  const [v] = accessChangeViolations(b);
  expect(v?.message).toContain("Cannot decide before apply");
  // The tests about publishing are undecided (it could be any target); the reach test is not (a service carries
  // no traffic between peers).
  const out = accessTestViolations(b, publishedTests, "t.yaml");
  expect(out.map((x) => x.message.split("\n")[0])).toEqual([
    "UNDECIDED the database is not published (expect not-published, 1 pair): cannot be decided before apply; " +
      "with what is known it would pass. Unknown until apply:",
    "UNDECIDED the file server only behind auth (expect only-with-auth, 1 pair): cannot be decided before apply; " +
      "with what is known it would pass. Unknown until apply:",
  ]);
  // An existing service whose target id becomes unknown is left out before and after: no line is guessed.
  const more: [string, Listed[]][] = [["ReverseProxyService", [filesService()]]];
  const c = await guard(state([filesState]), {}, more).analyze(
    [
      webPolicy(),
      filesResource({
        targets: [{ targetId: UNKNOWN, targetType: "host", protocol: "http", port: 8080, enabled: true }],
      }),
    ],
    {},
  );
  expect(published(c)).toEqual([]);
  expect(c.before.snapshot.proxy_services).toEqual([]);
  expect(c.result.undecided.map((u) => u.publishes)).toEqual([true]);
  // A cluster target names an address, no object: unknown, it is only what the line says.
  const d = await guard().analyze(
    [
      webPolicy(),
      resource("ReverseProxyService", "direct", {
        name: "direct",
        domain: "direct.proxy.example.test",
        enabled: true,
        targets: [
          {
            targetId: UNKNOWN,
            targetType: "cluster",
            host: "10.9.0.1",
            protocol: "http",
            port: 80,
            enabled: true,
          },
        ],
      }),
    ],
    {},
  );
  expect(d.result.undecided).toEqual([]);
  expect(published(d)).toEqual([
    "+ published: https://direct.proxy.example.test → cluster (known after apply) (10.9.0.1:80) http, public, " +
      'no auth: anyone who can connect (service "direct")',
  ]);
});

test("no-broad-access: the All group, and all traffic to a sensitive group", async () => {
  const a = await guard().analyze(
    [
      webPolicy({
        rules: [rule(), rule({ name: "anything", protocol: "all", ports: [], sources: ["g-gw"] })],
      }),
      resource("Policy", "open", {
        name: "open",
        enabled: true,
        rules: [rule({ name: "to all", destinations: ["g-all"] })],
      }),
    ],
    {},
  );
  expect(
    broadAccessViolations(a, { sensitiveGroups: ["db"], ignorePolicies: [] }).map((v) => v.message),
  ).toEqual([
    'policy "web to db", rule "anything": it opens all traffic (protocol all, no ports) to the sensitive group "db"',
    'policy "open", rule "to all": its destinations are the built-in All group (every peer): it lets its sources reach every peer',
  ]);
  expect(broadAccessViolations(a, { sensitiveGroups: [], ignorePolicies: ["open"] })).toEqual([]);
});

test("an unreachable account fails once, with one message and without the token", async () => {
  const io = {
    env: { PULUMI_NODEJS_STACK: "dev", PULUMI_NODEJS_PROJECT: "proj", PRIVNET_TOKEN: "s3cret-token" },
    now: () => 0,
    readLive: async () => {
      throw new Error(
        "privnet: cannot reach the management API at http://127.0.0.1:1: connect ECONNREFUSED (token s3cret-token)",
      );
    },
    exportState: async () => state(),
  };
  const g = new Guard(io);
  const first = await g.analyze([], {}).catch((e: unknown) => e);
  const second = await g.analyze([], {}).catch((e: unknown) => e);
  expect(first).toBeInstanceOf(SharedFailure);
  expect(second).toBe(first);
  expect((first as Error).message).toBe(
    "cannot reach the management API at http://127.0.0.1:1: connect ECONNREFUSED (token ***)",
  );
});

test("config: the policy's config, then the stack's, then the environment; levels from the environment", () => {
  const env = {
    PULUMI_CONFIG: JSON.stringify({ "privnet:apiUrl": "http://stack:1", "privnet:token": "st" }),
    PRIVNET_API_URL: "http://env:2",
    PRIVNET_TOKEN: "et",
  };
  expect(connectionOf({ apiUrl: "http://cfg:3/" }, env)).toEqual({
    apiUrl: "http://cfg:3",
    token: "st",
    from: "the policy config's apiUrl",
    tokenFrom: "the stack's privnet:token",
  });
  expect(connectionOf({}, env).apiUrl).toBe("http://stack:1");
  expect(connectionOf({}, { PRIVNET_API_URL: "http://env:2", PRIVNET_TOKEN: "et" })).toMatchObject({
    apiUrl: "http://env:2",
    token: "et",
  });
  expect(() => connectionOf({ apiUrl: "ftp://x" }, {})).toThrow(
    "the policy config's apiUrl must be an http(s) URL",
  );
  expect(levelOf("access-tests", {})).toBe("mandatory");
  expect(levelOf("access-changes", { PRIVNET_POLICY_ACCESS_CHANGES: "disabled" })).toBe("disabled");
  expect(() => levelOf("access-tests", { PRIVNET_POLICY_ACCESS_TESTS: "strict" })).toThrow(GuardConfigError);
  expect(testsFileOf({}, { PRIVNET_ACCESS_TESTS: "/abs/t.yaml" })).toEqual({ path: "/abs/t.yaml" });
  expect(sensitiveGroupsOf({}, { PRIVNET_SENSITIVE_GROUPS: " db, prod ," })).toEqual(["db", "prod"]);
});

test("the stack: kinds from types, generic dynamic resources from the state, unknowns behind the SDK's proxy", () => {
  expect(kindOfType("privnet:index:Group")).toBe("Group");
  expect(kindOfType(`${T}Policy`)).toBe("Policy");
  expect(kindOfType("aws:s3:Bucket")).toBeUndefined();
  const generic = {
    urn: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic:Resource::g",
    type: "pulumi-nodejs:dynamic:Resource",
    id: "g-x",
    outputs: { __kind: "Group", name: "x" },
  };
  const prior = parseState(state([generic]));
  expect(prior.get(generic.urn)).toMatchObject({ kind: "Group", id: "g-x" });
  const planned = plannedOf(
    [{ type: generic.type, urn: generic.urn, props: { name: "x" }, propertyDependencies: {} }],
    prior,
  );
  expect(planned.map((p) => p.kind)).toEqual(["Group"]);
  // The policy SDK's proxy throws on an unknown member; its target holds the marker.
  const target = { a: UNKNOWN };
  const proxy = new Proxy(target, {
    get: (o, k) => {
      if (k === "__getSpecialProxyTarget") return o;
      throw new Error("unknown");
    },
  });
  expect(rawProps(proxy)).toBe(target);
  expect(
    providerUrl({
      type: "x",
      urn: "u",
      props: {},
      propertyDependencies: {},
      provider: { type: "pulumi:providers:privnet", props: { apiUrl: "http://a/" } },
    }),
  ).toBe("http://a");
  expect(
    providerUrl({
      type: "x",
      urn: "u",
      props: {},
      propertyDependencies: {},
      provider: { type: "pulumi:providers:pulumi-nodejs", props: { "privnet:apiUrl": "http://b" } },
    }),
  ).toBe("http://b");
});

test("a whole property unknown with no dependency is an output the provider computes, not a value to guess", async () => {
  // The resource plugin answers a new group's members and a new policy's posture checks as unknown at preview.
  const ops = {
    ...resource("Group", "ops", { name: "ops", peers: ["gw-1"], resources: UNKNOWN, issued: UNKNOWN }),
  };
  const p = resource(
    "Policy",
    "ops-ssh",
    {
      name: "ops ssh",
      enabled: true,
      description: UNKNOWN,
      sourcePostureChecks: UNKNOWN,
      rules: [rule({ name: "ssh", ports: ["22"], sources: [UNKNOWN], destinations: ["g-db"] })],
    },
    { rules: [ops.urn] },
  );
  const a = await guard().analyze([webPolicy(), ops, p], {});
  expect(a.result.undecided).toEqual([]);
  expect(lines(a)).toEqual(['+ gw-1 → db-1 tcp/22 (policy "ops ssh", rule "ssh")']);
});

test("the pack's directory is shipped with the package and carries its version", () => {
  const root = path.resolve(__dirname, "..", "..");
  const read = (f: string) => JSON.parse(fs.readFileSync(path.join(root, f), "utf8"));
  const pkg = read("package.json") as {
    version: string;
    files: string[];
    dependencies: Record<string, string>;
  };
  // @pulumi/policy reads the pack's version from the package.json of its directory.
  expect(read("policy/package.json").version).toBe(pkg.version);
  for (const f of ["policy/PulumiPolicy.yaml", "policy/package.json", "policy/index.js", "dist"])
    expect(pkg.files).toContain(f);
  expect(fs.readFileSync(path.join(root, "policy", "index.js"), "utf8")).toContain(
    'require("../dist/policy/pack.js")',
  );
  expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(["@pulumi/policy", "@pulumi/pulumi"]));
});
