/** The network map (see network-map.ts for every decision): who can reach what, from an account snapshot. */
export * from "./types";
export { allowedTraffic, DEFAULT_DNS_DOMAIN, NetworkMap, networkMaps, viewAllowed } from "./network-map";
export { evaluatePostureCheck, versionParts, type Outcome } from "./posture";
export { authChecks, exposuresOf, restrictionsOf } from "./exposure";
export * from "./llm";
