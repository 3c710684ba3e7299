/** Network resource: a host, subnet or domain inside a network. */
import { NetworkResourceRequestSchema, NetworkResourceSchema } from "../../api/network-resource";
import { PrivnetProvider } from "../lifecycle";
import { addressForm } from "../normal-forms";

export = new PrivnetProvider({
  name: "NetworkResource",
  file: "network-resource",
  description:
    "A resource inside a network: a host (IP), a subnet (CIDR) or a domain (wildcards allowed). Its `type` " +
    "follows from the address. Moving it to another network replaces it (the old resource is deleted first: names may be unique in the " +
    "account).",
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
  // Resource names are unique in the account on some servers: the old resource goes first.
  deleteBeforeReplace: true,
  // Servers store a host as its /32 (/128) prefix and domains in lower case.
  normalForms: { address: addressForm },
});
