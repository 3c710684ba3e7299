/**
 * The validation audit of docs/validation.md as requests: for each rule our server or provider made that the spec
 * does not state, the request that tests it against a server.
 *
 * - `stored` rows: values the service accepts. Every server must answer 200 and store what `stored` checks (the
 *   relaxed rules: what was refused is now stored, or warned of at preview).
 * - `refused` rows: rules we keep although the service does not enforce them (it loses data, stores a reference
 *   to nothing, fails with a 500, or the rule guards a hazard). Our server must answer `status`; a live server's
 *   answer is recorded (the acceptance summary prints it), not judged.
 *
 * Rows marked `ownOnly` are not sent to a live server, with the reason (they would change the owner's password, or
 * make the service drop the connection).
 */
import { randomBytes } from "node:crypto";

export interface Answer {
  status: number;
  body: any;
}

export interface AuditContext {
  all: string;
  g1: string;
  g2: string;
  net: string;
  zone: { id: string; domain: string };
  resource: string;
  owner: string;
  account: { id: string; settings: Record<string, unknown> };
  oidcIssuer: string;
  unique(prefix: string): string;
}

export interface AuditRow {
  rule: string;
  method: "POST" | "PUT" | "GET";
  path: (c: AuditContext) => string;
  body?: (c: AuditContext) => unknown;
  /** Raw JSON text instead of `body` (a `__proto__` key). */
  raw?: (c: AuditContext) => string;
  expect: { stored: (answer: any, c: AuditContext, sent: any) => void } | { refused: number; field?: string };
  ownOnly?: string;
}

const TAG = `${process.pid}${randomBytes(2).toString("hex")}`;
let n = 0;
export const auditUnique = (prefix: string) => `${prefix}-${TAG}-${++n}`;

const rule = (c: AuditContext, o: Record<string, unknown> = {}) => ({
  name: "r",
  enabled: true,
  action: "accept",
  bidirectional: true,
  protocol: "all",
  sources: [c.g1],
  destinations: [c.g2],
  ...o,
});
const policy = (c: AuditContext, o: Record<string, unknown> = {}, r: Record<string, unknown> = {}) => ({
  name: c.unique("p"),
  enabled: true,
  rules: [rule(c, r)],
  ...o,
});
let octet = 0;
const route = (c: AuditContext, o: Record<string, unknown> = {}) => ({
  description: "",
  network_id: c.unique("n").slice(0, 40),
  enabled: true,
  peer_groups: [c.g1],
  network: `10.${200 + (++octet % 50)}.${n % 250}.0/24`,
  metric: 9999,
  masquerade: true,
  groups: [c.g2],
  keep_route: false,
  ...o,
});
const ns = (c: AuditContext, o: Record<string, unknown> = {}) => ({
  name: c.unique("ns").slice(0, 40),
  description: "",
  nameservers: [{ ip: "192.0.2.53", ns_type: "udp", port: 53 }],
  enabled: true,
  groups: [c.g1],
  primary: true,
  domains: [],
  search_domains_enabled: false,
  ...o,
});
const key = (c: AuditContext, o: Record<string, unknown> = {}) => ({
  name: c.unique("k"),
  type: "reusable",
  expires_in: 86400,
  auto_groups: [],
  usage_limit: 0,
  ...o,
});
const res = (c: AuditContext, o: Record<string, unknown> = {}) => ({
  name: c.unique("res"),
  address: "10.201.0.9",
  enabled: true,
  groups: [c.g1],
  ...o,
});
const pc = (c: AuditContext, o: Record<string, unknown> = {}) => ({
  name: c.unique("pc"),
  description: "",
  checks: { nb_version_check: { min_version: "0.28.0" } },
  ...o,
});
const zone = (c: AuditContext, o: Record<string, unknown> = {}) => ({
  name: "z",
  domain: `${c.unique("z")}.example.com`,
  enable_search_domain: false,
  distribution_groups: [c.g1],
  ...o,
});
const invite = (c: AuditContext, o: Record<string, unknown> = {}) => ({
  email: `${c.unique("i")}@example.com`,
  name: "invited",
  role: "user",
  auto_groups: [],
  ...o,
});
const idp = (c: AuditContext, o: Record<string, unknown> = {}) => ({
  type: "oidc",
  name: c.unique("idp"),
  issuer: c.oidcIssuer,
  client_id: "client",
  client_secret: "secret",
  ...o,
});
const settings = (c: AuditContext, o: Record<string, unknown>) => ({
  settings: { ...c.account.settings, ...o },
});

