/**
 * Registry of the objects of spec part 2: every object the API returns or accepts, by name, with the spec
 * section that describes it. OpenAPI components are named after it; a test checks that nothing is missing.
 */
import {
  GroupSummarySchema,
  ResourceRefInputSchema,
  ResourceRefSchema,
  ErrorBodySchema,
  PortRangeSchema,
  type z,
} from "./common";
import * as account from "./account";
import * as agent from "./agent-network";
import * as dirsync from "./directory-sync";
import * as dnsRecord from "./dns-record";
import * as dnsSettings from "./dns-settings";
import * as dnsZone from "./dns-zone";
import * as edr from "./edr";
import * as events from "./events";
import * as streaming from "./event-streaming";
import * as group from "./group";
import * as idp from "./identity-provider";
import * as ingress from "./ingress";
import * as invite from "./invite";
import * as job from "./job";
import * as ns from "./nameserver-group";
import * as notifications from "./notifications";
import * as network from "./network";
import * as resource from "./network-resource";
import * as router from "./network-router";
import * as peer from "./peer";
import * as policy from "./policy";
import * as posture from "./posture-check";
import * as proxy from "./reverse-proxy";
import * as route from "./route";
import * as scim from "./scim";
import * as setupKey from "./setup-key";
import * as token from "./token";
import * as user from "./user";

/** The section of objects described by the service's own OpenAPI document (v0.77.1) rather than the spec. */
export const SERVICE_DOCUMENT = "service OpenAPI v0.77.1";

export interface ApiObject {
  /** Name as the spec writes it (and as OpenAPI components are named). */
  name: string;
  /**
   * Spec section, e.g. "2.11"; for an object the spec does not describe (taken from the service's own API
   * document), its family, e.g. "reverse-proxies".
   */
  section: string;
  /** The object as returned (absent for request-only shapes). */
  schema?: z.ZodType;
  /** Request bodies that create or change it, by name. */
  requests: Record<string, z.ZodType>;
}

const o = (
  name: string,
  section: string,
  schema: z.ZodType | undefined,
  requests: Record<string, z.ZodType> = {},
): ApiObject => ({
  name,
  section,
  schema,
  requests,
});

