/**
 * Agent Networks: the account's gateway in front of LLM providers. A peer's agent sends its request to the
 * account's endpoint over the private network; the gateway works out who sent it (user and groups), checks the
 * policies, adds the provider's API key (agents never hold one), applies guardrails and meters tokens and cost
 * against the limits of policies and budget rules.
 *
 * Not in the spec this project started from: the facts (paths, fields) come from the service's own OpenAPI
 * document (v0.77.1); what the service does with them was observed by running its reference server
 * (docs/reference-answers-agent-networks.md). The descriptions and checks are ours, and they follow what the
 * reference accepts: where it fills in what a request leaves out, the field is optional here.
 *
 * Secrets: a provider's `api_key` is write-only. It is required when a provider is created, optional on update
 * (left out, the stored key stays), and no answer ever carries it.
 */
import { advise, idList, intRange, issue, nameString, OPEN_ENUMS, z } from "./common";
import { AGENT_NETWORK_CATALOG_IDS } from "./agent-network-catalog";

// ---------------------------------------------------------------------------------------------------------------
// Shared pieces

/** `s` optional, keeping its description (zod keeps it on the schema, not on the optional wrapper). */
function optional<T extends z.ZodType>(s: T) {
  return s.optional().describe(s.description ?? "");
}

/** Why `raw` is not a host name as the gateway's endpoint must be, or undefined when it is one. */
export function hostnameProblem(raw: string): string | undefined {
  const host = normalHostname(raw);
  if (host.length > 253) return "exceeds 253 characters";
  for (const label of host.split(".")) {
    if (label === "") return "has an empty label (a leading, trailing or doubled dot)";
    if (label.length > 63) return `has a label longer than 63 characters (${JSON.stringify(label)})`;
    const bad = /[^a-z0-9-]/.exec(label);
    if (bad)
      return `contains ${JSON.stringify(bad[0])}: a host name has letters, digits, hyphens and dots only`;
    if (label.startsWith("-") || label.endsWith("-"))
      return `has a label starting or ending with a hyphen (${JSON.stringify(label)})`;
  }
  return undefined;
}

/** The form the service stores a host name in: trimmed, lower-cased. */
export function normalHostname(raw: string): string {
  return raw.trim().toLowerCase();
}

const hostname = (what: string) =>
  optional(
    z
      .string()
      .superRefine((s, ctx) => {
        // An empty address is no address (the bootstrap's check names the pair).
        const problem = s === "" ? undefined : hostnameProblem(s);
        if (problem)
          ctx.addIssue({ code: "custom", message: `must be a host name: ${JSON.stringify(s)} ${problem}` });
      })
      .describe(what),
  );

/** A name the service requires: not empty, not only white space. */
const requiredName = (what: string) =>
  nameString()
    .refine((s) => s.trim() !== "", { error: "must not be blank" })
    .describe(what);

/** A price in USD per 1,000 tokens. */
const rate = (what: string) =>
  optional(
    z
      .number()
      .refine((n) => Number.isFinite(n) && n >= 0, { error: "must be a finite, non-negative USD rate" })
      .describe(what),
  );

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

// ---------------------------------------------------------------------------------------------------------------
// Settings (a singleton per account)

const toggles = {
  enable_log_collection: z
    .boolean()
    .describe("Whether an access-log entry is kept for every request through the gateway; default true"),
  enable_prompt_collection: z
    .boolean()
    .describe(
      "Whether prompts and completions may be captured at all (a policy's guardrail must also ask for it); " +
        "default false",
    ),
  redact_pii: z
    .boolean()
    .describe(
      "Whether personal data is removed from captured prompts (a guardrail can ask for it too); default false",
    ),
  access_log_retention_days: z
    .number()
    .int()
    .describe("How many days access-log entries are kept; 0 or less keeps them forever; default 30"),
};

export const AgentNetworkSettingsSchema = z
  .strictObject({
    endpoint: z
      .string()
      .describe("The host name agents send their requests to; empty until the settings are bootstrapped"),
    proxy_address: z
      .string()
      .describe(
        "The address of the proxy cluster serving the endpoint: the endpoint itself when it is dedicated, " +
          "else the endpoint's parent domain; empty until bootstrapped",
      ),
    dedicated: z.boolean().describe("Whether the endpoint is the proxy address itself (claimed as it is)"),
    ...toggles,
    access_log_retention_days: optional(toggles.access_log_retention_days),
    created_at: z.string().optional().describe("When the settings were bootstrapped; absent before"),
    updated_at: z.string().optional().describe("When the settings last changed; absent before bootstrap"),
  })
  .describe(
    "The account's Agent Network gateway settings. Before they are bootstrapped they read as the defaults " +
      "with an empty endpoint",
  );

