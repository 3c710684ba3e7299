/** Route: a network range or domains reachable through routing peers. */
import { RouteRequestSchema, RouteSchema } from "../../api/route";
import { PrivnetProvider } from "../lifecycle";

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
});
