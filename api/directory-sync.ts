/**
 * Directory-sync integrations: collections at `/api/integrations/<vendor>` that sync groups and users from a
 * directory. The service names them `google-idp` (Google Workspace) and `azure-idp` (Azure AD / Entra ID) in its
 * v0.77.1 API document; the spec (2.17) describes them under the neutral segments `vendor-d-idp` and
 * `vendor-e-idp`, which privnet-server still answers as the same objects ({@link DIRECTORY_SYNC_NEUTRAL}). Secrets
 * (the service account key, the client secret) are write-only.
 */
import { intMin, isSet, issue, strLen, z } from "./common";

/** The vendors, by the path segment the service gives each. */
export const DIRECTORY_SYNC_VENDORS = ["google-idp", "azure-idp"] as const;
export type DirectorySyncVendor = (typeof DIRECTORY_SYNC_VENDORS)[number];

/** The spec's neutral segments, each the same collection as one of the service's. */
export const DIRECTORY_SYNC_NEUTRAL = { "vendor-d-idp": "google-idp", "vendor-e-idp": "azure-idp" } as const;
export type DirectorySyncNeutral = keyof typeof DIRECTORY_SYNC_NEUTRAL;
export const DIRECTORY_SYNC_NEUTRAL_SEGMENTS = Object.keys(DIRECTORY_SYNC_NEUTRAL) as DirectorySyncNeutral[];

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const base64 = () =>
  z
    .string()
    .min(1, { error: "must not be empty" })
    .refine((s) => BASE64.test(s) && s.length % 4 === 0, { error: "must be base64-encoded" });

const common = {
  group_prefixes: z.array(z.string()).optional().describe("Start-with patterns of the groups to sync"),
  user_group_prefixes: z
    .array(z.string())
    .optional()
    .describe("Patterns of the groups whose users are synced"),
  connector_id: z.string().optional().describe("Connector id for embedded IdP setups"),
  sync_interval: intMin(300, "seconds")
    .optional()
    .describe("Sync interval in seconds, at least 300; default 300"),
};

const commonResponse = {
  id: z.number().int().describe("Integration id"),
  enabled: z.boolean().describe("Whether the integration is active"),
  group_prefixes: z.array(z.string()).describe("Start-with patterns of the groups to sync"),
  user_group_prefixes: z.array(z.string()).describe("Patterns of the groups whose users are synced"),
  connector_id: z.string().describe("Connector id"),
  sync_interval: z.number().int().describe("Sync interval in seconds"),
  last_synced_at: z.string().describe("Last sync time"),
};

export const VendorDCreateSchema = z
  .object({
    ...common,
    service_account_key: base64().describe("Service account key, base64-encoded; write-only"),
    customer_id: strLen(1, 255).describe("Customer id"),
  })
  .describe("Directory sync vendor-d-idp create body");

export const VendorDUpdateSchema = z
  .object({
    ...common,
    service_account_key: base64().optional().describe("Service account key, base64-encoded; write-only"),
    customer_id: strLen(1, 255).optional().describe("Customer id"),
    enabled: z.boolean().optional().describe("Whether the integration is active"),
  })
  .describe("Directory sync vendor-d-idp update body");

export const VendorDSchema = z
  .strictObject({ ...commonResponse, customer_id: z.string().describe("Customer id") })
  .describe("Directory sync vendor-d-idp integration (the service account key is never returned)");

export const VendorECreateSchema = z
  .object({
    ...common,
    client_secret: base64().describe("Client secret, base64-encoded; write-only"),
    client_id: strLen(1, 255).describe("Client id"),
    tenant_id: strLen(1, 255).describe("Tenant id"),
    host: z
      .string()
      .regex(/^[A-Za-z0-9.-]+(:\d+)?$/, { error: "must be an API host name such as api.example.com" })
      .describe("API host domain"),
  })
  .describe("Directory sync vendor-e-idp create body");

export const VendorEUpdateSchema = z
  .object({
    ...common,
    client_secret: base64().optional().describe("Client secret, base64-encoded; write-only"),
    client_id: strLen(1, 255).optional().describe("Client id"),
    tenant_id: strLen(1, 255).optional().describe("Tenant id"),
    host: z.unknown().optional().describe("Not accepted on update"),
    enabled: z.boolean().optional().describe("Whether the integration is active"),
  })
  .superRefine((u, ctx) => {
    if (isSet(u.host)) issue(ctx, ["host"], "cannot be changed on update");
  })
  .describe("Directory sync vendor-e-idp update body");

