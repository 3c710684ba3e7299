/** DNS zone (spec 2.13): a custom zone served to distribution groups. */
import { idList, isDomain, nameString, z } from "./common";
import { DnsRecordSchema } from "./dns-record";

/**
 * A zone domain: a domain name of at least two labels whose last label is not a number. A single label ("NaN",
 * "localhost") or a numeric top-level label ("1", "10.example.1") is no zone anyone serves under the DNS.
 */
export function zoneDomainProblem(s: string): string | undefined {
  if (!isDomain(s)) return "must be a domain name";
  const labels = s.replace(/\.$/, "").split(".");
  if (labels.length < 2) return "must have at least two labels, such as internal.example";
  if (/^\d+$/.test(labels[labels.length - 1] ?? "")) return "must not end in a numeric label";
  return undefined;
}

const zoneFields = {
  name: nameString(1, 255).describe("Zone name, 1 to 255 characters"),
  domain: z
    .string()
    .superRefine((s, ctx) => {
      const problem = zoneDomainProblem(s);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .describe("Zone domain (FQDN): at least two labels, the last one not a number"),
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
