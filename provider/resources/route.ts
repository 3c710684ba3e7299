/** Route: a network range or domains reachable through routing peers. */
import { RouteRequestSchema, RouteSchema } from "../../api/route";
import { PrivnetProvider } from "../lifecycle";
import { domainForm, prefixForm } from "../normal-forms";
import type { Props } from "../spec";

export = new PrivnetProvider({
  name: "Route",
  file: "route",
  description:
    "A route to a network range (`network`) or to domains resolved dynamically (`domains`), served by a " +
    "routing peer (`peer`) or by groups of routing peers (`peerGroups`) to the peers of `groups`.",
  input: RouteRequestSchema,
  output: RouteSchema,
  ops: { create: "createRoute", read: "getRoute", update: "updateRoute", delete: "deleteRoute" },
  idParam: "routeId",
  setLists: ["domains"],
  // Servers store a range with its host bits cleared, and domains in lower case.
  normalForms: { network: prefixForm, domains: domainForm },
  // A domain route has no range of its own: servers answer with a placeholder `network` (and derive
  // `networkType: "Domain"`), which is not the program's to manage.
  serverDerived: (sent: Props) =>
    Array.isArray(sent.domains) && sent.domains.length > 0 && !sent.network ? ["network"] : [],
});
