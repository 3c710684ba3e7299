/**
 * The route table: every operation of the API (spec part 4, operations.tsv), with its request and response
 * schemas. The server registers its handlers against it, the OpenAPI document is generated from it and the
 * client's paths come from it.
 */
import { EmptySchema, z } from "./common";
import { AccountSchema, AccountUpdateSchema } from "./account";
import {
  AgentNetworkAccessLogPageSchema,
  AgentNetworkAccessLogQuerySchema,
  AgentNetworkAccessLogSessionPageSchema,
  AgentNetworkBudgetRuleRequestSchema,
  AgentNetworkBudgetRuleSchema,
  AgentNetworkCatalogProviderSchema,
  AgentNetworkConsumptionSchema,
  AgentNetworkGuardrailRequestSchema,
  AgentNetworkGuardrailSchema,
  AgentNetworkPolicyRequestSchema,
  AgentNetworkPolicySchema,
  AgentNetworkProviderCreateSchema,
  AgentNetworkProviderRequestSchema,
  AgentNetworkProviderSchema,
  AgentNetworkSessionQuerySchema,
  AgentNetworkSettingsCreateSchema,
  AgentNetworkSettingsRequestSchema,
  AgentNetworkSettingsSchema,
  AgentNetworkUsageBucketSchema,
  AgentNetworkUsageQuerySchema,
} from "./agent-network";
import {
  DIRECTORY_SYNC,
  DIRECTORY_SYNC_NEUTRAL_BODIES,
  DIRECTORY_SYNC_NEUTRAL_SEGMENTS,
  DIRECTORY_SYNC_VENDORS,
  IdpSyncResultSchema,
  SyncLogSchema,
  SyncResultSchema,
  type DirectorySyncNeutral,
  type DirectorySyncVendor,
} from "./directory-sync";
import { DnsRecordRequestSchema, DnsRecordSchema } from "./dns-record";
import { DnsSettingsEnvelopeSchema, DnsSettingsRequestSchema, DnsSettingsSchema } from "./dns-settings";
import { DnsZoneRequestSchema, DnsZoneSchema } from "./dns-zone";
import {
  EDR,
  EDR_NEUTRAL_BODIES,
  EDR_NEUTRAL_SEGMENTS,
  EDR_VENDORS,
  EdrBypassSchema,
  type EdrNeutral,
  type EdrVendor,
} from "./edr";
import { CitySchema, CountryCodeSchema, InstanceStatusSchema, InstanceVersionSchema } from "./instance";
import {
  TenantCreateSchema,
  TenantInviteResponseSchema,
  TenantSchema,
  TenantSubscriptionSchema,
  TenantUnlinkSchema,
  TenantUpdateSchema,
} from "./msp";
import {
  AuditEventSchema,
  ProxyLogPageSchema,
  ProxyQuerySchema,
  TrafficPageSchema,
  TrafficQuerySchema,
} from "./events";
import {
  EventStreamingCreateSchema,
  EventStreamingSchema,
  EventStreamingUpdateSchema,
} from "./event-streaming";
import { GroupListQuerySchema, GroupRequestSchema, GroupSchema } from "./group";
import { IdentityProviderRequestSchema, IdentityProviderSchema } from "./identity-provider";
import {
  IngressPeerCreateSchema,
  IngressPeerSchema,
  IngressPeerUpdateSchema,
  PortAllocationListQuerySchema,
  PortAllocationRequestSchema,
  PortAllocationSchema,
} from "./ingress";
import {
  InviteAcceptSchema,
  InviteAcceptedSchema,
  InviteCreateSchema,
  InviteInfoSchema,
  InviteRegenerateSchema,
  InviteRegeneratedSchema,
  InviteSchema,
} from "./invite";
import { JobCreateSchema, JobSchema } from "./job";
import { NameserverGroupRequestSchema, NameserverGroupSchema } from "./nameserver-group";
import {
  NotificationChannelRequestSchema,
  NotificationChannelSchema,
  NotificationEventTypesSchema,
} from "./notifications";
import { NetworkRequestSchema, NetworkSchema } from "./network";
import { NetworkResourceRequestSchema, NetworkResourceSchema } from "./network-resource";
import { NetworkRouterRequestSchema, NetworkRouterSchema } from "./network-router";
import {
  AccessiblePeerSchema,
  PeerListQuerySchema,
  PeerSchema,
  PeerUpdateSchema,
  TemporaryAccessRequestSchema,
  TemporaryAccessSchema,
} from "./peer";
import { PolicyRequestSchema, PolicySchema } from "./policy";
import { PostureCheckRequestSchema, PostureCheckSchema } from "./posture-check";
import {
  ProxyClusterSchema,
  ProxyTokenCreatedSchema,
  ProxyTokenRequestSchema,
  ProxyTokenSchema,
  ReverseProxyDomainRequestSchema,
  ReverseProxyDomainSchema,
  ReverseProxyServiceRequestSchema,
  ReverseProxyServiceSchema,
} from "./reverse-proxy";
import { RouteRequestSchema, RouteSchema } from "./route";
import { SCIM, SCIM_VARIANTS, ScimLogSchema, ScimTokenSchema, type ScimVariant } from "./scim";
import { SetupKeyCreateSchema, SetupKeySchema, SetupKeyUpdateSchema } from "./setup-key";
import { TokenCreateSchema, TokenCreatedSchema, TokenSchema } from "./token";
import {
  PasswordChangeSchema,
  UserCreateSchema,
  UserListQuerySchema,
  UserSchema,
  UserUpdateSchema,
} from "./user";

/**
 * Every family of operations, with the permission module that governs it: the modules are the keys of a User's
 * `permissions.modules` and what the server's role matrix grants (server/roles.ts). A route's family must be
 * listed here (else it does not compile); a family of its own for a new kind is one line.
 */
