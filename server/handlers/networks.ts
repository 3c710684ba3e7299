/**
 * Networks (spec 2.12, 4.5): a container of network resources (hosts, subnets, domains) and of the routers
 * (a peer or peer groups) that carry traffic into it.
 *
 * Stored docs:
 * - "network": `{id, name, description}`; routers, resources, policies and the routing peer count are
 *   computed on read.
 * - "network_resource": `{id, parent: networkId, name, description, address, type, enabled}`. Group membership
 *   is NOT stored here: the group docs list the resource as `{id, type}` (the single source of truth for
 *   membership), and a resource's `groups` are the groups that list it.
 * - "network_router": `{id, parent: networkId, peer?, peer_groups?, metric, masquerade, enabled}`.
 *
 * Children are scoped by their network: a resource or router id asked for under another network is a 404.
 */
import type { NetworkRequestSchema } from "../../api/network";
import { resourceTypeOf, type NetworkResourceRequestSchema } from "../../api/network-resource";
import type { NetworkRouter, NetworkRouterRequestSchema } from "../../api/network-router";
import type { z } from "zod";
import type { Ctx, Handlers, StoredKinds } from "../context";
import {
  audit,
  auditWrite,
  compact,
  groupLists,
  groupPeerIds,
  groupSummary,
  mustGet,
  requireRef,
  requireRefs,
  type Reader,
} from "../domain";
import { badRequest, invalid } from "../errors";
import { newId } from "../ids";
import type { GroupDoc } from "../model";
import type { Doc, Tx } from "../store";
import type { PolicyDoc, RuleDoc } from "./policies";
import { refuseIfTargeted } from "./reverse-proxies";

type NetworkRequest = z.infer<typeof NetworkRequestSchema>;
type NetworkResourceRequest = z.infer<typeof NetworkResourceRequestSchema>;
type NetworkRouterRequest = z.infer<typeof NetworkRouterRequestSchema>;

/** A stored network. */
export interface NetworkDoc extends Doc {
  name: string;
  description: string;
}

/** A stored network resource; `parent` is the network id. */
export interface NetworkResourceDoc extends Doc {
  parent: string;
  name: string;
  description: string;
  address: string;
  type: "host" | "subnet" | "domain";
  enabled: boolean;
}

/** A stored network router; `parent` is the network id. */
export interface NetworkRouterDoc extends Doc, Omit<NetworkRouter, "id"> {
  parent: string;
}

// ---------------------------------------------------------------------------------------------------------
// Reads shared by the views

/** The groups that list a network resource. */
function groupsOfResource(r: Reader, resourceId: string): GroupDoc[] {
  return r.all<GroupDoc>("group").filter((g) => g.resources.some((x) => x.id === resourceId));
}

/** Distinct peers routing for a network: the peer of each enabled router, or the peers of its groups. */
function routingPeers(r: Reader, networkId: string): Set<string> {
  const peers = new Set<string>();
  for (const router of r.all<NetworkRouterDoc>("network_router", networkId)) {
    if (!router.enabled) continue;
    if (router.peer) peers.add(router.peer);
    for (const gid of router.peer_groups ?? []) {
      const g = r.get<GroupDoc>("group", gid);
      if (g) for (const p of groupPeerIds(r, g)) peers.add(p);
    }
  }
  return peers;
}

/**
 * Ids of the policies that reach a network's resources: a rule names one of them as its source or destination
 * resource, or names a group holding one of them.
 */
function policiesOfResources(r: Reader, resourceIds: Set<string>): string[] {
  if (resourceIds.size === 0) return [];
  const groups = new Set(
    r
      .all<GroupDoc>("group")
      .filter((g) => g.resources.some((x) => resourceIds.has(x.id)))
      .map((g) => g.id),
  );
  return r
    .all<PolicyDoc>("policy")
    .filter((p) =>
      p.rules.some(
        (rule) =>
          (rule.sourceResource !== undefined && resourceIds.has(rule.sourceResource.id)) ||
          (rule.destinationResource !== undefined && resourceIds.has(rule.destinationResource.id)) ||
          (rule.sources ?? []).some((g) => groups.has(g)) ||
          (rule.destinations ?? []).some((g) => groups.has(g)),
      ),
    )
    .map((p) => p.id);
}

