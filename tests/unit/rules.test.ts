/**
 * Spec part 7: every validation rule about a single request lives in the schemas. For each rule one accepted
 * and one rejected example; the rejection message must name the field. Advisories (values the service accepts
 * although a document or good sense says otherwise) pass validation with an advisory naming the field
 * (docs/validation.md).
 */
import type { z } from "zod";
import { formatIssues, validate } from "../../api/common";
import { DnsRecordRequestSchema } from "../../api/dns-record";
import { DnsZoneRequestSchema } from "../../api/dns-zone";
import { EdrVendorARequestSchema, EdrVendorBRequestSchema, EdrVendorCRequestSchema } from "../../api/edr";
import { VendorDCreateSchema, VendorECreateSchema, VendorEUpdateSchema } from "../../api/directory-sync";
import { ProxyQuerySchema } from "../../api/events";
import { InviteAcceptSchema } from "../../api/invite";
import { NameserverGroupRequestSchema } from "../../api/nameserver-group";
import { NetworkRouterRequestSchema } from "../../api/network-router";
import { RouteRequestSchema } from "../../api/route";
import { SetupKeyCreateSchema } from "../../api/setup-key";
import { TokenCreateSchema } from "../../api/token";
import { PolicyRequestSchema } from "../../api/policy";
import { PostureCheckRequestSchema } from "../../api/posture-check";
import { GroupRequestSchema } from "../../api/group";

const route = {
  description: "office",
  network_id: "office-net",
  enabled: true,
  peer_groups: ["g1"],
  network: "10.0.0.0/16",
  metric: 100,
  masquerade: true,
  groups: ["g2"],
  keep_route: false,
};
const router = { peer_groups: ["g1"], metric: 10, masquerade: true, enabled: true };
const nsGroup = {
  name: "corp",
  description: "",
  nameservers: [{ ip: "1.1.1.1", ns_type: "udp", port: 53 }],
  enabled: true,
  groups: ["g1"],
  primary: false,
  domains: ["corp.example"],
  search_domains_enabled: true,
};
const zone = {
  name: "internal",
  domain: "internal.example",
  enable_search_domain: false,
  distribution_groups: ["g1"],
};
const record = { name: "db.internal.example", type: "A", content: "10.0.0.5", ttl: 300 };
const setupKey = { name: "ci", type: "reusable", expires_in: 86400, auto_groups: [], usage_limit: 0 };
const edrA = {
  groups: ["g1"],
  last_synced_interval: 24,
  api_token: "t0ken",
  api_url: "https://edr.example.com",
  match_attributes: {},
};
const edrB = { groups: ["g1"], last_synced_interval: 24, client_id: "c", tenant_id: "t", secret: "s" };
const edrC = { groups: ["g1"], client_id: "c", secret: "s", cloud_id: "eu-1", zta_score_threshold: 100 };
const dirD = { service_account_key: "c2VjcmV0", customer_id: "C01", sync_interval: 300 };
const dirE = {
  client_secret: "c2VjcmV0",
  client_id: "id",
  tenant_id: "t",
  host: "api.example.com",
  sync_interval: 300,
};
const rule = {
  name: "r",
  enabled: true,
  action: "accept",
  bidirectional: true,
  protocol: "tcp",
  sources: ["g1"],
  destinations: ["g2"],
};
const policy = (r: object) => ({ name: "p", enabled: true, rules: [{ ...rule, ...r }] });

type Case = [rule: string, schema: z.ZodType, accepted: unknown, rejected: unknown, field: string];

