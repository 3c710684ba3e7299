/** DNS record: an A, AAAA or CNAME record of a zone. */
import { DnsRecordRequestSchema, DnsRecordSchema } from "../../api/dns-record";
import { PrivnetProvider } from "../lifecycle";
import { domainForm, recordContentForm } from "../normal-forms";

export = new PrivnetProvider({
  name: "DnsRecord",
  file: "dns-record",
  description:
    "A record of a DNS zone. Its name must be the zone's domain or a subdomain of it. Moving it to another zone " +
    "replaces it.",
  input: DnsRecordRequestSchema,
  output: DnsRecordSchema,
  ops: {
    create: "createDnsRecord",
    read: "getDnsRecord",
    update: "updateDnsRecord",
    delete: "deleteDnsRecord",
  },
  idParam: "recordId",
  parents: [{ input: "zoneId", param: "zoneId", description: "Id of the zone the record belongs to" }],
  replaceOnChange: ["zoneId"],
  normalForms: { name: domainForm, content: recordContentForm },
});
