/**
 * Access tests: a file of expectations about who may reach what, checked against an account's network map.
 *
 * The file (YAML or JSON; its JSON Schema is docs/access-tests.schema.json, generated from {@link TestsFileSchema})
 * holds `tests`, each: a `name`, `from` (a `peer`, a `group`'s peers or a `user`'s peers), `to` (a `peer`, a
 * `group`'s peers and network resources, a network `resource`, or an `address`: a peer's IP or an address inside
 * a resource), a `protocol` (tcp, udp, icmp or all; default tcp) with a `port` for tcp and udp, and `expect`:
 * `accept` (every source reaches every target with that traffic) or `deny` (none does).
 *
 * Names are matched exactly: a peer by name, DNS label, IP or id; a group by name or id; a user by e-mail, name
 * or id; a resource by name, address or id. A name that matches nothing is an error in the file (the test could
 * never fail); so is a `from` or `to` that resolves to no peer or resource.
 *
 * A broken expectation names the pairs and the policy responsible: for `deny`, the accept rules that let the
 * traffic through; for `accept`, the drop rules that take it away (or "no rule grants it"). A grant that depends
 * on a posture check the API cannot decide does not count as access: an `accept` that only such a grant would
 * satisfy fails and says so.
 *
 * A test may instead be about what reverse-proxy services publish: `published` names what (a `peer`, a `group`'s
 * peers and resources, a `resource`, or an `address`, as `to` does) and `expect` says how it may be published:
 * `not-published` (no enabled service forwards to it), `published` (some enabled service does), `not-public` (no
 * public service does; private ones may), or `only-with-auth` (every public service that does has an auth check
 * enabled). A broken one names the services, where they publish it and who may reach it.
 */
import { z } from "zod";
import YAML from "yaml";
import type { Grant, PeerMap, Traffic } from "../netmap";
import {
  effective,
  guardText,
  publishedLines,
  trafficText,
  type Account,
  type PublishedLine,
} from "./report";
import {
  checkLlm,
  groupCallers,
  LlmTestSchema,
  providersOf,
  type LlmResponsible,
  type LlmTest,
  type LlmTestResult,
} from "./llm-tests";
import { peerCaller, type LlmCaller } from "../netmap";

const Name = z.string().min(1);

export const SourceSchema = z.union([
  z.strictObject({ peer: Name.describe("A peer: its name, DNS label, IP or id") }),
  z.strictObject({ group: Name.describe("Every peer of a group (name or id)") }),
  z.strictObject({ user: Name.describe("Every peer a user added (e-mail, name or id)") }),
]);

export const TargetSchema = z.union([
  z.strictObject({ peer: Name.describe("A peer: its name, DNS label, IP or id") }),
  z.strictObject({ group: Name.describe("Every peer and network resource of a group (name or id)") }),
  z.strictObject({ resource: Name.describe("A network resource: its name, address or id") }),
  z.strictObject({
    address: Name.describe("An IP address: a peer's, or one inside a network resource's address"),
  }),
]);

export const TestSchema = z
  .strictObject({
    name: Name.describe("What the test checks; failures are reported under this name"),
    from: SourceSchema.describe("Where the traffic starts"),
    to: TargetSchema.describe("Where it goes"),
    protocol: z.enum(["tcp", "udp", "icmp", "all"]).default("tcp").describe("Default tcp"),
    port: z.number().int().min(1).max(65535).optional().describe("Required for tcp and udp"),
    expect: z.enum(["accept", "deny"]).describe("accept: every source reaches every target; deny: none does"),
  })
  .superRefine((t, ctx) => {
    const ported = t.protocol === "tcp" || t.protocol === "udp";
    if (ported && t.port === undefined)
      ctx.addIssue({ code: "custom", path: ["port"], message: `is required for ${t.protocol}` });
    if (!ported && t.port !== undefined)
      ctx.addIssue({ code: "custom", path: ["port"], message: `is not allowed for ${t.protocol}` });
  });

export const PUBLISHED_EXPECTATIONS = ["published", "not-published", "not-public", "only-with-auth"] as const;

export const PublishedTestSchema = z
  .strictObject({
    name: Name.describe("What the test checks; failures are reported under this name"),
    published: TargetSchema.describe("What a reverse-proxy service might publish"),
    expect: z
      .enum(PUBLISHED_EXPECTATIONS)
      .describe(
        "published: some enabled service forwards to it; not-published: none does; not-public: no public " +
          "service does (private ones may); only-with-auth: every public service that does has auth enabled",
      ),
  })
  .describe("An expectation about what reverse-proxy services publish");