const cases: Case[] = [
  [
    "1 route: peer and peer_groups not together",
    RouteRequestSchema,
    route,
    { ...route, peer: "p1" },
    "peer_groups",
  ],
  [
    "1 router: peer and peer_groups not together",
    NetworkRouterRequestSchema,
    router,
    { ...router, peer: "p1" },
    "peer_groups",
  ],
  [
    "2 route: network and domains not together",
    RouteRequestSchema,
    { ...route, network: undefined, domains: ["a.example"] },
    { ...route, domains: ["a.example"] },
    "domains",
  ],
  [
    "2 route: at most 32 domains",
    RouteRequestSchema,
    { ...route, network: undefined, domains: Array.from({ length: 32 }, (_, i) => `d${i}.example`) },
    { ...route, network: undefined, domains: Array.from({ length: 33 }, (_, i) => `d${i}.example`) },
    "domains",
  ],
  ["2 route: metric >= 1", RouteRequestSchema, { ...route, metric: 1 }, { ...route, metric: 0 }, "metric"],
  [
    "2 route: metric <= 9999",
    RouteRequestSchema,
    { ...route, metric: 9999 },
    { ...route, metric: 10000 },
    "metric",
  ],
  [
    "2 router: metric 1..9999",
    NetworkRouterRequestSchema,
    { ...router, metric: 9999 },
    { ...router, metric: 0 },
    "metric",
  ],
  [
    "2 route: network_id >= 1 character",
    RouteRequestSchema,
    { ...route, network_id: "a" },
    { ...route, network_id: "" },
    "network_id",
  ],
  [
    "2 route: network_id <= 40 characters",
    RouteRequestSchema,
    { ...route, network_id: "a".repeat(40) },
    { ...route, network_id: "a".repeat(41) },
    "network_id",
  ],
  [
    "3 nameservers: at least 1",
    NameserverGroupRequestSchema,
    nsGroup,
    { ...nsGroup, nameservers: [] },
    "nameservers",
  ],
  [
    "3 nameservers: at most 3",
    NameserverGroupRequestSchema,
    { ...nsGroup, nameservers: Array(3).fill(nsGroup.nameservers[0]) },
    { ...nsGroup, nameservers: Array(4).fill(nsGroup.nameservers[0]) },
    "nameservers",
  ],
  [
    "3 nameserver group: name 1..40",
    NameserverGroupRequestSchema,
    { ...nsGroup, name: "n".repeat(40) },
    { ...nsGroup, name: "n".repeat(41) },
    "name",
  ],
  [
    "3 nameserver group: name not empty",
    NameserverGroupRequestSchema,
    { ...nsGroup, name: "n" },
    { ...nsGroup, name: "" },
    "name",
  ],
  [
    "3 primary only when domains empty",
    NameserverGroupRequestSchema,
    { ...nsGroup, primary: true, domains: [], search_domains_enabled: false },
    { ...nsGroup, primary: true },
    "primary",
  ],
  [
    "3 domains empty only when primary",
    NameserverGroupRequestSchema,
    { ...nsGroup, primary: true, domains: [], search_domains_enabled: false },
    { ...nsGroup, primary: false, domains: [], search_domains_enabled: false },
    "domains",
  ],
  [
    "3 search_domains_enabled only with domains",
    NameserverGroupRequestSchema,
    nsGroup,
    { ...nsGroup, primary: true, domains: [], search_domains_enabled: true },
    "search_domains_enabled",
  ],
  [
    "4 zone: name 1..255",
    DnsZoneRequestSchema,
    { ...zone, name: "z".repeat(255) },
    { ...zone, name: "z".repeat(256) },
    "name",
  ],
  ["4 zone: name not empty", DnsZoneRequestSchema, zone, { ...zone, name: "" }, "name"],
  [
    "4 record: content 1..255",
    DnsRecordRequestSchema,
    {
      ...record,
      type: "CNAME",
      content: `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`,
    },
    { ...record, type: "CNAME", content: `${"a".repeat(63)}.`.repeat(4) + "e" },
    "content",
  ],
  ["4 record: content not empty", DnsRecordRequestSchema, record, { ...record, content: "" }, "content"],
  // The documented 86400 to 31536000 is an advisory (see the advisories below): the service refuses only a
  // negative lifetime, and one longer than it can compute.
  [
    "5 setup key: expires_in not negative",
    SetupKeyCreateSchema,
    { ...setupKey, expires_in: 0 },
    { ...setupKey, expires_in: -1 },
    "expires_in",
  ],
  [
    "5 setup key: expires_in within what the service computes",
    SetupKeyCreateSchema,
    { ...setupKey, expires_in: 9223372036 },
    { ...setupKey, expires_in: 9223372037 },
    "expires_in",
  ],
  [
    "6 token: expires_in >= 1 day",
    TokenCreateSchema,
    { name: "ci", expires_in: 1 },
    { name: "ci", expires_in: 0 },
    "expires_in",
  ],
  [
    "6 token: expires_in <= 365 days",
    TokenCreateSchema,
    { name: "ci", expires_in: 365 },
    { name: "ci", expires_in: 366 },
    "expires_in",
  ],
  [
    "7 EDR vendor-a: last_synced_interval >= 24",
    EdrVendorARequestSchema,
    edrA,
    { ...edrA, last_synced_interval: 23 },
    "last_synced_interval",
  ],
  [
    "7 EDR vendor-b: last_synced_interval >= 24",
    EdrVendorBRequestSchema,
    edrB,
    { ...edrB, last_synced_interval: 12 },
    "last_synced_interval",
  ],
  [
    "7 EDR vendor-c: zta_score_threshold <= 100",
    EdrVendorCRequestSchema,
    edrC,
    { ...edrC, zta_score_threshold: 101 },
    "zta_score_threshold",
  ],
  [
    "7 directory sync vendor-d: sync_interval >= 300",
    VendorDCreateSchema,
    dirD,
    { ...dirD, sync_interval: 299 },
    "sync_interval",
  ],
  [
    "7 directory sync vendor-e: sync_interval >= 300",
    VendorECreateSchema,
    dirE,
    { ...dirE, sync_interval: 60 },
    "sync_interval",
  ],
  [
    "8 invite accept: password >= 8 characters",
    InviteAcceptSchema,
    { password: "12345678" },
    { password: "1234567" },
    "password",
  ],
  [
    "9 proxy logs: page_size <= 100",
    ProxyQuerySchema,
    { page_size: "100" },
    { page_size: "101" },
    "page_size",
  ],
  // Rules the service applies that part 7 implies for single bodies.
  [
    "rule: ports and port_ranges not together",
    PolicyRequestSchema,
    policy({ ports: ["22"] }),
    policy({ ports: ["22"], port_ranges: [{ start: 80, end: 90 }] }),
    "port_ranges",
  ],
  [
    "value: posture check checks something",
    PostureCheckRequestSchema,
    { name: "pc", description: "", checks: { nb_version_check: { min_version: "0.28.0" } } },
    { name: "pc", description: "", checks: {} },
    "checks",
  ],
  [
    "directory sync vendor-e: host not accepted on update",
    VendorEUpdateSchema,
    { enabled: false },
    { host: "other.example.com" },
    "host",
  ],
];