export const VendorESchema = z
  .strictObject({
    ...commonResponse,
    client_id: z.string().describe("Client id"),
    tenant_id: z.string().describe("Tenant id"),
    host: z.string().describe("API host domain"),
  })
  .describe("Directory sync vendor-e-idp integration (the client secret is never returned)");

export const SyncLogSchema = z
  .strictObject({
    id: z.number().int().describe("Log entry id"),
    level: z.enum(["info", "warning", "error"]).describe("Severity"),
    timestamp: z.string().describe("Time"),
    message: z.string().describe("What happened"),
  })
  .describe("Directory sync log entry");

export const SyncResultSchema = z
  .strictObject({ result: z.literal("ok").describe("Sync started") })
  .describe("Manual sync result");

/** The service's answer to a manual sync (its document makes `result` optional). */
export const IdpSyncResultSchema = z
  .strictObject({ result: z.string().optional().describe("What the sync request did") })
  .describe("Manual directory sync result");

/** Members the service's document makes optional in an answer (the spec's neutral answers always have them). */
const serviceResponse = {
  ...commonResponse,
  connector_id: z.string().optional().describe("Connector id"),
};

export const GoogleWorkspaceSyncCreateSchema = z
  .object({
    ...common,
    service_account_key: base64().describe("Google service account key, base64-encoded; write-only"),
    customer_id: strLen(1, 255).describe("Customer id of the Google Workspace account"),
  })
  .describe("Google Workspace directory sync create body");

export const GoogleWorkspaceSyncUpdateSchema = z
  .object({
    ...common,
    service_account_key: base64()
      .optional()
      .describe("Google service account key, base64-encoded; write-only"),
    customer_id: strLen(1, 255).optional().describe("Customer id of the Google Workspace account"),
    enabled: z.boolean().optional().describe("Whether the integration is active"),
  })
  .describe("Google Workspace directory sync update body (the fields sent change, the others stay)");

export const GoogleWorkspaceSyncSchema = z
  .strictObject({
    ...serviceResponse,
    customer_id: z.string().describe("Customer id of the Google Workspace account"),
  })
  .describe("Google Workspace directory sync (the service account key is never answered)");

/** The Graph API hosts the service knows: the global cloud and the US government cloud. */
export const AzureHost = z
  .enum(["microsoft.com", "microsoft.us"])
  .describe("Graph API host domain: microsoft.com (global) or microsoft.us (US government)");

export const AzureAdSyncCreateSchema = z
  .object({
    ...common,
    client_secret: base64().describe("Application client secret, base64-encoded; write-only"),
    client_id: strLen(1, 255).describe("Application (client) id"),
    tenant_id: strLen(1, 255).describe("Directory (tenant) id"),
    host: AzureHost,
  })
  .describe("Azure AD directory sync create body");

export const AzureAdSyncUpdateSchema = z
  .object({
    ...common,
    client_secret: base64().optional().describe("Application client secret, base64-encoded; write-only"),
    client_id: strLen(1, 255).optional().describe("Application (client) id"),
    tenant_id: strLen(1, 255).optional().describe("Directory (tenant) id"),
    enabled: z.boolean().optional().describe("Whether the integration is active"),
  })
  .describe("Azure AD directory sync update body (the fields sent change, the others stay; the host stays)");

export const AzureAdSyncSchema = z
  .strictObject({
    ...serviceResponse,
    client_id: z.string().describe("Application (client) id"),
    tenant_id: z.string().describe("Directory (tenant) id"),
    host: z.string().describe("Graph API host domain"),
  })
  .describe("Azure AD directory sync (the client secret is never answered)");

/** Each vendor's bodies and write-only fields. */
export const DIRECTORY_SYNC = {
  "google-idp": {
    create: GoogleWorkspaceSyncCreateSchema,
    update: GoogleWorkspaceSyncUpdateSchema,
    response: GoogleWorkspaceSyncSchema,
    secrets: ["service_account_key"],
  },
  "azure-idp": {
    create: AzureAdSyncCreateSchema,
    update: AzureAdSyncUpdateSchema,
    response: AzureAdSyncSchema,
    secrets: ["client_secret"],
  },
} as const;

/** The bodies of the neutral segments, as the spec describes them. */
export const DIRECTORY_SYNC_NEUTRAL_BODIES = {
  "vendor-d-idp": { create: VendorDCreateSchema, update: VendorDUpdateSchema, response: VendorDSchema },
  "vendor-e-idp": { create: VendorECreateSchema, update: VendorEUpdateSchema, response: VendorESchema },
} as const;