export const TestsFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    tests: z
      .array(z.union([TestSchema, PublishedTestSchema, LlmTestSchema]))
      .min(1)
      .describe("The expectations, checked in order"),
  })
  .describe("privnet-access tests: expectations about who may reach what");

export type ReachTest = z.infer<typeof TestSchema>;
export type PublishedTest = z.infer<typeof PublishedTestSchema>;
export type AccessTest = ReachTest | PublishedTest | LlmTest;

/** Whether a test is about what services publish. */
export function isPublishedTest(t: AccessTest): t is PublishedTest {
  return "published" in t;
}

/** Whether a test is about LLM use through the Agent Network gateway. */
export function isLlmTest(t: AccessTest): t is LlmTest {
  return "llm" in t;
}

/** A tests file that does not validate, or names what the account does not hold. */
export class TestsFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TestsFileError";
  }
}

/** The JSON Schema of the tests file (docs/access-tests.schema.json is this, written by `npm run gen`). */
export function testsJsonSchema(): unknown {
  return {
    ...z.toJSONSchema(TestsFileSchema, { io: "input", target: "draft-2020-12" }),
    $id: "https://pulumi-privnet.local/schemas/access-tests.schema.json",
    title: "privnet-access tests",
  };
}

function entryName(raw: unknown, i: number): string {
  const tests = (raw as { tests?: unknown[] } | null)?.tests;
  const t = Array.isArray(tests) ? (tests[i] as { name?: unknown } | undefined) : undefined;
  return typeof t?.name === "string" ? ` (${JSON.stringify(t.name)})` : "";
}

/** Parses and validates a tests file's text; errors name the entry and the field. */
export function parseTests(text: string, file: string): AccessTest[] {
  let raw: unknown;
  try {
    raw = YAML.parse(text);
  } catch (err) {
    throw new TestsFileError(`${file}: not valid YAML or JSON: ${(err as Error).message.split("\n")[0]}`);
  }
  // Each entry is checked against the form it takes (a `published` test or a reach test), so that an error names
  // the field of that form rather than saying the entry matches neither.
  const entries = Array.isArray((raw as { tests?: unknown } | null)?.tests)
    ? ((raw as { tests: unknown[] }).tests as unknown[])
    : undefined;
  const shape = entries
    ? z.strictObject({
        $schema: z.string().optional(),
        tests: z
          .tuple(
            entries.map((e) =>
              e && typeof e === "object" && "published" in e
                ? PublishedTestSchema
                : e && typeof e === "object" && "llm" in e
                  ? LlmTestSchema
                  : TestSchema,
            ) as unknown as [z.ZodType, ...z.ZodType[]],
          )
          .describe("The expectations"),
      })
    : TestsFileSchema;
  const r = entries?.length ? shape.safeParse(raw) : TestsFileSchema.safeParse(raw);
  if (r.success) return (r.data as { tests: AccessTest[] }).tests;
  const issue = r.error.issues[0] as z.core.$ZodIssue;
  const p = issue.path;
  let where = p.length ? p.map((x) => (typeof x === "number" ? `[${x}]` : `.${String(x)}`)).join("") : "";
  where = where.replace(/^\./, "");
  if (p[0] === "tests" && typeof p[1] === "number") {
    const rest = p
      .slice(2)
      .map((x) => (typeof x === "number" ? `[${x}]` : `.${String(x)}`))
      .join("");
    where = `tests[${p[1]}]${entryName(raw, p[1])}${rest}`;
  }
  let message = issue.message;
  if (issue.code === "invalid_union") {
    const entry = typeof p[1] === "number" ? entries?.[p[1]] : undefined;
    message = unionMessage(p, !!entry && typeof entry === "object" && "llm" in entry);
  }
  return fail(`${file}: ${where || "the file"}: ${message}`);
}

function unionMessage(path: readonly PropertyKey[], llm = false): string {
  const last = path[path.length - 1];
  if (last === "from" && llm)
    return "must be one of {peer: NAME}, {group: NAME}, {user: NAME}, {every: group}";
  if (last === "from") return "must be one of {peer: NAME}, {group: NAME}, {user: NAME}";
  if (last === "to" || last === "published")
    return "must be one of {peer: NAME}, {group: NAME}, {resource: NAME}, {address: IP}";
  return "does not match any allowed form";
}

function fail(message: string): never {
  throw new TestsFileError(message);
}