/** [what, schema, value accepted with an advisory, field the advisory names, what it says]. */
type Advisory = [what: string, schema: z.ZodType, value: unknown, field: string, says: RegExp];

const advisories: Advisory[] = [
  [
    "setup key: documented lower bound",
    SetupKeyCreateSchema,
    { ...setupKey, expires_in: 60 },
    "expires_in",
    /86400 to 31536000/,
  ],
  [
    "setup key: documented upper bound",
    SetupKeyCreateSchema,
    { ...setupKey, expires_in: 31536001 },
    "expires_in",
    /outside the documented range/,
  ],
  [
    "setup key: 0 never expires",
    SetupKeyCreateSchema,
    { ...setupKey, expires_in: 0 },
    "expires_in",
    /never expires/,
  ],
  [
    "setup key: negative usage limit",
    SetupKeyCreateSchema,
    { ...setupKey, usage_limit: -1 },
    "usage_limit",
    /is -1/,
  ],
  [
    "rule: port range end below start",
    PolicyRequestSchema,
    policy({ port_ranges: [{ start: 90, end: 80 }] }),
    "rules[0].port_ranges[0].end",
    /holds no port/,
  ],
  [
    "rule: no sources",
    PolicyRequestSchema,
    policy({ sources: [] }),
    "rules[0].sources",
    /matches no traffic/,
  ],
  [
    "rule: no destinations",
    PolicyRequestSchema,
    policy({ destinations: [] }),
    "rules[0].destinations",
    /matches no traffic/,
  ],
  [
    "id list: the same id twice",
    RouteRequestSchema,
    { ...route, groups: ["g2", "g2"] },
    "groups[1]",
    /lists g2 again/,
  ],
  ["zone domain: a number", DnsZoneRequestSchema, { ...zone, domain: "1" }, "domain", /one label/],
  ["zone domain: one label", DnsZoneRequestSchema, { ...zone, domain: "NaN" }, "domain", /one label/],
  [
    "zone domain: numeric top-level label",
    DnsZoneRequestSchema,
    { ...zone, domain: "10.example.1" },
    "domain",
    /numeric/,
  ],
  [
    "route network: host bits",
    RouteRequestSchema,
    { ...route, network: "10.0.0.0/0" },
    "network",
    /is 0\.0\.0\.0\/0/,
  ],
  [
    "route network: IPv6 host bits",
    RouteRequestSchema,
    { ...route, network: "fd00:1::1/64" },
    "network",
    /fd00:1::\/64/,
  ],
  ["name: leading space", GroupRequestSchema, { name: " All" }, "name", /white space/],
  ["name: NUL", GroupRequestSchema, { name: "a\u0000b" }, "name", /U\+0000/],
  ["name: bidi control", GroupRequestSchema, { name: "a\u202eb" }, "name", /U\+202E/],
  ["name: a rule's too", PolicyRequestSchema, policy({ name: "r " }), "rules[0].name", /white space/],
  ["name: an empty rule name", PolicyRequestSchema, policy({ name: "" }), "rules[0].name", /is empty/],
  [
    "nameserver: port 0",
    NameserverGroupRequestSchema,
    { ...nsGroup, nameservers: [{ ip: "1.1.1.1", ns_type: "udp", port: 0 }] },
    "nameservers[0].port",
    /1 to 65535/,
  ],
  [
    "record: a CNAME to an address",
    DnsRecordRequestSchema,
    { ...record, type: "CNAME", content: "10.0.0.1" },
    "content",
    /IP address/,
  ],
];

