/**
 * Routes (spec 2.11, 4.4): a network range or a set of domains reachable through a routing peer or the peers
 * of routing groups, distributed to the peers of `groups`.
 *
 * Stored doc (kind "route"): the API's fields under the API's names (`peer`, `peer_groups`, `groups`,
 * `access_control_groups`, ... so group and peer usage checks can read them) plus the derived `network_type`.
 * Optional fields are stored only when set, and the response carries exactly what is stored.
 */
import { canonicalCidr, parseCidr } from "../../api/common";
import type { Route } from "../../api/route";
import type { Ctx, Handlers, StoredKinds } from "../context";
import { audit, auditWrite, compact, groupLists, mustGet, requireRef, requireRefs } from "../domain";
import { newId } from "../ids";
import type { Doc, Tx } from "../store";

/** A stored route: the Route response without its id, plus the id. */
export type RouteDoc = Doc & Omit<Route, "id">;

/** The request body as validated by RouteRequestSchema. */
type RouteRequest = Omit<Route, "id" | "network_type">;

/** `Domain` when the route is by domains, else the IP family of its CIDR range. */
export function networkTypeOf(body: { network?: string; domains?: string[] }): Route["network_type"] {
  const c = body.network ? parseCidr(body.network) : undefined;
  if (c) return c.family === 6 ? "IPv6" : "IPv4";
  return "Domain";
}

/** The Route response: the stored doc minus the store's bookkeeping. */
function view(d: RouteDoc): Route {
  return compact({
    id: d.id,
    network_type: d.network_type,
    description: d.description,
    network_id: d.network_id,
    enabled: d.enabled,
    peer: d.peer,
    peer_groups: d.peer_groups,
    network: d.network,
    domains: d.domains,
    metric: d.metric,
    masquerade: d.masquerade,
    groups: d.groups,
    keep_route: d.keep_route,
    access_control_groups: d.access_control_groups,
    skip_auto_apply: d.skip_auto_apply,
  });
}

function write(tx: Tx, ctx: Ctx, body: RouteRequest, existing?: RouteDoc): RouteDoc {
  // The schema already enforced peer xor peer_groups and network xor domains (spec 7, rules 1-2); here only
  // the references. An empty peer string counts as unset, as the schema treats it.
  const peer = body.peer === "" ? undefined : body.peer;
  requireRef(tx, "peer", peer, "peer", "peer");
  requireRefs(tx, "group", body.peer_groups, "peer_groups", "group");
  requireRefs(tx, "group", body.groups, "groups", "group");
  requireRefs(tx, "group", body.access_control_groups, "access_control_groups", "group");
  const doc = compact<RouteDoc>({
    id: existing?.id ?? newId(),
    network_type: networkTypeOf(body),
    description: body.description,
    network_id: body.network_id,
    enabled: body.enabled,
    peer,
    peer_groups: body.peer_groups,
    // Stored as its network, host bits cleared (10.0.0.1/8 -> 10.0.0.0/8), as the service stores it.
    network: body.network === undefined ? undefined : canonicalCidr(body.network),
    domains: body.domains,
    metric: body.metric,
    masquerade: body.masquerade,
    groups: body.groups,
    keep_route: body.keep_route,
    access_control_groups: body.access_control_groups,
    skip_auto_apply: body.skip_auto_apply,
  });
  tx.put("route", doc);
  auditWrite(
    tx,
    ctx,
    existing,
    "route",
    "Route",
    doc.id,
    { network_id: doc.network_id, network_type: doc.network_type },
    "add",
  );
  return doc;
}

const idOf = (ctx: Ctx) => ctx.params.routeId as string;

/** The documents this module stores (see StoredKind). */
export const kinds = {
  route: {
    groupUses: groupLists(
      ["groups", "peer_groups", "access_control_groups"],
      (x) => `route ${String(x.network_id)} (${x.id})`,
    ),
  },
} satisfies StoredKinds;

export const handlers: Handlers = {
  listRoutes: (ctx) => ctx.state.store.all<RouteDoc>("route").map(view),

  createRoute: (ctx) => ctx.state.store.tx((tx) => view(write(tx, ctx, ctx.body as RouteRequest))),

  getRoute: (ctx) => view(mustGet<RouteDoc>(ctx.state.store, "route", idOf(ctx), "route")),

  updateRoute: (ctx) =>
    ctx.state.store.tx((tx) => {
      const existing = mustGet<RouteDoc>(tx, "route", idOf(ctx), "route");
      return view(write(tx, ctx, ctx.body as RouteRequest, existing));
    }),

  deleteRoute: (ctx) =>
    ctx.state.store.tx((tx) => {
      const r = mustGet<RouteDoc>(tx, "route", idOf(ctx), "route");
      tx.delete("route", r.id);
      audit(tx, ctx, "route.delete", "Route deleted", r.id, { network_id: r.network_id });
      return {};
    }),
};