// ---------------------------------------------------------------------------------------------------------------
// Evaluation

export interface TestResult {
  name: string;
  expect: "accept" | "deny" | (typeof PUBLISHED_EXPECTATIONS)[number] | LlmTest["expect"];
  passed: boolean;
  /** Pairs checked. */
  pairs: number;
  /** One line per broken pair, naming the rule responsible. */
  failures: string[];
  /** Policies responsible for the failures, by name. */
  policies: string[];
  /** A test about what is published: the services responsible for its failures (ids and names). */
  services?: { id: string; name: string }[];
  /** A test about LLM use: the policies and budget rules (or providers) responsible for its failures. */
  llm?: LlmResponsible[];
}

interface Endpoint {
  kind: "peer" | "resource";
  id: string;
  name: string;
}

function ipv4(a: string): number | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((x) => x > 255)) return undefined;
  return (
    (((parts[0] as number) << 24) |
      ((parts[1] as number) << 16) |
      ((parts[2] as number) << 8) |
      (parts[3] as number)) >>>
    0
  );
}

/** Whether an IPv4 address lies in a resource's address (`10.0.0.5`, `10.0.0.5/32`, `10.0.0.0/24`). */
export function addressIn(ip: string, address: string): boolean {
  const [base, bits] = address.split("/");
  const a = ipv4(ip);
  const b = ipv4(base ?? "");
  if (a === undefined || b === undefined) return ip === address;
  const n = bits === undefined ? 32 : Number(bits);
  if (!Number.isInteger(n) || n < 0 || n > 32) return false;
  const mask = n === 0 ? 0 : (~0 << (32 - n)) >>> 0;
  return (a & mask) === (b & mask);
}

function resolver(account: Account) {
  const s = account.snapshot;
  const peers = s.peers;
  const resources = s.networks.flatMap((n) => n.resources);
  const groupPeers = (g: { peers: string[]; all?: boolean }) => (g.all ? peers.map((p) => p.id) : g.peers);
  const findGroup = (n: string) => s.groups.find((g) => g.name === n) ?? s.groups.find((g) => g.id === n);
  const findPeer = (n: string) =>
    peers.find((p) => p.name === n) ??
    peers.find((p) => p.dns_label === n) ??
    peers.find((p) => p.ip === n) ??
    peers.find((p) => p.id === n);
  const peerEp = (id: string): Endpoint => ({
    kind: "peer",
    id,
    name: peers.find((p) => p.id === id)?.name ?? id,
  });
  const active = (id: string) => {
    const st = account.map.peerMap(id)?.status;
    return st === undefined || st === "ok";
  };
  const userOf = (u: string) =>
    [...account.users].find(([, x]) => x.email === u)?.[0] ??
    [...account.users].find(([, x]) => x.name === u)?.[0] ??
    (s.users.some((x) => x.id === u) ? u : undefined);
  return {
    /** The callers of an LLM test, by the group each stands for (`every: group`: each group). */
    llmCallers(t: LlmTest, where: string): { who: string; callers: LlmCaller[]; group: boolean }[] {
      const f = t.from as { peer?: string; group?: string; user?: string; every?: string };
      // The built-in All group is everyone: the account's total, which `from: {group: All}` checks.
      if (f.every !== undefined)
        return s.groups
          .filter((g) => !g.all)
          .map((g) => ({
            who: `group ${g.name}`,
            callers: groupCallers(s, g.id, active),
            group: true,
          }));
      if (f.group !== undefined) {
        const g = findGroup(f.group);
        if (!g) fail(`${where}.from.group: no group ${JSON.stringify(f.group)} in the account`);
        return [{ who: `group ${g.name}`, callers: groupCallers(s, g.id, active), group: true }];
      }
      if (f.peer !== undefined) {
        const p = findPeer(f.peer);
        if (!p) fail(`${where}.from.peer: no peer ${JSON.stringify(f.peer)} in the account`);
        return [{ who: p.name, callers: [peerCaller(s, p.id)], group: false }];
      }
      const u = f.user as string;
      const user = userOf(u);
      if (!user) fail(`${where}.from.user: no user ${JSON.stringify(u)} in the account`);
      const mine = peers.filter((p) => p.user_id === user);
      if (!mine.length) fail(`${where}.from.user: ${JSON.stringify(u)} has no peer`);
      return [{ who: `user ${u}`, callers: mine.map((p) => peerCaller(s, p.id)), group: false }];
    },
    sources(t: ReachTest, where: string): Endpoint[] {
      const f = t.from as { peer?: string; group?: string; user?: string };
      if (f.peer !== undefined) {
        const p = findPeer(f.peer);
        if (!p) fail(`${where}.from.peer: no peer ${JSON.stringify(f.peer)} in the account`);
        return [peerEp(p.id)];
      }
      if (f.group !== undefined) {
        const g = findGroup(f.group);
        if (!g) fail(`${where}.from.group: no group ${JSON.stringify(f.group)} in the account`);
        return groupPeers(g).map(peerEp);
      }
      const u = f.user as string;
      const user = userOf(u);
      if (!user) fail(`${where}.from.user: no user ${JSON.stringify(u)} in the account`);
      return peers.filter((p) => p.user_id === user).map((p) => peerEp(p.id));
    },
    /** What `to` (or a published test's `published`, with `field` naming it) resolves to. */
    targets(target: ReachTest["to"], where: string, field: "to" | "published" = "to"): Endpoint[] {
      const to = target as { peer?: string; group?: string; resource?: string; address?: string };
      where = `${where}.${field}`;
      const resEp = (r: { id: string; name: string }): Endpoint => ({
        kind: "resource",
        id: r.id,
        name: r.name,
      });
      if (to.peer !== undefined) {
        const p = findPeer(to.peer);
        if (!p) fail(`${where}.peer: no peer ${JSON.stringify(to.peer)} in the account`);
        return [peerEp(p.id)];
      }
      if (to.group !== undefined) {
        const g = findGroup(to.group);
        if (!g) fail(`${where}.group: no group ${JSON.stringify(to.group)} in the account`);
        const rs = g.resources.flatMap((x) => resources.filter((r) => r.id === x.id));
        return [...groupPeers(g).map(peerEp), ...rs.map(resEp)];
      }
      if (to.resource !== undefined) {
        const n = to.resource;
        const r =
          resources.find((x) => x.name === n) ??
          resources.find((x) => x.address === n) ??
          resources.find((x) => x.id === n);
        if (!r) fail(`${where}.resource: no network resource ${JSON.stringify(n)} in the account`);
        return [resEp(r)];
      }
      const a = to.address as string;
      const p = peers.find((x) => x.ip === a);
      if (p) return [peerEp(p.id)];
      const rs = resources.filter((r) => r.enabled && addressIn(a, r.address));
      if (!rs.length) fail(`${where}.address: ${a} is no peer's IP and in no network resource`);
      return rs.map(resEp);
    },
  };
}

