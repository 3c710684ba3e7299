/** Nameserver group: upstream DNS servers for groups of peers. */
import { NameserverGroupRequestSchema, NameserverGroupSchema } from "../../api/nameserver-group";
import { PrivnetProvider } from "../lifecycle";
import { domainForm } from "../normal-forms";

export = new PrivnetProvider({
  name: "NameserverGroup",
  file: "nameserver-group",
  description:
    "A nameserver group: 1 to 3 upstream nameservers used by the peers of `groups`, either for every domain " +
    "(`primary`) or for match `domains`.",
  input: NameserverGroupRequestSchema,
  output: NameserverGroupSchema,
  ops: {
    create: "createNameserverGroup",
    read: "getNameserverGroup",
    update: "updateNameserverGroup",
    delete: "deleteNameserverGroup",
  },
  idParam: "nsgroupId",
  setLists: ["domains"],
  normalForms: { domains: domainForm },
});
