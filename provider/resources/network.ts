/** Network: a container of network resources and routers. */
import { NetworkRequestSchema, NetworkSchema } from "../../api/network";
import { PrivnetProvider } from "../lifecycle";

export = new PrivnetProvider({
  name: "Network",
  file: "network",
  description:
    "A network: holds network resources (hosts, subnets, domains) and the routers that reach them.",
  input: NetworkRequestSchema,
  output: NetworkSchema,
  ops: { create: "createNetwork", read: "getNetwork", update: "updateNetwork", delete: "deleteNetwork" },
  idParam: "networkId",
});
