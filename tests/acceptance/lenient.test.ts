/**
 * Faithful where the service is lenient (docs/validation.md), against the acceptance target:
 *
 * 1. Programs with values the service accepts (tests/support/lenient-cases.ts) through the provider's whole
 *    lifecycle: the check passes them with exactly the warnings each case names, and the rest of the lifecycle
 *    gives no other warning and no phantom diff.
 * 2. The validation audit (tests/support/validation-audit.ts), request by request: a value the service accepts
 *    is stored by every server; a rule we keep is a 4xx on our server, and what a live server answers is recorded
 *    in the summary (`validation: <rule>: passed (target answered ...)`).
 *
 * Against the reference server: PRIVNET_ACCEPTANCE_URL=... PRIVNET_ACCEPTANCE_TOKEN=...
 * PRIVNET_ACCEPTANCE_OIDC_ISSUER=URL/oauth2 npm run test:acceptance -- tests/acceptance/lenient
 */
import { setWarningSink } from "../../provider/diagnostics";
import { runLifecycle } from "../support/lifecycle";
import { expectWarnings, lenientCases, type LenientCase } from "../support/lenient-cases";
import { configureAll, providerFor, removePrerequisites, type FixtureTarget } from "../support/provider";
import { AUDIT, auditUnique, type Answer, type AuditContext } from "../support/validation-audit";
import { acceptance } from "./target";

jest.setTimeout(120_000);

const acc = acceptance();
const warnings: string[] = [];
let target: FixtureTarget;
let cases: Record<string, () => Promise<LenientCase>>;
let c: AuditContext;
let dnsBefore: unknown;
let settingsBefore: Record<string, unknown> = {};
/** The account settings the audit's rows change, put back afterwards. */
const TOUCHED = [
  "jwt_groups_enabled",
  "jwt_groups_claim_name",
  "peer_inactivity_expiration",
  "network_range",
  "auto_update_version",
  "peer_expose_groups",
];

