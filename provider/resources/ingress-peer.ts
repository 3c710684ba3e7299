/** Ingress peer (cloud-only): a peer that forwards public ports to other peers. */
import { IngressPeerCreateSchema, IngressPeerSchema, IngressPeerUpdateSchema } from "../../api/ingress";
import { PrivnetProvider } from "../lifecycle";

export = new PrivnetProvider({
  name: "IngressPeer",
  file: "ingress-peer",
  description:
    "Makes a peer an ingress peer that forwards public ports (cloud offering only). Choosing another peer " +
    "replaces it.",
  input: IngressPeerCreateSchema,
  output: IngressPeerSchema,
  updateBody: IngressPeerUpdateSchema,
  ops: {
    create: "createIngressPeer",
    read: "getIngressPeer",
    update: "updateIngressPeer",
    delete: "deleteIngressPeer",
  },
  idParam: "ingressPeerId",
  replaceOnChange: ["peerId"],
});