/** `range` (an IPv4 CIDR range of /31 or wider) with its last address bit set: 100.64.0.0/10 -> 100.64.0.1/10. */
function withHostBit(range: string): string {
  const [ip = "", bits] = range.split("/");
  const octets = ip.split(".").map(Number);
  octets[3] = (octets[3] ?? 0) | 1;
  return `${octets.join(".")}/${bits}`;
}

const P = {
  groups: () => "/api/groups",
  policies: () => "/api/policies",
  postureChecks: () => "/api/posture-checks",
  routes: () => "/api/routes",
  networks: () => "/api/networks",
  resources: (c: AuditContext) => `/api/networks/${c.net}/resources`,
  routers: (c: AuditContext) => `/api/networks/${c.net}/routers`,
  nameservers: () => "/api/dns/nameservers",
  zones: () => "/api/dns/zones",
  records: (c: AuditContext) => `/api/dns/zones/${c.zone.id}/records`,
  setupKeys: () => "/api/setup-keys",
  tokens: (c: AuditContext) => `/api/users/${c.owner}/tokens`,
  users: () => "/api/users",
  invites: () => "/api/users/invites",
  idps: () => "/api/identity-providers",
  account: (c: AuditContext) => `/api/accounts/${c.account.id}`,
  dnsSettings: () => "/api/dns/settings",
};

const field = (f: string, v: unknown) => (a: any) => expect(a[f]).toEqual(v);
const setting = (f: string, v: unknown) => (a: any) => expect(a.settings[f]).toEqual(v);
const ok = () => {};

/** Names that read differently from what they are (made unique with `u`), each stored as given. */
const ODD_NAMES: [string, (u: string) => string][] = [
  ["a tab", (u) => `a\tb${u}`],
  ["NUL", (u) => `a\u0000b${u}`],
  ["a line break", (u) => `a\nb${u}`],
  ["a bidi override (U+202E)", (u) => `a\u202eb${u}`],
  ["a zero width space", (u) => `a\u200bb${u}`],
  ["a byte order mark", (u) => `\ufeffa${u}`],
  ["a leading space", (u) => ` lead${u}`],
  ["a trailing space", (u) => `trail${u} `],
];
const sameName = (a: any, _c: AuditContext, sent: any) => expect(a.name).toBe(sent.name);

