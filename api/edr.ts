/**
 * EDR integrations: per-account singletons, one per vendor, at `/api/integrations/edr/<vendor>`. The service names
 * them `sentinelone`, `intune`, `falcon`, `huntress` and `fleetdm` (its v0.77.1 API document); the spec (2.16)
 * describes the first three under the neutral segments `vendor-a`, `vendor-b` and `vendor-c`, which privnet-server
 * still answers as the same objects (see {@link EDR_NEUTRAL}).
 *
 * Secrets are write-only: never in an answer. SentinelOne's api_token, Intune's secret, Falcon's client_id and
 * secret, Huntress' api_key and api_secret, FleetDM's api_token.
 */
import { EXACT_OBJECTS, idList, intMin, intRange, strLen, z } from "./common";
import { GroupSchema } from "./group";

/** The vendors, by the path segment the service gives each. */
export const EDR_VENDORS = ["sentinelone", "intune", "falcon", "huntress", "fleetdm"] as const;
export type EdrVendor = (typeof EDR_VENDORS)[number];

/** The spec's neutral segments, each the same integration as one of the service's vendors. */
export const EDR_NEUTRAL = { "vendor-a": "sentinelone", "vendor-b": "intune", "vendor-c": "falcon" } as const;
export type EdrNeutral = keyof typeof EDR_NEUTRAL;
export const EDR_NEUTRAL_SEGMENTS = Object.keys(EDR_NEUTRAL) as EdrNeutral[];

const groupsRequest = idList().describe("Ids of the groups whose peers are checked");
const intervalRequest = intMin(24, "hours").describe(
  "How recently, in hours, a device must have synced with the vendor; at least 24",
);
const enabledRequest = z.boolean().optional().describe("Whether the integration is active; default true");

const commonRequest = {
  groups: groupsRequest,
  last_synced_interval: intervalRequest,
  enabled: enabledRequest,
};

const responseBase = {
  id: z.number().int().describe("Integration id"),
  account_id: z.string().describe("Account id"),
  last_synced_at: z.string().describe("Last sync time"),
  created_by: z.string().describe("Id of the creating user"),
  created_at: z.string().describe("Creation time"),
  updated_at: z.string().describe("Last change"),
  groups: z.array(GroupSchema).describe("Groups whose peers are checked"),
  enabled: z.boolean().describe("Whether the integration is active"),
};

const commonResponse = {
  ...responseBase,
  last_synced_interval: z.number().int().describe("How recently, in hours, a device must have synced"),
};

const secret = (what: string) =>
  z.string().min(1, { error: "must not be empty" }).describe(`${what}; write-only`);

/** Filter members: an optional `false` is a value, not the absence of a filter (see EXACT_OBJECTS). */
function matchAttributes<S extends z.ZodRawShape>(shape: S, what: string) {
  const schema = z.object(shape).describe(what);
  EXACT_OBJECTS.add(schema, {});
  return schema;
}

export const MatchAttributesSchema = matchAttributes(
  {
    active_threats: intMin(0).optional().describe("Most active threats a device may have"),
    encrypted_applications: z.boolean().optional().describe("Whether the device's disk must be encrypted"),
    firewall_enabled: z.boolean().optional().describe("Whether the agent's firewall must be on"),
    infected: z.boolean().optional().describe("The infection flag the device must have"),
    is_active: z.boolean().optional().describe("Whether the agent must be active and reporting"),
    is_up_to_date: z.boolean().optional().describe("Whether the agent must run its latest version"),
    network_status: z
      .enum(["connected", "disconnected", "quarantined"])
      .optional()
      .describe("The network status the device must have"),
    operational_state: z.string().optional().describe("The operational state the agent must be in"),
  },
  "SentinelOne agent attributes a peer's device must match",
);

export const HuntressMatchAttributesSchema = matchAttributes(
  {
    defender_policy_status: z.string().optional().describe("Required policy status of Defender antivirus"),
    defender_status: z.string().optional().describe("Required status of Defender antivirus"),
    defender_substatus: z.string().optional().describe("Required sub-status of Defender antivirus"),
    firewall_status: z
      .string()
      .optional()
      .describe(
        "Required status of the agent's firewall (Disabled, Enabled, Pending Isolation, Isolated, Pending Release)",
      ),
  },
  "Huntress agent attributes a peer's device must match",
);

export const FleetDmMatchAttributesSchema = matchAttributes(
  {
    disk_encryption_enabled: z.boolean().optional().describe("Whether the host's disk must be encrypted"),
    failing_policies_count_max: intMin(0)
      .optional()
      .describe("Most failing FleetDM policies a host may have; 0 requires all to pass"),
    vulnerable_software_count_max: intMin(0)
      .optional()
      .describe("Most vulnerable software packages a host may have"),
    status_online: z.boolean().optional().describe("Whether the host must be online in FleetDM"),
    required_policies: z
      .array(z.number().int())
      .optional()
      .describe("Ids of FleetDM policies that must pass on the host"),
  },
  "FleetDM host attributes a peer's device must match",
);

// SentinelOne (the spec's vendor-a)
export const EdrSentinelOneRequestSchema = z
  .object({
    ...commonRequest,
    api_token: secret("SentinelOne API token"),
    api_url: z.url({ error: "must be a URL" }).describe("Base URL of the SentinelOne API"),
    match_attributes: MatchAttributesSchema,
  })
  .describe("SentinelOne EDR integration create or replace body");

export const EdrSentinelOneSchema = z
  .strictObject({
    ...commonResponse,
    api_url: z.string().describe("Base URL of the SentinelOne API"),
    match_attributes: MatchAttributesSchema.strict().describe(
      "SentinelOne agent attributes a peer's device must match",
    ),
  })
  .describe("SentinelOne EDR integration (the api_token is never answered)");

