/** Network router: a peer or peer group routing traffic into a network. */
import { NetworkRouterRequestSchema, NetworkRouterSchema } from "../../api/network-router";
import { PrivnetProvider } from "../lifecycle";

export = new PrivnetProvider({
  name: "NetworkRouter",
  file: "network-router",
  description:
    "A router of a network: a routing peer (`peer`) or groups of routing peers (`peerGroups`). Moving it to " +
    "another network replaces it.",
  input: NetworkRouterRequestSchema,
  output: NetworkRouterSchema,
  ops: {
    create: "createNetworkRouter",
    read: "getNetworkRouter",
    update: "updateNetworkRouter",
    delete: "deleteNetworkRouter",
  },
  idParam: "routerId",
  parents: [{ input: "networkId", param: "networkId", description: "Id of the network the router serves" }],
  replaceOnChange: ["networkId"],
});