export const AUDIT: AuditRow[] = [
  // The three refusals of the issue.
  {
    rule: "network resource in the built-in All group",
    method: "POST",
    path: P.resources,
    body: (c) => res(c, { groups: [c.all] }),
    expect: { stored: (a, c) => expect(a.groups.map((g: { id: string }) => g.id)).toEqual([c.all]) },
  },
  {
    rule: "JWT groups on without a claim name",
    method: "PUT",
    path: P.account,
    body: (c) => settings(c, { jwt_groups_enabled: true, jwt_groups_claim_name: "" }),
    expect: {
      stored: (a) =>
        expect(a.settings).toMatchObject({ jwt_groups_enabled: true, jwt_groups_claim_name: "" }),
    },
  },
  ...[1, 60, 1800].map((s): AuditRow => ({
    rule: `setup key expires_in ${s} (documented: at least 86400)`,
    method: "POST",
    path: P.setupKeys,
    body: (c) => key(c, { expires_in: s }),
    expect: {
      stored: (a) => expect(Date.parse(a.expires) - Date.parse(a.updated_at)).toBeLessThan((s + 2) * 1000),
    },
  })),
  // Setup keys.
  {
    rule: "setup key expires_in 0: never expires",
    method: "POST",
    path: P.setupKeys,
    body: (c) => key(c, { expires_in: 0 }),
    expect: { stored: (a) => expect(a).toMatchObject({ expires: "0001-01-01T00:00:00Z", valid: true }) },
  },
  {
    rule: "setup key expires_in above 31536000",
    method: "POST",
    path: P.setupKeys,
    body: (c) => key(c, { expires_in: 31536001 }),
    expect: { stored: ok },
  },
  {
    rule: "setup key expires_in negative",
    method: "POST",
    path: P.setupKeys,
    body: (c) => key(c, { expires_in: -5 }),
    expect: { refused: 422, field: "expires_in" },
  },
  {
    rule: "setup key expires_in beyond a 64-bit nanosecond count",
    method: "POST",
    path: P.setupKeys,
    body: (c) => key(c, { expires_in: 2 ** 53 }),
    expect: { refused: 422, field: "expires_in" },
  },
  {
    rule: "setup key usage_limit negative",
    method: "POST",
    path: P.setupKeys,
    body: (c) => key(c, { usage_limit: -1 }),
    expect: { stored: field("usage_limit", -1) },
  },
  {
    rule: "setup key auto_groups with an id twice",
    method: "POST",
    path: P.setupKeys,
    body: (c) => key(c, { auto_groups: [c.g1, c.g1] }),
    expect: { stored: ok },
  },
  // Names.
  ...ODD_NAMES.map(([what, name]): AuditRow => ({
    rule: `group name with ${what}`,
    method: "POST",
    path: P.groups,
    body: (c) => ({ name: name(c.unique("")) }),
    expect: { stored: sameName },
  })),
  {
    rule: "group name ' All'",
    method: "POST",
    path: P.groups,
    body: () => ({ name: " All" }),
    expect: { stored: field("name", " All") },
    ownOnly: "a second run on the same account would meet the first one's group",
  },
  {
    rule: "group name of 1000 characters",
    method: "POST",
    path: P.groups,
    body: (c) => ({ name: c.unique("g").padEnd(1000, "x") }),
    expect: { stored: (a) => expect(a.name).toHaveLength(1000) },
  },
  {
    rule: "policy name with a tab",
    method: "POST",
    path: P.policies,
    body: (c) => policy(c, { name: `p\t${c.unique("")}` }),
    expect: { stored: ok },
  },
  {
    rule: "rule name empty",
    method: "POST",
    path: P.policies,
    body: (c) => policy(c, {}, { name: "" }),
    expect: { stored: (a) => expect(a.rules[0].name).toBe("") },
  },
  {
    rule: "rule name with a trailing space",
    method: "POST",
    path: P.policies,
    body: (c) => policy(c, {}, { name: "r " }),
    expect: { stored: (a) => expect(a.rules[0].name).toBe("r ") },
  },
  {
    rule: "posture check name with a leading space",
    method: "POST",
    path: P.postureChecks,
    body: (c) => pc(c, { name: ` ${c.unique("pc")}` }),
    expect: { stored: ok },
  },
  {
    rule: "network name empty",
    method: "POST",
    path: P.networks,
    body: () => ({ name: "" }),
    expect: { stored: field("name", "") },
  },
  {
    rule: "network name with a trailing space",
    method: "POST",
    path: P.networks,
    body: (c) => ({ name: `${c.unique("n")} ` }),
    expect: { stored: ok },
  },
  {
    rule: "network resource name empty",
    method: "POST",
    path: P.resources,
    body: (c) => res(c, { name: "" }),
    expect: { stored: field("name", "") },
  },
  {
    rule: "network resource name with a tab",
    method: "POST",
    path: P.resources,
    body: (c) => res(c, { name: `r\t${c.unique("")}` }),
    expect: { stored: ok },
  },
  {
    rule: "route network_id with a tab",
    method: "POST",
    path: P.routes,
    body: (c) => route(c, { network_id: "a\tb" }),
    expect: { stored: field("network_id", "a\tb") },
  },
  {
    rule: "route network_id with a leading space",
    method: "POST",
    path: P.routes,
    body: (c) => route(c, { network_id: " ab" }),
    expect: { stored: field("network_id", " ab") },
  },
  {
    rule: "nameserver group name with a tab",
    method: "POST",
    path: P.nameservers,
    body: (c) => ns(c, { name: `n\t${c.unique("").slice(-6)}` }),
    expect: { stored: ok },
  },
  {
    rule: "DNS zone name with a tab",
    method: "POST",
    path: P.zones,
    body: (c) => zone(c, { name: "z\tz" }),
    expect: { stored: field("name", "z\tz") },
  },
  {
    rule: "token name with a tab",
    method: "POST",
    path: P.tokens,
    body: () => ({ name: "t\tt", expires_in: 1 }),
    expect: { stored: ok },
  },
  {
    rule: "token name of 256 characters",
    method: "POST",
    path: P.tokens,
    body: () => ({ name: "t".repeat(256), expires_in: 1 }),
    expect: { stored: ok },
  },
  {
    rule: "setup key name with a leading space",
    method: "POST",
    path: P.setupKeys,
    body: (c) => key(c, { name: " k" }),
    expect: { stored: field("name", " k") },
  },
  {
    rule: "identity provider name with a tab",
    method: "POST",
    path: P.idps,
    body: (c) => idp(c, { name: `i\t${c.unique("")}` }),
    expect: { stored: ok },
  },
  {
    rule: "invite name with a tab",
    method: "POST",
    path: P.invites,
    body: (c) => invite(c, { name: "i\ti" }),
    expect: { stored: field("name", "i\ti") },
  },
  // Policies.
  {
    rule: "rule without sources",
    method: "POST",
    path: P.policies,
    body: (c) => policy(c, {}, { sources: [] }),
    expect: { stored: ok },
  },
  {
    rule: "rule without destinations",
    method: "POST",
    path: P.policies,
    body: (c) => policy(c, {}, { destinations: [] }),
    expect: { stored: ok },
  },
  {
    rule: "rule sources with an id twice",
    method: "POST",
    path: P.policies,
    body: (c) => policy(c, {}, { sources: [c.g1, c.g1] }),
    expect: { stored: ok },
  },
  {
    rule: "rule port range with end below start",
    method: "POST",
    path: P.policies,
    body: (c) => policy(c, {}, { protocol: "tcp", port_ranges: [{ start: 90, end: 80 }] }),
    expect: { stored: (a) => expect(a.rules[0].port_ranges).toEqual([{ start: 90, end: 80 }]) },
  },
  // Ranges and domains.
  {
    rule: "posture check range with host bits set",
    method: "POST",
    path: P.postureChecks,
    body: (c) =>
      pc(c, { checks: { peer_network_range_check: { ranges: ["192.168.1.1/24"], action: "allow" } } }),
    expect: { stored: (a) => expect(a.checks.peer_network_range_check.ranges).toEqual(["192.168.1.1/24"]) },
  },
  {
    rule: "route network with host bits set",
    method: "POST",
    path: P.routes,
    body: (c) => route(c, { network: "10.250.7.1/16" }),
    expect: { stored: field("network", "10.250.0.0/16") },
  },
  {
    rule: "route network 10.0.0.0/0",
    method: "POST",
    path: P.routes,
    body: (c) => route(c, { network: "10.0.0.0/0" }),
    expect: { stored: field("network", "0.0.0.0/0") },
  },
  {
    rule: "route domain internationalized",
    method: "POST",
    path: P.routes,
    body: (c) => route(c, { network: undefined, domains: ["bücher.example"] }),
    expect: { stored: ok },
  },
  {
    rule: "route groups with an id twice",
    method: "POST",
    path: P.routes,
    body: (c) => route(c, { groups: [c.g2, c.g2] }),
    expect: { stored: ok },
  },
  {
    rule: "route access_control_groups with an id twice",
    method: "POST",
    path: P.routes,
    body: (c) => route(c, { access_control_groups: [c.g1, c.g1] }),
    expect: { stored: ok },
  },
  {
    rule: "network resource address internationalized",
    method: "POST",
    path: P.resources,
    body: (c) => res(c, { address: "bücher.example" }),
    expect: { stored: field("type", "domain") },
  },
  {
    rule: "network resource groups with an id twice",
    method: "POST",
    path: P.resources,
    body: (c) => res(c, { groups: [c.g1, c.g1] }),
    expect: { stored: ok },
  },
  {
    rule: "network router peer_groups with an id twice",
    method: "POST",
    path: P.routers,
    body: (c) => ({ peer_groups: [c.g1, c.g1], metric: 1, masquerade: true, enabled: true }),
    expect: { stored: ok },
  },
  {
    rule: "nameserver port 0",
    method: "POST",
    path: P.nameservers,
    body: (c) => ns(c, { nameservers: [{ ip: "192.0.2.53", ns_type: "udp", port: 0 }] }),
    expect: { stored: (a) => expect(a.nameservers[0].port).toBe(0) },
  },
  {
    rule: "nameserver port 70000",
    method: "POST",
    path: P.nameservers,
    body: (c) => ns(c, { nameservers: [{ ip: "192.0.2.53", ns_type: "udp", port: 70000 }] }),
    expect: { stored: (a) => expect(a.nameservers[0].port).toBe(70000) },
  },
  {
    rule: "nameserver port negative",
    method: "POST",
    path: P.nameservers,
    body: (c) => ns(c, { nameservers: [{ ip: "192.0.2.53", ns_type: "udp", port: -1 }] }),
    expect: { refused: 422, field: "nameservers[0].port" },
  },
  {
    rule: "nameserver match domain internationalized",
    method: "POST",
    path: P.nameservers,
    body: (c) => ns(c, { primary: false, domains: ["bücher.example"] }),
    expect: { stored: ok },
  },
  {
    rule: "nameserver groups with an id twice",
    method: "POST",
    path: P.nameservers,
    body: (c) => ns(c, { groups: [c.g1, c.g1] }),
    expect: { stored: ok },
  },
  {
    rule: "DNS zone domain of one label",
    method: "POST",
    path: P.zones,
    body: (c) => zone(c, { domain: c.unique("z") }),
    expect: { stored: ok },
  },
  {
    rule: "DNS zone domain with a numeric top-level label",
    method: "POST",
    path: P.zones,
    body: (c) => zone(c, { domain: `${c.unique("z")}.1` }),
    expect: { stored: ok },
  },
  {
    rule: "DNS zone distribution_groups with an id twice",
    method: "POST",
    path: P.zones,
    body: (c) => zone(c, { distribution_groups: [c.g1, c.g1] }),
    expect: { stored: ok },
  },
  {
    rule: "CNAME record to an IP address",
    method: "POST",
    path: P.records,
    body: (c) => ({ name: `${c.unique("c")}.${c.zone.domain}`, type: "CNAME", content: "10.0.0.1", ttl: 60 }),
    expect: { stored: field("content", "10.0.0.1") },
  },
  {
    rule: "DNS settings with an id twice",
    method: "PUT",
    path: P.dnsSettings,
    body: (c) => ({ disabled_management_groups: [c.g1, c.g1] }),
    expect: { stored: ok },
  },
  // Users and invites.
  {
    rule: "service user without a name",
    method: "POST",
    path: P.users,
    body: () => ({ role: "user", auto_groups: [], is_service_user: true }),
    expect: { stored: field("name", "") },
  },
  {
    rule: "service user with an email address (ignored)",
    method: "POST",
    path: P.users,
    body: (c) => ({
      name: c.unique("s"),
      email: `${c.unique("s")}@example.com`,
      role: "user",
      auto_groups: [],
      is_service_user: true,
    }),
    expect: { stored: field("email", "") },
  },
  {
    rule: "invite expires_in of a year",
    method: "POST",
    path: P.invites,
    body: (c) => invite(c, { expires_in: 31536000 }),
    expect: { stored: ok },
  },
  {
    rule: "invite expires_in 0: the default 72 hours",
    method: "POST",
    path: P.invites,
    body: (c) => invite(c, { expires_in: 0 }),
    expect: {
      stored: (a) =>
        expect(Math.round((Date.parse(a.expires_at) - Date.parse(a.created_at)) / 3600_000)).toBe(72),
    },
  },
  {
    rule: "invite expires_in negative: the default 72 hours",
    method: "POST",
    path: P.invites,
    body: (c) => invite(c, { expires_in: -1 }),
    expect: {
      stored: (a) =>
        expect(Math.round((Date.parse(a.expires_at) - Date.parse(a.created_at)) / 3600_000)).toBe(72),
    },
  },
  {
    rule: "invite expires_in below an hour",
    method: "POST",
    path: P.invites,
    body: (c) => invite(c, { expires_in: 60 }),
    expect: { refused: 422, field: "expires_in" },
  },
  {
    rule: "invite email that is no address",
    method: "POST",
    path: P.invites,
    body: (c) => invite(c, { email: c.unique("not-an-address") }),
    expect: { stored: ok },
  },
  // Account settings (restored afterwards).
  ...[60, 0, -1, 31536000].map((v): AuditRow => ({
    rule: `account peer_inactivity_expiration ${v}`,
    method: "PUT",
    path: P.account,
    body: (c) => settings(c, { peer_inactivity_expiration: v }),
    expect: { stored: setting("peer_inactivity_expiration", v) },
  })),
  {
    rule: "account network_range /7",
    method: "PUT",
    path: P.account,
    body: (c) => settings(c, { network_range: "96.0.0.0/7" }),
    expect: { stored: setting("network_range", "96.0.0.0/7") },
    ownOnly: "it would move every peer of the account into another range",
  },
  {
    // The account's own range with a host bit set: stored as that range, so no peer moves.
    rule: "account network_range with host bits set",
    method: "PUT",
    path: P.account,
    body: (c) => settings(c, { network_range: withHostBit(String(c.account.settings.network_range)) }),
    expect: { stored: (a, c) => expect(a.settings.network_range).toBe(c.account.settings.network_range) },
  },
  {
    rule: "account network_range /29",
    method: "PUT",
    path: P.account,
    body: (c) => settings(c, { network_range: "100.64.0.0/29" }),
    expect: { refused: 422, field: "settings.network_range" },
  },
  ...["0.40", "1", "v1", "0.40.1.2", ""].map((v): AuditRow => ({
    rule: `account auto_update_version ${JSON.stringify(v)}`,
    method: "PUT",
    path: P.account,
    body: (c) => settings(c, { auto_update_version: v }),
    expect: { stored: setting("auto_update_version", v) },
  })),
  {
    rule: "account peer_expose_groups with an id twice",
    method: "PUT",
    path: P.account,
    body: (c) => settings(c, { peer_expose_groups: [c.g1, c.g1] }),
    expect: { stored: ok },
  },
  // Identity providers.
  {
    rule: "identity provider client_id of 256 characters",
    method: "POST",
    path: P.idps,
    body: (c) => idp(c, { client_id: "c".repeat(256) }),
    expect: { stored: ok },
  },
  {
    rule: "identity provider with an empty client secret",
    method: "POST",
    path: P.idps,
    body: (c) => idp(c, { client_secret: "" }),
    expect: { stored: ok },
  },

  // Kept: the service loses data, stores a reference to nothing or a wrong value, or fails.
  {
    rule: "group peers with an unknown id (the service drops it)",
    method: "POST",
    path: P.groups,
    body: (c) => ({ name: c.unique("g"), peers: ["no-such-peer"] }),
    expect: { refused: 422, field: "peers" },
  },
  {
    rule: "group resources with an unknown id (the service stores it)",
    method: "POST",
    path: P.groups,
    body: (c) => ({ name: c.unique("g"), resources: [{ id: "no-such-resource", type: "host" }] }),
    expect: { refused: 422, field: "resources[0].id" },
  },
  {
    rule: "group resource of the wrong type (the service stores the type sent)",
    method: "POST",
    path: P.groups,
    body: (c) => ({ name: c.unique("g"), resources: [{ id: c.resource, type: "subnet" }] }),
    expect: { refused: 422, field: "resources[0].type" },
  },
  {
    rule: "rule sources with an unknown id (the service drops it)",
    method: "POST",
    path: P.policies,
    body: (c) => policy(c, {}, { sources: ["no-such-group"] }),
    expect: { refused: 422, field: "rules[0].sources" },
  },
  {
    rule: "policy posture check unknown (the service drops it)",
    method: "POST",
    path: P.policies,
    body: (c) => policy(c, { source_posture_checks: ["no-such-check"] }),
    expect: { refused: 422, field: "source_posture_checks" },
  },
  {
    rule: "invite auto_groups unknown (the service stores it)",
    method: "POST",
    path: P.invites,
    body: (c) => invite(c, { auto_groups: ["no-such-group"] }),
    expect: { refused: 422, field: "auto_groups" },
  },
  {
    rule: "router peer_groups unknown (the service stores it)",
    method: "POST",
    path: P.routers,
    body: () => ({ peer_groups: ["no-such-group"], metric: 1, masquerade: true, enabled: true }),
    expect: { refused: 422, field: "peer_groups" },
  },
  {
    rule: "account peer_expose_groups unknown (the service stores it)",
    method: "PUT",
    path: P.account,
    body: (c) => settings(c, { peer_expose_groups: ["no-such-group"] }),
    expect: { refused: 422, field: "settings.peer_expose_groups" },
  },
  {
    rule: "invite auto_groups All (the service refuses it on a user's update)",
    method: "POST",
    path: P.invites,
    body: (c) => invite(c, { auto_groups: [c.all] }),
    expect: { refused: 422, field: "auto_groups" },
  },
  {
    rule: "group renamed onto All (the service makes a second All)",
    method: "PUT",
    path: (c) => `/api/groups/${c.g1}`,
    body: () => ({ name: "All" }),
    expect: { refused: 409 },
    ownOnly: "it would leave a second group named All on the service, which accepts the rename",
  },
  {
    rule: "__proto__ key in authorized_groups (lost in a JavaScript map)",
    method: "POST",
    path: P.policies,
    raw: (c) =>
      JSON.stringify(policy(c, {}, { protocol: "tcp", ports: ["22"] })).replace(
        '"ports":["22"]',
        '"ports":["22"],"authorized_groups":{"__proto__":["root"]}',
      ),
    expect: { refused: 422, field: "rules[0].authorized_groups.__proto__" },
  },
  {
    rule: "network resource address that is none (the service answers 500)",
    method: "POST",
    path: P.resources,
    body: (c) => res(c, { address: "not an address!" }),
    expect: { refused: 422, field: "address" },
  },
  {
    rule: "account auto_update_version 'soon' (the service answers 500)",
    method: "PUT",
    path: P.account,
    body: (c) => settings(c, { auto_update_version: "soon" }),
    expect: { refused: 422, field: "settings.auto_update_version" },
  },
  {
    rule: "invite expires_in 1e10 (the service stores an expiry in 1759)",
    method: "POST",
    path: P.invites,
    body: (c) => invite(c, { expires_in: 1e10 }),
    expect: { refused: 422, field: "expires_in" },
  },
  {
    rule: "account peer_inactivity_expiration 2^53 (the service stores it negative)",
    method: "PUT",
    path: P.account,
    body: (c) => settings(c, { peer_inactivity_expiration: 2 ** 53 }),
    expect: { refused: 422, field: "settings.peer_inactivity_expiration" },
  },
  {
    rule: "proxy log page_size 101 (the service answers page 100)",
    method: "GET",
    path: () => "/api/events/proxy?page_size=101",
    expect: { refused: 422, field: "page_size" },
  },
  {
    rule: "proxy log sort_by unknown (the service ignores it)",
    method: "GET",
    path: () => "/api/events/proxy?sort_by=nope",
    expect: { refused: 422, field: "sort_by" },
  },
  {
    rule: "posture check without checks",
    method: "POST",
    path: P.postureChecks,
    body: (c) => ({ name: c.unique("pc"), description: "" }),
    expect: { refused: 422, field: "checks" },
    ownOnly: "the service drops the connection without an answer",
  },
  {
    rule: "password change to 7 characters",
    method: "PUT",
    path: (c) => `/api/users/${c.owner}/password`,
    body: () => ({ old_password: "not-the-password", new_password: "1234567" }),
    expect: { refused: 422, field: "new_password" },
    ownOnly: "it would change the owner's password on the service, which accepts it",
  },
];
