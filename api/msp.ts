/**
 * MSP tenants (the service's v0.77.1 API document; not in the spec): accounts a managed-service-provider account
 * runs for its customers, at `/api/integrations/msp/tenants`. The MSP's groups get a role in each tenant. A new
 * tenant proves its domain with a DNS TXT record (`dns_challenge`); an existing account can be invited instead,
 * and its owner accepts or declines. Unlinking hands a tenant over to an owner of its own.
 */
import { idString, strLen, z } from "./common";

export const TenantGroupSchema = z
  .strictObject({
    id: idString().describe("Id of a group of the MSP account"),
    role: z.string().min(1, { error: "must not be empty" }).describe("Role its users take in the tenant"),
  })
  .describe("A group of the MSP account and the role its users take in the tenant");

const groups = z
  .array(TenantGroupSchema)
  .describe("Groups of the MSP account that may reach the tenant, each with the role its users take");

export const TenantCreateSchema = z
  .object({
    name: strLen(1, 255).describe("Tenant name"),
    domain: strLen(1, 255).describe("The tenant account's domain"),
    groups,
  })
  .describe("MSP tenant create body");

export const TenantUpdateSchema = z
  .object({ name: strLen(1, 255).describe("Tenant name"), groups })
  .describe("MSP tenant update body (the domain stays)");

export const TENANT_STATUSES = ["existing", "invited", "pending", "active"] as const;

export const TenantSchema = z
  .strictObject({
    id: z.string().describe("The tenant account's id"),
    name: z.string().describe("Tenant name"),
    domain: z.string().describe("The tenant account's domain"),
    groups: z.array(TenantGroupSchema).describe("Groups of the MSP account and their roles in the tenant"),
    activated_at: z.string().optional().describe("When the tenant became active"),
    dns_challenge: z.string().describe("Value of the DNS TXT record that proves the domain"),
    created_at: z.string().describe("Creation time"),
    updated_at: z.string().describe("Last change"),
    invited_at: z.string().optional().describe("When an existing account was invited"),
    status: z
      .enum(TENANT_STATUSES)
      .describe(
        "existing (an account not yet invited), invited (waiting for its owner), pending (its domain not yet " +
          "proven) or active",
      ),
  })
  .describe("MSP tenant");

export const TenantInviteResponseSchema = z
  .object({
    value: z.enum(["accept", "decline"]).describe("The invited account owner's answer"),
  })
  .describe("An invited account owner's answer to an MSP's invitation");

export const TenantUnlinkSchema = z
  .object({ owner: idString().describe("Id of the user who owns the tenant account once unlinked") })
  .describe("MSP tenant unlink body");

export const TenantSubscriptionSchema = z
  .object({ priceID: idString().describe("Id of the price the tenant's subscription moves to") })
  .describe("MSP tenant subscription body");
