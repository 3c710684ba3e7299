/** Ingress port allocation (cloud-only): public ports forwarded to a peer. */
import { PortAllocationRequestSchema, PortAllocationSchema } from "../../api/ingress";
import { PrivnetProvider } from "../lifecycle";

export = new PrivnetProvider({
  name: "IngressPortAllocation",
  file: "ingress-port-allocation",
  description:
    "Public ports on an ingress peer forwarded to a peer's ports (cloud offering only): `portRanges` are " +
    "translated, `directPort` allocates ports 1:1. `portRangeMappings` shows the public ports. Choosing another " +
    "peer replaces it.",
  input: PortAllocationRequestSchema,
  output: PortAllocationSchema,
  ops: {
    create: "createPortAllocation",
    read: "getPortAllocation",
    update: "updatePortAllocation",
    delete: "deletePortAllocation",
  },
  idParam: "allocationId",
  parents: [{ input: "peerId", param: "peerId", description: "Id of the peer whose ports are forwarded" }],
  replaceOnChange: ["peerId"],
});
