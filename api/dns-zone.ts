/** DNS zone (spec 2.13): a custom zone served to distribution groups. */
import { domainName, idList, strLen, z } from "./common";
import { DnsRecordSchema } from "./dns-record";

const zoneFields = {
  name: strLen(1, 255).describe("Zone name, 1 to 255 characters"),
  domain: domainName().describe("Zone domain (FQDN)"),
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
