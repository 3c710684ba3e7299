/** DNS record (spec 2.13): an A, AAAA or CNAME record in a custom zone. */
import {
  advise,
  domainName,
  intMin,
  isDomain,
  isIP,
  isIPv4,
  isIPv6,
  issue,
  openEnum,
  strLen,
  z,
} from "./common";

export const RecordType = openEnum(["A", "AAAA", "CNAME"], "Record type");

const recordFields = {
  name: domainName(true).describe("Record name: the zone domain or a subdomain of it (FQDN)"),
  type: RecordType,
  content: strLen(1, 255).describe(
    "Record content, 1 to 255 characters: an IPv4 for A, IPv6 for AAAA, a domain for CNAME",
  ),
  ttl: intMin(0, "seconds").describe("Time to live in seconds"),
};

export const DnsRecordRequestSchema = z
  .object(recordFields)
  .superRefine((r, ctx) => {
    if (typeof r.content !== "string" || r.content.length === 0) return;
    if (r.type === "A" && !isIPv4(r.content))
      issue(ctx, ["content"], "must be an IPv4 address for an A record");
    if (r.type === "AAAA" && !isIPv6(r.content))
      issue(ctx, ["content"], "must be an IPv6 address for an AAAA record");
    // An address in a CNAME is stored by the service; resolvers then look up a name that is digits and dots.
    if (r.type === "CNAME" && isIP(r.content))
      advise(ctx, ["content"], "is an IP address: a CNAME names another domain; use an A or AAAA record");
    else if (r.type === "CNAME" && !isDomain(r.content))
      issue(ctx, ["content"], "must be a domain name for a CNAME record");
  })
  .describe("DNS record create or replace body");

export const DnsRecordSchema = z
  .strictObject({ id: z.string().describe("Record id"), ...recordFields })
  .describe("DNS record");

/** Rule 4: a record name must be the zone domain or a subdomain of it. */
export function nameInZone(name: string, zoneDomain: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, "");
  const d = zoneDomain.toLowerCase().replace(/\.$/, "");
  return n === d || n.endsWith(`.${d}`);
}

export type DnsRecord = z.infer<typeof DnsRecordSchema>;
