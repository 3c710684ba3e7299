/**
 * Directory-sync integrations (spec 2.17): vendor-d-idp and vendor-e-idp. Secrets (the service account key,
 * the client secret) are write-only.
 */
import { intMin, isSet, issue, strLen, z } from "./common";

export const DIRECTORY_SYNC_VENDORS = ["vendor-d-idp", "vendor-e-idp"] as const;
export type DirectorySyncVendor = (typeof DIRECTORY_SYNC_VENDORS)[number];

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

export const DIRECTORY_SYNC = {
  "vendor-d-idp": {
    create: VendorDCreateSchema,
    update: VendorDUpdateSchema,
    response: VendorDSchema,
    secrets: ["service_account_key"],
  },
  "vendor-e-idp": {
    create: VendorECreateSchema,
    update: VendorEUpdateSchema,
    response: VendorESchema,
    secrets: ["client_secret"],
  },
} as const;
