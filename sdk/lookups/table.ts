/**
 * The table of lookups: one entry per function. Adding a lookup = one entry here and `npm run gen`, which writes
 * the typed function, its argument and result types and its reference section.
 */
import { camel } from "../../model/schema";
import { dnsSettingsAnswer, listAnswer } from "../../model/answers";
import { isRecord, toApi } from "../../model/mapping";
import { AccountSchema } from "../../api/account";
import {
  ACCESS_LOG_SORT_FIELDS,
  AgentNetworkAccessLogPageSchema,
  AgentNetworkAccessLogSchema,
  AgentNetworkAccessLogSessionPageSchema,
  AgentNetworkBudgetRuleSchema,
  AgentNetworkCatalogProviderSchema,
  AgentNetworkConsumptionSchema,
  AgentNetworkGuardrailSchema,
  AgentNetworkPolicySchema,
  AgentNetworkProviderSchema,
  AgentNetworkSettingsSchema,
  AgentNetworkUsageBucketSchema,
  SESSION_SORT_FIELDS,
} from "../../api/agent-network";
import { anyId, GroupSummarySchema, issue, z } from "../../api/common";
import { SyncLogSchema, VendorDSchema, VendorESchema } from "../../api/directory-sync";
import { DnsRecordSchema } from "../../api/dns-record";
import { DnsSettingsSchema } from "../../api/dns-settings";
import { DnsZoneSchema } from "../../api/dns-zone";
import { EdrVendorASchema, EdrVendorBSchema, EdrVendorCSchema } from "../../api/edr";
import { EventStreamingSchema } from "../../api/event-streaming";
import {
  AuditEventSchema,
  ProxyLogEntrySchema,
  ProxyLogPageSchema,
  ProxyQuerySchema,
  TrafficEventSchema,
  TrafficPageSchema,
  TrafficQuerySchema,
} from "../../api/events";
import { GroupSchema } from "../../api/group";
import { IdentityProviderSchema } from "../../api/identity-provider";
import { IngressPeerSchema, PortAllocationSchema } from "../../api/ingress";
import { InviteSchema } from "../../api/invite";
import { JobSchema } from "../../api/job";
import { NameserverGroupSchema } from "../../api/nameserver-group";
import { NetworkSchema } from "../../api/network";
import { NetworkResourceSchema } from "../../api/network-resource";
import { NetworkRouterSchema } from "../../api/network-router";
import { NotificationChannelSchema } from "../../api/notifications";
import { AccessiblePeerSchema, PeerSchema } from "../../api/peer";
import { PolicySchema } from "../../api/policy";
import { PostureCheckSchema } from "../../api/posture-check";
import {
  ProxyClusterSchema,
  ProxyTokenSchema,
  ReverseProxyDomainSchema,
  ReverseProxyServiceSchema,
} from "../../api/reverse-proxy";
import { RouteSchema } from "../../api/route";
import { OktaScimIntegrationSchema, ScimIntegrationSchema, ScimLogSchema } from "../../api/scim";
import { SetupKeySchema } from "../../api/setup-key";
import { TokenSchema } from "../../api/token";
import { UserSchema } from "../../api/user";
import type { QueryParams } from "../../client";
import type { OperationId } from "../../api/routes";
import {
  LookupProblem,
  exactlyOne,
  infoOf,
  lookup,
  type LookupInfo,
  type LookupSpec,
  type ResultType,
} from "./spec";

// ---------------------------------------------------------------------------------------------------------------
// Result types: every API object a lookup returns, by its TypeScript name. The names end in `Result` so that they
// never clash with the resource classes (`Peer`, `Group`, ...) exported next to them.

const result = (name: string, schema: z.ZodType): ResultType => ({ name, schema });

