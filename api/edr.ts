/**
 * EDR integrations (spec 2.16): three per-account singletons, vendor-a, vendor-b and vendor-c.
 * Secrets are write-only: vendor-a api_token, vendor-b secret, vendor-c client_id and secret.
 */
import { EXACT_OBJECTS, idList, intMin, intRange, strLen, z } from "./common";
import { GroupSchema } from "./group";

export const EDR_VENDORS = ["vendor-a", "vendor-b", "vendor-c"] as const;
export type EdrVendor = (typeof EDR_VENDORS)[number];

const commonRequest = {
  groups: idList().describe("Ids of the groups whose peers are checked"),
  last_synced_interval: intMin(24, "hours").describe("Sync interval in hours, at least 24"),
  enabled: z.boolean().optional().describe("Whether the integration is active; default true"),
};

const commonResponse = {
  id: z.number().int().describe("Integration id"),
  account_id: z.string().describe("Account id"),
  last_synced_at: z.string().describe("Last sync time"),
  created_by: z.string().describe("Id of the creating user"),
  created_at: z.string().describe("Creation time"),
  updated_at: z.string().describe("Last change"),
  groups: z.array(GroupSchema).describe("Groups whose peers are checked"),
  last_synced_interval: z.number().int().describe("Sync interval in hours"),
  enabled: z.boolean().describe("Whether the integration is active"),
};

export const MatchAttributesSchema = z
  .object({
    active_threats: intMin(0).optional().describe("Maximum allowed active threats"),
    encrypted_applications: z.boolean().optional().describe("Require encrypted applications"),
    firewall_enabled: z.boolean().optional().describe("Require the firewall"),
    infected: z.boolean().optional().describe("Required infection state"),
    is_active: z.boolean().optional().describe("Require an active agent"),
    is_up_to_date: z.boolean().optional().describe("Require an up-to-date agent"),
    network_status: z
      .enum(["connected", "disconnected", "quarantined"])
      .optional()
      .describe("Required network status"),
    operational_state: z.string().optional().describe("Required operational state"),
  })
  .describe("Device attributes a peer must match");
// A filter: `infected: false` requires a clean device, which is not the same as not filtering on it.
EXACT_OBJECTS.add(MatchAttributesSchema, {});

export const EdrVendorARequestSchema = z
  .object({
    ...commonRequest,
    api_token: z.string().min(1, { error: "must not be empty" }).describe("API token; write-only"),
    api_url: z.url({ error: "must be a URL" }).describe("API URL"),
    match_attributes: MatchAttributesSchema,
  })
  .describe("EDR vendor-a create or replace body");

export const EdrVendorASchema = z
  .strictObject({
    ...commonResponse,
    api_url: z.string().describe("API URL"),
    match_attributes: MatchAttributesSchema.strict().describe("Device attributes a peer must match"),
  })
  .describe("EDR vendor-a integration (the api_token is never returned)");

export const EdrVendorBRequestSchema = z
  .object({
    ...commonRequest,
    client_id: strLen(1, 255).describe("Client id"),
    tenant_id: strLen(1, 255).describe("Tenant id"),
    secret: z.string().min(1, { error: "must not be empty" }).describe("Client secret; write-only"),
  })
  .describe("EDR vendor-b create or replace body");

export const EdrVendorBSchema = z
  .strictObject({
    ...commonResponse,
    client_id: z.string().describe("Client id"),
    tenant_id: z.string().describe("Tenant id"),
  })
  .describe("EDR vendor-b integration (the secret is never returned)");

export const EdrVendorCRequestSchema = z
  .object({
    ...commonRequest,
    last_synced_interval: intMin(24, "hours")
      .optional()
      .describe("Sync interval in hours, at least 24; optional"),
    client_id: z.string().min(1, { error: "must not be empty" }).describe("Client id; write-only"),
    secret: z.string().min(1, { error: "must not be empty" }).describe("Client secret; write-only"),
    cloud_id: strLen(1, 255).describe("Cloud identifier"),
    zta_score_threshold: intRange(0, 100).describe("Minimum assessment score for approval, 0 to 100"),
  })
  .describe("EDR vendor-c create or replace body");

export const EdrVendorCSchema = z
  .strictObject({
    ...commonResponse,
    cloud_id: z.string().describe("Cloud identifier"),
    zta_score_threshold: z.number().int().describe("Minimum assessment score for approval"),
  })
  .describe("EDR vendor-c integration (client_id and secret are never returned)");

export const EDR = {
  "vendor-a": { request: EdrVendorARequestSchema, response: EdrVendorASchema, secrets: ["api_token"] },
  "vendor-b": { request: EdrVendorBRequestSchema, response: EdrVendorBSchema, secrets: ["secret"] },
  "vendor-c": {
    request: EdrVendorCRequestSchema,
    response: EdrVendorCSchema,
    secrets: ["client_id", "secret"],
  },
} as const;