/** Policies whose rules name the resource directly (sourceResource / destinationResource), as phrases. */
function resourceUsage(r: Reader, resourceId: string): string[] {
  return r
    .all<PolicyDoc>("policy")
    .filter((p) =>
      p.rules.some((x) => x.sourceResource?.id === resourceId || x.destinationResource?.id === resourceId),
    )
    .map((p) => `policy ${p.name} (${p.id})`);
}

// ---------------------------------------------------------------------------------------------------------
// Views

/** The Network response. */
function networkView(r: Reader, n: NetworkDoc) {
  const resources = r.all<NetworkResourceDoc>("network_resource", n.id).map((x) => x.id);
  return {
    id: n.id,
    name: n.name,
    description: n.description,
    routers: r.all<NetworkRouterDoc>("network_router", n.id).map((x) => x.id),
    routing_peers_count: routingPeers(r, n.id).size,
    resources,
    policies: policiesOfResources(r, new Set(resources)),
  };
}

/** The NetworkResource response. */
function resourceView(r: Reader, d: NetworkResourceDoc) {
  return {
    id: d.id,
    type: d.type,
    groups: groupsOfResource(r, d.id).map((g) => groupSummary(r, g.id)),
    name: d.name,
    description: d.description,
    address: d.address,
    enabled: d.enabled,
  };
}

/** The NetworkRouter response; an unset peer or peer_groups is absent. */
function routerView(d: NetworkRouterDoc): NetworkRouter {
  return compact({
    id: d.id,
    peer: d.peer,
    peer_groups: d.peer_groups,
    metric: d.metric,
    masquerade: d.masquerade,
    enabled: d.enabled,
  });
}

// ---------------------------------------------------------------------------------------------------------
// Writes

/**
 * Makes the resource a member of exactly `groupIds`: adds `{id, type}` to the groups listed, refreshes the type
 * where it is already listed (the address may have changed), and removes it from every other group.
 */
function setMembership(tx: Tx, res: { id: string; type: string }, groupIds: readonly string[]): void {
  const want = new Set(groupIds);
  for (const g of tx.all<GroupDoc>("group")) {
    const has = g.resources.find((x) => x.id === res.id);
    if (want.has(g.id)) {
      if (has?.type === res.type) continue;
      // Keep the resource's position in the group when only its type changes.
      const resources = has
        ? g.resources.map((x) => (x.id === res.id ? { id: res.id, type: res.type } : x))
        : [...g.resources, { id: res.id, type: res.type }];
      tx.put<GroupDoc>("group", { ...g, resources });
    } else if (has) {
      tx.put<GroupDoc>("group", { ...g, resources: g.resources.filter((x) => x.id !== res.id) });
    }
  }
}

/**
 * After an address change altered a resource's type, the rules naming it as sourceResource or
 * destinationResource follow, as the group refs do: a reference always carries the resource's real type.
 */
function retypeRuleRefs(tx: Tx, res: NetworkResourceDoc): void {
  const retype = (ref: RuleDoc["sourceResource"]) =>
    ref?.id === res.id ? { id: res.id, type: res.type } : ref;
  for (const p of tx.all<PolicyDoc>("policy")) {
    if (!p.rules.some((x) => x.sourceResource?.id === res.id || x.destinationResource?.id === res.id))
      continue;
    const rules = p.rules.map((x) =>
      compact<RuleDoc>({
        ...x,
        sourceResource: retype(x.sourceResource),
        destinationResource: retype(x.destinationResource),
      }),
    );
    tx.put<PolicyDoc>("policy", { ...p, rules });
  }
}

