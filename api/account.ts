/** Account (spec 2.20): the one account a token manages, with its settings, extra settings and onboarding. */
import { MAX_LIFETIME_SECONDS, advise, cidr, domainName, idList, intRange, issue, z } from "./common";

const DAY = 86400;

export const AccountExtraSchema = z
  .object({
    peer_approval_enabled: z.boolean().describe("New peers stay pending until approved (cloud only)"),
    user_approval_required: z
      .boolean()
      .describe("New users joining through domain matching stay pending until approved"),
    network_traffic_logs_enabled: z.boolean().describe("Collect network traffic events"),
    network_traffic_logs_groups: z
      .array(z.string())
      .describe("Groups whose peers are logged; empty means all"),
    network_traffic_packet_counter_enabled: z
      .boolean()
      .describe("Count packets in traffic events (may slightly affect performance)"),
  })
  .describe("Extra settings; all members required when extra is sent");

/**
 * `latest`, `disabled`, a version (`0.40.1`, `v1`, `0.40`, `0.40.1-rc.1`), or empty, as the service takes them.
 * Other text is refused: the service fails on it (500) rather than answering what is wrong.
 */
const AUTO_UPDATE = /^(latest|disabled|v?\d+(\.\d+)*([-+][0-9A-Za-z.-]+)?)?$/;

/** Peer inactivity expiration in seconds that the dashboard offers: 10 minutes to 180 days. */
const INACTIVITY = { min: 600, max: 180 * DAY } as const;

/**
 * The account's overlay range: an IPv4 CIDR range of at most /28 (a smaller one is refused by the service). A
 * range wider than /8 is an advisory: the service takes it, but the overlay then claims addresses the peers'
 * own networks use.
 */
function checkNetworkRange(range: unknown, ctx: z.RefinementCtx): void {
  if (typeof range !== "string" || range === "" || range.includes(":")) return;
  const bits = Number(range.split("/")[1]);
  if (bits > 28) issue(ctx, ["network_range"], "must be /28 or wider: a smaller range holds too few peers");
  else if (bits < 8)
    advise(
      ctx,
      ["network_range"],
      `is a /${bits}: a range wider than /8 overlaps the networks the peers are on (100.64.0.0/10 is the default)`,
    );
}

const settingsFields = {
  peer_login_expiration_enabled: z
    .boolean()
    .describe("Global peer login expiration; applies to peers added by interactive SSO login"),
  peer_login_expiration: intRange(3600, 180 * DAY, "seconds").describe(
    "Peer login expiration in seconds, 3600 (1 hour) to 15552000 (180 days)",
  ),
  peer_inactivity_expiration_enabled: z.boolean().describe("Global peer inactivity expiration"),
  peer_inactivity_expiration: intRange(-MAX_LIFETIME_SECONDS, MAX_LIFETIME_SECONDS, "seconds")
    .superRefine((n, ctx) => {
      if (n < INACTIVITY.min || n > INACTIVITY.max)
        advise(
          ctx,
          [],
          `is ${n}, outside ${INACTIVITY.min} (10 minutes) to ${INACTIVITY.max} (180 days) seconds: when ` +
            "inactivity expiration is on, peers are logged out after this many seconds without activity",
        );
    })
    .describe(
      "Peer inactivity expiration in seconds; 600 (10 minutes) to 15552000 (180 days) is the usual range " +
        "(the service stores other values, with a warning at preview)",
    ),
  regular_users_view_blocked: z.boolean().describe("Block regular users from viewing parts of the system"),
  groups_propagation_enabled: z
    .boolean()
    .optional()
    .describe("Propagate new user auto groups to the user's peers"),
  jwt_groups_enabled: z.boolean().optional().describe("Extract groups from a JWT claim into account groups"),
  jwt_groups_claim_name: z.string().optional().describe("Name of the JWT claim holding groups"),
  jwt_allow_groups: z.array(z.string()).optional().describe("Groups allowed access"),
  routing_peer_dns_resolution_enabled: z.boolean().optional().describe("DNS resolution on routing peers"),
  dns_domain: z
    .union([z.literal(""), domainName()])
    .optional()
    .describe("Custom DNS domain for peers"),
  network_range: z
    .union([z.literal(""), cidr()])
    .optional()
    .describe("Custom overlay network range, CIDR"),
  peer_expose_enabled: z.boolean().describe("Peers may expose local services through the reverse proxy"),
  peer_expose_groups: idList().describe("Groups allowed to expose; empty means all peers when enabled"),
  extra: AccountExtraSchema.optional().describe("Extra settings"),
  lazy_connection_enabled: z.boolean().optional().describe("Experimental lazy connection"),
  auto_update_version: z
    .string()
    .regex(AUTO_UPDATE, { error: 'must be "latest", "disabled" or a version such as 0.40.1' })
    .optional()
    .describe('Agent auto-update: "latest", "disabled" or a specific version such as 0.40.1'),
  auto_update_always: z
    .boolean()
    .optional()
    .describe("true installs updates in the background; false needs UI interaction"),
  embedded_idp_enabled: z.boolean().optional().describe("Read-only: whether the embedded IdP is enabled"),
  local_auth_disabled: z
    .boolean()
    .optional()
    .describe("Read-only: true means only external identity providers authenticate"),
};