export const FAMILIES = {
  users: "users",
  invites: "users",
  tokens: "tokens",
  peers: "peers",
  groups: "groups",
  policies: "policies",
  "posture-checks": "posture_checks",
  routes: "routes",
  networks: "networks",
  "network-resources": "networks",
  "network-routers": "networks",
  nameservers: "dns",
  "dns-settings": "dns",
  "dns-zones": "dns",
  "dns-records": "dns",
  "setup-keys": "setup_keys",
  "identity-providers": "identity_providers",
  edr: "integrations",
  "directory-sync": "integrations",
  "event-streaming": "integrations",
  scim: "integrations",
  notifications: "integrations",
  "ingress-ports": "ingress",
  "ingress-peers": "ingress",
  accounts: "accounts",
  events: "events",
  "reverse-proxy-services": "services",
  "reverse-proxy-domains": "services",
  "proxy-clusters": "services",
  "proxy-tokens": "services",
  // Beyond the spec, from the service's v0.77.1 document: EDR bypasses, MSP tenants, the instance, locations.
  "edr-bypass": "integrations",
  "msp-tenants": "accounts",
  instance: "accounts",
  locations: "posture_checks",
  // Agent Networks: the service's own modules, one per part of the family.
  "agent-network-settings": "agent_network.settings",
  "agent-network-catalog": "agent_network",
  "agent-network-providers": "agent_network.providers",
  "agent-network-policies": "agent_network.policies",
  "agent-network-guardrails": "agent_network.guardrails",
  "agent-network-budget-rules": "agent_network.budgets",
  "agent-network-usage": "agent_network.usage",
  "agent-network-logs": "agent_network.logs",
} as const;
export type Family = keyof typeof FAMILIES;
/** A permission module (`networks`, `dns`, ...). */
export type PermissionModule = (typeof FAMILIES)[Family];

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** One API operation. */
export interface ApiRoute {
  /** Stable name, used as the OpenAPI operationId and by the server's handler map. */
  operationId: string;
  method: Method;
  /** Path with `{param}` placeholders, exactly as in operations.tsv. */
  path: string;
  /** Which family of objects the operation belongs to (for docs, tests and the role matrix): see FAMILIES. */
  family: Family;
  summary: string;
  /** Names of the path parameters, in order. */
  pathParams: string[];
  query?: z.ZodType;
  body?: z.ZodType;
  /** Response body; undefined means the operation answers without a body. */
  response?: z.ZodType;
  /**
   * Success status: 200 everywhere (creates included), except a peer job's create (201, as the service answers
   * it), the vendor-c EDR delete and a custom domain's validation (202, no body) and a custom domain's delete
   * (204, no body).
   */
  status: 200 | 201 | 202 | 204;
  /** `public` routes need no credentials (the invite link routes). */
  auth: "token" | "public";
  cloudOnly?: boolean;
  embeddedIdpOnly?: boolean;
}

type RouteInit = Omit<ApiRoute, "pathParams" | "status" | "auth"> &
  Partial<Pick<ApiRoute, "status" | "auth">>;

