/** DNS zone (spec 2.13): a custom zone served to distribution groups. */
import { advise, idList, isDomain, nameString, z } from "./common";
import { DnsRecordSchema } from "./dns-record";

/**
 * What is odd about a zone domain the service accepts: a single label ("NaN", "localhost") or a numeric top-level
 * label ("1", "10.example.1") is no zone anyone serves under the DNS. An advisory: the service stores it.
 */
export function zoneDomainOddity(s: string): string | undefined {
  const labels = s.replace(/\.$/, "").split(".");
  if (labels.length < 2)
    return "has one label: peers will resolve it, but no zone under the DNS has such a name";
  if (/^\d+$/.test(labels[labels.length - 1] ?? ""))
    return "ends in a numeric label: no zone under the DNS has such a name";
  return undefined;
}

const zoneFields = {
  name: nameString({ max: 255 }).describe("Zone name, 1 to 255 characters"),
  domain: z
    .string()
    .superRefine((s, ctx) => {
      if (!isDomain(s)) {
        ctx.addIssue({ code: "custom", message: "must be a domain name" });
        return;
      }
      const oddity = zoneDomainOddity(s);
      if (oddity) advise(ctx, [], oddity);
    })
    .describe("Zone domain (FQDN); a one-label or numeric top-level domain is stored with a warning"),
  enable_search_domain: z.boolean().describe("Add the zone domain to the peers' search domains"),
  distribution_groups: idList().describe("Groups whose peers get the zone"),
};

export const DnsZoneRequestSchema = z
  .object({
    ...zoneFields,
    enabled: z.boolean().optional().describe("Whether the zone is served; default true"),
  })
  .describe("DNS zone create or replace body");

export const DnsZoneSchema = z
  .strictObject({
    id: z.string().describe("Zone id"),
    ...zoneFields,
    enabled: z.boolean().describe("Whether the zone is served"),
    records: z.array(DnsRecordSchema).describe("The zone's records"),
  })
  .describe("DNS zone");

export type DnsZone = z.infer<typeof DnsZoneSchema>;
