/** Group (spec 2.2 and 2.8): peers and network resources grouped for policies, routes and DNS. */
import {
  GroupSummarySchema,
  ResourceRefInputSchema,
  ResourceRefSchema,
  idList,
  nameString,
  z,
} from "./common";

export const GroupPeerSchema = z
  .strictObject({
    id: z.string().describe("Peer id"),
    name: z.string().describe("Peer name"),
  })
  .describe("A peer as a group lists it");

export const GroupSchema = GroupSummarySchema.extend({
  peers: z.array(GroupPeerSchema).describe("Peers in the group"),
  resources: z.array(ResourceRefSchema).describe("Network resources in the group"),
}).describe("A group of peers and network resources");

export const GroupRequestSchema = z
  .object({
    name: nameString().describe("Group name; unique in the account"),
    peers: idList().optional().describe("Ids of the peers in the group"),
    resources: z
      .array(ResourceRefInputSchema)
      .optional()
      .describe("Network resources in the group, each {id, type}"),
  })
  .describe("Group create or replace body");

export const GroupListQuerySchema = z
  .object({
    name: z.string().optional().describe("Only the group with exactly this name"),
  })
  .describe("Group list filters");

export type Group = z.infer<typeof GroupSchema>;
export type GroupRequest = z.infer<typeof GroupRequestSchema>;