function writeNetwork(tx: Tx, ctx: Ctx, body: NetworkRequest, existing?: NetworkDoc): NetworkDoc {
  const doc: NetworkDoc = {
    id: existing?.id ?? newId(),
    name: body.name,
    description: body.description ?? "",
  };
  tx.put("network", doc);
  auditWrite(tx, ctx, existing, "network", "Network", doc.id, { name: doc.name });
  return doc;
}

function writeResource(
  tx: Tx,
  ctx: Ctx,
  networkId: string,
  body: NetworkResourceRequest,
  existing?: NetworkResourceDoc,
): NetworkResourceDoc {
  const type = resourceTypeOf(body.address);
  // The schema already rejects such an address; this keeps a schema change from storing an untyped resource.
  if (!type) throw invalid(`address: ${body.address} is not an IP address, a CIDR range or a domain name`);
  // Resource names are unique in the account, across networks (the service answers 422 on a duplicate).
  const dup = tx
    .all<NetworkResourceDoc>("network_resource")
    .find((x) => x.name === body.name && x.id !== existing?.id);
  if (dup) throw invalid(`name: a network resource with name ${body.name} already exists (${dup.id})`);
  // Any group, the built-in All included: the service lists the resource among All's resources.
  requireRefs(tx, "group", body.groups, "groups", "group");
  const doc: NetworkResourceDoc = {
    id: existing?.id ?? newId(),
    parent: networkId,
    name: body.name,
    description: body.description ?? "",
    address: body.address,
    type,
    enabled: body.enabled,
  };
  tx.put("network_resource", doc);
  setMembership(tx, doc, body.groups);
  if (existing && existing.type !== type) retypeRuleRefs(tx, doc);
  auditWrite(tx, ctx, existing, "network.resource", "Network resource", doc.id, {
    name: doc.name,
    network_id: networkId,
    address: doc.address,
    type: doc.type,
  });
  return doc;
}

function writeRouter(
  tx: Tx,
  ctx: Ctx,
  networkId: string,
  body: NetworkRouterRequest,
  existing?: NetworkRouterDoc,
): NetworkRouterDoc {
  // peer xor peer_groups is the schema's (spec 7, rule 1); an empty peer string counts as unset there too.
  const peer = body.peer === "" ? undefined : body.peer;
  requireRef(tx, "peer", peer, "peer", "peer");
  requireRefs(tx, "group", body.peer_groups, "peer_groups", "group");
  const doc = compact<NetworkRouterDoc>({
    id: existing?.id ?? newId(),
    parent: networkId,
    peer,
    peer_groups: body.peer_groups,
    metric: body.metric,
    masquerade: body.masquerade,
    enabled: body.enabled,
  });
  tx.put("network_router", doc);
  auditWrite(tx, ctx, existing, "network.router", "Network router", doc.id, { network_id: networkId });
  return doc;
}

/** Deletes a resource and its group memberships; refuses while a policy rule names it. */
function removeResource(tx: Tx, res: NetworkResourceDoc): void {
  refuseIfTargeted(tx, "resource", res.id, `network resource ${res.name} (${res.id})`);
  const uses = resourceUsage(tx, res.id);
  if (uses.length) throw badRequest(`network resource ${res.name} is in use by ${uses.join(", ")}`);
  setMembership(tx, res, []);
  tx.delete("network_resource", res.id);
}

// ---------------------------------------------------------------------------------------------------------
// Handlers

const network = (r: Reader, ctx: Ctx) =>
  mustGet<NetworkDoc>(r, "network", ctx.params.networkId as string, "network");
const resource = (r: Reader, ctx: Ctx, networkId: string) =>
  mustGet<NetworkResourceDoc>(
    r,
    "network_resource",
    ctx.params.resourceId as string,
    "network resource",
    networkId,
  );
const router = (r: Reader, ctx: Ctx, networkId: string) =>
  mustGet<NetworkRouterDoc>(r, "network_router", ctx.params.routerId as string, "network router", networkId);

/** The documents this module stores (see StoredKind). */
export const kinds = {
  network: {},
  network_resource: {},
  network_router: { groupUses: groupLists(["peer_groups"], (x) => `network router ${x.id}`) },
} satisfies StoredKinds;

