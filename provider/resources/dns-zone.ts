/** DNS zone: a custom zone served to distribution groups. */
import { DnsZoneRequestSchema, DnsZoneSchema } from "../../api/dns-zone";
import { PrivnetProvider } from "../lifecycle";
import { domainForm } from "../normal-forms";

export = new PrivnetProvider({
  name: "DnsZone",
  file: "dns-zone",
  description:
    "A custom DNS zone served to the peers of `distributionGroups`. Records are separate resources.",
  input: DnsZoneRequestSchema,
  output: DnsZoneSchema,
  ops: { create: "createDnsZone", read: "getDnsZone", update: "updateDnsZone", delete: "deleteDnsZone" },
  idParam: "zoneId",
  defaults: { enabled: true },
  normalForms: { domain: domainForm },
});