const R = {
  peer: result("PeerResult", PeerSchema),
  accessiblePeer: result("AccessiblePeerResult", AccessiblePeerSchema),
  peerJob: result("PeerJobResult", JobSchema),
  group: result("GroupResult", GroupSchema),
  user: result("UserResult", UserSchema),
  token: result("TokenResult", TokenSchema),
  account: result("AccountResult", AccountSchema),
  policy: result("PolicyResult", PolicySchema),
  postureCheck: result("PostureCheckResult", PostureCheckSchema),
  route: result("RouteResult", RouteSchema),
  network: result("NetworkResult", NetworkSchema),
  networkResource: result("NetworkResourceResult", NetworkResourceSchema),
  networkRouter: result("NetworkRouterResult", NetworkRouterSchema),
  nameserverGroup: result("NameserverGroupResult", NameserverGroupSchema),
  dnsSettings: result("DnsSettingsResult", DnsSettingsSchema),
  dnsZone: result("DnsZoneResult", DnsZoneSchema),
  dnsRecord: result("DnsRecordResult", DnsRecordSchema),
  setupKey: result("SetupKeyResult", SetupKeySchema),
  identityProvider: result("IdentityProviderResult", IdentityProviderSchema),
  edrVendorA: result("EdrVendorAResult", EdrVendorASchema),
  edrVendorB: result("EdrVendorBResult", EdrVendorBSchema),
  edrVendorC: result("EdrVendorCResult", EdrVendorCSchema),
  directorySyncVendorD: result("DirectorySyncVendorDResult", VendorDSchema),
  directorySyncVendorE: result("DirectorySyncVendorEResult", VendorESchema),
  directorySyncLog: result("DirectorySyncLogResult", SyncLogSchema),
  eventStreaming: result("EventStreamingIntegrationResult", EventStreamingSchema),
  scimIntegration: result("ScimIntegrationResult", ScimIntegrationSchema),
  oktaScimIntegration: result("OktaScimIntegrationResult", OktaScimIntegrationSchema),
  scimLog: result("ScimIntegrationLogResult", ScimLogSchema),
  notificationChannel: result("NotificationChannelResult", NotificationChannelSchema),
  notificationEventType: result(
    "NotificationEventTypeResult",
    z
      .strictObject({
        code: z.string().describe("The activity code, as a channel's `eventTypes` names it"),
        description: z.string().describe("What the activity is"),
      })
      .describe("An activity code a notification channel can subscribe to"),
  ),
  ingressPeer: result("IngressPeerResult", IngressPeerSchema),
  portAllocation: result("IngressPortAllocationResult", PortAllocationSchema),
  invite: result("InviteResult", InviteSchema),
  reverseProxyService: result("ReverseProxyServiceResult", ReverseProxyServiceSchema),
  reverseProxyDomain: result("ReverseProxyDomainResult", ReverseProxyDomainSchema),
  proxyCluster: result("ProxyClusterResult", ProxyClusterSchema),
  proxyToken: result("ProxyTokenResult", ProxyTokenSchema),
  auditEvent: result("AuditEventResult", AuditEventSchema),
  proxyLogPage: result("ProxyLogPageResult", ProxyLogPageSchema),
  trafficEventPage: result("TrafficEventPageResult", TrafficPageSchema),
  agentNetworkSettings: result("AgentNetworkSettingsResult", AgentNetworkSettingsSchema),
  agentNetworkCatalogProvider: result("AgentNetworkCatalogProviderResult", AgentNetworkCatalogProviderSchema),
  agentNetworkProvider: result("AgentNetworkProviderResult", AgentNetworkProviderSchema),
  agentNetworkPolicy: result("AgentNetworkPolicyResult", AgentNetworkPolicySchema),
  agentNetworkGuardrail: result("AgentNetworkGuardrailResult", AgentNetworkGuardrailSchema),
  agentNetworkBudgetRule: result("AgentNetworkBudgetRuleResult", AgentNetworkBudgetRuleSchema),
  agentNetworkConsumption: result("AgentNetworkConsumptionResult", AgentNetworkConsumptionSchema),
  agentNetworkUsageBucket: result("AgentNetworkUsageBucketResult", AgentNetworkUsageBucketSchema),
  agentNetworkAccessLogPage: result("AgentNetworkAccessLogPageResult", AgentNetworkAccessLogPageSchema),
  agentNetworkSessionPage: result("AgentNetworkSessionPageResult", AgentNetworkAccessLogSessionPageSchema),
};

/**
 * Objects nested in results that get a name of their own in ./types.ts instead of being spelled out at every use
 * (the group summary appears in peers, policies and more; the page types hold arrays of entries).
 */
export const NESTED_TYPES: readonly ResultType[] = [
  result("GroupSummaryResult", GroupSummarySchema),
  result("ProxyLogResult", ProxyLogEntrySchema),
  result("TrafficEventResult", TrafficEventSchema),
  result("AgentNetworkAccessLogResult", AgentNetworkAccessLogSchema),
];

// ---------------------------------------------------------------------------------------------------------------
// Argument building blocks.

/** Every id argument (the object's own and its parents'): any form a server answers ids with (see `anyId`). */
const id = (doc: string) => anyId().describe(doc);

/** A path parameter taken from an argument (`networkId` -> `{networkId}`), with the object it names. */
interface Parent {
  arg: string;
  param: string;
  what: string;
  doc: string;
}

const PEER: Parent = { arg: "peerId", param: "peerId", what: "peer", doc: "Peer id" };
const NETWORK: Parent = { arg: "networkId", param: "networkId", what: "network", doc: "Network id" };
const ZONE: Parent = { arg: "zoneId", param: "zoneId", what: "DNS zone", doc: "DNS zone id" };
const USER: Parent = { arg: "userId", param: "userId", what: "user", doc: "User id" };

type Args = Record<string, unknown>;

function parentShape(parents: readonly Parent[]): Record<string, z.ZodType> {
  return Object.fromEntries(parents.map((p) => [p.arg, id(p.doc)]));
}

function parentParams(parents: readonly Parent[], a: Args): Record<string, string> {
  return Object.fromEntries(parents.map((p) => [p.param, String(a[p.arg])]));
}

function within(parents: readonly Parent[], a: Args): string {
  return parents.map((p) => ` in ${p.what} "${String(a[p.arg])}"`).join("");
}

/** A lookup of one object by id (`GET .../{id}`); a 404 names the object and its parents. */
function getById(o: {
  name: string;
  description: string;
  operationId: OperationId;
  idParam: string;
  what: string;
  idDoc: string;
  parents?: readonly Parent[];
  result: ResultType;
}): LookupSpec {
  const parents = o.parents ?? [];
  return lookup({
    name: o.name,
    description: o.description,
    operationIds: [o.operationId],
    args: z.strictObject({ ...parentShape(parents), id: id(o.idDoc) }),
    result: o.result,
    run: (api, a: Args) =>
      api.call(o.operationId, { params: { ...parentParams(parents, a), [o.idParam]: String(a.id) } }),
    notFound: (a: Args) => `no ${o.what} with id "${String(a.id)}"${within(parents, a)}`,
  });
}

/** A lookup of every object of a collection (`GET ...`), optionally below parents and with query filters. */
function listAll(o: {
  name: string;
  description: string;
  operationId: OperationId;
  parents?: readonly Parent[];
  filters?: Record<string, z.ZodType>;
  query?: (a: Args) => QueryParams;
  result: ResultType;
}): LookupSpec {
  const parents = o.parents ?? [];
  const hasArgs = parents.length > 0 || o.filters !== undefined;
  return lookup({
    name: o.name,
    description: o.description,
    operationIds: [o.operationId],
    ...(hasArgs ? { args: z.strictObject({ ...parentShape(parents), ...o.filters }) } : {}),
    result: o.result,
    many: true,
    run: (api, a: Args) =>
      api.call(o.operationId, {
        params: parentParams(parents, a),
        ...(o.query ? { query: o.query(a) } : {}),
      }),
  });
}

