/** No object of spec part 2 is missing from api/, and every field carries a description for the docs. */
import type { z } from "zod";
import { OBJECTS, objectByName } from "../../api/objects";
import { arrayElement, objectShape, pipeSides, recordValue, unionOptions, wrapped } from "../../model/zod";

/** The objects of spec part 2, as the spec names them (2.2 to 2.21), mapped to our registry names. */
const SPEC_PART_2: [section: string, specName: string, ours: string][] = [
  ["2.2", "GroupSummary", "GroupSummary"],
  ["2.8", "Group", "Group"],
  ["2.2", "ResourceRef", "ResourceRef"],
  ["2.3", "Token", "Token"],
  ["2.3", "{plain_token, personal_access_token}", "TokenCreated"],
  ["2.4", "User", "User"],
  ["2.5", "Invite", "Invite"],
  ["2.5", "InviteInfo", "InviteInfo"],
  ["2.6", "Peer", "Peer"],
  ["2.6", "AccessiblePeer", "AccessiblePeer"],
  ["2.6", "TemporaryAccess", "TemporaryAccess"],
  ["2.7", "Job", "Job"],
  ["2.9", "Policy", "Policy"],
  ["2.9", "Rule", "Rule"],
  ["2.10", "PostureCheck", "PostureCheck"],
  ["2.11", "Route", "Route"],
  ["2.12", "Network", "Network"],
  ["2.12", "NetworkResource", "NetworkResource"],
  ["2.12", "NetworkRouter", "NetworkRouter"],
  ["2.13", "NameserverGroup", "NameserverGroup"],
  ["2.13", "DNS settings", "DnsSettings"],
  ["2.13", "DNSZone", "DnsZone"],
  ["2.13", "DNSRecord", "DnsRecord"],
  ["2.14", "SetupKey", "SetupKey"],
  ["2.15", "IdentityProvider", "IdentityProvider"],
  ["2.16", "EDR vendor-a", "EdrSentinelOne"],
  ["2.16", "EDR vendor-b", "EdrIntune"],
  ["2.16", "EDR vendor-c", "EdrVendorC"],
  ["2.17", "vendor-d-idp", "VendorDIdp"],
  ["2.17", "vendor-e-idp", "VendorEIdp"],
  ["2.17", "SyncLog", "SyncLog"],
  ["2.18", "EventStreamingIntegration", "EventStreamingIntegration"],
  ["2.19", "IngressPeer", "IngressPeer"],
  ["2.19", "PortAllocation", "PortAllocation"],
  ["2.20", "Account", "Account"],
  ["2.20", "settings", "AccountSettings"],
  ["2.20", "settings.extra", "AccountExtra"],
  ["2.20", "onboarding", "AccountOnboarding"],
  ["2.21", "AuditEvent", "AuditEvent"],
  ["2.21", "TrafficEvent", "TrafficEvent"],
  ["2.21", "ProxyLogEntry", "ProxyLogEntry"],
];

/** Walks a schema and reports object fields without a description. */
function undescribed(schema: z.ZodType, where: string, out: string[], seen = new Set<unknown>()): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  const shape = objectShape(schema);
  if (shape) {
    for (const [key, field] of Object.entries(shape)) {
      if (!field.description) out.push(`${where}.${key}`);
      undescribed(field, `${where}.${key}`, out, seen);
    }
    return;
  }
  const element = arrayElement(schema);
  if (element) return undescribed(element, `${where}[]`, out, seen);
  const w = wrapped(schema);
  if (w && (w.kind === "optional" || w.kind === "nullable" || w.kind === "default" || w.kind === "readonly"))
    return undescribed(w.inner, where, out, seen);
  const pipe = pipeSides(schema);
  if (pipe) {
    undescribed(pipe.in, where, out, seen);
    return undescribed(pipe.out, where, out, seen);
  }
  const value = recordValue(schema);
  if (value) return undescribed(value, `${where}{}`, out, seen);
  for (const o of unionOptions(schema) ?? []) undescribed(o, where, out, seen);
}

describe("api objects", () => {
  test.each(SPEC_PART_2)("%s %s is in api/ as %s", (section, _spec, ours) => {
    const obj = objectByName(ours);
    expect(obj).toBeDefined();
    expect(obj?.section).toBe(section);
    expect(obj?.schema ?? Object.values(obj?.requests ?? {})[0]).toBeDefined();
  });

  test("every section 2.2 to 2.21 has at least one object", () => {
    const sections = new Set(OBJECTS.map((o) => o.section));
    for (let i = 2; i <= 21; i++) expect(sections).toContain(`2.${i}`);
  });

  test("every field of every object and request body has a description", () => {
    const missing: string[] = [];
    for (const obj of OBJECTS) {
      if (obj.schema) undescribed(obj.schema, obj.name, missing);
      for (const [name, s] of Object.entries(obj.requests)) undescribed(s, name, missing);
    }
    expect(missing).toEqual([]);
  });
});