// Intune (the spec's vendor-b)
export const EdrIntuneRequestSchema = z
  .object({
    ...commonRequest,
    client_id: strLen(1, 255).describe("Azure application (client) id"),
    tenant_id: strLen(1, 255).describe("Azure tenant id"),
    secret: secret("Azure application client secret"),
  })
  .describe("Intune EDR integration create or replace body");

export const EdrIntuneSchema = z
  .strictObject({
    ...commonResponse,
    client_id: z.string().describe("Azure application (client) id"),
    tenant_id: z.string().describe("Azure tenant id"),
  })
  .describe("Intune EDR integration (the secret is never answered)");

// Falcon: the service's document gives it no sync interval (the spec's vendor-c has an optional one).
const falconRequest = {
  groups: groupsRequest,
  enabled: enabledRequest,
  client_id: secret("CrowdStrike API client id"),
  secret: secret("CrowdStrike API client secret"),
  cloud_id: strLen(1, 255).describe("CrowdStrike cloud (us-1, us-2, eu-1, ...)"),
  zta_score_threshold: intRange(0, 100).describe(
    "Least Zero Trust Assessment score a device needs, 0 to 100",
  ),
};
const falconResponse = {
  cloud_id: z.string().describe("CrowdStrike cloud"),
  zta_score_threshold: z.number().int().describe("Least Zero Trust Assessment score a device needs"),
};

export const EdrFalconRequestSchema = z
  .object(falconRequest)
  .describe("CrowdStrike Falcon EDR integration create or replace body");

export const EdrFalconSchema = z
  .strictObject({ ...responseBase, ...falconResponse })
  .describe("CrowdStrike Falcon EDR integration (client_id and secret are never answered)");

/** The spec's vendor-c: Falcon with the optional sync interval the spec gives it (answered too). */
export const EdrVendorCRequestSchema = z
  .object({
    ...falconRequest,
    last_synced_interval: intervalRequest
      .optional()
      .describe("How recently, in hours, a device must have synced; at least 24, optional (24 when absent)"),
  })
  .describe("EDR vendor-c (Falcon) create or replace body, as the spec describes it");

export const EdrVendorCSchema = z
  .strictObject({ ...commonResponse, ...falconResponse })
  .describe("EDR vendor-c (Falcon) integration, as the spec describes it");

// Huntress
export const EdrHuntressRequestSchema = z
  .object({
    ...commonRequest,
    api_key: secret("Huntress API key"),
    api_secret: secret("Huntress API secret"),
    match_attributes: HuntressMatchAttributesSchema,
  })
  .describe("Huntress EDR integration create or replace body");

export const EdrHuntressSchema = z
  .strictObject({
    ...commonResponse,
    match_attributes: HuntressMatchAttributesSchema.strict().describe(
      "Huntress agent attributes a peer's device must match",
    ),
  })
  .describe("Huntress EDR integration (api_key and api_secret are never answered)");

// FleetDM
export const EdrFleetDmRequestSchema = z
  .object({
    ...commonRequest,
    api_url: z.url({ error: "must be a URL" }).describe("URL of the FleetDM server"),
    api_token: secret("FleetDM API token"),
    match_attributes: FleetDmMatchAttributesSchema,
  })
  .describe("FleetDM EDR integration create or replace body");

export const EdrFleetDmSchema = z
  .strictObject({
    ...commonResponse,
    api_url: z.string().describe("URL of the FleetDM server"),
    match_attributes: FleetDmMatchAttributesSchema.strict().describe(
      "FleetDM host attributes a peer's device must match",
    ),
  })
  .describe("FleetDM EDR integration (the api_token is never answered)");

/** Each vendor's bodies and write-only fields. */
export const EDR = {
  sentinelone: {
    request: EdrSentinelOneRequestSchema,
    response: EdrSentinelOneSchema,
    secrets: ["api_token"],
  },
  intune: { request: EdrIntuneRequestSchema, response: EdrIntuneSchema, secrets: ["secret"] },
  falcon: { request: EdrFalconRequestSchema, response: EdrFalconSchema, secrets: ["client_id", "secret"] },
  huntress: {
    request: EdrHuntressRequestSchema,
    response: EdrHuntressSchema,
    secrets: ["api_key", "api_secret"],
  },
  fleetdm: { request: EdrFleetDmRequestSchema, response: EdrFleetDmSchema, secrets: ["api_token"] },
} as const;

/** The bodies of the neutral segments: vendor-a and vendor-b's are their vendor's; vendor-c has the spec's own. */
export const EDR_NEUTRAL_BODIES = {
  "vendor-a": { request: EdrSentinelOneRequestSchema, response: EdrSentinelOneSchema },
  "vendor-b": { request: EdrIntuneRequestSchema, response: EdrIntuneSchema },
  "vendor-c": { request: EdrVendorCRequestSchema, response: EdrVendorCSchema },
} as const;

/** A peer let through the EDR checks by an administrator (until revoked or until the device complies). */
export const EdrBypassSchema = z
  .strictObject({ peer_id: z.string().describe("Id of the peer let through") })
  .describe("A peer let through the EDR compliance checks");

// The names the spec's seed used; the same schemas.
export const EdrVendorARequestSchema = EdrSentinelOneRequestSchema;
export const EdrVendorASchema = EdrSentinelOneSchema;
export const EdrVendorBRequestSchema = EdrIntuneRequestSchema;
export const EdrVendorBSchema = EdrIntuneSchema;