export const AccountSettingsRequestSchema = z
  .object(settingsFields)
  .superRefine((s, ctx) => checkNetworkRange(s.network_range, ctx))
  .describe("Account settings as written");

/**
 * The settings a client changes, all optional: a PUT replaces the settings whole, so a client sends back the
 * settings it read with these laid over them. The read-only members are left out; whether the merged result is
 * acceptable is for the server to say.
 */
export const AccountSettingsPatchSchema = z
  .object(settingsFields)
  .omit({ embedded_idp_enabled: true, local_auth_disabled: true })
  .partial()
  .extend({
    extra: AccountExtraSchema.partial()
      .optional()
      .describe("Extra settings; members left out stay as they are"),
  })
  .superRefine((s, ctx) => checkNetworkRange(s.network_range, ctx))
  .describe("Account settings to change; those left out stay as they are");

export const OnboardingSchema = z
  .object({
    signup_form_pending: z.boolean().describe("The signup form is still to be filled in"),
    onboarding_flow_pending: z.boolean().describe("The onboarding flow is still to be completed"),
  })
  .describe("Onboarding state");

export const AccountUpdateSchema = z
  .object({
    settings: AccountSettingsRequestSchema,
    onboarding: OnboardingSchema.optional().describe("Onboarding state"),
  })
  .describe("Account update body");

export const AccountSettingsSchema = z
  .strictObject({
    peer_login_expiration_enabled: z.boolean().describe("Global peer login expiration"),
    peer_login_expiration: z.number().int().describe("Peer login expiration in seconds"),
    peer_inactivity_expiration_enabled: z.boolean().describe("Global peer inactivity expiration"),
    peer_inactivity_expiration: z.number().int().describe("Peer inactivity expiration in seconds"),
    regular_users_view_blocked: z.boolean().describe("Block regular users from viewing parts of the system"),
    groups_propagation_enabled: z.boolean().describe("Propagate new user auto groups to the user's peers"),
    jwt_groups_enabled: z.boolean().describe("Extract groups from a JWT claim"),
    jwt_groups_claim_name: z.string().describe("JWT claim holding groups"),
    jwt_allow_groups: z.array(z.string()).describe("Groups allowed access"),
    routing_peer_dns_resolution_enabled: z.boolean().describe("DNS resolution on routing peers"),
    dns_domain: z.string().describe("Custom DNS domain"),
    network_range: z.string().describe("Overlay network range"),
    peer_expose_enabled: z.boolean().describe("Peers may expose local services"),
    peer_expose_groups: z.array(z.string()).describe("Groups allowed to expose"),
    extra: z.strictObject(AccountExtraSchema.shape).describe("Extra settings"),
    lazy_connection_enabled: z.boolean().describe("Experimental lazy connection"),
    auto_update_version: z.string().describe("Agent auto-update setting"),
    auto_update_always: z.boolean().describe("Install updates in the background"),
    embedded_idp_enabled: z.boolean().describe("Whether the embedded IdP is enabled"),
    local_auth_disabled: z.boolean().describe("Whether only external identity providers authenticate"),
  })
  .describe("Account settings");

export const AccountSchema = z
  .strictObject({
    id: z.string().describe("Account id"),
    domain: z.string().describe("Account domain"),
    domain_category: z.enum(["private", "public", "other"]).describe("Kind of domain"),
    created_at: z.string().describe("Creation time"),
    created_by: z.string().describe("Id of the user who created the account"),
    settings: AccountSettingsSchema,
    onboarding: z.strictObject(OnboardingSchema.shape).describe("Onboarding state"),
  })
  .describe("Account");

export type Account = z.infer<typeof AccountSchema>;
export type AccountSettings = z.infer<typeof AccountSettingsSchema>;

/**
 * Settings of a new account (what the local server bootstraps, and what the AccountSettings resource restores
 * on delete). `embedded_idp_enabled` reflects how the server runs.
 */
export function defaultAccountSettings(embeddedIdp = false): z.infer<typeof AccountSettingsSchema> {
  return {
    peer_login_expiration_enabled: true,
    peer_login_expiration: 86400,
    peer_inactivity_expiration_enabled: false,
    peer_inactivity_expiration: 600,
    regular_users_view_blocked: true,
    groups_propagation_enabled: true,
    jwt_groups_enabled: false,
    jwt_groups_claim_name: "",
    jwt_allow_groups: [],
    routing_peer_dns_resolution_enabled: true,
    dns_domain: "",
    network_range: "100.64.0.0/10",
    peer_expose_enabled: false,
    peer_expose_groups: [],
    extra: {
      peer_approval_enabled: false,
      user_approval_required: false,
      network_traffic_logs_enabled: false,
      network_traffic_logs_groups: [],
      network_traffic_packet_counter_enabled: false,
    },
    lazy_connection_enabled: false,
    auto_update_version: "disabled",
    auto_update_always: false,
    embedded_idp_enabled: embeddedIdp,
    local_auth_disabled: false,
  };
}