function portIn(port: number, ports: readonly string[] | undefined): boolean {
  if (!ports?.length) return true;
  return ports.some((p) => {
    const [s, e] = p.split("-").map(Number) as [number, number | undefined];
    return port >= s && port <= (e ?? s);
  });
}

/** Whether a list of traffic lets `protocol`/`port` through (`all`: everything must be allowed). */
export function lets(list: readonly Traffic[], protocol: string, port?: number): boolean {
  if (protocol === "all") return list.some((t) => t.protocol === "all");
  return list.some(
    (t) => t.protocol === "all" || (t.protocol === protocol && (port === undefined || portIn(port, t.ports))),
  );
}

/** Whether any of the traffic asked for flows (for `deny`: `all` means anything at all). */
function anyOf(list: readonly Traffic[], protocol: string, port?: number): boolean {
  if (protocol === "all") return list.length > 0;
  return lets(list, protocol, port);
}

/** Whether one grant's own traffic covers the traffic asked for (in part, for `all`). */
function grantTouches(g: Grant, protocol: string, port?: number): boolean {
  const t: Traffic = g.ports ? { protocol: g.protocol, ports: g.ports } : { protocol: g.protocol };
  return anyOf([t], protocol, port);
}

/**
 * Of the traffic a list lets through, what a test asks about: for `all`, all of it (a deny test about all
 * traffic fails on any); else the test's own traffic when the list lets it through.
 */
function askedOf(list: readonly Traffic[], protocol: string, port?: number): Traffic[] {
  if (protocol === "all") return [...list];
  if (!lets(list, protocol, port)) return [];
  return [port !== undefined ? { protocol, ports: [String(port)] } : { protocol }];
}

function askedText(list: readonly Traffic[]): string {
  return list.length === 1 && list[0]!.protocol === "all" && !list[0]!.ports?.length
    ? "all traffic"
    : trafficText(list);
}

