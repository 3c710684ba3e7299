/** Nameserver group (spec 2.13): upstream DNS servers distributed to groups of peers. */
import { advise, domainName, hasItems, idList, ipAddress, issue, nameString, openEnum, z } from "./common";

export const NameserverSchema = z
  .object({
    ip: ipAddress().describe("Nameserver IP address"),
    ns_type: openEnum(["udp"], "Nameserver protocol"),
    port: z
      .number()
      .int({ error: "must be an integer" })
      .min(0, { error: "must not be negative" })
      .superRefine((n, ctx) => {
        // The service stores any port from 0; no nameserver answers outside 1..65535.
        if (n < 1 || n > 65535)
          advise(ctx, [], `is ${n}: a port is 1 to 65535, so no nameserver answers there`);
      })
      .describe("Nameserver port, 1 to 65535"),
  })
  .describe("An upstream nameserver");

const nsFields = {
  name: nameString({ max: 40 }).describe("Group name, 1 to 40 characters"),
  description: z.string().describe("Group description"),
  nameservers: z
    .array(NameserverSchema)
    .min(1, { error: "must have 1 to 3 items" })
    .max(3, { error: "must have 1 to 3 items" })
    .describe("1 to 3 upstream nameservers"),
  enabled: z.boolean().describe("Whether the group is active"),
  groups: idList()
    .min(1, { error: "must not be empty: name the groups whose peers use these nameservers" })
    .describe("Distribution group ids: peers that use these nameservers; at least one"),
  primary: z.boolean().describe("Resolve all domains with this group; only when domains is empty"),
  domains: z
    .array(domainName(false, true))
    .describe(
      "Match domains resolved by this group, internationalized names included; empty only when primary",
    ),
  search_domains_enabled: z
    .boolean()
    .describe("Use the match domains as search domains; only when domains is set"),
};

export const NameserverGroupRequestSchema = z
  .object(nsFields)
  .superRefine((g, ctx) => {
    if (g.primary === true && hasItems(g.domains))
      issue(ctx, ["primary"], "may be true only when domains is empty");
    if (g.primary === false && Array.isArray(g.domains) && g.domains.length === 0)
      issue(ctx, ["domains"], "may be empty only when primary is true");
    if (g.search_domains_enabled === true && !hasItems(g.domains))
      issue(ctx, ["search_domains_enabled"], "may be true only when domains is not empty");
  })
  .describe("Nameserver group create or replace body");

export const NameserverGroupSchema = z
  .strictObject({
    id: z.string().describe("Nameserver group id"),
    ...nsFields,
    nameservers: z.array(NameserverSchema.strict()).describe("1 to 3 upstream nameservers"),
  })
  .describe("Nameserver group");

export type NameserverGroup = z.infer<typeof NameserverGroupSchema>;
