/**
 * SCIM provisioning integrations: an identity provider pushes users and groups into the account over SCIM,
 * authenticating with a token the service issues. Two collections, alike but for how the connection is named:
 * `scim-idp` (any SCIM-capable provider, named by `provider` and `prefix`) and `okta-scim-idp` (an Okta
 * enterprise connection, named by `connection_name`, which the API takes at creation and never shows again).
 *
 * Not in the spec this project started from: the facts (paths, fields, which are required) come from the service's
 * own OpenAPI document (v0.77.1), where both families are marked cloud-only. The descriptions are ours.
 *
 * The token is the integration's credential: the create answer and the token route carry it in full, every other
 * answer a masked form (its first characters, then asterisks).
 */
import { nameProblem, z } from "./common";

/** A non-empty label that reads as what it is (no control or invisible characters, no outer white space). */
const label = (what: string) =>
  z
    .string()
    .min(1, { error: "must not be empty" })
    .superRefine((s, ctx) => {
      const problem = nameProblem(s);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .describe(what);

/** What the identity provider syncs, shared by both collections' requests. */
const syncFilters = {
  group_prefixes: z
    .array(z.string())
    .optional()
    .describe(
      "Only groups whose names start with one of these are synced; empty or absent syncs every group",
    ),
  user_group_prefixes: z
    .array(z.string())
    .optional()
    .describe(
      "Only users who belong to a group whose name starts with one of these are synced; empty or absent " +
        "syncs every user",
    ),
  connector_id: z
    .string()
    .optional()
    .describe("The connector of the embedded identity provider the synced users sign in through, if any"),
};

const enabled = z
  .boolean()
  .optional()
  .describe("Whether the identity provider may push changes; default true");

const syncFiltersAnswered = {
  enabled: z.boolean().describe("Whether the identity provider may push changes"),
  group_prefixes: z.array(z.string()).describe("Name prefixes of the groups synced (empty: all)"),
  user_group_prefixes: z
    .array(z.string())
    .describe("Name prefixes of the groups whose members are synced (empty: all)"),
  connector_id: z
    .string()
    .optional()
    .describe("Connector of the embedded identity provider; absent when none is set"),
  auth_token: z
    .string()
    .describe(
      "The SCIM bearer token the identity provider authenticates with: in full in the create answer, masked " +
        "(its first characters, then asterisks) everywhere else",
    ),
  last_synced_at: z.string().describe("When the identity provider last pushed a change (zero time: never)"),
};

export const ScimIntegrationCreateSchema = z
  .object({
    ...syncFilters,
    prefix: label("Connection prefix: names the connection on the service's side; changeable later"),
    provider: label(
      "Which identity provider pushes (a free-form name such as `jumpcloud`); fixed at creation",
    ),
  })
  .describe("SCIM integration create body");

export const ScimIntegrationUpdateSchema = z
  .object({
    enabled,
    ...syncFilters,
    prefix: label("Connection prefix").optional().describe("Connection prefix; unchanged when absent"),
  })
  .describe("SCIM integration update body: only the fields sent change; `provider` cannot change");

export const ScimIntegrationSchema = z
  .strictObject({
    id: z.number().int().describe("Integration id"),
    prefix: z.string().describe("Connection prefix"),
    provider: z.string().describe("Which identity provider pushes"),
    ...syncFiltersAnswered,
  })
  .describe("SCIM integration");

export const OktaScimIntegrationCreateSchema = z
  .object({
    ...syncFilters,
    connection_name: label(
      "Name of the Okta enterprise connection on the service's side; write-only and fixed at creation",
    ),
  })
  .describe("Okta SCIM integration create body");

export const OktaScimIntegrationUpdateSchema = z
  .object({ enabled, ...syncFilters })
  .describe("Okta SCIM integration update body: only the fields sent change; the connection name cannot");

export const OktaScimIntegrationSchema = z
  .strictObject({
    id: z.number().int().describe("Integration id"),
    ...syncFiltersAnswered,
  })
  .describe("Okta SCIM integration (the connection name is never returned)");

export const ScimTokenSchema = z
  .strictObject({
    auth_token: z
      .string()
      .describe("The new SCIM bearer token, in full; the previous one stops authenticating at once"),
  })
  .describe("A regenerated SCIM token");

export const ScimLogSchema = z
  .strictObject({
    id: z.number().int().describe("Log entry id"),
    level: z.enum(["info", "warning", "error"]).describe("Severity"),
    timestamp: z.string().describe("When it happened"),
    message: z.string().describe("What happened: the integration made, its token replaced, a push received"),
  })
  .describe("A SCIM integration's log entry");

/** The two SCIM collections by path segment. */
export const SCIM_VARIANTS = ["scim-idp", "okta-scim-idp"] as const;
export type ScimVariant = (typeof SCIM_VARIANTS)[number];

export const SCIM = {
  "scim-idp": {
    create: ScimIntegrationCreateSchema,
    update: ScimIntegrationUpdateSchema,
    response: ScimIntegrationSchema,
  },
  "okta-scim-idp": {
    create: OktaScimIntegrationCreateSchema,
    update: OktaScimIntegrationUpdateSchema,
    response: OktaScimIntegrationSchema,
  },
} as const;

/** How many leading characters of a SCIM token its masked form keeps. */
export const SCIM_TOKEN_SHOWN = 7;

/** The masked form of a SCIM token: its first characters, then an asterisk for each character hidden. */
export function maskScimToken(token: string): string {
  return token.slice(0, SCIM_TOKEN_SHOWN) + "*".repeat(Math.max(0, token.length - SCIM_TOKEN_SHOWN));
}

/** Whether a token as answered is a masked one (and so not the credential). */
export function isMaskedScimToken(token: unknown): boolean {
  return typeof token === "string" && token.endsWith("*");
}
