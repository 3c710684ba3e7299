/** Identity provider (spec 2.15). The client secret is write-only. */
import { nameString, openEnum, z } from "./common";

export const IdpType = openEnum(
  ["oidc", "zitadel", "entra", "google", "okta", "pocketid", "microsoft", "adfs"],
  "Provider type",
);

export const IdentityProviderRequestSchema = z
  .object({
    type: IdpType,
    name: nameString().describe("Display name"),
    issuer: z.url({ error: "must be a URL such as https://idp.example.com" }).describe("OIDC issuer URL"),
    client_id: z.string().min(1, { error: "must not be empty" }).describe("OAuth client id"),
    client_secret: z.string().describe("OAuth client secret (empty for a public client); write-only"),
  })
  .describe("Identity provider create or replace body");

export const IdentityProviderSchema = z
  .strictObject({
    id: z.string().describe("Identity provider id"),
    type: IdpType,
    name: z.string().describe("Display name"),
    issuer: z.string().describe("OIDC issuer URL"),
    client_id: z.string().describe("OAuth client id"),
  })
  .describe("Identity provider (the client secret is never returned)");

export type IdentityProvider = z.infer<typeof IdentityProviderSchema>;
