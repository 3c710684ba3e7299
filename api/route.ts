/** Route (spec 2.11): a network range or domains reachable through routing peers. */
import { cidr, domainName, hasItems, idList, isSet, issue, intRange, nameString, z } from "./common";

export const NetworkType = z
  .enum(["IPv4", "IPv6", "Domain"])
  .describe("Kind of route, derived from network/domains");

const routeFields = {
  description: z.string().describe("Route description"),
  network_id: nameString({ max: 40 }).describe(
    "Route network identifier; groups high-availability routes; 1 to 40 characters",
  ),
  enabled: z.boolean().describe("Whether the route is active"),
  peer: z.string().optional().describe("Routing peer id; not together with peer_groups"),
  peer_groups: idList().optional().describe("Groups of routing peers; not together with peer"),
  network: cidr()
    .optional()
    .describe(
      "Routed range in CIDR notation (0.0.0.0/0 for an exit node); not together with domains. A range with " +
        "host bits set (10.0.0.1/8) is stored as its network (10.0.0.0/8), with a warning at preview",
    ),
  domains: z
    .array(domainName(true, true))
    .max(32, { error: "must have at most 32 items" })
    .optional()
    .describe(
      "Domains resolved dynamically, internationalized names included; at most 32; not together with network",
    ),
  metric: intRange(1, 9999).describe("Route priority, 1 to 9999; lower wins"),
  masquerade: z.boolean().describe("Masquerade traffic to the routed range"),
  groups: idList().describe("Distribution groups: peers that receive the route"),
  keep_route: z.boolean().describe("Keep the route after a domain stops resolving to that IP"),
  access_control_groups: idList().optional().describe("Groups used for access control of the route"),
  skip_auto_apply: z
    .boolean()
    .optional()
    .describe("For exit-node route 0.0.0.0/0: do not apply automatically on clients"),
};

/** Rule 1: peer xor peer_groups. Shared with network routers. */
export function checkPeerXorGroups(
  r: { peer?: string | null; peer_groups?: string[] | null },
  ctx: z.RefinementCtx,
) {
  const hasPeer = isSet(r.peer) && r.peer !== "";
  if (hasPeer && hasItems(r.peer_groups)) issue(ctx, ["peer_groups"], "cannot be set together with peer");
  else if (!hasPeer && !hasItems(r.peer_groups)) issue(ctx, ["peer"], "is required: set peer or peer_groups");
}

export const RouteRequestSchema = z
  .object(routeFields)
  .superRefine((r, ctx) => {
    checkPeerXorGroups(r, ctx);
    const hasNetwork = isSet(r.network) && r.network !== "";
    if (hasNetwork && hasItems(r.domains)) issue(ctx, ["domains"], "cannot be set together with network");
    else if (!hasNetwork && !hasItems(r.domains))
      issue(ctx, ["network"], "is required: set network or domains");
  })
  .describe("Route create or replace body");

export const RouteSchema = z
  .strictObject({
    id: z.string().describe("Route id"),
    network_type: NetworkType,
    ...routeFields,
    network: z.string().optional().describe("Routed range in CIDR notation"),
    domains: z.array(z.string()).optional().describe("Domains resolved dynamically"),
  })
  .describe("Route");

export type Route = z.infer<typeof RouteSchema>;