/** What one peer's map says about a target: the grants towards it (outgoing) and the traffic allowed. */
function pairAccess(pm: PeerMap | undefined, d: Endpoint): { grants: Grant[]; allowed: Traffic[] } {
  if (d.kind === "peer") {
    const e = pm?.peers.find((p) => p.peer_id === d.id);
    return { grants: (e?.grants ?? []).filter((g) => g.direction === "out"), allowed: e?.allowed.out ?? [] };
  }
  const e = pm?.resources.find((x) => x.resource_id === d.id);
  return { grants: e?.grants ?? [], allowed: e?.allowed ?? [] };
}

const ruleName = (g: Grant) => `policy ${JSON.stringify(g.policy_name)}, rule ${JSON.stringify(g.rule_name)}`;

/** Runs the tests against an account. Throws {@link TestsFileError} for names the account does not hold. */
export function runTests(account: Account, tests: readonly AccessTest[]): TestResult[] {
  const r = resolver(account);
  const published = publishedLines(account);
  return tests.map((t, i) => {
    const where = `tests[${i}] (${JSON.stringify(t.name)})`;
    if (isPublishedTest(t)) return runPublished(t, r.targets(t.published, where, "published"), published);
    if (isLlmTest(t)) return runLlm(account, t, r.llmCallers(t, where), where);
    const from = r.sources(t, where);
    const to = r.targets(t.to, where);
    const result: TestResult = {
      name: t.name,
      expect: t.expect,
      passed: true,
      pairs: 0,
      failures: [],
      policies: [],
    };
    if (!from.length) fail(`${where}.from: matches no peer`);
    const policies = new Set<string>();
    const what =
      t.protocol === "all" ? "all traffic" : t.port !== undefined ? `${t.protocol}/${t.port}` : t.protocol;
    for (const s of from) {
      const pm = account.map.peerMap(s.id);
      for (const d of to) {
        if (d.kind === "peer" && d.id === s.id) continue;
        result.pairs++;
        const { grants, allowed } = pairAccess(pm, d);
        const toName = d.kind === "resource" ? `resource ${d.name}` : d.name;
        const pair = `${s.name} → ${toName} ${what}`;
        if (t.expect === "deny" && anyOf(allowed, t.protocol, t.port)) {
          // The line names what does flow (of what the test asks about), not the test's traffic: a deny test
          // about all traffic that fails on one port says that port, and each rule says its own share.
          const drops = grants.filter((g) => g.action !== "accept" && !g.depends_on);
          const by = grants
            .filter((g) => g.action === "accept" && !g.depends_on)
            .map((g) => ({ g, text: askedText(askedOf(effective(g, drops), t.protocol, t.port)) }))
            .filter((x) => x.text !== "");
          by.forEach((x) => policies.add(x.g.policy_name));
          const flows = askedText(askedOf(allowed, t.protocol, t.port));
          const rules = by.map((x) => (x.text === flows ? ruleName(x.g) : `${ruleName(x.g)} (${x.text})`));
          result.failures.push(
            `${s.name} → ${toName} ${flows} is allowed by ${rules.join("; ") || "the account's rules"}`,
          );
        }
        if (t.expect === "accept" && !lets(allowed, t.protocol, t.port)) {
          const drops = grants.filter(
            (g) => g.action !== "accept" && !g.depends_on && grantTouches(g, t.protocol, t.port),
          );
          const cond = grants.filter(
            (g) => g.action === "accept" && g.depends_on && grantTouches(g, t.protocol, t.port),
          );
          drops.forEach((g) => policies.add(g.policy_name));
          cond.forEach((g) => policies.add(g.policy_name));
          const why = drops.length
            ? `denied by ${drops.map(ruleName).join("; ")}`
            : cond.length
              ? `cannot be decided: ${cond
                  .map(
                    (g) =>
                      `${ruleName(g)} holds only if ${s.name} passes ${(g.depends_on ?? []).map((x) => JSON.stringify(x.posture_check_name)).join(", ")} (the API does not show ${[...new Set((g.depends_on ?? []).flatMap((x) => x.unknown))].join(", ")})`,
                  )
                  .join("; ")}`
              : "no rule grants it";
          result.failures.push(`${pair} is not allowed: ${why}`);
        }
      }
    }
    if (!result.pairs) fail(`${where}: no pair to check (from and to are the same single peer)`);
    result.passed = result.failures.length === 0;
    result.policies = [...policies].sort();
    return result;
  });
}

