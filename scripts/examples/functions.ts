/**
 * One example per function (the lookup's name -> its example). A lookup added to sdk/lookups/table.ts needs an
 * entry here: tests/unit/examples.test.ts names a function without one.
 *
 * An object the program does not manage is named by its id in the stack's config (`policyId`); one the program
 * makes is read back by its output.
 */
import { call, config, ref, resource, type Example } from "./spec";

/** An example that calls `fn` with `args` and exports one output of the result. */
function lookup(title: string, fn: string, args: Record<string, unknown> | undefined, attr: string): Example {
  return {
    title,
    calls: [call("found", fn, args as never)],
    outputs: { [attr]: ref("found", attr) },
  };
}

const byId = (what: string, fn: string, key: string): Example =>
  lookup(`The ${what} with an id from the stack's config`, fn, { id: config(key) }, "name");

const all = (what: string, fn: string, args?: Record<string, unknown>): Example =>
  lookup(`Every ${what}`, fn, args, "items");

export const FUNCTION_EXAMPLES: Record<string, Example> = {
  getPeer: byId("peer", "getPeer", "peerId"),
  getPeers: lookup("The peers with a name", "getPeers", { name: "gateway" }, "items"),
  getPeerByName: {
    ...lookup("The one peer with a name", "getPeerByName", { name: "gateway" }, "ip"),
    readsExisting: true,
  },
  getPeerByIp: {
    ...lookup("The peer with an overlay address", "getPeerByIp", { ip: "100.64.0.10" }, "name"),
    readsExisting: true,
  },
  getAccessiblePeers: lookup(
    "The peers a peer can reach",
    "getAccessiblePeers",
    { peerId: config("peerId") },
    "items",
  ),
  getPeerJobs: lookup("The jobs of a peer", "getPeerJobs", { peerId: config("peerId") }, "items"),
  getPeerJob: lookup(
    "One job of a peer",
    "getPeerJob",
    { peerId: config("peerId"), id: config("jobId") },
    "status",
  ),
  getGroup: lookup("The built-in group that holds every peer", "getGroup", { name: "All" }, "id"),
  getGroups: all("group", "getGroups"),
  getUsers: all("service user", "getUsers", { serviceUser: true }),
  getUser: {
    ...lookup("A user by email", "getUser", { email: "admin@example.com" }, "role"),
    readsExisting: true,
  },
  getCurrentUser: lookup("The user the credentials belong to", "getCurrentUser", undefined, "email"),
  getTokens: lookup("The tokens of the current user", "getTokens", { userId: config("userId") }, "items"),
  getToken: lookup(
    "One token of a user",
    "getToken",
    { userId: config("userId"), id: config("tokenId") },
    "expirationDate",
  ),
  getAccount: lookup("The account the credentials manage", "getAccount", undefined, "domain"),
  getPolicy: byId("policy", "getPolicy", "policyId"),
  getPolicies: all("policy", "getPolicies"),
  getPostureCheck: byId("posture check", "getPostureCheck", "postureCheckId"),
  getPostureChecks: all("posture check", "getPostureChecks"),
  getRoute: lookup(
    "The route with an id from the stack's config",
    "getRoute",
    { id: config("routeId") },
    "network",
  ),
  getRoutes: all("route", "getRoutes"),
  getNetwork: byId("network", "getNetwork", "networkId"),
  getNetworks: all("network", "getNetworks"),
  getNetworkResource: {
    title: "A resource of a network this program makes, read back",
    resources: [
      resource("office", "Network", { name: "office" }),
      resource("printer", "NetworkResource", {
        networkId: ref("office"),
        name: "printer",
        address: "10.10.0.7",
        enabled: true,
        groups: [],
      }),
    ],
    calls: [call("found", "getNetworkResource", { networkId: ref("office"), id: ref("printer") })],
    outputs: { type: ref("found", "type") },
  },
  getNetworkResources: lookup(
    "The resources of a network",
    "getNetworkResources",
    { networkId: config("networkId") },
    "items",
  ),
  getNetworkRouter: lookup(
    "One router of a network",
    "getNetworkRouter",
    { networkId: config("networkId"), id: config("routerId") },
    "metric",
  ),
  getNetworkRouters: lookup(
    "The routers of a network",
    "getNetworkRouters",
    { networkId: config("networkId") },
    "items",
  ),
  getNameserverGroup: byId("nameserver group", "getNameserverGroup", "nameserverGroupId"),
  getNameserverGroups: all("nameserver group", "getNameserverGroups"),
  getDnsSettings: lookup(
    "The account's DNS settings",
    "getDnsSettings",
    undefined,
    "disabledManagementGroups",
  ),
  getDnsZone: byId("DNS zone", "getDnsZone", "zoneId"),
  getDnsZones: all("DNS zone", "getDnsZones"),
  getDnsRecord: lookup(
    "One record of a DNS zone",
    "getDnsRecord",
    { zoneId: config("zoneId"), id: config("recordId") },
    "content",
  ),
  getDnsRecords: lookup("The records of a DNS zone", "getDnsRecords", { zoneId: config("zoneId") }, "items"),
  getSetupKey: byId("setup key", "getSetupKey", "setupKeyId"),
  getSetupKeys: all("setup key", "getSetupKeys"),
  getIdentityProvider: byId("identity provider", "getIdentityProvider", "identityProviderId"),
  getIdentityProviders: all("identity provider", "getIdentityProviders"),
  getEdrVendorA: {
    ...lookup("Vendor A's integration", "getEdrVendorA", undefined, "enabled"),
    readsExisting: true,
  },
  getEdrVendorB: {
    ...lookup("Vendor B's integration", "getEdrVendorB", undefined, "enabled"),
    readsExisting: true,
  },
  getEdrVendorC: {
    ...lookup("Vendor C's integration", "getEdrVendorC", undefined, "enabled"),
    readsExisting: true,
  },
  getDirectorySyncVendorD: lookup(
    "Vendor D's directory sync with an id from the stack's config",
    "getDirectorySyncVendorD",
    { id: config("directoryId") },
    "enabled",
  ),
  getDirectorySyncVendorDs: all("vendor D directory sync", "getDirectorySyncVendorDs"),
  getDirectorySyncVendorE: lookup(
    "Vendor E's directory sync with an id from the stack's config",
    "getDirectorySyncVendorE",
    { id: config("directoryId") },
    "enabled",
  ),
  getDirectorySyncVendorEs: all("vendor E directory sync", "getDirectorySyncVendorEs"),
  getDirectorySyncLogs: lookup(
    "The sync log of a directory",
    "getDirectorySyncLogs",
    { vendor: "vendor-d-idp", id: config("directoryId") },
    "items",
  ),
  getEventStreamingIntegration: lookup(
    "The event streaming integration with an id from the stack's config",
    "getEventStreamingIntegration",
    { id: config("integrationId") },
    "platform",
  ),
  getEventStreamingIntegrations: all("event streaming integration", "getEventStreamingIntegrations"),
  getIngressPeer: lookup(
    "The ingress peer with an id from the stack's config",
    "getIngressPeer",
    { id: config("ingressPeerId") },
    "ingressIp",
  ),
  getIngressPeers: all("ingress peer", "getIngressPeers"),
  getIngressPortAllocation: lookup(
    "One port allocation of a peer",
    "getIngressPortAllocation",
    { peerId: config("peerId"), id: config("allocationId") },
    "ingressIp",
  ),
  getIngressPortAllocations: lookup(
    "The port allocations of a peer",
    "getIngressPortAllocations",
    { peerId: config("peerId") },
    "items",
  ),
  getScimIntegration: lookup(
    "The SCIM integration with an id from the stack's config",
    "getScimIntegration",
    { id: config("scimIntegrationId") },
    "prefix",
  ),
  getScimIntegrations: all("SCIM integration", "getScimIntegrations"),
  getOktaScimIntegration: lookup(
    "The Okta SCIM integration with an id from the stack's config",
    "getOktaScimIntegration",
    { id: config("scimIntegrationId") },
    "enabled",
  ),
  getOktaScimIntegrations: all("Okta SCIM integration", "getOktaScimIntegrations"),
  getScimIntegrationLogs: lookup(
    "What happened to a SCIM integration",
    "getScimIntegrationLogs",
    { id: config("scimIntegrationId") },
    "items",
  ),
  getNotificationChannel: lookup(
    "The notification channel with an id from the stack's config",
    "getNotificationChannel",
    { id: config("channelId") },
    "type",
  ),
  getNotificationChannels: all("notification channel", "getNotificationChannels"),
  getNotificationEventTypes: all(
    "activity code a notification channel can report",
    "getNotificationEventTypes",
  ),
  getReverseProxyService: lookup(
    "The reverse-proxy service with an id from the stack's config",
    "getReverseProxyService",
    { id: config("serviceId") },
    "domain",
  ),
  getReverseProxyServices: all("reverse-proxy service", "getReverseProxyServices"),
  getReverseProxyDomain: {
    ...lookup(
      "A domain by name, and whether it is validated",
      "getReverseProxyDomain",
      { domain: "apps.example.com" },
      "validated",
    ),
    readsExisting: true,
  },
  getReverseProxyDomains: all("domain services can be published under", "getReverseProxyDomains"),
  getProxyCluster: {
    ...lookup(
      "A proxy cluster by address, and whether it is online",
      "getProxyCluster",
      { address: "proxy.example.com" },
      "online",
    ),
    readsExisting: true,
  },
  getProxyClusters: all("proxy cluster", "getProxyClusters"),
  getProxyTokens: all("proxy token", "getProxyTokens"),
  // Agent Networks
  getAgentNetworkSettings: lookup(
    "The endpoint agents send their LLM requests to",
    "getAgentNetworkSettings",
    undefined,
    "endpoint",
  ),
  getAgentNetworkCatalogProvider: lookup(
    "OpenAI's default host and model prices, from the catalog",
    "getAgentNetworkCatalogProvider",
    { id: "openai_api" },
    "defaultHost",
  ),
  getAgentNetworkCatalogProviders: all("provider type of the catalog", "getAgentNetworkCatalogProviders"),
  getAgentNetworkProvider: byId("Agent Network provider", "getAgentNetworkProvider", "llmProviderId"),
  getAgentNetworkProviders: all("Agent Network provider", "getAgentNetworkProviders"),
  getAgentNetworkPolicy: byId("Agent Network policy", "getAgentNetworkPolicy", "llmPolicyId"),
  getAgentNetworkPolicies: all("Agent Network policy", "getAgentNetworkPolicies"),
  getAgentNetworkGuardrail: byId("Agent Network guardrail", "getAgentNetworkGuardrail", "guardrailId"),
  getAgentNetworkGuardrails: all("Agent Network guardrail", "getAgentNetworkGuardrails"),
  getAgentNetworkBudgetRule: byId("Agent Network budget rule", "getAgentNetworkBudgetRule", "budgetRuleId"),
  getAgentNetworkBudgetRules: all("Agent Network budget rule", "getAgentNetworkBudgetRules"),
  getAgentNetworkConsumption: all("consumption counter of the gateway", "getAgentNetworkConsumption"),
  getAgentNetworkUsage: lookup(
    "Tokens and cost through the gateway, week by week",
    "getAgentNetworkUsage",
    { granularity: "week" },
    "items",
  ),
  getAgentNetworkAccessLogs: lookup(
    "The latest requests the gateway refused",
    "getAgentNetworkAccessLogs",
    { pageSize: 50, decision: "deny" },
    "data",
  ),
  getAgentNetworkAccessLogSessions: lookup(
    "The ten costliest sessions",
    "getAgentNetworkAccessLogSessions",
    { pageSize: 10, sortBy: "cost_usd" },
    "data",
  ),
  getInvites: all("pending invitation", "getInvites"),
  getAuditEvents: all("audit event", "getAuditEvents"),
  getProxyLogs: lookup(
    "The latest failed requests of the proxy",
    "getProxyLogs",
    { pageSize: 50, status: "failed" },
    "data",
  ),
  getTrafficEvents: lookup(
    "The latest dropped flows",
    "getTrafficEvents",
    { pageSize: 100, type: "TYPE_DROP" },
    "data",
  ),
};
