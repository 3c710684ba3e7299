/** Network resource: a host, subnet or domain inside a network. */
import { NetworkResourceRequestSchema, NetworkResourceSchema } from "../../api/network-resource";
import { PrivnetProvider } from "../lifecycle";

export = new PrivnetProvider({
  name: "NetworkResource",
  file: "network-resource",
  description:
    "A resource inside a network: a host (IP), a subnet (CIDR) or a domain (wildcards allowed). Its `type` " +
    "follows from the address. Moving it to another network replaces it.",
  input: NetworkResourceRequestSchema,
  output: NetworkResourceSchema,
  ops: {
    create: "createNetworkResource",
    read: "getNetworkResource",
    update: "updateNetworkResource",
    delete: "deleteNetworkResource",
  },
  idParam: "resourceId",
  parents: [
    { input: "networkId", param: "networkId", description: "Id of the network the resource belongs to" },
  ],
  replaceOnChange: ["networkId"],
});
