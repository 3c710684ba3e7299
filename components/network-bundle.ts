/**
 * NetworkBundle: a network, its routers and its resources in one declaration.
 *
 * Children and their names (`<name>` is the component's resource name):
 * - the Network `<name>`;
 * - one NetworkRouter per `routers` entry: `<name>-peer-<peer>` for a routing peer, `<name>-groups-<ids>` for
 *   groups of routing peers (their ids sorted, joined by `,`);
 * - one NetworkResource `<name>-<resource name>` per `resources` entry.
 */
import { NetworkRequestSchema } from "../api/network";
import { NetworkResourceRequestSchema } from "../api/network-resource";
import { idList, intRange, nameString, z } from "../api/common";
import {
  at,
  entriesOf,
  keyEntries,
  keyText,
  Pending,
  ref,
  UNKNOWN,
  type ComponentSpec,
  type PlannedChild,
  type PlanValue,
  type Props,
} from "./spec";

/** A router's priority when the program gives none: the lowest. */
export const DEFAULT_METRIC = 9999;

const resourceFields = NetworkResourceRequestSchema.shape;

const RouterEntry = z
  .object({
    peer: z
      .string()
      .optional()
      .describe(
        "Routing peer id; not together with `peerGroups`. The router's key: changing it replaces the router",
      ),
    peer_groups: idList()
      .optional()
      .describe(
        "Groups of routing peers; not together with `peer`. The router's key: changing them replaces the router",
      ),
    metric: intRange(1, 9999)
      .optional()
      .describe(
        `Router priority, 1 to 9999, lower wins; default ${DEFAULT_METRIC}. A change updates in place`,
      ),
    masquerade: z
      .boolean()
      .optional()
      .describe("Masquerade traffic into the network; default true. A change updates in place"),
    enabled: z
      .boolean()
      .optional()
      .describe("Whether the router is active; default true. A change updates in place"),
  })
  .describe("A router of a network bundle: a routing peer, or groups of routing peers");

const ResourceEntry = z
  .object({
    name: nameString().describe(
      "Resource name, unique in the account: the resource's key (a new name replaces the resource)",
    ),
    address: resourceFields.address.describe(
      "A host (IP), a subnet (CIDR) or a domain (wildcards allowed). A change updates in place",
    ),
    groups: idList()
      .optional()
      .describe("Ids of the groups the resource belongs to; default none. A change updates in place"),
    enabled: z
      .boolean()
      .optional()
      .describe("Whether the resource is active; default true. A change updates in place"),
    description: z.string().optional().describe("Resource description. A change updates in place"),
  })
  .describe("A resource of a network bundle: a host, subnet or domain");

const inputs = z
  .object({
    name: NetworkRequestSchema.shape.name.describe("Network name. A change updates the network in place"),
    description: z.string().optional().describe("Network description. A change updates the network in place"),
    routers: z
      .array(RouterEntry)
      .optional()
      .describe(
        "The network's routers. Adding one creates a router, removing one deletes it; reordering changes nothing",
      ),
    resources: z
      .array(ResourceEntry)
      .optional()
      .describe(
        "The network's resources. Adding one creates a resource, removing one deletes it; reordering changes " +
          "nothing",
      ),
  })
  .describe("NetworkBundle inputs");

export const NETWORK_BUNDLE: ComponentSpec = {
  name: "NetworkBundle",
  file: "network-bundle",
  description:
    "A network with its routers and resources, in one declaration. It creates a `Network`, one `NetworkRouter` " +
    "per `routers` entry and one `NetworkResource` per `resources` entry, all in that network. The children are " +
    "the same resources a program declares itself, shown under the component.\n\n" +
    "Each child is named by its entry's key, never by its position: the network takes the component's name, a " +
    "router `<component>-peer-<peer>` or `<component>-groups-<group ids sorted>`, a resource " +
    "`<component>-<resource name>`. Reordering a list changes nothing; changing an entry's other fields (an " +
    "address, a metric) updates that child in place; changing its key (a resource's name, a router's peer or " +
    "groups) replaces it; removing an entry deletes that child alone. Renaming the network or changing its " +
    "description updates it in place.",
  inputs,
  outputs: {
    networkId: { type: "string", description: "Id of the network" },
    routerIds: { type: "string[]", description: "Ids of the routers, in the order of `routers`" },
    resourceIds: { type: "string[]", description: "Ids of the resources, in the order of `resources`" },
  },
  plan(name, values, preview) {
    const children: PlannedChild[] = [
      {
        id: "network",
        kind: "Network",
        name,
        inputs: { name: at("name"), description: at("description") },
        origin: { path: "", fields: { name: "name", description: "description" } },
      },
    ];
    const outputs: Record<string, PlanValue> = { networkId: ref("network") };
    const failures = [];

    const routers = entriesOf(values, "routers");
    if (routers === UNKNOWN) outputs.routerIds = new Pending("routers");
    else {
      const keyed = keyEntries(
        "routers",
        routers,
        (e: Props) => {
          const peer = keyText(e.peer);
          if (peer !== undefined) return peer === UNKNOWN ? UNKNOWN : `peer-${peer}`;
          const groups = keyText(e.peerGroups);
          return groups === UNKNOWN ? UNKNOWN : groups === undefined ? undefined : `groups-${groups}`;
        },
        preview,
        { property: "peer", reason: "is required: set peer or peerGroups" },
        "a network has one router per routing peer or set of routing groups",
      );
      failures.push(...keyed.failures);
      const ids: PlanValue[] = [];
      for (const [i, k] of keyed.keys.entries()) {
        if (k === undefined) continue;
        const p = `routers[${i}]`;
        children.push({
          id: `router:${k}`,
          kind: "NetworkRouter",
          name: `${name}-${k}`,
          inputs: {
            networkId: ref("network"),
            peer: at(`${p}.peer`),
            peerGroups: at(`${p}.peerGroups`),
            metric: at(`${p}.metric`, DEFAULT_METRIC),
            masquerade: at(`${p}.masquerade`, true),
            enabled: at(`${p}.enabled`, true),
          },
          origin: {
            path: p,
            fields: Object.fromEntries(
              ["peer", "peerGroups", "metric", "masquerade", "enabled"].map((f) => [f, f]),
            ),
          },
        });
        ids.push(ref(`router:${k}`));
      }
      outputs.routerIds = ids;
    }

    const resources = entriesOf(values, "resources");
    if (resources === UNKNOWN) outputs.resourceIds = new Pending("resources");
    else {
      const keyed = keyEntries(
        "resources",
        resources,
        (e: Props) => keyText(e.name),
        preview,
        { property: "name", reason: "is required: each resource has a name, unique in the account" },
        "resource names are unique in the account",
      );
      failures.push(...keyed.failures);
      const ids: PlanValue[] = [];
      for (const [i, k] of keyed.keys.entries()) {
        if (k === undefined) continue;
        const p = `resources[${i}]`;
        children.push({
          id: `resource:${k}`,
          kind: "NetworkResource",
          name: `${name}-${k}`,
          inputs: {
            networkId: ref("network"),
            name: at(`${p}.name`),
            address: at(`${p}.address`),
            groups: at(`${p}.groups`, []),
            enabled: at(`${p}.enabled`, true),
            description: at(`${p}.description`),
          },
          origin: {
            path: p,
            fields: Object.fromEntries(
              ["name", "address", "groups", "enabled", "description"].map((f) => [f, f]),
            ),
          },
        });
        ids.push(ref(`resource:${k}`));
      }
      outputs.resourceIds = ids;
    }
    return { children, outputs, failures };
  },
};
