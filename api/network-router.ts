/** Network router (spec 2.12): a peer or peer group routing traffic into a network. */
import { idList, intRange, z } from "./common";
import { checkPeerXorGroups } from "./route";

const routerFields = {
  peer: z.string().optional().describe("Routing peer id; not together with peer_groups"),
  peer_groups: idList().optional().describe("Groups of routing peers; not together with peer"),
  metric: intRange(1, 9999).describe("Router priority, 1 to 9999; lower wins"),
  masquerade: z.boolean().describe("Masquerade traffic into the network"),
  enabled: z.boolean().describe("Whether the router is active"),
};

export const NetworkRouterRequestSchema = z
  .object(routerFields)
  .superRefine(checkPeerXorGroups)
  .describe("Network router create or replace body");

export const NetworkRouterSchema = z
  .strictObject({ id: z.string().describe("Router id"), ...routerFields })
  .describe("Network router");

export type NetworkRouter = z.infer<typeof NetworkRouterSchema>;