/** Exactly one of the two addresses (an empty string counts as none). */
function checkBootstrap(b: { proxy_address?: unknown; endpoint?: unknown }, ctx: z.RefinementCtx): void {
  const given = (["proxy_address", "endpoint"] as const).filter(
    (k) => typeof b[k] === "string" && b[k] !== "",
  );
  if (given.length !== 1)
    issue(
      ctx,
      given.length ? ["endpoint"] : ["proxy_address"],
      given.length
        ? "cannot be given together with proxy_address: give exactly one of proxy_address and endpoint"
        : "is required unless endpoint is given: give exactly one of proxy_address and endpoint",
    );
}

export const AgentNetworkSettingsCreateSchema = z
  .object({
    proxy_address: hostname(
      "Bootstrap under this proxy cluster's address: the server picks a label and the endpoint becomes " +
        "<label>.<proxy_address>. Not together with `endpoint`",
    ),
    endpoint: hostname(
      "Bootstrap with this host name as the endpoint, claimed as it is (a dedicated proxy serves it). Not " +
        "together with `proxy_address`",
    ),
    enable_log_collection: optional(toggles.enable_log_collection),
    enable_prompt_collection: optional(toggles.enable_prompt_collection),
    redact_pii: optional(toggles.redact_pii),
    access_log_retention_days: optional(toggles.access_log_retention_days),
  })
  .superRefine(checkBootstrap)
  .describe(
    "Bootstraps the settings and allocates the endpoint (exactly one of `proxy_address` and `endpoint`); the " +
      "toggles left out take their defaults. Both addresses are stored trimmed and lower-cased",
  );

export const AgentNetworkSettingsRequestSchema = z
  .object({
    endpoint: z
      .string()
      .describe("The endpoint as assigned at bootstrap: it cannot change (the server refuses another value)"),
    proxy_address: z
      .string()
      .describe(
        "The proxy address as assigned at bootstrap: it cannot change (the server refuses another value)",
      ),
    enable_log_collection: optional(toggles.enable_log_collection),
    enable_prompt_collection: optional(toggles.enable_prompt_collection),
    redact_pii: optional(toggles.redact_pii),
    access_log_retention_days: optional(toggles.access_log_retention_days),
  })
  .describe(
    "Replaces the settings whole: a toggle left out becomes false and the retention 0. The addresses must be " +
      "those assigned at bootstrap",
  );

// ---------------------------------------------------------------------------------------------------------------
// Limits, shared by policies and budget rules

/** Which limit a check is about, for its messages. */
function checkLimit(kind: "token" | "budget", l: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const [group, user] = kind === "token" ? ["group_cap", "user_cap"] : ["group_cap_usd", "user_cap_usd"];
  const num = (k: string) => (typeof l[k] === "number" ? (l[k] as number) : 0);
  if (l.enabled !== true) {
    // The service stores a switched-off limit as sent; it binds nobody until it is switched on.
    for (const k of [group, user, "window_seconds"] as const)
      if (num(k) < 0) advise(ctx, [k], "is negative: the limit is off, but it cannot be switched on so");
    return;
  }
  for (const k of [group, user] as const) if (num(k) < 0) issue(ctx, [k], "must not be negative");
  if (num("window_seconds") < 60)
    issue(ctx, ["window_seconds"], "must be at least 60 (one minute) when enabled");
  if (num(group) <= 0 && num(user) <= 0)
    issue(ctx, [], `needs ${group} or ${user} above zero when enabled (a limit without a cap binds nothing)`);
}

const windowSeconds = () =>
  z
    .number()
    .int()
    .describe("The window the caps count over, in seconds; at least 60 when the limit is on; 86400 is a day");

export const AgentNetworkTokenLimitSchema = z
  .object({
    enabled: z.boolean().optional().describe("Whether the token caps apply; default false"),
    group_cap: z
      .number()
      .int()
      .optional()
      .describe("Tokens each group may use in a window (each group counts on its own); 0: no cap"),
    user_cap: z.number().int().optional().describe("Tokens each user may use in a window; 0: no cap"),
    window_seconds: optional(windowSeconds()),
  })
  .superRefine((l, ctx) => checkLimit("token", l, ctx))
  .describe("Caps on tokens (input and output) per group and per user over a window");