describe("advisories: accepted, and reported with the field", () => {
  test.each(advisories)("%s", (_what, schema, value, field, says) => {
    const r = validate(schema, value);
    if (!r.ok) throw new Error(`refused: ${r.message}`);
    const named = r.advice.filter((i) => formatIssues([i]).startsWith(`${field}: `));
    expect(named.map((i) => i.message).join("; ")).toMatch(says);
    // A plain parse of the same schema passes the value: advisories exist only while validate collects them.
    expect(schema.safeParse(value).success).toBe(true);
  });

  test("an ordinary value raises no advisory", () => {
    for (const [schema, value] of [
      [SetupKeyCreateSchema, setupKey],
      [PolicyRequestSchema, policy({ port_ranges: [{ start: 80, end: 80 }] })],
      [RouteRequestSchema, route],
      [DnsZoneRequestSchema, zone],
      [GroupRequestSchema, { name: "All servers" }],
    ] as const)
      expect(validate(schema, value).advice).toEqual([]);
  });

  test("an advisory does not hide an error in the same body", () => {
    const r = validate(SetupKeyCreateSchema, { ...setupKey, expires_in: 60, usage_limit: "x" });
    expect(r.ok).toBe(false);
    expect(r.ok ? "" : r.message).toBe("usage_limit: must be a number");
    expect(r.advice.map((i) => formatIssues([i]))).toEqual([expect.stringMatching(/^expires_in: is 60/)]);
  });
});

describe("spec part 7 body rules", () => {
  test.each(cases)("%s", (_rule, schema, accepted, rejected, field) => {
    const ok = validate(schema, accepted);
    if (!ok.ok) throw new Error(`accepted example was rejected: ${ok.message}`);
    const bad = validate(schema, rejected);
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    // The message starts with the path of the field, e.g. "metric: must be between 1 and 9999".
    expect(bad.message).toMatch(new RegExp(`(^|[.\\]; ])${field}(:|\\b)`));
    process.stdout.write("");
  });

  test("every part 7 rule number 1-9 has at least one case", () => {
    const numbers = new Set(cases.map(([r]) => r.split(" ")[0]));
    for (const n of ["1", "2", "3", "4", "5", "6", "7", "8", "9"]) expect(numbers).toContain(n);
  });

  test("messages read as field: reason", () => {
    const r = validate(RouteRequestSchema, { ...route, metric: 0 });
    expect(r.ok ? "" : r.message).toBe("metric: must be between 1 and 9999");
    const missing = validate(RouteRequestSchema, { ...route, groups: undefined });
    expect(missing.ok ? "" : missing.message).toBe("groups: is required");
  });
});