/** A singleton read (`GET /api/integrations/edr/vendor-a`); a 404 means it is not configured. */
function singleton(o: {
  name: string;
  description: string;
  operationId: OperationId;
  what: string;
  result: ResultType;
}): LookupSpec {
  return lookup({
    name: o.name,
    description: o.description,
    operationIds: [o.operationId],
    result: o.result,
    run: (api) => api.call(o.operationId),
    notFound: () => `${o.what} is not configured`,
  });
}

/**
 * The API's query schema with camelCase names (`page_size` -> `pageSize`), for lookups whose arguments are a
 * query. The field schemas (and their defaults and descriptions) are the API's; `toApi` maps the names back.
 */
function camelQuery(schema: z.ZodObject<Record<string, z.ZodType>>, what: string) {
  const shape = Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [camel(k), v]));
  return z
    .strictObject(shape)
    .superRefine((q, ctx) => {
      const startDate = text(q.startDate);
      const endDate = text(q.endDate);
      if (startDate && endDate && Date.parse(startDate) > Date.parse(endDate))
        issue(ctx, ["endDate"], "must not be before startDate");
    })
    .describe(what);
}

/** A string argument, or undefined. */
function text(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** The arguments as query parameters (API names); only scalar values are sent. */
function queryOf(a: Args, schema: z.ZodType): QueryParams {
  const mapped: unknown = toApi(a, schema);
  const query: QueryParams = {};
  if (isRecord(mapped))
    for (const [k, v] of Object.entries(mapped))
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") query[k] = v;
  return query;
}

/** The filters of the Agent Network usage reads (camelCase arguments; the API repeats the list parameters). */
const agentNetworkFilters = {
  startDate: z.string().optional().describe("Only requests at or after this time (RFC 3339)"),
  endDate: z.string().optional().describe("Only requests at or before this time (RFC 3339)"),
  userId: z.string().optional().describe("Only this user's requests"),
  sessionId: z.string().optional().describe("Only this session's requests"),
  groupIds: z.array(z.string()).optional().describe("Only requests one of these groups allowed"),
  providerIds: z.array(z.string()).optional().describe("Only requests served by one of these providers"),
  models: z.array(z.string()).optional().describe("Only requests for one of these models"),
};

const agentNetworkPaging = {
  page: z.number().int().min(1).optional().describe("Page number, from 1; default 1"),
  pageSize: z.number().int().min(1).max(100).optional().describe("Page size, 1 to 100; default 50"),
  sortOrder: z.enum(["asc", "desc"]).optional().describe("asc, or desc (the default)"),
  search: z
    .string()
    .optional()
    .describe("Part of an entry's id, host, path, model, or the user's email or name"),
  decision: z.string().optional().describe("Only requests with this decision (allow, deny)"),
  path: z.string().optional().describe("Only requests whose path starts with this"),
};

/** The query of an Agent Network usage read: API names, lists as repeated parameters. */
function agentNetworkQuery(a: Args): QueryParams {
  const s = (v: unknown) => (typeof v === "string" ? v : undefined);
  const n = (v: unknown) => (typeof v === "number" ? v : undefined);
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : undefined);
  return {
    page: n(a.page),
    page_size: n(a.pageSize),
    sort_by: s(a.sortBy),
    sort_order: s(a.sortOrder),
    search: s(a.search),
    decision: s(a.decision),
    path: s(a.path),
    granularity: s(a.granularity),
    start_date: s(a.startDate),
    end_date: s(a.endDate),
    user_id: s(a.userId),
    session_id: s(a.sessionId),
    group_id: list(a.groupIds),
    provider_id: list(a.providerIds),
    model: list(a.models),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The table.

const MASKED_KEY =
  "The `key` is masked (its first characters, then asterisks): the API returns the full value only when the key " +
  "is created, so read it from the `SetupKey` resource instead.";

const MASKED_SCIM_TOKEN =
  "`authToken` is masked (its first characters, then asterisks): the API returns the token in full only when " +
  "it is made, so read it from the resource's `authToken` instead.";

const MASKED_HEADERS = "Webhook header values in `target.headers` are masked: the API never returns them.";

export const LOOKUP_SPECS: readonly LookupSpec[] = [
  // Peers
  getById({
    name: "getPeer",
    description: "The peer with this id.",
    operationId: "getPeer",
    idParam: "peerId",
    what: "peer",
    idDoc: "Peer id",
    result: R.peer,
  }),
  listAll({
    name: "getPeers",
    description:
      "Every peer the caller may see, optionally only those with this name and/or overlay IP (exact matches, " +
      "applied by the API). The list includes `accessiblePeersCount`.",
    operationId: "listPeers",
    filters: {
      name: z.string().optional().describe("Only peers with exactly this name"),
      ip: z.string().optional().describe("Only the peer with this overlay IP address"),
    },
    query: (a) => ({ name: text(a.name), ip: text(a.ip) }),
    result: R.peer,
  }),
  lookup({
    name: "getPeerByName",
    description:
      "The one peer with exactly this name. Peer names are host names and need not be unique: fails when no " +
      "peer or more than one peer has the name, saying how many matched (list them with `getPeers` and its `name` filter).",
    operationIds: ["listPeers"],
    args: z.strictObject({ name: z.string().min(1, { error: "must not be empty" }).describe("Peer name") }),
    positional: "name",
    result: R.peer,
    run: async (api, a) => {
      const peers = listAnswer(await api.call("listPeers", { query: { name: a.name } }), "listPeers");
      return exactlyOne(
        peers.filter((p) => p.name === a.name),
        { one: "peer", many: "peers" },
        `named ${JSON.stringify(a.name)}`,
        "list them with getPeers and its name filter",
      );
    },
  }),
  lookup({
    name: "getPeerByIp",
    description: "The peer with this overlay IP address; fails when no peer has it.",
    operationIds: ["listPeers"],
    args: z.strictObject({
      ip: z.string().min(1, { error: "must not be empty" }).describe("Overlay IP address"),
    }),
    positional: "ip",
    result: R.peer,
    run: async (api, a) => {
      const peers = listAnswer(await api.call("listPeers", { query: { ip: a.ip } }), "listPeers");
      return exactlyOne(
        peers.filter((p) => p.ip === a.ip),
        { one: "peer", many: "peers" },
        `with IP ${JSON.stringify(a.ip)}`,
      );
    },
  }),
  listAll({
    name: "getAccessiblePeers",
    description:
      "The peers this peer can connect to, as computed by the service from the enabled policies and the peer's " +
      "groups.",
    operationId: "listAccessiblePeers",
    parents: [PEER],
    result: R.accessiblePeer,
  }),
  listAll({
    name: "getPeerJobs",
    description: "The jobs (diagnostic bundles) of this peer, pending and finished.",
    operationId: "listPeerJobs",
    parents: [PEER],
    result: R.peerJob,
  }),
  getById({
    name: "getPeerJob",
    description: "One job of a peer, with its status and, once it succeeded, the upload key of the bundle.",
    operationId: "getPeerJob",
    idParam: "jobId",
    what: "job",
    idDoc: "Job id",
    parents: [PEER],
    result: R.peerJob,
  }),

  // Groups
  lookup({
    name: "getGroup",
    description:
      "The group with this id, or with exactly this name (the API's name filter; group names are unique). The " +
      "built-in group that holds every peer is the one named `All`.",
    operationIds: ["getGroup", "listGroups"],
    args: z.union([
      z.strictObject({ id: id("Group id") }),
      z.strictObject({
        name: z.string().min(1, { error: "must not be empty" }).describe("Group name (exact match)"),
      }),
    ]),
    result: R.group,
    run: async (api, a) => {
      if ("id" in a) return api.call("getGroup", { params: { groupId: String(a.id) } });
      const groups = listAnswer(await api.call("listGroups", { query: { name: a.name } }), "listGroups");
      return exactlyOne(
        groups.filter((g) => g.name === a.name),
        { one: "group", many: "groups" },
        `named ${JSON.stringify(a.name)}`,
      );
    },
    notFound: (a) =>
      "id" in a ? `no group with id "${String(a.id)}"` : `no group named ${JSON.stringify(a.name)}`,
  }),
  listAll({
    name: "getGroups",
    description: "Every group, including the built-in `All`.",
    operationId: "listGroups",
    result: R.group,
  }),

  // Users, tokens, account
  listAll({
    name: "getUsers",
    description:
      "Every user; with `serviceUser: true` only service users, with `serviceUser: false` only regular users.",
    operationId: "listUsers",
    filters: {
      serviceUser: z
        .boolean()
        .optional()
        .describe("true: only service users; false: only regular users; unset: all users"),
    },
    query: (a) => ({
      service_user: typeof a.serviceUser === "boolean" ? String(a.serviceUser) : undefined,
    }),
    result: R.user,
  }),
  lookup({
    name: "getUser",
    description:
      "The user with this id, or with this email address (compared case-insensitively). The API has no " +
      "single-user read: this lists the users and picks the match.",
    operationIds: ["listUsers"],
    args: z.union([
      z.strictObject({ id: id("User id") }),
      z.strictObject({
        email: z.string().min(1, { error: "must not be empty" }).describe("Email address"),
      }),
    ]),
    result: R.user,
    run: async (api, a) => {
      const users = listAnswer(await api.call("listUsers"), "listUsers");
      if ("id" in a)
        return exactlyOne(
          users.filter((u) => String(u.id) === String(a.id)),
          { one: "user", many: "users" },
          `with id "${String(a.id)}"`,
        );
      const email = a.email.toLowerCase();
      return exactlyOne(
        users.filter((u) => String(u.email).toLowerCase() === email),
        { one: "user", many: "users" },
        `with email ${JSON.stringify(a.email)}`,
      );
    },
  }),
  lookup({
    name: "getCurrentUser",
    description: "The user the credentials belong to (the owner of the token).",
    operationIds: ["getCurrentUser"],
    result: R.user,
    run: (api) => api.call("getCurrentUser"),
  }),
  listAll({
    name: "getTokens",
    description:
      "The personal access tokens of a user, without their values (the API shows a value only once).",
    operationId: "listTokens",
    parents: [USER],
    result: R.token,
  }),
  getById({
    name: "getToken",
    description: "One personal access token of a user, without its value.",
    operationId: "getToken",
    idParam: "tokenId",
    what: "token",
    idDoc: "Token id",
    parents: [USER],
    result: R.token,
  }),
  lookup({
    name: "getAccount",
    description: "The account the credentials manage, with its settings (the API always lists exactly one).",
    operationIds: ["listAccounts"],
    result: R.account,
    run: async (api) => {
      const [account] = listAnswer(await api.call("listAccounts"), "listAccounts");
      if (!account) throw new LookupProblem("not-found", "the API returned no account");
      return account;
    },
  }),

  // Policies, posture checks, routes
  getById({
    name: "getPolicy",
    description: "The policy with this id; rule sources and destinations are group summaries.",
    operationId: "getPolicy",
    idParam: "policyId",
    what: "policy",
    idDoc: "Policy id",
    result: R.policy,
  }),
  listAll({
    name: "getPolicies",
    description: "Every access-control policy with its rules.",
    operationId: "listPolicies",
    result: R.policy,
  }),
  getById({
    name: "getPostureCheck",
    description: "The posture check with this id.",
    operationId: "getPostureCheck",
    idParam: "postureCheckId",
    what: "posture check",
    idDoc: "Posture check id",
    result: R.postureCheck,
  }),
  listAll({
    name: "getPostureChecks",
    description: "Every posture check.",
    operationId: "listPostureChecks",
    result: R.postureCheck,
  }),
  getById({
    name: "getRoute",
    description: "The network route with this id.",
    operationId: "getRoute",
    idParam: "routeId",
    what: "route",
    idDoc: "Route id",
    result: R.route,
  }),
  listAll({
    name: "getRoutes",
    description: "Every network route.",
    operationId: "listRoutes",
    result: R.route,
  }),

  // Networks
  getById({
    name: "getNetwork",
    description: "The network with this id, with the ids of its routers, resources and policies.",
    operationId: "getNetwork",
    idParam: "networkId",
    what: "network",
    idDoc: "Network id",
    result: R.network,
  }),
  listAll({
    name: "getNetworks",
    description: "Every network.",
    operationId: "listNetworks",
    result: R.network,
  }),
  getById({
    name: "getNetworkResource",
    description: "One resource of a network; its `type` (host, subnet, domain) is derived from the address.",
    operationId: "getNetworkResource",
    idParam: "resourceId",
    what: "network resource",
    idDoc: "Network resource id",
    parents: [NETWORK],
    result: R.networkResource,
  }),
  listAll({
    name: "getNetworkResources",
    description: "The resources of a network.",
    operationId: "listNetworkResources",
    parents: [NETWORK],
    result: R.networkResource,
  }),
  getById({
    name: "getNetworkRouter",
    description: "One routing peer (or peer group) of a network.",
    operationId: "getNetworkRouter",
    idParam: "routerId",
    what: "network router",
    idDoc: "Network router id",
    parents: [NETWORK],
    result: R.networkRouter,
  }),
  listAll({
    name: "getNetworkRouters",
    description: "The routers of a network.",
    operationId: "listNetworkRouters",
    parents: [NETWORK],
    result: R.networkRouter,
  }),

  // DNS
  getById({
    name: "getNameserverGroup",
    description: "The nameserver group with this id.",
    operationId: "getNameserverGroup",
    idParam: "nsgroupId",
    what: "nameserver group",
    idDoc: "Nameserver group id",
    result: R.nameserverGroup,
  }),
  listAll({
    name: "getNameserverGroups",
    description: "Every nameserver group.",
    operationId: "listNameserverGroups",
    result: R.nameserverGroup,
  }),
  lookup({
    name: "getDnsSettings",
    description:
      "The account's DNS settings. (The API wraps them in `items` on read, or answers them plain; this returns " +
      "the settings themselves.)",
    operationIds: ["getDnsSettings"],
    result: R.dnsSettings,
    run: async (api) => dnsSettingsAnswer(await api.call("getDnsSettings")),
  }),
  getById({
    name: "getDnsZone",
    description: "The DNS zone with this id, with its records.",
    operationId: "getDnsZone",
    idParam: "zoneId",
    what: "DNS zone",
    idDoc: "DNS zone id",
    result: R.dnsZone,
  }),
  listAll({
    name: "getDnsZones",
    description: "Every DNS zone, with its records.",
    operationId: "listDnsZones",
    result: R.dnsZone,
  }),
  getById({
    name: "getDnsRecord",
    description: "One record of a DNS zone.",
    operationId: "getDnsRecord",
    idParam: "recordId",
    what: "DNS record",
    idDoc: "DNS record id",
    parents: [ZONE],
    result: R.dnsRecord,
  }),
  listAll({
    name: "getDnsRecords",
    description: "The records of a DNS zone.",
    operationId: "listDnsRecords",
    parents: [ZONE],
    result: R.dnsRecord,
  }),

  // Setup keys, identity providers
  getById({
    name: "getSetupKey",
    description: `The setup key with this id. ${MASKED_KEY}`,
    operationId: "getSetupKey",
    idParam: "keyId",
    what: "setup key",
    idDoc: "Setup key id",
    result: R.setupKey,
  }),
  listAll({
    name: "getSetupKeys",
    description: `Every setup key. ${MASKED_KEY}`,
    operationId: "listSetupKeys",
    result: R.setupKey,
  }),
  getById({
    name: "getIdentityProvider",
    description: "The identity provider with this id (the client secret is never returned).",
    operationId: "getIdentityProvider",
    idParam: "idpId",
    what: "identity provider",
    idDoc: "Identity provider id",
    result: R.identityProvider,
  }),
  listAll({
    name: "getIdentityProviders",
    description: "Every identity provider (client secrets are never returned).",
    operationId: "listIdentityProviders",
    result: R.identityProvider,
  }),

  // Integrations
  singleton({
    name: "getEdrVendorA",
    description:
      "The vendor-a EDR integration (the API token is never returned); fails when it is not configured.",
    operationId: "getEdrVendorA",
    what: "the vendor-a EDR integration",
    result: R.edrVendorA,
  }),
  singleton({
    name: "getEdrVendorB",
    description:
      "The vendor-b EDR integration (the secret is never returned); fails when it is not configured.",
    operationId: "getEdrVendorB",
    what: "the vendor-b EDR integration",
    result: R.edrVendorB,
  }),
  singleton({
    name: "getEdrVendorC",
    description:
      "The vendor-c EDR integration (client id and secret are never returned); fails when it is not configured.",
    operationId: "getEdrVendorC",
    what: "the vendor-c EDR integration",
    result: R.edrVendorC,
  }),
  getById({
    name: "getDirectorySyncVendorD",
    description: "The vendor-d-idp directory sync with this id (the service account key is never returned).",
    operationId: "getVendorDIdp",
    idParam: "id",
    what: "vendor-d-idp directory sync",
    idDoc: "Integration id",
    result: R.directorySyncVendorD,
  }),
  listAll({
    name: "getDirectorySyncVendorDs",
    description: "Every vendor-d-idp directory sync.",
    operationId: "listVendorDIdps",
    result: R.directorySyncVendorD,
  }),
  getById({
    name: "getDirectorySyncVendorE",
    description: "The vendor-e-idp directory sync with this id (the client secret is never returned).",
    operationId: "getVendorEIdp",
    idParam: "id",
    what: "vendor-e-idp directory sync",
    idDoc: "Integration id",
    result: R.directorySyncVendorE,
  }),
  listAll({
    name: "getDirectorySyncVendorEs",
    description: "Every vendor-e-idp directory sync.",
    operationId: "listVendorEIdps",
    result: R.directorySyncVendorE,
  }),
  lookup({
    name: "getDirectorySyncLogs",
    description: "The sync log of a directory sync integration of either vendor.",
    operationIds: ["listVendorDIdpLogs", "listVendorEIdpLogs"],
    args: z.strictObject({
      vendor: z.enum(["vendor-d-idp", "vendor-e-idp"]).describe("Which directory sync vendor"),
      id: id("Integration id"),
    }),
    result: R.directorySyncLog,
    many: true,
    run: (api, a) =>
      api.call(a.vendor === "vendor-d-idp" ? "listVendorDIdpLogs" : "listVendorEIdpLogs", {
        params: { id: String(a.id) },
      }),
    notFound: (a) => `no ${a.vendor} directory sync with id "${String(a.id)}"`,
  }),
  getById({
    name: "getEventStreamingIntegration",
    description: "The event streaming integration with this id; credential values in `config` are masked.",
    operationId: "getEventStreaming",
    idParam: "id",
    what: "event streaming integration",
    idDoc: "Integration id",
    result: R.eventStreaming,
  }),
  listAll({
    name: "getEventStreamingIntegrations",
    description: "Every event streaming integration; credential values in `config` are masked.",
    operationId: "listEventStreamings",
    result: R.eventStreaming,
  }),

  // SCIM provisioning and notification channels
  getById({
    name: "getScimIntegration",
    description: `The SCIM integration with this id. ${MASKED_SCIM_TOKEN}`,
    operationId: "getScimIntegration",
    idParam: "id",
    what: "SCIM integration",
    idDoc: "Integration id",
    result: R.scimIntegration,
  }),
  listAll({
    name: "getScimIntegrations",
    description: `Every SCIM integration. ${MASKED_SCIM_TOKEN}`,
    operationId: "listScimIntegrations",
    result: R.scimIntegration,
  }),
  getById({
    name: "getOktaScimIntegration",
    description: `The Okta SCIM integration with this id (its connection name is never returned). ${MASKED_SCIM_TOKEN}`,
    operationId: "getOktaScimIntegration",
    idParam: "id",
    what: "Okta SCIM integration",
    idDoc: "Integration id",
    result: R.oktaScimIntegration,
  }),
  listAll({
    name: "getOktaScimIntegrations",
    description: `Every Okta SCIM integration. ${MASKED_SCIM_TOKEN}`,
    operationId: "listOktaScimIntegrations",
    result: R.oktaScimIntegration,
  }),
  lookup({
    name: "getScimIntegrationLogs",
    description:
      "What happened to a SCIM integration of either kind (creation, token rotations, pushes), oldest first.",
    operationIds: ["listScimIntegrationLogs", "listOktaScimIntegrationLogs"],
    args: z.strictObject({
      okta: z.boolean().optional().describe("Whether the integration is an Okta one; default false"),
      id: id("Integration id"),
    }),
    result: R.scimLog,
    many: true,
    run: (api, a) =>
      api.call(a.okta === true ? "listOktaScimIntegrationLogs" : "listScimIntegrationLogs", {
        params: { id: String(a.id) },
      }),
    notFound: (a) => `no ${a.okta === true ? "Okta " : ""}SCIM integration with id "${String(a.id)}"`,
  }),
  getById({
    name: "getNotificationChannel",
    description: `The notification channel with this id. ${MASKED_HEADERS}`,
    operationId: "getNotificationChannel",
    idParam: "channelId",
    what: "notification channel",
    idDoc: "Channel id",
    result: R.notificationChannel,
  }),
  listAll({
    name: "getNotificationChannels",
    description: `Every notification channel. ${MASKED_HEADERS}`,
    operationId: "listNotificationChannels",
    result: R.notificationChannel,
  }),
  lookup({
    name: "getNotificationEventTypes",
    description:
      "Every activity code a notification channel can subscribe to, with what it means, in the server's order.",
    operationIds: ["listNotificationEventTypes"],
    result: R.notificationEventType,
    many: true,
    run: async (api) =>
      Object.entries(await api.call("listNotificationEventTypes")).map(([code, description]) => ({
        code,
        description,
      })),
  }),

  // Ingress (cloud)
  getById({
    name: "getIngressPeer",
    description: "The ingress peer with this id.",
    operationId: "getIngressPeer",
    idParam: "ingressPeerId",
    what: "ingress peer",
    idDoc: "Ingress peer id",
    result: R.ingressPeer,
  }),
  listAll({
    name: "getIngressPeers",
    description: "Every ingress peer.",
    operationId: "listIngressPeers",
    result: R.ingressPeer,
  }),
  getById({
    name: "getIngressPortAllocation",
    description: "One port allocation of a peer, with its public-to-peer port mappings.",
    operationId: "getPortAllocation",
    idParam: "allocationId",
    what: "port allocation",
    idDoc: "Port allocation id",
    parents: [PEER],
    result: R.portAllocation,
  }),
  listAll({
    name: "getIngressPortAllocations",
    description: "The port allocations of a peer, optionally only those with this name.",
    operationId: "listPortAllocations",
    parents: [PEER],
    filters: { name: z.string().optional().describe("Only allocations with this name") },
    query: (a) => ({ name: text(a.name) }),
    result: R.portAllocation,
  }),

  // Reverse proxies
  getById({
    name: "getReverseProxyService",
    description:
      "The reverse-proxy service with this id: where it is published, its targets, who may reach it. Secret " +
      "values of its auth (password, PIN, header values) are answered empty.",
    operationId: "getReverseProxyService",
    idParam: "serviceId",
    what: "reverse-proxy service",
    idDoc: "Service id",
    result: R.reverseProxyService,
  }),
  listAll({
    name: "getReverseProxyServices",
    description: "Every reverse-proxy service of the account (secret values of their auth answered empty).",
    operationId: "listReverseProxyServices",
    result: R.reverseProxyService,
  }),
  lookup({
    name: "getReverseProxyDomain",
    description:
      "The domain with this id, or with this name (compared case-insensitively): a custom domain, or a " +
      "cluster's own domain (type `free`, whose id is empty: look it up by name). Says whether it is validated " +
      "and what its cluster supports.",
    operationIds: ["listReverseProxyDomains"],
    args: z.union([
      z.strictObject({ id: id("Domain id") }),
      z.strictObject({
        domain: z.string().min(1, { error: "must not be empty" }).describe("Domain name"),
      }),
    ]),
    result: R.reverseProxyDomain,
    run: async (api, a) => {
      const domains = listAnswer(await api.call("listReverseProxyDomains"), "listReverseProxyDomains");
      if ("id" in a)
        return exactlyOne(
          domains.filter((d) => String(d.id) === String(a.id) && String(a.id) !== ""),
          { one: "domain", many: "domains" },
          `with id "${String(a.id)}"`,
        );
      const name = a.domain.toLowerCase().replace(/\.$/, "");
      return exactlyOne(
        domains.filter((d) => String(d.domain).toLowerCase() === name),
        { one: "domain", many: "domains" },
        `named ${JSON.stringify(a.domain)}`,
      );
    },
  }),
  listAll({
    name: "getReverseProxyDomains",
    description:
      "Every domain services can be published under: each cluster's own (free) domain and the custom ones.",
    operationId: "listReverseProxyDomains",
    result: R.reverseProxyDomain,
  }),
  lookup({
    name: "getProxyCluster",
    description:
      "The proxy cluster with this address (the domain its services are published under): whether it is online " +
      "and what it supports. Fails when the account has no such cluster.",
    operationIds: ["listProxyClusters"],
    args: z.strictObject({
      address: z.string().min(1, { error: "must not be empty" }).describe("Cluster address"),
    }),
    positional: "address",
    result: R.proxyCluster,
    run: async (api, a) => {
      const clusters = listAnswer(await api.call("listProxyClusters"), "listProxyClusters");
      const name = a.address.toLowerCase();
      return exactlyOne(
        clusters.filter((c) => String(c.address).toLowerCase() === name),
        { one: "proxy cluster", many: "proxy clusters" },
        `with address ${JSON.stringify(a.address)}`,
      );
    },
  }),
  listAll({
    name: "getProxyClusters",
    description:
      "Every proxy cluster services can be published on: the operator's shared ones and the account's own " +
      "(self-hosted proxies, registered with a `ProxyToken`).",
    operationId: "listProxyClusters",
    result: R.proxyCluster,
  }),
  listAll({
    name: "getProxyTokens",
    description: "Every proxy token of the account, revoked ones included (without their values).",
    operationId: "listProxyTokens",
    result: R.proxyToken,
  }),

  // Agent Networks
  lookup({
    name: "getAgentNetworkSettings",
    description:
      "The account's Agent Network gateway settings: its endpoint (empty until bootstrapped) and what it collects.",
    operationIds: ["getAgentNetworkSettings"],
    result: R.agentNetworkSettings,
    run: (api) => api.call("getAgentNetworkSettings"),
  }),
  lookup({
    name: "getAgentNetworkCatalogProvider",
    description:
      "The provider type of the catalog with this id (`openai_api`, `anthropic_api`, ...): its default upstream " +
      "host, how the API key is sent, and its models with their default prices per 1,000 tokens, so that a " +
      "program need not copy them. Fails when the catalog has no such type.",
    operationIds: ["listAgentNetworkCatalogProviders"],
    args: z.strictObject({
      id: z.string().min(1, { error: "must not be empty" }).describe("Catalog id, such as `openai_api`"),
    }),
    positional: "id",
    result: R.agentNetworkCatalogProvider,
    run: async (api, a) => {
      const catalog = listAnswer(
        await api.call("listAgentNetworkCatalogProviders"),
        "listAgentNetworkCatalogProviders",
      );
      return exactlyOne(
        catalog.filter((p) => p.id === a.id),
        { one: "catalog provider", many: "catalog providers" },
        `with id ${JSON.stringify(a.id)}`,
        "list them with getAgentNetworkCatalogProviders",
      );
    },
  }),
  listAll({
    name: "getAgentNetworkCatalogProviders",
    description: "Every provider type of the catalog, with its models and default prices.",
    operationId: "listAgentNetworkCatalogProviders",
    result: R.agentNetworkCatalogProvider,
  }),
  getById({
    name: "getAgentNetworkProvider",
    description: "The Agent Network provider with this id (its API key is never answered).",
    operationId: "getAgentNetworkProvider",
    idParam: "providerId",
    what: "Agent Network provider",
    idDoc: "Provider id",
    result: R.agentNetworkProvider,
  }),
  listAll({
    name: "getAgentNetworkProviders",
    description: "Every Agent Network provider of the account (without API keys).",
    operationId: "listAgentNetworkProviders",
    result: R.agentNetworkProvider,
  }),
  getById({
    name: "getAgentNetworkPolicy",
    description: "The Agent Network policy with this id.",
    operationId: "getAgentNetworkPolicy",
    idParam: "policyId",
    what: "Agent Network policy",
    idDoc: "Policy id",
    result: R.agentNetworkPolicy,
  }),
  listAll({
    name: "getAgentNetworkPolicies",
    description: "Every Agent Network policy of the account.",
    operationId: "listAgentNetworkPolicies",
    result: R.agentNetworkPolicy,
  }),
  getById({
    name: "getAgentNetworkGuardrail",
    description: "The Agent Network guardrail with this id.",
    operationId: "getAgentNetworkGuardrail",
    idParam: "guardrailId",
    what: "Agent Network guardrail",
    idDoc: "Guardrail id",
    result: R.agentNetworkGuardrail,
  }),
  listAll({
    name: "getAgentNetworkGuardrails",
    description: "Every Agent Network guardrail of the account.",
    operationId: "listAgentNetworkGuardrails",
    result: R.agentNetworkGuardrail,
  }),
  getById({
    name: "getAgentNetworkBudgetRule",
    description: "The Agent Network budget rule with this id.",
    operationId: "getAgentNetworkBudgetRule",
    idParam: "ruleId",
    what: "Agent Network budget rule",
    idDoc: "Budget rule id",
    result: R.agentNetworkBudgetRule,
  }),
  listAll({
    name: "getAgentNetworkBudgetRules",
    description: "Every Agent Network budget rule of the account.",
    operationId: "listAgentNetworkBudgetRules",
    result: R.agentNetworkBudgetRule,
  }),
  listAll({
    name: "getAgentNetworkConsumption",
    description:
      "The gateway's consumption counters: tokens and USD per user and per group over each window the caps " +
      "count in, newest window first. Empty until something was consumed.",
    operationId: "listAgentNetworkConsumption",
    result: R.agentNetworkConsumption,
  }),
  lookup({
    name: "getAgentNetworkUsage",
    description:
      "Tokens and cost through the gateway, summed by day, week (from Monday) or month, oldest first, filtered as " +
      "asked (the API does both). Usage is kept whether or not the access log is.",
    operationIds: ["getAgentNetworkUsageOverview"],
    args: z
      .strictObject({
        granularity: z.enum(["day", "week", "month"]).optional().describe("Bucket width; default day"),
        ...agentNetworkFilters,
      })
      .describe("Usage query"),
    result: R.agentNetworkUsageBucket,
    many: true,
    run: (api, a) => api.call("getAgentNetworkUsageOverview", { query: agentNetworkQuery(a) }),
  }),
  lookup({
    name: "getAgentNetworkAccessLogs",
    description:
      "One page of the gateway's access log (one entry per request, allowed or refused), filtered and sorted as " +
      "asked. Kept only while the settings collect logs, for `accessLogRetentionDays`.",
    operationIds: ["listAgentNetworkAccessLogs"],
    args: z
      .strictObject({
        ...agentNetworkPaging,
        sortBy: z.enum(ACCESS_LOG_SORT_FIELDS).optional().describe("Sort field; default timestamp"),
        ...agentNetworkFilters,
      })
      .describe("Access-log query"),
    result: R.agentNetworkAccessLogPage,
    run: (api, a) => api.call("listAgentNetworkAccessLogs", { query: agentNetworkQuery(a) }),
  }),
  lookup({
    name: "getAgentNetworkAccessLogSessions",
    description:
      "One page of the access log grouped by session (the requests sharing a client's session id; a request " +
      "without one is a session of its own), each summed and with its requests.",
    operationIds: ["listAgentNetworkAccessLogSessions"],
    args: z
      .strictObject({
        ...agentNetworkPaging,
        sortBy: z
          .enum(SESSION_SORT_FIELDS)
          .optional()
          .describe("Sort field; default timestamp (the last request)"),
        ...agentNetworkFilters,
      })
      .describe("Session query"),
    result: R.agentNetworkSessionPage,
    run: (api, a) => api.call("listAgentNetworkAccessLogSessions", { query: agentNetworkQuery(a) }),
  }),

  // Invites (embedded IdP)
  listAll({
    name: "getInvites",
    description: "The pending invites (without their link tokens, which the API shows only once).",
    operationId: "listInvites",
    result: R.invite,
  }),

  // Event logs
  listAll({
    name: "getAuditEvents",
    description: "Every audit event of the account, as the API lists them.",
    operationId: "listAuditEvents",
    result: R.auditEvent,
  }),
  lookup({
    name: "getProxyLogs",
    description:
      "One page of the reverse proxy access log, filtered and sorted as asked (the API does both). Returns the " +
      "entries with the page number, page size and the totals of the whole query.",
    operationIds: ["listProxyLogs"],
    args: camelQuery(ProxyQuerySchema, "Proxy access log query"),
    result: R.proxyLogPage,
    run: (api, a) => api.call("listProxyLogs", { query: queryOf(a, ProxyQuerySchema) }),
  }),
  lookup({
    name: "getTrafficEvents",
    description:
      "One page of network traffic events (flow records), filtered as asked. The account collects them only while " +
      "`settings.extra.networkTrafficLogsEnabled` is true.",
    operationIds: ["listTrafficEvents"],
    args: camelQuery(TrafficQuerySchema, "Network traffic query"),
    result: R.trafficEventPage,
    run: (api, a) => api.call("listTrafficEvents", { query: queryOf(a, TrafficQuerySchema) }),
  }),
];

/** Every lookup: name, description, TypeScript signature, result type and the API operations it calls. */
export const LOOKUPS: readonly LookupInfo[] = LOOKUP_SPECS.map(infoOf);

/** The spec of a lookup by name; throws for an unknown name (a programming error). */
export function lookupSpec(name: string): LookupSpec {
  const spec = LOOKUP_SPECS.find((s) => s.name === name);
  if (!spec) throw new Error(`privnet: unknown lookup ${name}`);
  return spec;
}