export const AgentNetworkBudgetLimitSchema = z
  .object({
    enabled: z.boolean().optional().describe("Whether the spending caps apply; default false"),
    group_cap_usd: z
      .number()
      .optional()
      .describe("USD each group may spend in a window (each group counts on its own); 0: no cap"),
    user_cap_usd: z.number().optional().describe("USD each user may spend in a window; 0: no cap"),
    window_seconds: optional(windowSeconds()),
  })
  .superRefine((l, ctx) => checkLimit("budget", l, ctx))
  .describe("Caps on spending, in USD at the models' prices, per group and per user over a window");

export const AgentNetworkLimitsSchema = z
  .object({
    token_limit: optional(AgentNetworkTokenLimitSchema),
    budget_limit: optional(AgentNetworkBudgetLimitSchema),
  })
  .describe("Token and spending caps; a limit left out is off");

const tokenLimitAnswered = z
  .strictObject({
    enabled: z.boolean().describe("Whether the token caps apply"),
    group_cap: z.number().int().describe("Tokens per group and window; 0: no cap"),
    user_cap: z.number().int().describe("Tokens per user and window; 0: no cap"),
    window_seconds: z.number().int().describe("The window, in seconds"),
  })
  .describe("Token caps");

const budgetLimitAnswered = z
  .strictObject({
    enabled: z.boolean().describe("Whether the spending caps apply"),
    group_cap_usd: z.number().describe("USD per group and window; 0: no cap"),
    user_cap_usd: z.number().describe("USD per user and window; 0: no cap"),
    window_seconds: z.number().int().describe("The window, in seconds"),
  })
  .describe("Spending caps");

export const AgentNetworkLimitsAnsweredSchema = z
  .strictObject({
    token_limit: tokenLimitAnswered,
    budget_limit: budgetLimitAnswered,
  })
  .describe("Token and spending caps (both always answered; off with zeros when not set)");

// ---------------------------------------------------------------------------------------------------------------
// Providers

/** A catalog id. Open: the provider's check lets unknown ids through, the server answering decides. */
export const AgentNetworkCatalogId = z
  .enum(AGENT_NETWORK_CATALOG_IDS, {
    error: (iss) =>
      typeof iss.input === "string" && iss.input !== ""
        ? `${JSON.stringify(iss.input)} is not a provider type of the catalog; ` +
          "GET /api/agent-network/catalog/providers lists them"
        : iss.input === undefined || iss.input === ""
          ? "is required"
          : "must be a string",
  })
  .describe(
    "The provider type, an id of the catalog (`openai_api`, `anthropic_api`, `portkey`, `custom`, ...): how the " +
      "key is sent and which models and prices apply",
  );
OPEN_ENUMS.add(AgentNetworkCatalogId, {});

const modelPrices = {
  cached_input_per_1k: rate(
    "USD per 1,000 cached prompt tokens (OpenAI's way: part of the input tokens); left out: the catalog's rate",
  ),
  cache_read_per_1k: rate(
    "USD per 1,000 tokens read from the prompt cache (Anthropic's way: besides the input tokens); left out: " +
      "the catalog's rate",
  ),
  cache_creation_per_1k: rate(
    "USD per 1,000 tokens written to the prompt cache (Anthropic's way); left out: the catalog's rate",
  ),
};

export const AgentNetworkProviderModelSchema = z
  .object({
    id: z
      .string()
      .refine((s) => s.trim() !== "", { error: "is required" })
      .describe("The model's id as the provider names it (`gpt-4o-mini`)"),
    input_per_1k: rate("USD per 1,000 input tokens; default 0"),
    output_per_1k: rate("USD per 1,000 output tokens; default 0"),
    ...modelPrices,
  })
  .describe("A model offered through the provider, with its prices");

export const AgentNetworkProviderModelAnsweredSchema = z
  .strictObject({
    id: z.string().describe("The model's id"),
    input_per_1k: z.number().describe("USD per 1,000 input tokens"),
    output_per_1k: z.number().describe("USD per 1,000 output tokens"),
    cached_input_per_1k: z.number().optional().describe("USD per 1,000 cached prompt tokens"),
    cache_read_per_1k: z.number().optional().describe("USD per 1,000 tokens read from the prompt cache"),
    cache_creation_per_1k: z.number().optional().describe("USD per 1,000 tokens written to the prompt cache"),
  })
  .describe("A model offered through the provider, with its prices");