export const handlers: Handlers = {
  // Networks
  listNetworks: (ctx) => {
    const { store } = ctx.state;
    return store.all<NetworkDoc>("network").map((n) => networkView(store, n));
  },

  createNetwork: (ctx) =>
    ctx.state.store.tx((tx) => networkView(tx, writeNetwork(tx, ctx, ctx.body as NetworkRequest))),

  getNetwork: (ctx) => networkView(ctx.state.store, network(ctx.state.store, ctx)),

  updateNetwork: (ctx) =>
    ctx.state.store.tx((tx) =>
      networkView(tx, writeNetwork(tx, ctx, ctx.body as NetworkRequest, network(tx, ctx))),
    ),

  deleteNetwork: (ctx) =>
    ctx.state.store.tx((tx) => {
      const n = network(tx, ctx);
      // The network's children go with it, in the same transaction: a refused resource rolls all back.
      const resources = tx.all<NetworkResourceDoc>("network_resource", n.id);
      const routers = tx.all<NetworkRouterDoc>("network_router", n.id);
      for (const res of resources) removeResource(tx, res);
      for (const r of routers) tx.delete("network_router", r.id);
      tx.delete("network", n.id);
      audit(tx, ctx, "network.delete", "Network deleted", n.id, {
        name: n.name,
        resources: resources.map((x) => x.id),
        routers: routers.map((x) => x.id),
      });
      return {};
    }),

  // Network resources
  listNetworkResources: (ctx) => {
    const { store } = ctx.state;
    const n = network(store, ctx);
    return store.all<NetworkResourceDoc>("network_resource", n.id).map((x) => resourceView(store, x));
  },

  createNetworkResource: (ctx) =>
    ctx.state.store.tx((tx) => {
      const n = network(tx, ctx);
      return resourceView(tx, writeResource(tx, ctx, n.id, ctx.body as NetworkResourceRequest));
    }),

  getNetworkResource: (ctx) => {
    const { store } = ctx.state;
    return resourceView(store, resource(store, ctx, network(store, ctx).id));
  },

  updateNetworkResource: (ctx) =>
    ctx.state.store.tx((tx) => {
      const n = network(tx, ctx);
      const existing = resource(tx, ctx, n.id);
      return resourceView(tx, writeResource(tx, ctx, n.id, ctx.body as NetworkResourceRequest, existing));
    }),

  deleteNetworkResource: (ctx) =>
    ctx.state.store.tx((tx) => {
      const res = resource(tx, ctx, network(tx, ctx).id);
      removeResource(tx, res);
      audit(tx, ctx, "network.resource.delete", "Network resource deleted", res.id, {
        name: res.name,
        network_id: res.parent,
      });
      return {};
    }),

  // Network routers
  listAllNetworkRouters: (ctx) => ctx.state.store.all<NetworkRouterDoc>("network_router").map(routerView),

  listNetworkRouters: (ctx) => {
    const { store } = ctx.state;
    return store.all<NetworkRouterDoc>("network_router", network(store, ctx).id).map(routerView);
  },

  createNetworkRouter: (ctx) =>
    ctx.state.store.tx((tx) =>
      routerView(writeRouter(tx, ctx, network(tx, ctx).id, ctx.body as NetworkRouterRequest)),
    ),

  getNetworkRouter: (ctx) => {
    const { store } = ctx.state;
    return routerView(router(store, ctx, network(store, ctx).id));
  },

  updateNetworkRouter: (ctx) =>
    ctx.state.store.tx((tx) => {
      const n = network(tx, ctx);
      return routerView(writeRouter(tx, ctx, n.id, ctx.body as NetworkRouterRequest, router(tx, ctx, n.id)));
    }),

  deleteNetworkRouter: (ctx) =>
    ctx.state.store.tx((tx) => {
      const r = router(tx, ctx, network(tx, ctx).id);
      tx.delete("network_router", r.id);
      audit(tx, ctx, "network.router.delete", "Network router deleted", r.id, { network_id: r.parent });
      return {};
    }),
};
