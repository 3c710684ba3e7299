/**
 * Routes of privnet-server outside /api: not part of the service's API (never in the OpenAPI document), served
 * with the API's authentication, permissions (by family and method, as `allowed` decides) and error shape.
 *
 * - `GET /internal/network-map` → PeerMap[]: the network map of every peer the caller may see.
 * - `GET /internal/network-map/{peerId}` → PeerMap: one peer's map (netmap/types.ts; the rules in the header of
 *   netmap/network-map.ts).
 */
import { z } from "../api/common";
import type { ApiRoute } from "../api/routes";

/** The map's shape is netmap/types.ts (PeerMap); it is not an API object, so no schema of api/ describes it. */
const PeerMapBody = z.record(z.string(), z.unknown()).describe("PeerMap (netmap/types.ts)");

export const INTERNAL_ROUTES: readonly ApiRoute[] = [
  {
    operationId: "listNetworkMaps",
    method: "GET",
    path: "/internal/network-map",
    family: "peers",
    summary: "The network map of every peer: who can reach what",
    pathParams: [],
    response: z.array(PeerMapBody),
    status: 200,
    auth: "token",
  },
  {
    operationId: "getNetworkMap",
    method: "GET",
    path: "/internal/network-map/{peerId}",
    family: "peers",
    summary: "The network map of one peer: peers, network resources, routes and DNS it gets",
    pathParams: ["peerId"],
    response: PeerMapBody,
    status: 200,
    auth: "token",
  },
];