/** A header name as HTTP defines tokens. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HEADER_VALUE_FORBIDDEN = /[\u0000\r\n]/;

const identityHeader = (what: string) =>
  optional(
    z
      .string()
      .superRefine((s, ctx) => {
        // The service stores any text here; a proxy cannot send a header whose name is not one.
        if (s !== "" && !HEADER_NAME.test(s))
          advise(ctx, [], `is not an HTTP header name (${JSON.stringify(s)}): the gateway cannot send it`);
      })
      .describe(what),
  );

const providerFields = {
  provider_id: AgentNetworkCatalogId,
  name: requiredName("The provider's display name (names may repeat)"),
  upstream_url: z
    .string()
    .superRefine((s, ctx) => {
      const t = s.trim();
      if (t === "") {
        ctx.addIssue({ code: "custom", message: "is required" });
        return;
      }
      const ok = /^https?:\/\/[^/?#\s]+/i.test(t) && URL.canParse(t);
      if (!ok)
        ctx.addIssue({
          code: "custom",
          message: "must be a full http(s) URL such as https://api.openai.com",
        });
      else if (t !== s) advise(ctx, [], "starts or ends with white space: the service stores it as sent");
    })
    .describe("Where the gateway sends requests: a full http(s) URL (`https://api.openai.com`)"),
  models: z
    .array(AgentNetworkProviderModelSchema)
    .nullable()
    .optional()
    .superRefine((models, ctx) => {
      const seen = new Set<string>();
      for (const [i, m] of (models ?? []).entries()) {
        if (typeof m?.id === "string" && seen.has(m.id))
          advise(ctx, [i, "id"], `lists ${m.id} again: the service stores both entries`);
        if (typeof m?.id === "string") seen.add(m.id);
      }
    })
    .describe(
      "The models offered, with the prices the meter uses; empty: every model of the catalog entry at the " +
        "catalog's prices",
    ),
  extra_values: z
    .record(z.string(), z.string())
    .superRefine((values, ctx) => {
      for (const [k, v] of Object.entries(values)) {
        if (HEADER_VALUE_FORBIDDEN.test(v)) issue(ctx, [k], "must not contain a line break or NUL");
        if (!HEADER_NAME.test(k)) advise(ctx, [k], "is not an HTTP header name: the gateway cannot send it");
      }
    })
    .optional()
    .describe(
      "Values for the extra headers the catalog entry declares (Portkey's `x-portkey-config`), by header name; " +
        "an empty value is dropped",
    ),
  identity_header_user_id: identityHeader(
    "For a gateway whose identity headers are configurable: the header that carries the caller (user email or " +
      "peer name); empty: not sent",
  ),
  identity_header_groups: identityHeader(
    "For a gateway whose identity headers are configurable: the header that carries the caller's groups; " +
      "empty: not sent",
  ),
  enabled: z
    .boolean()
    .optional()
    .describe("Whether the gateway routes requests to this provider; false when left out"),
  skip_tls_verification: z
    .boolean()
    .optional()
    .describe(
      "Whether the gateway accepts any TLS certificate from the upstream (a private gateway); default false",
    ),
  metadata_disabled: z
    .boolean()
    .optional()
    .describe(
      "Whether the gateway leaves out the caller's identity metadata on upstream requests; default false",
    ),
};

const apiKey = () =>
  z
    .string()
    .refine((s) => !HEADER_VALUE_FORBIDDEN.test(s), { error: "must not contain a line break or NUL" })
    .describe(
      "The upstream provider's API key. Write-only: stored encrypted, never answered. Required on create; on " +
        "update, left out keeps the stored key",
    );

export const AgentNetworkProviderCreateSchema = z
  .object({ ...providerFields, api_key: optional(apiKey()) })
  .superRefine((b, ctx) => {
    if (typeof b.api_key !== "string" || b.api_key === "") issue(ctx, ["api_key"], "is required");
  })
  .describe("Provider create body (the API key is required)");

export const AgentNetworkProviderRequestSchema = z
  .object({ ...providerFields, api_key: optional(apiKey()) })
  .describe(
    "Provider update body: replaces the provider whole (what is left out is reset) but for the API key, " +
      "which stays when left out",
  );

export const AgentNetworkProviderSchema = z
  .strictObject({
    id: z.string().describe("Provider id"),
    provider_id: z.string().describe("The provider type, an id of the catalog"),
    name: z.string().describe("Display name"),
    upstream_url: z.string().describe("Where the gateway sends requests"),
    models: z
      .array(AgentNetworkProviderModelAnsweredSchema)
      .describe("The models offered, with their prices"),
    extra_values: z
      .record(z.string(), z.string())
      .optional()
      .describe("Values of the catalog's extra headers; absent when none"),
    identity_header_user_id: z.string().describe("Header carrying the caller; empty: not sent"),
    identity_header_groups: z.string().describe("Header carrying the caller's groups; empty: not sent"),
    enabled: z.boolean().describe("Whether the gateway routes requests to it"),
    skip_tls_verification: z.boolean().describe("Whether any upstream certificate is accepted"),
    metadata_disabled: z.boolean().describe("Whether identity metadata is left out upstream"),
    created_at: z.string().describe("When it was created"),
    updated_at: z.string().describe("When it last changed"),
  })
  .describe("An LLM provider the gateway forwards to (its API key is never answered)");

// ---------------------------------------------------------------------------------------------------------------
// The catalog

export const AgentNetworkCatalogModelSchema = z
  .strictObject({
    id: z.string().describe("The model's id as the provider names it"),
    label: z.string().describe("Human-readable name"),
    input_per_1k: z.number().describe("USD per 1,000 input tokens"),
    output_per_1k: z.number().describe("USD per 1,000 output tokens"),
    cached_input_per_1k: z
      .number()
      .optional()
      .describe("USD per 1,000 cached prompt tokens, where it applies"),
    cache_read_per_1k: z.number().optional().describe("USD per 1,000 prompt-cache reads, where it applies"),
    cache_creation_per_1k: z
      .number()
      .optional()
      .describe("USD per 1,000 prompt-cache writes, where it applies"),
    context_window: z.number().int().describe("The most tokens one request may hold"),
  })
  .describe("A model of the catalog with its default prices");

export const AgentNetworkCatalogHeaderPairSchema = z
  .strictObject({
    customizable: z.boolean().describe("Whether a provider may name its own headers"),
    end_user_id_header: z.string().describe("Header carrying the caller (the default when customizable)"),
    tags_header: z.string().describe("Header carrying the caller's groups (the default when customizable)"),
  })
  .describe("Identity sent as two headers");

export const AgentNetworkCatalogJsonMetadataSchema = z
  .strictObject({
    customizable: z.boolean().describe("Whether a provider may name its own keys"),
    header: z.string().describe("The header carrying a JSON object"),
    user_key: z.string().describe("The object's key for the caller"),
    groups_key: z.string().describe("The object's key for the caller's groups"),
  })
  .describe("Identity sent as one header holding a JSON object");

export const AgentNetworkCatalogProviderSchema = z
  .strictObject({
    id: z.string().describe("Catalog id (what a provider's `provider_id` names)"),
    name: z.string().describe("Display name"),
    description: z.string().describe("What it is"),
    default_host: z
      .string()
      .describe(
        "The usual upstream host (a pattern such as `<resource>.openai.azure.com`; empty when self-hosted)",
      ),
    auth_header_template: z.string().describe("How the API key is sent (`Bearer ${API_KEY}`)"),
    default_content_type: z.string().describe("Content type of upstream requests"),
    brand_color: z.string().describe("Colour of its badge"),
    kind: z
      .enum(["provider", "gateway", "custom"])
      .describe("A vendor's API, a gateway, or a self-hosted endpoint"),
    extra_headers: z
      .array(z.strictObject({ name: z.string().describe("Header name") }).describe("An extra header"))
      .optional()
      .describe("Headers a provider of this type may set values for (`extra_values`)"),
    identity_injection: z
      .strictObject({
        header_pair: optional(AgentNetworkCatalogHeaderPairSchema),
        json_metadata: optional(AgentNetworkCatalogJsonMetadataSchema),
      })
      .optional()
      .describe("How the caller's identity reaches the upstream, where it can"),
    pricing_surfaces: z
      .array(z.string())
      .optional()
      .describe("Which cache prices apply to its models (`openai`, `anthropic`, `bedrock`)"),
    models: z.array(AgentNetworkCatalogModelSchema).describe("Its models and their default prices"),
  })
  .describe("A provider type of the catalog");

export type AgentNetworkCatalogProvider = z.infer<typeof AgentNetworkCatalogProviderSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Guardrails

export const AgentNetworkGuardrailChecksSchema = z
  .object({
    model_allowlist: z
      .object({
        enabled: z.boolean().optional().describe("Whether only the listed models are allowed; default false"),
        models: z
          .array(z.string())
          .nullable()
          .optional()
          .describe("The models allowed; a request for any other is refused"),
      })
      .optional()
      .describe("Allow only these models"),
    prompt_capture: z
      .object({
        enabled: z
          .boolean()
          .optional()
          .describe("Whether prompts and completions are captured; default false"),
        redact_pii: z
          .boolean()
          .optional()
          .describe("Whether personal data is removed from them; default false"),
      })
      .optional()
      .describe("Capture prompts (the settings' prompt collection must be on too)"),
  })
  .superRefine((c, ctx) => {
    const list = c.model_allowlist;
    if (list?.enabled === true && !(list.models ?? []).length)
      advise(
        ctx,
        ["model_allowlist", "models"],
        "is empty while the allowlist is on: every model is refused",
      );
  })
  .describe("What the guardrail checks; a check left out is off");

export const AgentNetworkGuardrailChecksAnsweredSchema = z
  .strictObject({
    model_allowlist: z
      .strictObject({
        enabled: z.boolean().describe("Whether only the listed models are allowed"),
        models: z.array(z.string()).describe("The models allowed"),
      })
      .describe("Allow only these models"),
    prompt_capture: z
      .strictObject({
        enabled: z.boolean().describe("Whether prompts are captured"),
        redact_pii: z.boolean().describe("Whether personal data is removed"),
      })
      .describe("Capture prompts"),
  })
  .describe("What the guardrail checks");

export const AgentNetworkGuardrailRequestSchema = z
  .object({
    name: requiredName("The guardrail's name (names may repeat)"),
    description: z.string().optional().describe("What it is for"),
    checks: optional(AgentNetworkGuardrailChecksSchema),
  })
  .describe("Guardrail create or replace body");

export const AgentNetworkGuardrailSchema = z
  .strictObject({
    id: z.string().describe("Guardrail id"),
    name: z.string().describe("Name"),
    description: z.string().describe("What it is for"),
    checks: AgentNetworkGuardrailChecksAnsweredSchema,
    created_at: z.string().describe("When it was created"),
    updated_at: z.string().describe("When it last changed"),
  })
  .describe("Checks a policy applies to the requests it allows");

// ---------------------------------------------------------------------------------------------------------------
// Policies

export const AgentNetworkPolicyRequestSchema = z
  .object({
    name: requiredName("The policy's name (names may repeat)"),
    description: z.string().optional().describe("What it is for"),
    enabled: z.boolean().optional().describe("Whether the policy applies; true when a create leaves it out"),
    source_groups: idList()
      .min(1, { error: "must name at least one group" })
      .describe("The groups whose members' agents may use the providers"),
    destination_provider_ids: idList()
      .min(1, { error: "must name at least one provider" })
      .describe("The providers (ids of Agent Network providers) they may use"),
    guardrail_ids: idList().optional().describe("Guardrails applied to the requests the policy allows"),
    limits: optional(AgentNetworkLimitsSchema),
  })
  .describe("Agent Network policy create or replace body");

export const AgentNetworkPolicySchema = z
  .strictObject({
    id: z.string().describe("Policy id"),
    name: z.string().describe("Name"),
    description: z.string().describe("What it is for"),
    enabled: z.boolean().describe("Whether the policy applies"),
    source_groups: z.array(z.string()).describe("Groups whose members may use the providers"),
    destination_provider_ids: z.array(z.string()).describe("The providers they may use"),
    guardrail_ids: z.array(z.string()).describe("Guardrails applied"),
    limits: AgentNetworkLimitsAnsweredSchema,
    created_at: z.string().describe("When it was created"),
    updated_at: z.string().describe("When it last changed"),
  })
  .describe("Which groups' agents may use which providers, under which guardrails and caps");

// ---------------------------------------------------------------------------------------------------------------
// Budget rules

export const AgentNetworkBudgetRuleRequestSchema = z
  .object({
    name: requiredName("The rule's name (names may repeat)"),
    enabled: z.boolean().optional().describe("Whether the rule applies; true when a create leaves it out"),
    target_groups: idList()
      .optional()
      .describe("Groups the caps bind; with no target users either, the rule binds every caller"),
    target_users: idList().optional().describe("Users the caps bind"),
    limits: optional(AgentNetworkLimitsSchema),
  })
  .describe("Budget rule create or replace body");

export const AgentNetworkBudgetRuleSchema = z
  .strictObject({
    id: z.string().describe("Budget rule id"),
    name: z.string().describe("Name"),
    enabled: z.boolean().describe("Whether the rule applies"),
    target_groups: z.array(z.string()).describe("Groups the caps bind"),
    target_users: z.array(z.string()).describe("Users the caps bind"),
    limits: AgentNetworkLimitsAnsweredSchema,
    created_at: z.string().describe("When it was created"),
    updated_at: z.string().describe("When it last changed"),
  })
  .describe(
    "Account-wide caps for groups and users, over every policy: where several caps bind a caller, the lowest wins",
  );

// ---------------------------------------------------------------------------------------------------------------
// Usage: consumption counters, usage buckets, access logs and sessions

export const AgentNetworkConsumptionSchema = z
  .strictObject({
    dimension_kind: z.enum(["user", "group"]).describe("Whether the counter counts one user or one group"),
    dimension_id: z.string().describe("The user's or the group's id"),
    window_seconds: z.number().int().describe("The window's length, in seconds"),
    window_start_utc: z.string().describe("When the window began (windows are aligned to the Unix epoch)"),
    tokens_input: z.number().int().describe("Input tokens counted in the window"),
    tokens_output: z.number().int().describe("Output tokens counted in the window"),
    cost_usd: z.number().describe("USD spent in the window"),
    updated_at: z.string().optional().describe("When the counter last grew"),
  })
  .describe("One consumption counter: a user's or a group's use over one window");

const costs = {
  input_tokens: z.number().int().describe("Input tokens"),
  output_tokens: z.number().int().describe("Output tokens"),
  total_tokens: z.number().int().describe("All tokens, prompt-cache tokens included"),
  cached_input_tokens: z.number().int().describe("Tokens read from the prompt cache"),
  cache_creation_tokens: z.number().int().describe("Tokens written to the prompt cache"),
  input_cost_usd: z.number().describe("USD for the input tokens not from the cache"),
  cached_input_cost_usd: z.number().describe("USD for the tokens read from the cache"),
  cache_creation_cost_usd: z.number().describe("USD for the tokens written to the cache"),
  output_cost_usd: z.number().describe("USD for the output tokens"),
  cost_usd: z.number().describe("USD in all"),
  cache_cost_usd: z.number().describe("The part of cost_usd for the prompt cache"),
};

export const AgentNetworkUsageBucketSchema = z
  .strictObject({
    period_start: z.string().describe("The bucket's first day (YYYY-MM-DD, UTC): a day, a Monday or a 1st"),
    ...costs,
  })
  .describe("Tokens and cost summed over one day, week or month");

export const AgentNetworkAccessLogSchema = z
  .strictObject({
    id: z.string().describe("Entry id"),
    service_id: z.string().describe("The gateway service that handled the request"),
    timestamp: z.string().describe("When the request came"),
    status_code: z.number().int().describe("The HTTP status answered"),
    duration_ms: z.number().int().describe("How long it took, in milliseconds"),
    user_id: z.string().optional().describe("The caller"),
    source_ip: z.string().optional().describe("The caller's address"),
    method: z.string().optional().describe("HTTP method"),
    host: z.string().optional().describe("The upstream host"),
    path: z.string().optional().describe("The request path"),
    provider: z.string().optional().describe("The vendor (openai, anthropic, ...)"),
    model: z.string().optional().describe("The model asked for"),
    session_id: z.string().optional().describe("The session the client named, if any"),
    resolved_provider_id: z.string().optional().describe("The Agent Network provider that served it"),
    selected_policy_id: z.string().optional().describe("The policy that allowed (or refused) it"),
    decision: z.string().optional().describe("allow or deny"),
    deny_reason: z.string().optional().describe("Why it was refused"),
    ...costs,
    stream: z.boolean().optional().describe("Whether the answer was streamed"),
    group_ids: z.array(z.string()).optional().describe("The caller's groups the policy allowed"),
    request_prompt: z.string().optional().describe("The prompt, where captured"),
    response_completion: z.string().optional().describe("The completion, where captured"),
  })
  .describe("One request through the gateway");

export const AgentNetworkAccessLogSessionSchema = z
  .strictObject({
    session_id: z.string().optional().describe("The session id; empty for a request that named none"),
    user_id: z.string().optional().describe("The caller"),
    group_ids: z.array(z.string()).optional().describe("Every group that allowed one of its requests"),
    started_at: z.string().describe("Its first request"),
    ended_at: z.string().describe("Its last request"),
    request_count: z.number().int().describe("How many requests"),
    ...costs,
    providers: z.array(z.string()).optional().describe("The vendors used"),
    models: z.array(z.string()).optional().describe("The models used"),
    decision: z.string().describe("deny if any request was refused, else allow"),
    entries: z.array(AgentNetworkAccessLogSchema).describe("Its requests, oldest first"),
  })
  .describe("The requests of one session, summed, with the requests themselves");

function paged<T extends z.ZodType>(item: T, what: string) {
  return z
    .strictObject({
      data: z.array(item).describe(`The ${what} of this page`),
      page: z.number().int().describe("Page number"),
      page_size: z.number().int().describe("Page size"),
      total_records: z.number().int().describe(`How many ${what} match`),
      total_pages: z.number().int().describe("How many pages match"),
    })
    .describe(`A page of ${what}`);
}

export const AgentNetworkAccessLogPageSchema = paged(AgentNetworkAccessLogSchema, "access-log entries");
export const AgentNetworkAccessLogSessionPageSchema = paged(AgentNetworkAccessLogSessionSchema, "sessions");

/** A whole number from a query string; anything else (absent, not a number, below `min`) is `fallback`. */
const forgivingInt = (fallback: number, max: number) =>
  z.preprocess(
    (v) => {
      const n =
        typeof v === "number" ? v : typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN;
      return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
    },
    intRange(1, max),
  );

