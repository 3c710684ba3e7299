/** Network (spec 2.12): a container of network resources and the routers that reach them. */
import { nameString, z } from "./common";

export const NetworkRequestSchema = z
  .object({
    name: nameString({ empty: "warn" }).describe("Network name"),
    description: z.string().optional().describe("Network description"),
  })
  .describe("Network create or replace body");

export const NetworkSchema = z
  .strictObject({
    id: z.string().describe("Network id"),
    name: z.string().describe("Network name"),
    description: z.string().describe("Network description"),
    routers: z.array(z.string()).describe("Ids of the network's routers"),
    routing_peers_count: z.number().int().describe("Number of peers routing for the network"),
    resources: z.array(z.string()).describe("Ids of the network's resources"),
    policies: z.array(z.string()).describe("Ids of the policies that reference the network's resources"),
  })
  .describe("Network");

export type Network = z.infer<typeof NetworkSchema>;