function paramsOf(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

/**
 * A route as the type checker knows it: its operationId as a literal and its response schema, so that
 * {@link OperationId} and {@link ResponseOf} can be derived from the table.
 */
export type TypedRoute<Id extends string, R extends z.ZodType | undefined> = ApiRoute & {
  operationId: Id;
  response?: R;
};

function route<const Id extends string, R extends z.ZodType | undefined = undefined>(
  init: RouteInit & { operationId: Id; response?: R },
): TypedRoute<Id, R> {
  return { status: 200, auth: "token", ...init, pathParams: paramsOf(init.path) };
}

const list = <T extends z.ZodType>(s: T) => z.array(s);

/** The five operations of a plain collection: list, create, get, replace, delete. */
function crud<const N extends string, const P extends string, S extends z.ZodType>(opts: {
  family: Family;
  name: N;
  /** Plural for the list operation's id (`Groups`, `Policies`); spelled out so that the id is a known literal. */
  plural: P;
  base: string;
  idParam: string;
  schema: S;
  create: z.ZodType;
  update?: z.ZodType;
  query?: z.ZodType;
  flags?: Pick<ApiRoute, "cloudOnly" | "embeddedIdpOnly">;
}) {
  const { family, name, plural, base, idParam, schema, create, update, query, flags } = opts;
  const item = `${base}/{${idParam}}`;
  return [
    route({
      operationId: `list${plural}`,
      method: "GET",
      path: base,
      family,
      summary: `List ${family}`,
      query,
      response: list(schema),
      ...flags,
    }),
    route({
      operationId: `create${name}`,
      method: "POST",
      path: base,
      family,
      summary: `Create a ${name}`,
      body: create,
      response: schema,
      ...flags,
    }),
    route({
      operationId: `get${name}`,
      method: "GET",
      path: item,
      family,
      summary: `Get a ${name}`,
      response: schema,
      ...flags,
    }),
    route({
      operationId: `update${name}`,
      method: "PUT",
      path: item,
      family,
      summary: `Replace a ${name}`,
      body: update ?? create,
      response: schema,
      ...flags,
    }),
    route({
      operationId: `delete${name}`,
      method: "DELETE",
      path: item,
      family,
      summary: `Delete a ${name}`,
      response: EmptySchema,
      ...flags,
    }),
  ];
}

/** The name in a vendor's EDR operation ids (`createEdrSentinelOne`): the kind's name. */
export const EDR_OPERATION_NAMES = {
  sentinelone: "EdrSentinelOne",
  intune: "EdrIntune",
  falcon: "EdrFalcon",
  huntress: "EdrHuntress",
  fleetdm: "EdrFleetDm",
} as const satisfies Record<EdrVendor, string>;

/** The name in a neutral segment's operation ids (`createEdrVendorA`), as the spec's seed named them. */
export const EDR_NEUTRAL_OPERATION_NAMES = {
  "vendor-a": "EdrVendorA",
  "vendor-b": "EdrVendorB",
  "vendor-c": "EdrVendorC",
} as const satisfies Record<EdrNeutral, string>;

/** The four operations of one EDR singleton; Falcon's delete answers 202 without a body. */
function edrSingletonRoutes<const N extends string, Req extends z.ZodType, Res extends z.ZodType>(
  segment: string,
  name: N,
  what: string,
  request: Req,
  response: Res,
  noBodyDelete: boolean,
) {
  const path = `/api/integrations/edr/${segment}`;
  const family = "edr";
  return [
    route({
      operationId: `create${name}`,
      method: "POST",
      path,
      family,
      summary: `Create the ${what} EDR integration`,
      body: request,
      response,
    }),
    route({
      operationId: `get${name}`,
      method: "GET",
      path,
      family,
      summary: `Get the ${what} EDR integration`,
      response,
    }),
    route({
      operationId: `update${name}`,
      method: "PUT",
      path,
      family,
      summary: `Replace the ${what} EDR integration`,
      body: request,
      response,
    }),
    noBodyDelete
      ? route({
          operationId: `delete${name}`,
          method: "DELETE",
          path,
          family,
          summary: `Delete the ${what} EDR integration (202, no body)`,
          status: 202,
        })
      : route({
          operationId: `delete${name}`,
          method: "DELETE",
          path,
          family,
          summary: `Delete the ${what} EDR integration`,
          response: EmptySchema,
        }),
  ];
}

const EDR_TITLES = {
  sentinelone: "SentinelOne",
  intune: "Intune",
  falcon: "CrowdStrike Falcon",
  huntress: "Huntress",
  fleetdm: "FleetDM",
} as const satisfies Record<EdrVendor, string>;

function edrRoutes<V extends EdrVendor>(vendor: V) {
  // Typed by vendor (a destructuring would widen it to every vendor's schema).
  const response: (typeof EDR)[V]["response"] = EDR[vendor].response;
  return edrSingletonRoutes(
    vendor,
    EDR_OPERATION_NAMES[vendor],
    EDR_TITLES[vendor],
    EDR[vendor].request,
    response,
    vendor === "falcon",
  );
}

function edrNeutralRoutes<S extends EdrNeutral>(segment: S) {
  const response: (typeof EDR_NEUTRAL_BODIES)[S]["response"] = EDR_NEUTRAL_BODIES[segment].response;
  return edrSingletonRoutes(
    segment,
    EDR_NEUTRAL_OPERATION_NAMES[segment],
    `${segment} (the spec's name of ${EDR_TITLES[segment === "vendor-a" ? "sentinelone" : segment === "vendor-b" ? "intune" : "falcon"]})`,
    EDR_NEUTRAL_BODIES[segment].request,
    response,
    segment === "vendor-c",
  );
}

/** The name in a vendor's directory sync operation ids (`createGoogleWorkspaceSync`): the kind's name. */
export const DIRECTORY_SYNC_OPERATION_NAMES = {
  "google-idp": "GoogleWorkspaceSync",
  "azure-idp": "AzureAdSync",
} as const satisfies Record<DirectorySyncVendor, string>;

/** The name in a neutral segment's operation ids (`createVendorDIdp`), as the spec's seed named them. */
export const DIRECTORY_SYNC_NEUTRAL_OPERATION_NAMES = {
  "vendor-d-idp": "VendorDIdp",
  "vendor-e-idp": "VendorEIdp",
} as const satisfies Record<DirectorySyncNeutral, string>;

const DIRECTORY_SYNC_TITLES = { "google-idp": "Google Workspace", "azure-idp": "Azure AD" } as const;

/** The seven operations of one directory-sync collection. */
function directorySyncCollection<
  const N extends string,
  B extends { create: z.ZodType; update: z.ZodType; response: z.ZodType },
  S extends z.ZodType,
>(segment: string, name: N, what: string, bodies: B, syncResult: S) {
  const { create, update } = bodies;
  const response: B["response"] = bodies.response;
  const base = `/api/integrations/${segment}`;
  const family = "directory-sync";
  return [
    route({
      operationId: `create${name}`,
      method: "POST",
      path: base,
      family,
      summary: `Create a ${what} directory sync`,
      body: create,
      response,
    }),
    route({
      operationId: `list${name}s`,
      method: "GET",
      path: base,
      family,
      summary: `List ${what} directory syncs`,
      response: list(response),
    }),
    route({
      operationId: `get${name}`,
      method: "GET",
      path: `${base}/{id}`,
      family,
      summary: `Get a ${what} directory sync`,
      response,
    }),
    route({
      operationId: `update${name}`,
      method: "PUT",
      path: `${base}/{id}`,
      family,
      summary: `Update a ${what} directory sync`,
      body: update,
      response,
    }),
    route({
      operationId: `delete${name}`,
      method: "DELETE",
      path: `${base}/{id}`,
      family,
      summary: `Delete a ${what} directory sync`,
      response: EmptySchema,
    }),
    route({
      operationId: `sync${name}`,
      method: "POST",
      path: `${base}/{id}/sync`,
      family,
      summary: `Start a ${what} sync now`,
      response: syncResult,
    }),
    route({
      operationId: `list${name}Logs`,
      method: "GET",
      path: `${base}/{id}/logs`,
      family,
      summary: `List ${what} sync logs`,
      response: list(SyncLogSchema),
    }),
  ];
}

function directorySyncRoutes<V extends DirectorySyncVendor>(vendor: V) {
  const bodies: (typeof DIRECTORY_SYNC)[V] = DIRECTORY_SYNC[vendor];
  return directorySyncCollection(
    vendor,
    DIRECTORY_SYNC_OPERATION_NAMES[vendor],
    DIRECTORY_SYNC_TITLES[vendor],
    bodies,
    IdpSyncResultSchema,
  );
}

function directorySyncNeutralRoutes<S extends DirectorySyncNeutral>(segment: S) {
  const bodies: (typeof DIRECTORY_SYNC_NEUTRAL_BODIES)[S] = DIRECTORY_SYNC_NEUTRAL_BODIES[segment];
  const real = segment === "vendor-d-idp" ? "google-idp" : "azure-idp";
  return directorySyncCollection(
    segment,
    DIRECTORY_SYNC_NEUTRAL_OPERATION_NAMES[segment],
    `${segment} (the spec's name of ${DIRECTORY_SYNC_TITLES[real]})`,
    bodies,
    SyncResultSchema,
  );
}

/** The name in a SCIM collection's operation ids (`createOktaScimIntegration`). */
export const SCIM_OPERATION_NAMES = {
  "scim-idp": "ScimIntegration",
  "okta-scim-idp": "OktaScimIntegration",
} as const satisfies Record<ScimVariant, string>;

function scimRoutes<V extends ScimVariant>(variant: V) {
  const { create, update } = SCIM[variant];
  // Typed by variant (a destructuring would widen it to both variants' schemas).
  const response: (typeof SCIM)[V]["response"] = SCIM[variant].response;
  const base = `/api/integrations/${variant}`;
  const name = SCIM_OPERATION_NAMES[variant];
  const what = variant === "scim-idp" ? "SCIM integration" : "Okta SCIM integration";
  const family = "scim";
  return [
    route({
      operationId: `create${name}`,
      method: "POST",
      path: base,
      family,
      summary: `Create a ${what}; the answer carries its token in full, once`,
      body: create,
      response,
    }),
    route({
      operationId: `list${name}s`,
      method: "GET",
      path: base,
      family,
      summary: `List ${what}s (tokens masked)`,
      response: list(response),
    }),
    route({
      operationId: `get${name}`,
      method: "GET",
      path: `${base}/{id}`,
      family,
      summary: `Get a ${what} (token masked)`,
      response,
    }),
    route({
      operationId: `update${name}`,
      method: "PUT",
      path: `${base}/{id}`,
      family,
      summary: `Update a ${what}: the fields sent change, the others stay`,
      body: update,
      response,
    }),
    route({
      operationId: `delete${name}`,
      method: "DELETE",
      path: `${base}/{id}`,
      family,
      summary: `Delete a ${what}; its token stops authenticating`,
      response: EmptySchema,
    }),
    route({
      operationId: `regenerate${name}Token`,
      method: "POST",
      path: `${base}/{id}/token`,
      family,
      summary: `Replace a ${what}'s token; the answer carries the new one in full, once`,
      response: ScimTokenSchema,
    }),
    route({
      operationId: `list${name}Logs`,
      method: "GET",
      path: `${base}/{id}/logs`,
      family,
      summary: `List what happened to a ${what}`,
      response: list(ScimLogSchema),
    }),
  ];
}

/**
 * Each vendor's routes, made one vendor at a time so that every operation id keeps its own response schema (a
 * vendor-a id answers a vendor-a object); `satisfies` makes a vendor without routes a compile error.
 */
const EDR_ROUTES = {
  sentinelone: edrRoutes("sentinelone"),
  intune: edrRoutes("intune"),
  falcon: edrRoutes("falcon"),
  huntress: edrRoutes("huntress"),
  fleetdm: edrRoutes("fleetdm"),
} satisfies Record<EdrVendor, ApiRoute[]>;
const EDR_NEUTRAL_ROUTES = {
  "vendor-a": edrNeutralRoutes("vendor-a"),
  "vendor-b": edrNeutralRoutes("vendor-b"),
  "vendor-c": edrNeutralRoutes("vendor-c"),
} satisfies Record<EdrNeutral, ApiRoute[]>;
const DIRECTORY_SYNC_ROUTES = {
  "google-idp": directorySyncRoutes("google-idp"),
  "azure-idp": directorySyncRoutes("azure-idp"),
} satisfies Record<DirectorySyncVendor, ApiRoute[]>;
const DIRECTORY_SYNC_NEUTRAL_ROUTES = {
  "vendor-d-idp": directorySyncNeutralRoutes("vendor-d-idp"),
  "vendor-e-idp": directorySyncNeutralRoutes("vendor-e-idp"),
} satisfies Record<DirectorySyncNeutral, ApiRoute[]>;
const SCIM_ROUTES = {
  "scim-idp": scimRoutes("scim-idp"),
  "okta-scim-idp": scimRoutes("okta-scim-idp"),
} satisfies Record<ScimVariant, ApiRoute[]>;
type EdrRoute = (typeof EDR_ROUTES)[EdrVendor][number];
type EdrNeutralRoute = (typeof EDR_NEUTRAL_ROUTES)[EdrNeutral][number];
type DirectorySyncNeutralRoute = (typeof DIRECTORY_SYNC_NEUTRAL_ROUTES)[DirectorySyncNeutral][number];
type ScimRoute = (typeof SCIM_ROUTES)[ScimVariant][number];
type DirectorySyncRoute = (typeof DIRECTORY_SYNC_ROUTES)[DirectorySyncVendor][number];

const ROUTE_TABLE = [
  // 4.1 Tokens
  route({
    operationId: "listTokens",
    method: "GET",
    path: "/api/users/{userId}/tokens",
    family: "tokens",
    summary: "List a user's personal access tokens",
    response: list(TokenSchema),
  }),
  route({
    operationId: "createToken",
    method: "POST",
    path: "/api/users/{userId}/tokens",
    family: "tokens",
    summary: "Create a personal access token; the value is returned once",
    body: TokenCreateSchema,
    response: TokenCreatedSchema,
  }),
  route({
    operationId: "getToken",
    method: "GET",
    path: "/api/users/{userId}/tokens/{tokenId}",
    family: "tokens",
    summary: "Get a personal access token",
    response: TokenSchema,
  }),
  route({
    operationId: "deleteToken",
    method: "DELETE",
    path: "/api/users/{userId}/tokens/{tokenId}",
    family: "tokens",
    summary: "Delete a personal access token",
    response: EmptySchema,
  }),
  // 4.2 Users and invites
  route({
    operationId: "listUsers",
    method: "GET",
    path: "/api/users",
    family: "users",
    summary: "List users",
    query: UserListQuerySchema,
    response: list(UserSchema),
  }),
  route({
    operationId: "createUser",
    method: "POST",
    path: "/api/users",
    family: "users",
    summary: "Create a service user or invite a regular user",
    body: UserCreateSchema,
    response: UserSchema,
  }),
  route({
    operationId: "updateUser",
    method: "PUT",
    path: "/api/users/{userId}",
    family: "users",
    summary: "Update a user's role, auto groups and blocked state",
    body: UserUpdateSchema,
    response: UserSchema,
  }),
  route({
    operationId: "deleteUser",
    method: "DELETE",
    path: "/api/users/{userId}",
    family: "users",
    summary: "Delete a user and its tokens",
    response: EmptySchema,
  }),
  route({
    operationId: "resendUserInvite",
    method: "POST",
    path: "/api/users/{userId}/invite",
    family: "users",
    summary: "Resend a user's invitation",
    response: EmptySchema,
  }),
  route({
    operationId: "approveUser",
    method: "POST",
    path: "/api/users/{userId}/approve",
    family: "users",
    summary: "Approve a pending user",
    response: UserSchema,
  }),
  route({
    operationId: "rejectUser",
    method: "DELETE",
    path: "/api/users/{userId}/reject",
    family: "users",
    summary: "Reject a pending user",
    response: EmptySchema,
  }),
  route({
    operationId: "changeUserPassword",
    method: "PUT",
    path: "/api/users/{userId}/password",
    family: "users",
    summary: "Change one's own password (embedded IdP only)",
    body: PasswordChangeSchema,
    response: EmptySchema,
    embeddedIdpOnly: true,
  }),
  route({
    operationId: "getCurrentUser",
    method: "GET",
    path: "/api/users/current",
    family: "users",
    summary: "Get the calling user",
    response: UserSchema,
  }),
  route({
    operationId: "listInvites",
    method: "GET",
    path: "/api/users/invites",
    family: "invites",
    summary: "List pending invites (embedded IdP only)",
    response: list(InviteSchema),
    embeddedIdpOnly: true,
  }),
  route({
    operationId: "createInvite",
    method: "POST",
    path: "/api/users/invites",
    family: "invites",
    summary: "Create an invite link (embedded IdP only)",
    body: InviteCreateSchema,
    response: InviteSchema,
    embeddedIdpOnly: true,
  }),
  route({
    operationId: "deleteInvite",
    method: "DELETE",
    path: "/api/users/invites/{inviteId}",
    family: "invites",
    summary: "Delete a pending invite (embedded IdP only)",
    response: EmptySchema,
    embeddedIdpOnly: true,
  }),
  route({
    operationId: "regenerateInvite",
    method: "POST",
    path: "/api/users/invites/{inviteId}/regenerate",
    family: "invites",
    summary: "Issue a new invite token; the old one stops working",
    body: InviteRegenerateSchema,
    response: InviteRegeneratedSchema,
    embeddedIdpOnly: true,
  }),
  route({
    operationId: "getInviteInfo",
    method: "GET",
    path: "/api/users/invites/{token}",
    family: "invites",
    summary: "Public view of an invite, protected by its token",
    response: InviteInfoSchema,
    auth: "public",
    embeddedIdpOnly: true,
  }),
  route({
    operationId: "acceptInvite",
    method: "POST",
    path: "/api/users/invites/{token}/accept",
    family: "invites",
    summary: "Accept an invite with a password; creates the user",
    body: InviteAcceptSchema,
    response: InviteAcceptedSchema,
    auth: "public",
    embeddedIdpOnly: true,
  }),
  // 4.3 Peers
  route({
    operationId: "listPeers",
    method: "GET",
    path: "/api/peers",
    family: "peers",
    summary: "List peers",
    query: PeerListQuerySchema,
    response: list(PeerSchema),
  }),
  route({
    operationId: "getPeer",
    method: "GET",
    path: "/api/peers/{peerId}",
    family: "peers",
    summary: "Get a peer",
    response: PeerSchema,
  }),
  route({
    operationId: "updatePeer",
    method: "PUT",
    path: "/api/peers/{peerId}",
    family: "peers",
    summary: "Update a peer",
    body: PeerUpdateSchema,
    response: PeerSchema,
  }),
  route({
    operationId: "deletePeer",
    method: "DELETE",
    path: "/api/peers/{peerId}",
    family: "peers",
    summary: "Delete a peer",
    response: EmptySchema,
  }),
  route({
    operationId: "listAccessiblePeers",
    method: "GET",
    path: "/api/peers/{peerId}/accessible-peers",
    family: "peers",
    summary: "Peers this peer can connect to, computed from enabled policies",
    response: list(AccessiblePeerSchema),
  }),
  route({
    operationId: "createTemporaryAccess",
    method: "POST",
    path: "/api/peers/{peerId}/temporary-access",
    family: "peers",
    summary: "Create a temporary peer that may reach this peer only",
    body: TemporaryAccessRequestSchema,
    response: TemporaryAccessSchema,
  }),
  route({
    operationId: "listPeerJobs",
    method: "GET",
    path: "/api/peers/{peerId}/jobs",
    family: "peers",
    summary: "List a peer's jobs",
    response: list(JobSchema),
  }),
  route({
    operationId: "createPeerJob",
    method: "POST",
    path: "/api/peers/{peerId}/jobs",
    family: "peers",
    summary: "Ask the peer's agent to run a job (201)",
    body: JobCreateSchema,
    response: JobSchema,
    status: 201,
  }),
  route({
    operationId: "getPeerJob",
    method: "GET",
    path: "/api/peers/{peerId}/jobs/{jobId}",
    family: "peers",
    summary: "Get a peer job",
    response: JobSchema,
  }),
  // 4.4 Groups, policies, posture checks, routes
  ...crud({
    family: "groups",
    name: "Group",
    plural: "Groups",
    base: "/api/groups",
    idParam: "groupId",
    schema: GroupSchema,
    create: GroupRequestSchema,
    query: GroupListQuerySchema,
  }),
  ...crud({
    family: "policies",
    name: "Policy",
    plural: "Policies",
    base: "/api/policies",
    idParam: "policyId",
    schema: PolicySchema,
    create: PolicyRequestSchema,
  }),
  ...crud({
    family: "posture-checks",
    name: "PostureCheck",
    plural: "PostureChecks",
    base: "/api/posture-checks",
    idParam: "postureCheckId",
    schema: PostureCheckSchema,
    create: PostureCheckRequestSchema,
  }),
  ...crud({
    family: "routes",
    name: "Route",
    plural: "Routes",
    base: "/api/routes",
    idParam: "routeId",
    schema: RouteSchema,
    create: RouteRequestSchema,
  }),
  // 4.5 Networks
  ...crud({
    family: "networks",
    name: "Network",
    plural: "Networks",
    base: "/api/networks",
    idParam: "networkId",
    schema: NetworkSchema,
    create: NetworkRequestSchema,
  }),
  ...crud({
    family: "network-resources",
    name: "NetworkResource",
    plural: "NetworkResources",
    base: "/api/networks/{networkId}/resources",
    idParam: "resourceId",
    schema: NetworkResourceSchema,
    create: NetworkResourceRequestSchema,
  }),
  ...crud({
    family: "network-routers",
    name: "NetworkRouter",
    plural: "NetworkRouters",
    base: "/api/networks/{networkId}/routers",
    idParam: "routerId",
    schema: NetworkRouterSchema,
    create: NetworkRouterRequestSchema,
  }),
  // 4.6 DNS
  ...crud({
    family: "nameservers",
    name: "NameserverGroup",
    plural: "NameserverGroups",
    base: "/api/dns/nameservers",
    idParam: "nsgroupId",
    schema: NameserverGroupSchema,
    create: NameserverGroupRequestSchema,
  }),
  route({
    operationId: "getDnsSettings",
    method: "GET",
    path: "/api/dns/settings",
    family: "dns-settings",
    summary: "Get the DNS settings",
    response: DnsSettingsEnvelopeSchema,
  }),
  route({
    operationId: "updateDnsSettings",
    method: "PUT",
    path: "/api/dns/settings",
    family: "dns-settings",
    summary: "Update the DNS settings",
    body: DnsSettingsRequestSchema,
    response: DnsSettingsSchema,
  }),
  ...crud({
    family: "dns-zones",
    name: "DnsZone",
    plural: "DnsZones",
    base: "/api/dns/zones",
    idParam: "zoneId",
    schema: DnsZoneSchema,
    create: DnsZoneRequestSchema,
  }),
  ...crud({
    family: "dns-records",
    name: "DnsRecord",
    plural: "DnsRecords",
    base: "/api/dns/zones/{zoneId}/records",
    idParam: "recordId",
    schema: DnsRecordSchema,
    create: DnsRecordRequestSchema,
  }),
  // 4.7 Setup keys and identity providers
  ...crud({
    family: "setup-keys",
    name: "SetupKey",
    plural: "SetupKeys",
    base: "/api/setup-keys",
    idParam: "keyId",
    schema: SetupKeySchema,
    create: SetupKeyCreateSchema,
    update: SetupKeyUpdateSchema,
  }),
  ...crud({
    family: "identity-providers",
    name: "IdentityProvider",
    plural: "IdentityProviders",
    base: "/api/identity-providers",
    idParam: "idpId",
    schema: IdentityProviderSchema,
    create: IdentityProviderRequestSchema,
  }),
  // 4.8 Integrations
  // The spec's neutral segments: the same objects as the service's vendors below.
  ...EDR_NEUTRAL_SEGMENTS.flatMap((v): EdrNeutralRoute[] => EDR_NEUTRAL_ROUTES[v]),
  ...DIRECTORY_SYNC_NEUTRAL_SEGMENTS.flatMap(
    (v): DirectorySyncNeutralRoute[] => DIRECTORY_SYNC_NEUTRAL_ROUTES[v],
  ),
  route({
    operationId: "createEventStreaming",
    method: "POST",
    path: "/api/event-streaming",
    family: "event-streaming",
    summary: "Create an event streaming integration",
    body: EventStreamingCreateSchema,
    response: EventStreamingSchema,
  }),
  route({
    operationId: "listEventStreamings",
    method: "GET",
    path: "/api/event-streaming",
    family: "event-streaming",
    summary: "List event streaming integrations",
    response: list(EventStreamingSchema),
  }),
  route({
    operationId: "getEventStreaming",
    method: "GET",
    path: "/api/event-streaming/{id}",
    family: "event-streaming",
    summary: "Get an event streaming integration",
    response: EventStreamingSchema,
  }),
  route({
    operationId: "updateEventStreaming",
    method: "PUT",
    path: "/api/event-streaming/{id}",
    family: "event-streaming",
    summary: "Update an event streaming integration (platform is ignored)",
    body: EventStreamingUpdateSchema,
    response: EventStreamingSchema,
  }),
  route({
    operationId: "deleteEventStreaming",
    method: "DELETE",
    path: "/api/event-streaming/{id}",
    family: "event-streaming",
    summary: "Delete an event streaming integration",
    response: EmptySchema,
  }),
  // Beyond the spec, from the service's OpenAPI document: SCIM provisioning and notification channels (the
  // document marks both cloud-only; privnet-server serves them as it serves the other integrations).
  ...SCIM_VARIANTS.flatMap((v): ScimRoute[] => SCIM_ROUTES[v]),
  route({
    operationId: "listNotificationEventTypes",
    method: "GET",
    path: "/api/integrations/notifications/types",
    family: "notifications",
    summary: "List the activity codes a notification channel can subscribe to, with what each means",
    response: NotificationEventTypesSchema,
  }),
  ...crud({
    family: "notifications",
    name: "NotificationChannel",
    plural: "NotificationChannels",
    base: "/api/integrations/notifications/channels",
    idParam: "channelId",
    schema: NotificationChannelSchema,
    create: NotificationChannelRequestSchema,
  }),
  // 4.9 Ingress (cloud-only)
  ...crud({
    family: "ingress-ports",
    name: "PortAllocation",
    plural: "PortAllocations",
    base: "/api/peers/{peerId}/ingress/ports",
    idParam: "allocationId",
    schema: PortAllocationSchema,
    create: PortAllocationRequestSchema,
    query: PortAllocationListQuerySchema,
    flags: { cloudOnly: true },
  }),
  ...crud({
    family: "ingress-peers",
    name: "IngressPeer",
    plural: "IngressPeers",
    base: "/api/ingress/peers",
    idParam: "ingressPeerId",
    schema: IngressPeerSchema,
    create: IngressPeerCreateSchema,
    update: IngressPeerUpdateSchema,
    flags: { cloudOnly: true },
  }),
  // 4.10 Accounts
  route({
    operationId: "listAccounts",
    method: "GET",
    path: "/api/accounts",
    family: "accounts",
    summary: "List accounts (always exactly one)",
    response: list(AccountSchema),
  }),
  route({
    operationId: "updateAccount",
    method: "PUT",
    path: "/api/accounts/{accountId}",
    family: "accounts",
    summary: "Update the account settings",
    body: AccountUpdateSchema,
    response: AccountSchema,
  }),
  route({
    operationId: "deleteAccount",
    method: "DELETE",
    path: "/api/accounts/{accountId}",
    family: "accounts",
    summary: "Delete the account and everything in it (owner only)",
    response: EmptySchema,
  }),
  // 4.11 Event logs
  route({
    operationId: "listAuditEvents",
    method: "GET",
    path: "/api/events/audit",
    family: "events",
    summary: "List audit events",
    response: list(AuditEventSchema),
  }),
  route({
    operationId: "listTrafficEvents",
    method: "GET",
    path: "/api/events/network-traffic",
    family: "events",
    summary: "Page through network traffic events (cloud-only, experimental)",
    query: TrafficQuerySchema,
    response: TrafficPageSchema,
    cloudOnly: true,
  }),
  route({
    operationId: "listProxyLogs",
    method: "GET",
    path: "/api/events/proxy",
    family: "events",
    summary: "Page through reverse proxy access logs",
    query: ProxyQuerySchema,
    response: ProxyLogPageSchema,
  }),
  // Reverse proxies (from the service's v0.77.1 API document; not in the spec's 137 operations)
  ...crud({
    family: "reverse-proxy-services",
    name: "ReverseProxyService",
    plural: "ReverseProxyServices",
    base: "/api/reverse-proxies/services",
    idParam: "serviceId",
    schema: ReverseProxyServiceSchema,
    create: ReverseProxyServiceRequestSchema,
  }),
  route({
    operationId: "listReverseProxyDomains",
    method: "GET",
    path: "/api/reverse-proxies/domains",
    family: "reverse-proxy-domains",
    summary: "List the domains services can use: each cluster's own (free) domain and the custom domains",
    response: list(ReverseProxyDomainSchema),
  }),
  route({
    operationId: "createReverseProxyDomain",
    method: "POST",
    path: "/api/reverse-proxies/domains",
    family: "reverse-proxy-domains",
    summary: "Add a custom domain (its DNS is checked at once)",
    body: ReverseProxyDomainRequestSchema,
    response: ReverseProxyDomainSchema,
  }),
  route({
    operationId: "deleteReverseProxyDomain",
    method: "DELETE",
    path: "/api/reverse-proxies/domains/{domainId}",
    family: "reverse-proxy-domains",
    summary: "Delete a custom domain (services using it stay)",
    status: 204,
  }),
  route({
    operationId: "validateReverseProxyDomain",
    method: "GET",
    path: "/api/reverse-proxies/domains/{domainId}/validate",
    family: "reverse-proxy-domains",
    summary: "Check a custom domain's DNS again",
    status: 202,
  }),
  route({
    operationId: "listProxyClusters",
    method: "GET",
    path: "/api/reverse-proxies/clusters",
    family: "proxy-clusters",
    summary: "List the proxy clusters services can be published on",
    response: list(ProxyClusterSchema),
  }),
  route({
    operationId: "deleteProxyCluster",
    method: "DELETE",
    path: "/api/reverse-proxies/clusters/{clusterAddress}",
    family: "proxy-clusters",
    summary: "Remove the account's own proxies of a cluster",
    response: EmptySchema,
  }),
  route({
    operationId: "listProxyTokens",
    method: "GET",
    path: "/api/reverse-proxies/proxy-tokens",
    family: "proxy-tokens",
    summary: "List the tokens self-hosted proxies register with (revoked ones included)",
    response: list(ProxyTokenSchema),
  }),
  route({
    operationId: "createProxyToken",
    method: "POST",
    path: "/api/reverse-proxies/proxy-tokens",
    family: "proxy-tokens",
    summary: "Create a proxy token (its value is answered once)",
    body: ProxyTokenRequestSchema,
    response: ProxyTokenCreatedSchema,
  }),
  route({
    operationId: "deleteProxyToken",
    method: "DELETE",
    path: "/api/reverse-proxies/proxy-tokens/{tokenId}",
    family: "proxy-tokens",
    summary: "Revoke a proxy token (it stays listed, revoked)",
    response: EmptySchema,
  }),
  // Beyond the spec, from the service's v0.77.1 API document: the integrations under the service's own names
  // (EDR vendors, directory sync), EDR bypasses, MSP tenants, the instance, locations and every network router.
  ...EDR_VENDORS.flatMap((v): EdrRoute[] => EDR_ROUTES[v]),
  ...DIRECTORY_SYNC_VENDORS.flatMap((v): DirectorySyncRoute[] => DIRECTORY_SYNC_ROUTES[v]),
  route({
    operationId: "listPeerEdrBypasses",
    method: "GET",
    path: "/api/peers/edr/bypassed",
    family: "edr-bypass",
    summary: "List the peers let through the EDR compliance checks",
    response: list(EdrBypassSchema),
  }),
  route({
    operationId: "createPeerEdrBypass",
    method: "POST",
    path: "/api/peers/{peerId}/edr/bypass",
    family: "edr-bypass",
    summary: "Let a peer through the EDR compliance checks until revoked or until its device complies",
    response: EdrBypassSchema,
  }),
  route({
    operationId: "deletePeerEdrBypass",
    method: "DELETE",
    path: "/api/peers/{peerId}/edr/bypass",
    family: "edr-bypass",
    summary: "Revoke a peer's EDR bypass (no body)",
  }),
  route({
    operationId: "listMspTenants",
    method: "GET",
    path: "/api/integrations/msp/tenants",
    family: "msp-tenants",
    summary: "List the MSP account's tenants",
    response: list(TenantSchema),
  }),
  route({
    operationId: "createMspTenant",
    method: "POST",
    path: "/api/integrations/msp/tenants",
    family: "msp-tenants",
    summary: "Create a tenant account; it is pending until its domain's DNS challenge is verified",
    body: TenantCreateSchema,
    response: TenantSchema,
  }),
  route({
    operationId: "updateMspTenant",
    method: "PUT",
    path: "/api/integrations/msp/tenants/{id}",
    family: "msp-tenants",
    summary: "Rename a tenant and set the MSP groups that reach it (its domain stays)",
    body: TenantUpdateSchema,
    response: TenantSchema,
  }),
  route({
    operationId: "verifyMspTenantDns",
    method: "POST",
    path: "/api/integrations/msp/tenants/{id}/dns",
    family: "msp-tenants",
    summary: "Check the tenant domain's DNS challenge; the tenant becomes active when it holds (no body)",
  }),
  route({
    operationId: "inviteMspTenant",
    method: "POST",
    path: "/api/integrations/msp/tenants/{id}/invite",
    family: "msp-tenants",
    summary: "Invite an existing account to become a tenant",
    response: TenantSchema,
  }),
  route({
    operationId: "answerMspTenantInvite",
    method: "PUT",
    path: "/api/integrations/msp/tenants/{id}/invite",
    family: "msp-tenants",
    summary: "The invited account's answer: accept or decline (no body)",
    body: TenantInviteResponseSchema,
  }),
  route({
    operationId: "unlinkMspTenant",
    method: "POST",
    path: "/api/integrations/msp/tenants/{id}/unlink",
    family: "msp-tenants",
    summary: "Hand a tenant over to an owner of its own; the MSP no longer manages it (no body)",
    body: TenantUnlinkSchema,
  }),
  route({
    operationId: "createMspTenantSubscription",
    method: "POST",
    path: "/api/integrations/msp/tenants/{id}/subscription",
    family: "msp-tenants",
    summary: "Move a tenant's subscription to a price (no body)",
    body: TenantSubscriptionSchema,
  }),
  route({
    operationId: "getInstanceStatus",
    method: "GET",
    path: "/api/instance",
    family: "instance",
    summary: "Whether the instance still needs its first-run setup (no credentials needed)",
    response: InstanceStatusSchema,
    auth: "public",
  }),
  route({
    operationId: "getInstanceVersion",
    method: "GET",
    path: "/api/instance/version",
    family: "instance",
    summary: "The versions of the instance's components (every user may read them)",
    response: InstanceVersionSchema,
  }),
  route({
    operationId: "listCountries",
    method: "GET",
    path: "/api/locations/countries",
    family: "locations",
    summary: "The country codes of the geo database (412 when the server has none)",
    response: list(CountryCodeSchema),
  }),
  route({
    operationId: "listCities",
    method: "GET",
    path: "/api/locations/countries/{country}/cities",
    family: "locations",
    summary: "The cities of a country in the geo database (412 when the server has none)",
    response: list(CitySchema),
  }),
  route({
    operationId: "listAllNetworkRouters",
    method: "GET",
    path: "/api/networks/routers",
    family: "network-routers",
    summary: "Every router of every network of the account",
    response: list(NetworkRouterSchema),
  }),
  // Agent Networks (from the service's v0.77.1 API document; not in the spec)
  route({
    operationId: "getAgentNetworkSettings",
    method: "GET",
    path: "/api/agent-network/settings",
    family: "agent-network-settings",
    summary: "Get the gateway settings (the defaults, with an empty endpoint, before they are bootstrapped)",
    response: AgentNetworkSettingsSchema,
  }),
  route({
    operationId: "createAgentNetworkSettings",
    method: "POST",
    path: "/api/agent-network/settings",
    family: "agent-network-settings",
    summary: "Bootstrap the gateway settings and allocate the endpoint (409 once bootstrapped)",
    body: AgentNetworkSettingsCreateSchema,
    response: AgentNetworkSettingsSchema,
  }),
  route({
    operationId: "updateAgentNetworkSettings",
    method: "PUT",
    path: "/api/agent-network/settings",
    family: "agent-network-settings",
    summary: "Replace the gateway settings (the addresses cannot change; 404 before bootstrap)",
    body: AgentNetworkSettingsRequestSchema,
    response: AgentNetworkSettingsSchema,
  }),
  route({
    operationId: "deleteAgentNetworkSettings",
    method: "DELETE",
    path: "/api/agent-network/settings",
    family: "agent-network-settings",
    summary: "Release the endpoint (412 while any provider exists)",
    response: EmptySchema,
  }),
  route({
    operationId: "listAgentNetworkCatalogProviders",
    method: "GET",
    path: "/api/agent-network/catalog/providers",
    family: "agent-network-catalog",
    summary: "List the provider types the gateway knows, with their models and prices (any signed-in user)",
    response: list(AgentNetworkCatalogProviderSchema),
  }),
  ...crud({
    family: "agent-network-providers",
    name: "AgentNetworkProvider",
    plural: "AgentNetworkProviders",
    base: "/api/agent-network/providers",
    idParam: "providerId",
    schema: AgentNetworkProviderSchema,
    create: AgentNetworkProviderCreateSchema,
    update: AgentNetworkProviderRequestSchema,
  }),
  ...crud({
    family: "agent-network-policies",
    name: "AgentNetworkPolicy",
    plural: "AgentNetworkPolicies",
    base: "/api/agent-network/policies",
    idParam: "policyId",
    schema: AgentNetworkPolicySchema,
    create: AgentNetworkPolicyRequestSchema,
  }),
  ...crud({
    family: "agent-network-guardrails",
    name: "AgentNetworkGuardrail",
    plural: "AgentNetworkGuardrails",
    base: "/api/agent-network/guardrails",
    idParam: "guardrailId",
    schema: AgentNetworkGuardrailSchema,
    create: AgentNetworkGuardrailRequestSchema,
  }),
  ...crud({
    family: "agent-network-budget-rules",
    name: "AgentNetworkBudgetRule",
    plural: "AgentNetworkBudgetRules",
    base: "/api/agent-network/budget-rules",
    idParam: "ruleId",
    schema: AgentNetworkBudgetRuleSchema,
    create: AgentNetworkBudgetRuleRequestSchema,
  }),
  route({
    operationId: "listAgentNetworkConsumption",
    method: "GET",
    path: "/api/agent-network/consumption",
    family: "agent-network-usage",
    summary: "List the consumption counters (per user and per group, per window), newest window first",
    response: list(AgentNetworkConsumptionSchema),
  }),
  route({
    operationId: "getAgentNetworkUsageOverview",
    method: "GET",
    path: "/api/agent-network/usage/overview",
    family: "agent-network-usage",
    summary: "Tokens and cost summed by day, week or month, oldest first",
    query: AgentNetworkUsageQuerySchema,
    response: list(AgentNetworkUsageBucketSchema),
  }),
  route({
    operationId: "listAgentNetworkAccessLogs",
    method: "GET",
    path: "/api/agent-network/access-logs",
    family: "agent-network-logs",
    summary: "Page through the requests the gateway logged",
    query: AgentNetworkAccessLogQuerySchema,
    response: AgentNetworkAccessLogPageSchema,
  }),
  route({
    operationId: "listAgentNetworkAccessLogSessions",
    method: "GET",
    path: "/api/agent-network/access-log-sessions",
    family: "agent-network-logs",
    summary: "Page through the logged requests grouped by session",
    query: AgentNetworkSessionQuerySchema,
    response: AgentNetworkAccessLogSessionPageSchema,
  }),
];

export const ROUTES: readonly ApiRoute[] = ROUTE_TABLE;

/** Any route of the table, with its literal operationId and its response schema. */
type TableRoute = (typeof ROUTE_TABLE)[number];

/** The operation ids of the route table: `client.call("getGrop")` does not compile. */
export type OperationId = TableRoute["operationId"];

type ResponseOfRoute<T> = T extends { response?: infer S }
  ? S extends z.ZodType
    ? z.output<S>
    : undefined
  : never;

/** What an operation answers (the output type of its response schema; undefined for an answer without a body). */
export type ResponseOf<Id extends OperationId> = ResponseOfRoute<Extract<TableRoute, { operationId: Id }>>;

/** Looks a route up by its operationId; throws for an unknown id (a programming error). */
export function routeById(operationId: string): ApiRoute {
  const r = ROUTES.find((x) => x.operationId === operationId);
  if (!r) throw new Error(`unknown operation ${operationId}`);
  return r;
}

export { fillPath } from "./operations";