/** A query parameter that may repeat: always a list. */
const repeated = (what: string) =>
  z
    .preprocess(
      (v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]),
      z.array(z.string()).optional(),
    )
    .describe(`${what}; repeat the parameter for several (any matches)`);

/** A value of a known set; anything else is taken as its default, as the service does. */
const forgivingEnum = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.preprocess((v) => (typeof v === "string" && values.includes(v) ? v : fallback), z.enum(values));

const time = (what: string) =>
  z
    .string()
    .refine((s) => RFC3339.test(s) && !Number.isNaN(Date.parse(s)), {
      error: "must be an RFC 3339 time such as 2026-01-31T12:00:00Z",
    })
    .optional()
    .describe(what);

const filters = {
  search: z
    .string()
    .optional()
    .describe("Part of an entry's id, host, path, model, or the user's email or name"),
  user_id: z.string().optional().describe("Only this user's requests"),
  session_id: z.string().optional().describe("Only this session's requests"),
  group_id: repeated("Only requests a group of these allowed"),
  provider_id: repeated("Only requests served by these providers"),
  model: repeated("Only requests for these models"),
  decision: z.string().optional().describe("Only requests with this decision (allow, deny)"),
  path: z.string().optional().describe("Only requests whose path starts with this"),
  start_date: time("Only requests at or after this time (RFC 3339)"),
  end_date: time("Only requests at or before this time (RFC 3339)"),
};