async function send(method: string, path: string, body?: unknown, raw?: string): Promise<Answer> {
  const res = await fetch(`${acc.url}${path}`, {
    method,
    headers: {
      Authorization: `Token ${acc.token}`,
      "Content-Type": "application/json",
      Accept: "application/json",
    },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Plain text (an unknown path): kept as text.
  }
  return { status: res.status, body: parsed };
}

async function must(method: string, path: string, body?: unknown): Promise<any> {
  const a = await send(method, path, body);
  if (a.status !== 200) throw new Error(`${method} ${path}: ${a.status} ${JSON.stringify(a.body)}`);
  return a.body;
}

const created: string[] = [];

beforeAll(async () => {
  await configureAll(acc);
  target = acc.fixtureTarget("back");
  cases = await lenientCases(target);
  const groups = (await must("GET", "/api/groups")) as { id: string; name: string }[];
  const g = async () => (await must("POST", "/api/groups", { name: auditUnique("audit") })).id as string;
  const [g1, g2] = [await g(), await g()];
  const net = (await must("POST", "/api/networks", { name: auditUnique("audit") })).id as string;
  const zone = await must("POST", "/api/dns/zones", {
    name: "audit",
    domain: `${auditUnique("audit")}.example.com`,
    enable_search_domain: false,
    distribution_groups: [g1],
  });
  const resource = (
    await must("POST", `/api/networks/${net}/resources`, {
      name: auditUnique("audit"),
      address: "10.201.0.1",
      enabled: true,
      groups: [],
    })
  ).id as string;
  // Deleted in reverse order: what uses the groups first.
  created.push(
    `/api/groups/${g1}`,
    `/api/groups/${g2}`,
    `/api/networks/${net}`,
    `/api/networks/${net}/resources/${resource}`,
    `/api/dns/zones/${zone.id}`,
  );
  const account = (
    (await must("GET", "/api/accounts")) as { id: string; settings: Record<string, unknown> }[]
  )[0]!;
  dnsBefore = await must("GET", "/api/dns/settings");
  settingsBefore = account.settings;
  c = {
    all: groups.find((x) => x.name === "All")!.id,
    g1,
    g2,
    net,
    zone: { id: zone.id, domain: zone.domain },
    resource,
    owner: (await must("GET", "/api/users/current")).id,
    account,
    oidcIssuer: target.oidcIssuer,
    unique: auditUnique,
  };
  setWarningSink((m) => warnings.push(m));
});

afterAll(async () => {
  setWarningSink(undefined);
  if (c) {
    // The account's settings and DNS settings as they were; then the prerequisites.
    const now = ((await must("GET", "/api/accounts")) as { settings: Record<string, unknown> }[])[0]!;
    const back = Object.fromEntries(TOUCHED.map((k) => [k, settingsBefore[k]]));
    await send("PUT", `/api/accounts/${c.account.id}`, { settings: { ...now.settings, ...back } });
    const dns = dnsBefore as { items?: unknown; disabled_management_groups?: unknown };
    await send("PUT", "/api/dns/settings", (dns.items ?? dns) as object);
    for (const path of created.reverse()) {
      const gone = await send("DELETE", path);
      // A group the reference stored with a member that does not exist (the audit's "no-such-resource" row) cannot
      // be deleted while it names it ("group has been linked to network resource"): emptied first, then deleted.
      if (gone.status !== 200 && path.startsWith("/api/groups/")) {
        const g = await send("GET", path);
        if (g.status === 200) {
          await send("PUT", path, { name: (g.body as { name: string }).name, peers: [], resources: [] });
          await send("DELETE", path);
        }
      }
    }
  }
  // The groups and networks the cases needed: a shared target keeps nothing of this run.
  if (target)
    for (const left of await removePrerequisites(target)) process.stdout.write(`left behind: ${left}\n`);
  await acc.client.close();
});

describe("programs with values the service accepts", () => {
  const names = [
    "a network resource in the built-in All group",
    "JWT groups on without a claim name",
    "a setup key for 1 second",
    "a setup key for 60 seconds",
    "a setup key for 1800 seconds",
    "a route range with host bits set",
    "a group name with a leading space",
    "a DNS zone of one label",
    "a policy rule without destinations",
    "a network without a name",
  ];
  test.each(names)("%s: warned of at check, then a lifecycle like any other", async (name) => {
    const kase = await cases[name]!();
    const p = providerFor(kase.kind);
    warnings.length = 0;
    try {
      expect((await p.check({}, kase.fixture.create)).failures).toEqual([]);
      expectWarnings(kase, [...warnings]);
      warnings.length = 0;
      await runLifecycle(p, kase.fixture);
      const fromChecks = warnings.filter((m) => kase.warns.some((w) => m.includes(`: ${w.property}: `)));
      expect(warnings).toEqual(fromChecks);
      acc.record({ check: "lenient program", kind: kase.kind, status: "passed", detail: name });
    } catch (err) {
      acc.record({
        check: "lenient program",
        kind: kase.kind,
        status: "failed",
        detail: `${name}: ${String(err)}`,
      });
      throw err;
    }
  });
});

describe("the validation audit", () => {
  test.each(AUDIT.map((row) => [row.rule, row] as const))("%s", async (rule, row) => {
    const kind = `validation: ${rule}`;
    if (row.ownOnly && !acc.own) {
      acc.record({
        check: "audit",
        kind,
        status: "passed",
        detail: `not sent to a live server: ${row.ownOnly}`,
      });
      return;
    }
    if (row.path(c) === `/api/accounts/${c.account.id}`) {
      // Settings as they are now (another file may change them): the row changes only its own.
      c.account = ((await must("GET", "/api/accounts")) as AuditContext["account"][])[0]!;
    }
    const body = row.body?.(c);
    const path = row.path(c);
    const answer = await send(row.method, path, body, row.raw?.(c));
    const message = String((answer.body as { message?: unknown })?.message ?? "").slice(0, 120);
    if (answer.status === 200 && row.method === "POST") {
      const id =
        (answer.body as { id?: unknown; personal_access_token?: { id?: unknown } }).id ??
        (answer.body as { personal_access_token?: { id?: unknown } }).personal_access_token?.id;
      if (id !== undefined) created.push(`${path}/${String(id)}`);
    }
    if ("stored" in row.expect) {
      expect([answer.status, message]).toEqual([200, ""]);
      row.expect.stored(answer.body, c, body);
      acc.record({ check: "audit", kind, status: "passed", detail: "stored" });
      return;
    }
    if (acc.own) {
      expect(answer.status).toBe(row.expect.refused);
      if (row.expect.field) expect(message.startsWith(`${row.expect.field}:`)).toBe(true);
    }
    acc.record({
      check: "audit",
      kind,
      status: "passed",
      detail: `ours: ${row.expect.refused}; target answered ${answer.status}${message ? ` ${message}` : ""}`,
    });
  });
});
