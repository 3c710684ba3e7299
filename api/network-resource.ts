/** Network resource (spec 2.12): a host, subnet or domain inside a network. */
import { GroupSummarySchema, ResourceType, idList, isDomain, isIP, parseCidr, nameString, z } from "./common";

/** The resource type follows from the address: an IP or /32 (/128) is a host, a CIDR a subnet, else a domain. */
export function resourceTypeOf(address: string): "host" | "subnet" | "domain" | undefined {
  if (isIP(address)) return "host";
  const c = parseCidr(address);
  if (c) return (c.family === 4 && c.bits === 32) || (c.family === 6 && c.bits === 128) ? "host" : "subnet";
  if (isDomain(address, true, true)) return "domain";
  return undefined;
}

export const NetworkResourceRequestSchema = z
  .object({
    name: nameString({ empty: "warn" }).describe("Resource name"),
    description: z.string().optional().describe("Resource description"),
    address: z
      .string()
      .refine((a) => resourceTypeOf(a) !== undefined, {
        error:
          "must be an IP address, a CIDR range or a domain name (wildcards such as *.example.com allowed)",
      })
      .describe("A host (IP or IP/32), a subnet in CIDR notation, or a domain, including a wildcard domain"),
    enabled: z.boolean().describe("Whether the resource is active"),
    groups: idList().describe("Ids of the groups the resource belongs to"),
  })
  .describe("Network resource create or replace body");

export const NetworkResourceSchema = z
  .strictObject({
    id: z.string().describe("Resource id"),
    type: ResourceType,
    groups: z.array(GroupSummarySchema).describe("Groups the resource belongs to"),
    name: z.string().describe("Resource name"),
    description: z.string().describe("Resource description"),
    address: z.string().describe("Host, subnet or domain"),
    enabled: z.boolean().describe("Whether the resource is active"),
  })
  .describe("Network resource");

export type NetworkResource = z.infer<typeof NetworkResourceSchema>;