export const ACCESS_LOG_SORT_FIELDS = [
  "timestamp",
  "model",
  "provider",
  "status_code",
  "duration",
  "cost_usd",
  "total_tokens",
  "user_id",
  "decision",
] as const;

export const SESSION_SORT_FIELDS = [
  "timestamp",
  "started_at",
  "cost_usd",
  "total_tokens",
  "duration",
  "request_count",
  "status_code",
  "user_id",
  "decision",
] as const;

const paging = {
  page: forgivingInt(1, 1_000_000).describe("Page number, from 1; anything else reads as 1"),
  page_size: forgivingInt(50, 100).describe(
    "Page size, 1 to 100 (default 50); more reads as 100, anything else as 50",
  ),
  sort_order: forgivingEnum(["asc", "desc"], "desc").describe(
    "asc or desc (default); anything else reads as desc",
  ),
};

export const AgentNetworkAccessLogQuerySchema = z
  .object({
    ...paging,
    sort_by: forgivingEnum(ACCESS_LOG_SORT_FIELDS, "timestamp").describe(
      "Sort field (default timestamp); an unknown one reads as timestamp",
    ),
    ...filters,
  })
  .describe("Access-log query");

export const AgentNetworkSessionQuerySchema = z
  .object({
    ...paging,
    sort_by: forgivingEnum(SESSION_SORT_FIELDS, "timestamp").describe(
      "Sort field: timestamp is a session's last request, started_at its first (default timestamp)",
    ),
    ...filters,
  })
  .describe("Session query");