/** A test about LLM use (access/llm-tests.ts), over each group `from` stands for. */
function runLlm(
  account: Account,
  t: LlmTest,
  sets: { who: string; callers: LlmCaller[]; group: boolean }[],
  where: string,
): TestResult {
  const providers = providersOf(account.snapshot, t.llm, where, fail);
  const parts: LlmTestResult[] = sets.map((x) =>
    checkLlm(account.snapshot, t, x.callers, providers, x.who, x.group),
  );
  const llm = new Map<string, LlmResponsible>();
  for (const p of parts) for (const x of p.responsible) llm.set(`${x.kind}\u0000${x.id}`, x);
  const failures = parts.flatMap((p) => p.failures);
  return {
    name: t.name,
    expect: t.expect,
    passed: failures.length === 0,
    pairs: parts.reduce((n, p) => n + p.pairs, 0),
    failures,
    policies: [...new Set([...llm.values()].map((x) => x.name))].sort(),
    llm: [...llm.values()],
  };
}

/** Whether a published line forwards to an endpoint (a peer by id; a resource by id). */
function publishes(l: PublishedLine, e: Endpoint): boolean {
  return l.to.kind === e.kind && l.to.id === e.id;
}

/** A test about what services publish (see the file comment). */
function runPublished(t: PublishedTest, targets: Endpoint[], lines: readonly PublishedLine[]): TestResult {
  const result: TestResult = {
    name: t.name,
    expect: t.expect,
    passed: true,
    pairs: targets.length,
    failures: [],
    policies: [],
  };
  for (const e of targets) {
    const mine = lines.filter((l) => publishes(l, e));
    const what = `${e.kind === "resource" ? "resource " : ""}${e.name}`;
    const how = (l: PublishedLine) =>
      `by service ${JSON.stringify(l.service.name)} at ${l.url}${l.to.path ?? ""} (${guardText(l)})`;
    const bad =
      t.expect === "not-published"
        ? mine
        : t.expect === "not-public"
          ? mine.filter((l) => l.audience === "public")
          : t.expect === "only-with-auth"
            ? mine.filter((l) => l.audience === "public" && l.auth.length === 0)
            : [];
    for (const l of bad) {
      result.failures.push(`${what} is published ${l.audience === "public" ? "publicly " : ""}${how(l)}`);
      if (!result.services?.some((x) => x.id === l.service.id))
        (result.services ??= []).push({ id: l.service.id, name: l.service.name });
    }
    if (t.expect === "published" && mine.length === 0)
      result.failures.push(`${what} is not published by any enabled reverse-proxy service`);
  }
  result.passed = result.failures.length === 0;
  return result;
}

/**
 * The peers each test starts from and the peers and network resources it goes to (ids), as {@link runTests}
 * resolves them. A test about what services publish starts from no peer (from outside, or from the groups a
 * service names) and goes to what it names.
 */
export function testEndpoints(
  account: Account,
  tests: readonly AccessTest[],
): { from: string[]; to: { kind: "peer" | "resource"; id: string }[] }[] {
  const r = resolver(account);
  return tests.map((t, i) => {
    const where = `tests[${i}] (${JSON.stringify(t.name)})`;
    if (isPublishedTest(t))
      return {
        from: [],
        to: r.targets(t.published, where, "published").map((e) => ({ kind: e.kind, id: e.id })),
      };
    if (isLlmTest(t))
      return {
        from: r.llmCallers(t, where).flatMap((x) => x.callers.flatMap((c) => (c.peer_id ? [c.peer_id] : []))),
        to: [],
      };
    return {
      from: r.sources(t, where).map((e) => e.id),
      to: r.targets(t.to, where).map((e) => ({ kind: e.kind, id: e.id })),
    };
  });
}

/** `2 pairs`, or for an LLM test `2 callers` (a group's member and its peers). */
export function countText(r: TestResult): string {
  const unit = r.llm ? "caller" : "pair";
  return `${r.pairs} ${unit}${r.pairs === 1 ? "" : "s"}`;
}

/** The results as text: one line per test, the broken pairs under a failed one, and the totals. */
export function resultsText(results: readonly TestResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${r.passed ? "PASS" : "FAIL"} ${r.name} (expect ${r.expect}, ${countText(r)})`);
    const shown = r.failures.slice(0, 20);
    for (const f of shown) lines.push(`  ${f}`);
    if (r.failures.length > shown.length)
      lines.push(`  ... and ${r.failures.length - shown.length} more pairs`);
  }
  const failed = results.filter((r) => !r.passed).length;
  lines.push(
    `privnet-access: ${results.length - failed} of ${results.length} tests passed, ${failed} failed`,
  );
  return `${lines.join("\n")}\n`;
}