export const OBJECTS: readonly ApiObject[] = [
  o("GroupSummary", "2.2", GroupSummarySchema),
  o("ResourceRef", "2.2", ResourceRefSchema, { ResourceRefInput: ResourceRefInputSchema }),
  o("Token", "2.3", token.TokenSchema, { TokenCreate: token.TokenCreateSchema }),
  o("TokenCreated", "2.3", token.TokenCreatedSchema),
  o("User", "2.4", user.UserSchema, {
    UserCreate: user.UserCreateSchema,
    UserUpdate: user.UserUpdateSchema,
    PasswordChange: user.PasswordChangeSchema,
  }),
  o("Invite", "2.5", invite.InviteSchema, {
    InviteCreate: invite.InviteCreateSchema,
    InviteRegenerate: invite.InviteRegenerateSchema,
    InviteAccept: invite.InviteAcceptSchema,
  }),
  o("InviteRegenerated", "2.5", invite.InviteRegeneratedSchema),
  o("InviteInfo", "2.5", invite.InviteInfoSchema),
  o("InviteAccepted", "2.5", invite.InviteAcceptedSchema),
  o("Peer", "2.6", peer.PeerSchema, { PeerUpdate: peer.PeerUpdateSchema }),
  o("AccessiblePeer", "2.6", peer.AccessiblePeerSchema),
  o("TemporaryAccess", "2.6", peer.TemporaryAccessSchema, {
    TemporaryAccessRequest: peer.TemporaryAccessRequestSchema,
  }),
  o("Job", "2.7", job.JobSchema, { JobCreate: job.JobCreateSchema }),
  o("Group", "2.8", group.GroupSchema, { GroupRequest: group.GroupRequestSchema }),
  o("Policy", "2.9", policy.PolicySchema, { PolicyRequest: policy.PolicyRequestSchema }),
  o("Rule", "2.9", policy.RuleSchema, { RuleRequest: policy.RuleRequestSchema }),
  o("PortRange", "2.9", undefined, { PortRange: PortRangeSchema }),
  o("PostureCheck", "2.10", posture.PostureCheckSchema, {
    PostureCheckRequest: posture.PostureCheckRequestSchema,
  }),
  o("Route", "2.11", route.RouteSchema, { RouteRequest: route.RouteRequestSchema }),
  o("Network", "2.12", network.NetworkSchema, { NetworkRequest: network.NetworkRequestSchema }),
  o("NetworkResource", "2.12", resource.NetworkResourceSchema, {
    NetworkResourceRequest: resource.NetworkResourceRequestSchema,
  }),
  o("NetworkRouter", "2.12", router.NetworkRouterSchema, {
    NetworkRouterRequest: router.NetworkRouterRequestSchema,
  }),
  o("NameserverGroup", "2.13", ns.NameserverGroupSchema, {
    NameserverGroupRequest: ns.NameserverGroupRequestSchema,
  }),
  o("DnsSettings", "2.13", dnsSettings.DnsSettingsSchema, {
    DnsSettingsRequest: dnsSettings.DnsSettingsRequestSchema,
  }),
  o("DnsSettingsEnvelope", "2.13", dnsSettings.DnsSettingsEnvelopeSchema),
  o("DnsZone", "2.13", dnsZone.DnsZoneSchema, { DnsZoneRequest: dnsZone.DnsZoneRequestSchema }),
  o("DnsRecord", "2.13", dnsRecord.DnsRecordSchema, { DnsRecordRequest: dnsRecord.DnsRecordRequestSchema }),
  o("SetupKey", "2.14", setupKey.SetupKeySchema, {
    SetupKeyCreate: setupKey.SetupKeyCreateSchema,
    SetupKeyUpdate: setupKey.SetupKeyUpdateSchema,
  }),
  o("IdentityProvider", "2.15", idp.IdentityProviderSchema, {
    IdentityProviderRequest: idp.IdentityProviderRequestSchema,
  }),
  o("EdrVendorA", "2.16", edr.EdrVendorASchema, { EdrVendorARequest: edr.EdrVendorARequestSchema }),
  o("EdrVendorB", "2.16", edr.EdrVendorBSchema, { EdrVendorBRequest: edr.EdrVendorBRequestSchema }),
  o("EdrVendorC", "2.16", edr.EdrVendorCSchema, { EdrVendorCRequest: edr.EdrVendorCRequestSchema }),
  o("VendorDIdp", "2.17", dirsync.VendorDSchema, {
    VendorDIdpCreate: dirsync.VendorDCreateSchema,
    VendorDIdpUpdate: dirsync.VendorDUpdateSchema,
  }),
  o("VendorEIdp", "2.17", dirsync.VendorESchema, {
    VendorEIdpCreate: dirsync.VendorECreateSchema,
    VendorEIdpUpdate: dirsync.VendorEUpdateSchema,
  }),
  o("SyncLog", "2.17", dirsync.SyncLogSchema),
  o("SyncResult", "2.17", dirsync.SyncResultSchema),
  o("EventStreamingIntegration", "2.18", streaming.EventStreamingSchema, {
    EventStreamingCreate: streaming.EventStreamingCreateSchema,
    EventStreamingUpdate: streaming.EventStreamingUpdateSchema,
  }),
  // Objects of the service's own OpenAPI document (v0.77.1) that the spec does not describe.
  o("ScimIntegration", SERVICE_DOCUMENT, scim.ScimIntegrationSchema, {
    ScimIntegrationCreate: scim.ScimIntegrationCreateSchema,
    ScimIntegrationUpdate: scim.ScimIntegrationUpdateSchema,
  }),
  o("OktaScimIntegration", SERVICE_DOCUMENT, scim.OktaScimIntegrationSchema, {
    OktaScimIntegrationCreate: scim.OktaScimIntegrationCreateSchema,
    OktaScimIntegrationUpdate: scim.OktaScimIntegrationUpdateSchema,
  }),
  o("ScimToken", SERVICE_DOCUMENT, scim.ScimTokenSchema),
  o("ScimLog", SERVICE_DOCUMENT, scim.ScimLogSchema),
  o("NotificationChannel", SERVICE_DOCUMENT, notifications.NotificationChannelSchema, {
    NotificationChannelRequest: notifications.NotificationChannelRequestSchema,
  }),
  o("NotificationEventTypes", SERVICE_DOCUMENT, notifications.NotificationEventTypesSchema),
  o("IngressPeer", "2.19", ingress.IngressPeerSchema, {
    IngressPeerCreate: ingress.IngressPeerCreateSchema,
    IngressPeerUpdate: ingress.IngressPeerUpdateSchema,
  }),
  o("PortAllocation", "2.19", ingress.PortAllocationSchema, {
    PortAllocationRequest: ingress.PortAllocationRequestSchema,
  }),
  o("Account", "2.20", account.AccountSchema, { AccountUpdate: account.AccountUpdateSchema }),
  o("AccountSettings", "2.20", account.AccountSettingsSchema, {
    AccountSettingsRequest: account.AccountSettingsRequestSchema,
  }),
  o("AccountExtra", "2.20", undefined, { AccountExtra: account.AccountExtraSchema }),
  o("AccountOnboarding", "2.20", undefined, { AccountOnboarding: account.OnboardingSchema }),
  o("AuditEvent", "2.21", events.AuditEventSchema),
  o("TrafficEvent", "2.21", events.TrafficEventSchema),
  o("TrafficEventPage", "2.21", events.TrafficPageSchema),
  o("ProxyLogEntry", "2.21", events.ProxyLogEntrySchema),
  o("ProxyLogPage", "2.21", events.ProxyLogPageSchema),
  o("ReverseProxyService", "reverse-proxies", proxy.ReverseProxyServiceSchema, {
    ReverseProxyServiceRequest: proxy.ReverseProxyServiceRequestSchema,
  }),
  o("ReverseProxyDomain", "reverse-proxies", proxy.ReverseProxyDomainSchema, {
    ReverseProxyDomainRequest: proxy.ReverseProxyDomainRequestSchema,
  }),
  o("ProxyCluster", "reverse-proxies", proxy.ProxyClusterSchema),
  o("ProxyToken", "reverse-proxies", proxy.ProxyTokenSchema, {
    ProxyTokenRequest: proxy.ProxyTokenRequestSchema,
  }),
  o("ProxyTokenCreated", "reverse-proxies", proxy.ProxyTokenCreatedSchema),
  // Agent Networks (the service's v0.77.1 API document; not in the spec).
  o("AgentNetworkSettings", "agent-network", agent.AgentNetworkSettingsSchema, {
    AgentNetworkSettingsCreateRequest: agent.AgentNetworkSettingsCreateSchema,
    AgentNetworkSettingsRequest: agent.AgentNetworkSettingsRequestSchema,
  }),
  o("AgentNetworkProvider", "agent-network", agent.AgentNetworkProviderSchema, {
    AgentNetworkProviderCreateRequest: agent.AgentNetworkProviderCreateSchema,
    AgentNetworkProviderRequest: agent.AgentNetworkProviderRequestSchema,
  }),
  o("AgentNetworkProviderModel", "agent-network", agent.AgentNetworkProviderModelAnsweredSchema, {
    AgentNetworkProviderModelRequest: agent.AgentNetworkProviderModelSchema,
  }),
  o("AgentNetworkCatalogProvider", "agent-network", agent.AgentNetworkCatalogProviderSchema),
  o("AgentNetworkCatalogModel", "agent-network", agent.AgentNetworkCatalogModelSchema),
  o("AgentNetworkPolicyLimits", "agent-network", agent.AgentNetworkLimitsAnsweredSchema, {
    AgentNetworkPolicyLimitsRequest: agent.AgentNetworkLimitsSchema,
  }),
  o("AgentNetworkPolicy", "agent-network", agent.AgentNetworkPolicySchema, {
    AgentNetworkPolicyRequest: agent.AgentNetworkPolicyRequestSchema,
  }),
  o("AgentNetworkGuardrail", "agent-network", agent.AgentNetworkGuardrailSchema, {
    AgentNetworkGuardrailRequest: agent.AgentNetworkGuardrailRequestSchema,
  }),
  o("AgentNetworkBudgetRule", "agent-network", agent.AgentNetworkBudgetRuleSchema, {
    AgentNetworkBudgetRuleRequest: agent.AgentNetworkBudgetRuleRequestSchema,
  }),
  o("AgentNetworkConsumption", "agent-network", agent.AgentNetworkConsumptionSchema),
  o("AgentNetworkUsageBucket", "agent-network", agent.AgentNetworkUsageBucketSchema),
  o("AgentNetworkAccessLog", "agent-network", agent.AgentNetworkAccessLogSchema),
  o("AgentNetworkAccessLogsResponse", "agent-network", agent.AgentNetworkAccessLogPageSchema),
  o("AgentNetworkAccessLogSession", "agent-network", agent.AgentNetworkAccessLogSessionSchema),
  o("AgentNetworkAccessLogSessionsResponse", "agent-network", agent.AgentNetworkAccessLogSessionPageSchema),
  o("Error", "7", ErrorBodySchema),
];

/** Finds an object by name. */
export function objectByName(name: string): ApiObject | undefined {
  return OBJECTS.find((x) => x.name === name);
}