export const AgentNetworkUsageQuerySchema = z
  .object({
    granularity: forgivingEnum(["day", "week", "month"], "day").describe(
      "Bucket width: day (default), week (from Monday) or month; anything else reads as day",
    ),
    start_date: filters.start_date,
    end_date: filters.end_date,
    user_id: filters.user_id,
    session_id: filters.session_id,
    group_id: filters.group_id,
    provider_id: filters.provider_id,
    model: filters.model,
  })
  .describe("Usage query");

export type AgentNetworkSettings = z.infer<typeof AgentNetworkSettingsSchema>;
export type AgentNetworkProvider = z.infer<typeof AgentNetworkProviderSchema>;
export type AgentNetworkPolicy = z.infer<typeof AgentNetworkPolicySchema>;
export type AgentNetworkGuardrail = z.infer<typeof AgentNetworkGuardrailSchema>;
export type AgentNetworkBudgetRule = z.infer<typeof AgentNetworkBudgetRuleSchema>;
export type AgentNetworkConsumption = z.infer<typeof AgentNetworkConsumptionSchema>;
export type AgentNetworkAccessLog = z.infer<typeof AgentNetworkAccessLogSchema>;
export type AgentNetworkUsageBucket = z.infer<typeof AgentNetworkUsageBucketSchema>;
export type AgentNetworkLimits = z.infer<typeof AgentNetworkLimitsAnsweredSchema>;
