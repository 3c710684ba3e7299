/**
 * A recorded sequence of Agent Network requests, valid and invalid, and the machinery to replay it against any
 * server of the API and compare its answers with the reference server's (release v0.77.1) recording in
 * `tests/fixtures/agent-network/reference-answers.json`.
 *
 * The sequence starts on an account whose Agent Network family is empty (settings not bootstrapped, no
 * providers, policies, guardrails or budget rules) and leaves it so. Groups and users it needs are made through
 * the API and deleted at the end.
 *
 * What is compared, step by step:
 * - the status code, always;
 * - for a success, the whole body after normalisation: ids and values the sequence saved (the endpoint the
 *   server allocates under a proxy address too) become `{{name}}`, timestamps `<time>`; fields, defaults and
 *   list order must then be equal;
 * - for a refusal, the fields the step names (`names`) must each appear in the message: the wording is each
 *   server's own, the field it blames is not.
 * A step may declare a deliberate difference of privnet-server (`privnet`, with the reason); the server tier
 * expects that answer from privnet-server, and the acceptance tier accepts either answer from a live server.
 */
import type { Method } from "../../api/routes";

export type Actor = "owner" | "user" | "auditor" | "network_admin";

export interface Step {
  /** Stable key: the recording is matched to the sequence by it. */
  name: string;
  as?: Actor;
  method: Method;
  /** The path, with `{{var}}` placeholders. */
  path: string;
  /** The JSON body (placeholders in strings are filled), or a raw string sent as it is (bad JSON). */
  body?: unknown;
  raw?: string;
  /** Values to keep from a success: variable name → field of the answer (a dotted path). */
  save?: Record<string, string>;
  /** For a refusal: the fields the message must name on every server. */
  names?: string[];
  /** A prerequisite outside the family (a group, a user): only the status is compared. */
  setup?: true;
  /** Members left out of the comparison on every server (text that is each server's own). */
  ignore?: string[];
  /** Where privnet-server deliberately answers otherwise: its answer, and why. */
  privnet?: { status: number; names?: string[]; why: string };
}

const A = "/api/agent-network";

const tokenLimit = (group_cap: number, user_cap: number, window_seconds: number, enabled = true) => ({
  token_limit: { enabled, group_cap, user_cap, window_seconds },
});
const budgetLimit = (
  group_cap_usd: number,
  user_cap_usd: number,
  window_seconds: number,
  enabled = true,
) => ({
  budget_limit: { enabled, group_cap_usd, user_cap_usd, window_seconds },
});

const policyBase = {
  name: "engineering to openai",
  source_groups: ["{{g_eng}}"],
  destination_provider_ids: ["{{prov_full}}"],
};
const providerBase = {
  provider_id: "openai_api",
  name: "OpenAI",
  upstream_url: "https://api.openai.com",
  api_key: "sk-replay-0001-not-a-real-key",
};

/** The reads of the family, each on a fresh account. */
const READS: [string, string][] = [
  ["settings", `${A}/settings`],
  ["catalog", `${A}/catalog/providers`],
  ["providers", `${A}/providers`],
  ["policies", `${A}/policies`],
  ["guardrails", `${A}/guardrails`],
  ["budget-rules", `${A}/budget-rules`],
  ["consumption", `${A}/consumption`],
  ["usage", `${A}/usage/overview`],
  ["access-logs", `${A}/access-logs`],
  ["sessions", `${A}/access-log-sessions`],
];

/** What each role below admin is tried with: every read, and one write of each collection and the settings. */
function roleSteps(as: Actor): Step[] {
  return [
    ...READS.map(([what, path]): Step => ({
      name: `${as}-read-${what}`,
      as,
      method: "GET",
      path,
      // The catalog's models are compared once, on the fresh read.
      ...(what === "catalog" ? { ignore: ["description", "models"] } : {}),
    })),
    { name: `${as}-read-provider`, as, method: "GET", path: `${A}/providers/{{prov_full}}` },
    { name: `${as}-create-provider`, as, method: "POST", path: `${A}/providers`, body: providerBase },
    { name: `${as}-create-guardrail`, as, method: "POST", path: `${A}/guardrails`, body: { name: "x" } },
    {
      name: `${as}-create-budget-rule`,
      as,
      method: "POST",
      path: `${A}/budget-rules`,
      body: { name: "x", limits: budgetLimit(1, 0, 86400) },
    },
    { name: `${as}-create-policy`, as, method: "POST", path: `${A}/policies`, body: policyBase },
    {
      name: `${as}-update-settings`,
      as,
      method: "PUT",
      path: `${A}/settings`,
      body: {
        endpoint: "{{endpoint}}",
        proxy_address: "proxy.example.com",
        enable_log_collection: true,
        enable_prompt_collection: false,
        redact_pii: false,
        access_log_retention_days: 30,
      },
    },
    { name: `${as}-delete-provider`, as, method: "DELETE", path: `${A}/providers/{{prov_full}}` },
    { name: `${as}-delete-settings`, as, method: "DELETE", path: `${A}/settings` },
  ];
}

export const SEQUENCE: Step[] = [
  // A fresh account: every read answers.
  ...READS.map(([what, path]): Step => ({
    name: `fresh-read-${what}`,
    method: "GET",
    path,
    ...(what === "catalog" ? { ignore: ["description"] } : {}),
  })),
  { name: "fresh-access-logs-page", method: "GET", path: `${A}/access-logs?page=3&page_size=10` },
  { name: "fresh-access-logs-clamped", method: "GET", path: `${A}/access-logs?page=0&page_size=1000` },
  {
    name: "fresh-access-logs-bad-date",
    method: "GET",
    path: `${A}/access-logs?start_date=bad`,
    names: ["start_date"],
  },
  { name: "fresh-usage-week", method: "GET", path: `${A}/usage/overview?granularity=week` },
  {
    name: "fresh-usage-bad-date",
    method: "GET",
    path: `${A}/usage/overview?end_date=bad`,
    names: ["end_date"],
  },
  { name: "fresh-sessions-page-size-0", method: "GET", path: `${A}/access-log-sessions?page_size=0` },

  // Prerequisites: two groups and three users below admin.
  {
    name: "setup-group-engineering",
    setup: true,
    method: "POST",
    path: "/api/groups",
    body: { name: "an-engineering" },
    save: { g_eng: "id" },
  },
  {
    name: "setup-group-contractors",
    setup: true,
    method: "POST",
    path: "/api/groups",
    body: { name: "an-contractors" },
    save: { g_con: "id" },
  },
  {
    name: "setup-group-budget",
    setup: true,
    method: "POST",
    path: "/api/groups",
    body: { name: "an-budget-only" },
    save: { g_bud: "id" },
  },

  // Settings: bootstrap with POST (exactly one of proxy_address and endpoint), then PUT the whole of it.
  {
    name: "settings-put-before-bootstrap",
    method: "PUT",
    path: `${A}/settings`,
    body: {
      endpoint: "",
      proxy_address: "",
      enable_log_collection: true,
      enable_prompt_collection: false,
      redact_pii: false,
      access_log_retention_days: 30,
    },
  },
  { name: "settings-delete-before-bootstrap", method: "DELETE", path: `${A}/settings` },
  {
    name: "settings-post-neither",
    method: "POST",
    path: `${A}/settings`,
    body: {},
    names: ["proxy_address", "endpoint"],
  },
  {
    name: "settings-post-both",
    method: "POST",
    path: `${A}/settings`,
    body: { proxy_address: "proxy.example.com", endpoint: "gw.example.com" },
    names: ["proxy_address", "endpoint"],
  },
  {
    name: "settings-post-empty-strings",
    method: "POST",
    path: `${A}/settings`,
    body: { proxy_address: "", endpoint: "" },
    names: ["proxy_address", "endpoint"],
  },
  { name: "settings-post-bad-json", method: "POST", path: `${A}/settings`, raw: "{not json" },
  {
    name: "settings-post-url-as-endpoint",
    method: "POST",
    path: `${A}/settings`,
    body: { endpoint: "https://gw.example.com" },
    names: ["endpoint"],
  },
  {
    name: "settings-post-space-in-proxy",
    method: "POST",
    path: `${A}/settings`,
    body: { proxy_address: "not a host" },
    names: ["proxy_address"],
  },
  {
    name: "settings-post-trailing-dot",
    method: "POST",
    path: `${A}/settings`,
    body: { proxy_address: "proxy.example.com." },
    names: ["proxy_address"],
  },
  {
    name: "settings-post-hyphen-label",
    method: "POST",
    path: `${A}/settings`,
    body: { endpoint: "-gw.example.com" },
    names: ["endpoint"],
  },
  {
    name: "settings-post-long-label",
    method: "POST",
    path: `${A}/settings`,
    body: { endpoint: `${"a".repeat(64)}.example.com` },
    names: ["endpoint"],
  },
  {
    name: "settings-post-wrong-type",
    method: "POST",
    path: `${A}/settings`,
    body: { endpoint: "gw.example.com", redact_pii: "yes" },
    privnet: {
      status: 422,
      names: ["redact_pii"],
      why: "a value of the wrong type is a 422 naming the field, as everywhere in privnet-server",
    },
  },
  {
    name: "settings-post-dedicated",
    method: "POST",
    path: `${A}/settings`,
    body: {
      endpoint: " GW.Example.COM",
      enable_log_collection: false,
      redact_pii: true,
      access_log_retention_days: 0,
    },
  },
  { name: "settings-get-dedicated", method: "GET", path: `${A}/settings` },
  {
    name: "settings-post-again",
    method: "POST",
    path: `${A}/settings`,
    body: { proxy_address: "proxy.example.com" },
  },
  { name: "settings-delete-dedicated", method: "DELETE", path: `${A}/settings` },
  { name: "settings-get-after-delete", method: "GET", path: `${A}/settings` },
  {
    name: "settings-post-proxy",
    method: "POST",
    path: `${A}/settings`,
    body: { proxy_address: "proxy.example.com", endpoint: "" },
    save: { endpoint: "endpoint" },
  },
  {
    name: "settings-put-toggles",
    method: "PUT",
    path: `${A}/settings`,
    body: {
      endpoint: "{{endpoint}}",
      proxy_address: "proxy.example.com",
      enable_log_collection: false,
      enable_prompt_collection: true,
      redact_pii: true,
      access_log_retention_days: 7,
    },
  },
  {
    name: "settings-put-other-endpoint",
    method: "PUT",
    path: `${A}/settings`,
    body: {
      endpoint: "other.proxy.example.com",
      proxy_address: "proxy.example.com",
      enable_log_collection: true,
      enable_prompt_collection: false,
      redact_pii: false,
      access_log_retention_days: 30,
    },
    names: ["endpoint"],
  },
  {
    name: "settings-put-other-proxy",
    method: "PUT",
    path: `${A}/settings`,
    body: {
      endpoint: "{{endpoint}}",
      proxy_address: "other.example.com",
      enable_log_collection: true,
      enable_prompt_collection: false,
      redact_pii: false,
      access_log_retention_days: 30,
    },
    names: ["proxy_address"],
  },
  {
    name: "settings-put-without-endpoint",
    method: "PUT",
    path: `${A}/settings`,
    body: { enable_log_collection: true },
    names: ["endpoint"],
  },
  {
    name: "settings-put-addresses-only",
    method: "PUT",
    path: `${A}/settings`,
    body: { endpoint: "{{endpoint}}", proxy_address: "proxy.example.com" },
  },
  {
    name: "settings-put-negative-retention",
    method: "PUT",
    path: `${A}/settings`,
    body: {
      endpoint: "{{endpoint}}",
      proxy_address: "proxy.example.com",
      enable_log_collection: true,
      enable_prompt_collection: false,
      redact_pii: false,
      access_log_retention_days: -5,
    },
  },
  {
    name: "settings-put-fractional-retention",
    method: "PUT",
    path: `${A}/settings`,
    body: {
      endpoint: "{{endpoint}}",
      proxy_address: "proxy.example.com",
      enable_log_collection: true,
      enable_prompt_collection: false,
      redact_pii: false,
      access_log_retention_days: 1.5,
    },
    privnet: {
      status: 422,
      names: ["access_log_retention_days"],
      why: "a value of the wrong type is a 422 naming the field",
    },
  },
  {
    name: "settings-put-back",
    method: "PUT",
    path: `${A}/settings`,
    body: {
      endpoint: "{{endpoint}}",
      proxy_address: "proxy.example.com",
      enable_log_collection: true,
      enable_prompt_collection: false,
      redact_pii: false,
      access_log_retention_days: 30,
    },
  },
  { name: "settings-get", method: "GET", path: `${A}/settings` },

  // Providers: the API key is required on create, never answered.
  { name: "provider-create-empty", method: "POST", path: `${A}/providers`, body: {}, names: ["provider_id"] },
  {
    name: "provider-create-unknown-catalog",
    method: "POST",
    path: `${A}/providers`,
    body: { ...providerBase, provider_id: "nope" },
    names: ["provider_id"],
  },
  {
    name: "provider-create-no-name",
    method: "POST",
    path: `${A}/providers`,
    body: { ...providerBase, name: "" },
    names: ["name"],
  },
  {
    name: "provider-create-blank-name",
    method: "POST",
    path: `${A}/providers`,
    body: { ...providerBase, name: "   " },
    names: ["name"],
  },
  {
    name: "provider-create-no-url",
    method: "POST",
    path: `${A}/providers`,
    body: { ...providerBase, upstream_url: "" },
    names: ["upstream_url"],
  },
  {
    name: "provider-create-host-as-url",
    method: "POST",
    path: `${A}/providers`,
    body: { ...providerBase, upstream_url: "api.openai.com" },
    names: ["upstream_url"],
  },
  {
    name: "provider-create-ftp-url",
    method: "POST",
    path: `${A}/providers`,
    body: { ...providerBase, upstream_url: "ftp://api.openai.com" },
    names: ["upstream_url"],
  },
  {
    name: "provider-create-no-key",
    method: "POST",
    path: `${A}/providers`,
    body: { ...providerBase, api_key: undefined },
    names: ["api_key"],
  },
  {
    name: "provider-create-empty-key",
    method: "POST",
    path: `${A}/providers`,
    body: { ...providerBase, api_key: "" },
    names: ["api_key"],
  },
  {
    name: "provider-create-negative-price",
    method: "POST",
    path: `${A}/providers`,
    body: { ...providerBase, models: [{ id: "gpt-4o", input_per_1k: -1, output_per_1k: 0.01 }] },
    names: ["models[0]", "input_per_1k"],
  },
  {
    name: "provider-create-negative-cache-price",
    method: "POST",
    path: `${A}/providers`,
    body: {
      ...providerBase,
      models: [{ id: "gpt-4o", input_per_1k: 1, output_per_1k: 1, cached_input_per_1k: -0.5 }],
    },
    names: ["models[0]", "cached_input_per_1k"],
  },
  {
    name: "provider-create-model-without-id",
    method: "POST",
    path: `${A}/providers`,
    body: { ...providerBase, models: [{ id: "", input_per_1k: 1, output_per_1k: 1 }] },
    names: ["models[0]", "id"],
  },
  {
    name: "provider-create-wrong-type",
    method: "POST",
    path: `${A}/providers`,
    body: { ...providerBase, enabled: "yes" },
    privnet: { status: 422, names: ["enabled"], why: "a value of the wrong type is a 422 naming the field" },
  },
  {
    name: "provider-create-minimal",
    method: "POST",
    path: `${A}/providers`,
    body: providerBase,
    save: { prov_min: "id" },
  },
  {
    name: "provider-create-full",
    method: "POST",
    path: `${A}/providers`,
    body: {
      provider_id: "openai_api",
      name: "OpenAI production",
      upstream_url: "https://api.openai.com",
      api_key: "sk-replay-0002-not-a-real-key",
      enabled: true,
      skip_tls_verification: false,
      metadata_disabled: true,
      identity_header_user_id: "x-caller",
      identity_header_groups: "x-caller-groups",
      extra_values: { "x-team": "platform", "x-empty": "" },
      models: [
        { id: "gpt-4o-mini", input_per_1k: 0.00015, output_per_1k: 0.0006 },
        { id: "gpt-4o", input_per_1k: 0.0025, output_per_1k: 0.01, cached_input_per_1k: 0.00125 },
        { id: "in-house-model", input_per_1k: 0, output_per_1k: 0 },
      ],
    },
    save: { prov_full: "id" },
  },
  {
    name: "provider-create-gateway",
    method: "POST",
    path: `${A}/providers`,
    body: {
      provider_id: "portkey",
      name: "Portkey",
      upstream_url: "https://api.portkey.ai",
      api_key: "pk-replay-0003-not-a-real-key",
      enabled: true,
      extra_values: { "x-portkey-config": "pc-replay" },
    },
    save: { prov_gw: "id" },
  },
  {
    name: "provider-create-model-without-prices",
    method: "POST",
    path: `${A}/providers`,
    body: { ...providerBase, name: "no prices", models: [{ id: "gpt-4o" }] },
    save: { prov_noprice: "id" },
  },
  { name: "provider-get-full", method: "GET", path: `${A}/providers/{{prov_full}}` },
  { name: "provider-list", method: "GET", path: `${A}/providers` },
  { name: "provider-get-unknown", method: "GET", path: `${A}/providers/nope` },
  {
    name: "provider-update-unknown",
    method: "PUT",
    path: `${A}/providers/nope`,
    body: { provider_id: "openai_api", name: "x", upstream_url: "https://api.openai.com" },
  },
  {
    name: "provider-update-empty",
    method: "PUT",
    path: `${A}/providers/{{prov_min}}`,
    body: {},
    names: ["provider_id"],
  },
  {
    name: "provider-update-unknown-catalog",
    method: "PUT",
    path: `${A}/providers/{{prov_min}}`,
    body: { provider_id: "nope", name: "x", upstream_url: "https://api.openai.com" },
    names: ["provider_id"],
  },
  {
    name: "provider-update-keep-key",
    method: "PUT",
    path: `${A}/providers/{{prov_min}}`,
    body: {
      provider_id: "openai_api",
      name: "OpenAI renamed",
      upstream_url: "https://api.openai.com/v1",
      enabled: true,
    },
  },
  {
    name: "provider-update-change-catalog",
    method: "PUT",
    path: `${A}/providers/{{prov_min}}`,
    body: {
      provider_id: "anthropic_api",
      name: "Anthropic",
      upstream_url: "https://api.anthropic.com",
      api_key: "sk-ant-replay-0004",
    },
  },
  {
    name: "provider-update-omitted-reset",
    method: "PUT",
    path: `${A}/providers/{{prov_gw}}`,
    body: { provider_id: "portkey", name: "Portkey", upstream_url: "https://api.portkey.ai" },
  },
  { name: "provider-get-after-updates", method: "GET", path: `${A}/providers/{{prov_min}}` },
  { name: "provider-delete-unknown", method: "DELETE", path: `${A}/providers/nope` },
  { name: "provider-delete-unused", method: "DELETE", path: `${A}/providers/{{prov_noprice}}` },
  { name: "provider-get-deleted", method: "GET", path: `${A}/providers/{{prov_noprice}}` },
  { name: "provider-post-bad-json", method: "POST", path: `${A}/providers`, raw: "[1," },

  // Guardrails.
  {
    name: "guardrail-create-no-name",
    method: "POST",
    path: `${A}/guardrails`,
    body: { checks: {} },
    names: ["name"],
  },
  {
    name: "guardrail-create-defaults",
    method: "POST",
    path: `${A}/guardrails`,
    body: { name: "defaults" },
    save: { gr_min: "id" },
  },
  {
    name: "guardrail-create-full",
    method: "POST",
    path: `${A}/guardrails`,
    body: {
      name: "production",
      description: "small models only, prompts captured with PII redacted",
      checks: {
        model_allowlist: { enabled: true, models: ["gpt-4o-mini", "claude-haiku-4-5"] },
        prompt_capture: { enabled: true, redact_pii: true },
      },
    },
    save: { gr_full: "id" },
  },
  {
    name: "guardrail-create-partial-checks",
    method: "POST",
    path: `${A}/guardrails`,
    body: { name: "partial", checks: { prompt_capture: { redact_pii: true } } },
    save: { gr_partial: "id" },
  },
  { name: "guardrail-get", method: "GET", path: `${A}/guardrails/{{gr_full}}` },
  { name: "guardrail-list", method: "GET", path: `${A}/guardrails` },
  {
    name: "guardrail-update",
    method: "PUT",
    path: `${A}/guardrails/{{gr_min}}`,
    body: {
      name: "defaults renamed",
      checks: { model_allowlist: { enabled: true, models: ["gpt-4o-mini"] } },
    },
  },
  {
    name: "guardrail-update-no-name",
    method: "PUT",
    path: `${A}/guardrails/{{gr_min}}`,
    body: { description: "x" },
    names: ["name"],
  },
  { name: "guardrail-get-unknown", method: "GET", path: `${A}/guardrails/nope` },
  { name: "guardrail-update-unknown", method: "PUT", path: `${A}/guardrails/nope`, body: { name: "x" } },
  { name: "guardrail-delete-unknown", method: "DELETE", path: `${A}/guardrails/nope` },
  { name: "guardrail-delete-unused", method: "DELETE", path: `${A}/guardrails/{{gr_partial}}` },

  // Policies: source groups to providers, with limits.
  {
    name: "policy-create-no-name",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, name: "" },
    names: ["name"],
  },
  {
    name: "policy-create-no-groups",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, source_groups: [] },
    names: ["source_groups"],
  },
  {
    name: "policy-create-no-providers",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, destination_provider_ids: [] },
    names: ["destination_provider_ids"],
  },
  {
    name: "policy-create-unknown-provider",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, destination_provider_ids: ["nope"] },
    names: ["destination_provider_ids"],
  },
  {
    name: "policy-create-unknown-group",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, source_groups: ["nogroup"] },
    save: { pol_badgroup: "id" },
    privnet: {
      status: 422,
      names: ["source_groups"],
      why: "a policy naming a group that does not exist refers to nothing; privnet-server refuses unknown ids everywhere",
    },
  },
  { name: "cleanup-policy-badgroup", setup: true, method: "DELETE", path: `${A}/policies/{{pol_badgroup}}` },
  {
    name: "policy-create-unknown-guardrail",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, guardrail_ids: ["noguard"] },
    save: { pol_badguard: "id" },
    privnet: { status: 422, names: ["guardrail_ids"], why: "unknown ids are refused" },
  },
  { name: "cleanup-policy-badguard", setup: true, method: "DELETE", path: `${A}/policies/{{pol_badguard}}` },
  {
    name: "policy-create-negative-group-cap",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, limits: tokenLimit(-1, 0, 3600) },
    names: ["limits.token_limit.group_cap"],
  },
  {
    name: "policy-create-negative-user-cap",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, limits: tokenLimit(100, -5, 3600) },
    names: ["limits.token_limit.user_cap"],
  },
  {
    name: "policy-create-negative-usd",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, limits: budgetLimit(-1, 0, 86400) },
    names: ["limits.budget_limit.group_cap_usd"],
  },
  {
    name: "policy-create-window-0",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, limits: tokenLimit(100, 0, 0) },
    names: ["limits.token_limit.window_seconds"],
  },
  {
    name: "policy-create-window-59",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, limits: tokenLimit(100, 0, 59) },
    names: ["limits.token_limit.window_seconds"],
  },
  {
    name: "policy-create-budget-window-0",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, limits: budgetLimit(50, 0, 0) },
    names: ["limits.budget_limit.window_seconds"],
  },
  {
    name: "policy-create-enabled-without-caps",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, limits: tokenLimit(0, 0, 3600) },
    names: ["limits.token_limit"],
  },
  {
    name: "policy-create-budget-without-caps",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, limits: budgetLimit(0, 0, 3600) },
    names: ["limits.budget_limit"],
  },
  {
    name: "policy-create-fractional-cap",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, limits: tokenLimit(1.5, 0, 3600) },
    privnet: {
      status: 422,
      names: ["limits.token_limit.group_cap"],
      why: "a value of the wrong type is a 422 naming the field",
    },
  },
  {
    name: "policy-create-disabled-negative",
    method: "POST",
    path: `${A}/policies`,
    body: { ...policyBase, name: "disabled limit", limits: tokenLimit(-100, 0, 0, false) },
    save: { pol_disneg: "id" },
  },
  {
    name: "policy-create-minimal",
    method: "POST",
    path: `${A}/policies`,
    body: policyBase,
    save: { pol_min: "id" },
  },
  {
    name: "policy-create-full",
    method: "POST",
    path: `${A}/policies`,
    body: {
      name: "engineering and contractors",
      description: "two groups, two providers, both caps",
      enabled: false,
      source_groups: ["{{g_eng}}", "{{g_con}}"],
      destination_provider_ids: ["{{prov_full}}", "{{prov_gw}}"],
      guardrail_ids: ["{{gr_full}}"],
      limits: { ...tokenLimit(2_000_000, 200_000, 86400), ...budgetLimit(50, 5.5, 86400) },
    },
    save: { pol_full: "id" },
  },
  { name: "policy-get", method: "GET", path: `${A}/policies/{{pol_full}}` },
  { name: "policy-list", method: "GET", path: `${A}/policies` },
  {
    name: "policy-update-omitted-reset",
    method: "PUT",
    path: `${A}/policies/{{pol_full}}`,
    body: {
      name: "engineering and contractors",
      source_groups: ["{{g_con}}"],
      destination_provider_ids: ["{{prov_gw}}"],
    },
  },
  {
    name: "policy-update-unknown-provider",
    method: "PUT",
    path: `${A}/policies/{{pol_full}}`,
    body: { ...policyBase, destination_provider_ids: ["nope"] },
    names: ["destination_provider_ids"],
  },
  {
    name: "policy-update-no-groups",
    method: "PUT",
    path: `${A}/policies/{{pol_full}}`,
    body: { ...policyBase, source_groups: [] },
    names: ["source_groups"],
  },
  { name: "policy-update-unknown", method: "PUT", path: `${A}/policies/nope`, body: policyBase },
  { name: "policy-get-unknown", method: "GET", path: `${A}/policies/nope` },
  { name: "policy-delete-unknown", method: "DELETE", path: `${A}/policies/nope` },
  {
    name: "policy-update-restore",
    method: "PUT",
    path: `${A}/policies/{{pol_full}}`,
    body: {
      name: "engineering and contractors",
      enabled: true,
      source_groups: ["{{g_eng}}", "{{g_con}}"],
      destination_provider_ids: ["{{prov_full}}"],
      guardrail_ids: ["{{gr_full}}"],
      limits: tokenLimit(2_000_000, 200_000, 86400),
    },
  },

  // Budget rules: account-wide caps for target groups and users.
  {
    name: "budget-create-no-name",
    method: "POST",
    path: `${A}/budget-rules`,
    body: { limits: budgetLimit(100, 0, 86400) },
    names: ["name"],
  },
  {
    name: "budget-create-minimal",
    method: "POST",
    path: `${A}/budget-rules`,
    body: { name: "no limits" },
    save: { bud_min: "id" },
  },
  {
    name: "budget-create-full",
    method: "POST",
    path: `${A}/budget-rules`,
    body: {
      name: "contractors daily",
      enabled: true,
      target_groups: ["{{g_con}}", "{{g_bud}}"],
      target_users: ["{{u_user}}"],
      limits: { ...tokenLimit(500_000, 0, 86400), ...budgetLimit(100, 10, 86400) },
    },
    save: { bud_full: "id" },
  },
  {
    name: "budget-create-negative",
    method: "POST",
    path: `${A}/budget-rules`,
    body: { name: "b", limits: budgetLimit(0, -3, 86400) },
    names: ["limits.budget_limit.user_cap_usd"],
  },
  {
    name: "budget-create-window-0",
    method: "POST",
    path: `${A}/budget-rules`,
    body: { name: "b", limits: tokenLimit(1000, 0, 0) },
    names: ["limits.token_limit.window_seconds"],
  },
  {
    name: "budget-create-unknown-group",
    method: "POST",
    path: `${A}/budget-rules`,
    body: { name: "b", target_groups: ["nogroup"], limits: budgetLimit(1, 0, 86400) },
    save: { bud_badgroup: "id" },
    privnet: { status: 422, names: ["target_groups"], why: "unknown ids are refused" },
  },
  {
    name: "cleanup-budget-badgroup",
    setup: true,
    method: "DELETE",
    path: `${A}/budget-rules/{{bud_badgroup}}`,
  },
  {
    name: "budget-create-unknown-user",
    method: "POST",
    path: `${A}/budget-rules`,
    body: { name: "b", target_users: ["nouser"], limits: budgetLimit(1, 0, 86400) },
    save: { bud_baduser: "id" },
    privnet: { status: 422, names: ["target_users"], why: "unknown ids are refused" },
  },
  {
    name: "cleanup-budget-baduser",
    setup: true,
    method: "DELETE",
    path: `${A}/budget-rules/{{bud_baduser}}`,
  },
  { name: "budget-get", method: "GET", path: `${A}/budget-rules/{{bud_full}}` },
  { name: "budget-list", method: "GET", path: `${A}/budget-rules` },
  {
    name: "budget-update-omitted-reset",
    method: "PUT",
    path: `${A}/budget-rules/{{bud_min}}`,
    body: { name: "renamed", limits: budgetLimit(20, 0, 3600) },
  },
  {
    name: "budget-update-no-name",
    method: "PUT",
    path: `${A}/budget-rules/{{bud_min}}`,
    body: { limits: {} },
    names: ["name"],
  },
  { name: "budget-get-unknown", method: "GET", path: `${A}/budget-rules/nope` },
  { name: "budget-update-unknown", method: "PUT", path: `${A}/budget-rules/nope`, body: { name: "x" } },
  { name: "budget-delete-unknown", method: "DELETE", path: `${A}/budget-rules/nope` },

  // What uses what.
  {
    name: "provider-delete-in-use",
    method: "DELETE",
    path: `${A}/providers/{{prov_full}}`,
    names: ["polic"],
  },
  {
    name: "group-delete-in-policy",
    method: "DELETE",
    path: "/api/groups/{{g_eng}}",
    names: ["agent network policy"],
  },
  {
    name: "group-delete-in-budget-rule",
    method: "DELETE",
    path: "/api/groups/{{g_bud}}",
    privnet: {
      status: 400,
      names: ["agent network budget rule"],
      why: "the rule would name a group that no longer exists; a group in use is refused as for every other use",
    },
  },
  { name: "budget-get-after-group-delete", method: "GET", path: `${A}/budget-rules/{{bud_full}}` },
  { name: "settings-delete-with-providers", method: "DELETE", path: `${A}/settings`, names: ["provider"] },

  // Roles below admin (regular users, made before the sequence starts: see runSequence).
  ...roleSteps("user"),
  ...roleSteps("auditor"),
  ...roleSteps("network_admin"),

  // Taking it all down.
  {
    name: "guardrail-delete-in-use",
    method: "DELETE",
    path: `${A}/guardrails/{{gr_full}}`,
    privnet: {
      status: 412,
      names: ["agent network policy"],
      why: "deleting a guardrail a policy names would leave the policy naming nothing",
    },
  },
  { name: "policy-get-after-guardrail-delete", method: "GET", path: `${A}/policies/{{pol_full}}` },
  { name: "policy-delete", method: "DELETE", path: `${A}/policies/{{pol_full}}` },
  { name: "policy-get-deleted", method: "GET", path: `${A}/policies/{{pol_full}}` },
  { name: "cleanup-policy-min", setup: true, method: "DELETE", path: `${A}/policies/{{pol_min}}` },
  { name: "cleanup-policy-disneg", setup: true, method: "DELETE", path: `${A}/policies/{{pol_disneg}}` },
  { name: "budget-delete", method: "DELETE", path: `${A}/budget-rules/{{bud_full}}` },
  { name: "budget-get-deleted", method: "GET", path: `${A}/budget-rules/{{bud_full}}` },
  { name: "cleanup-budget-min", setup: true, method: "DELETE", path: `${A}/budget-rules/{{bud_min}}` },
  { name: "guardrail-delete", method: "DELETE", path: `${A}/guardrails/{{gr_min}}` },
  { name: "cleanup-guardrail-full", setup: true, method: "DELETE", path: `${A}/guardrails/{{gr_full}}` },
  { name: "provider-delete", method: "DELETE", path: `${A}/providers/{{prov_full}}` },
  { name: "cleanup-provider-min", setup: true, method: "DELETE", path: `${A}/providers/{{prov_min}}` },
  { name: "cleanup-provider-gw", setup: true, method: "DELETE", path: `${A}/providers/{{prov_gw}}` },
  { name: "settings-delete", method: "DELETE", path: `${A}/settings` },
  ...READS.map(([what, path]): Step => ({
    name: `final-read-${what}`,
    method: "GET",
    path,
    ...(what === "catalog" ? { ignore: ["description", "models"] } : {}),
  })),
  { name: "cleanup-group-engineering", setup: true, method: "DELETE", path: "/api/groups/{{g_eng}}" },
  { name: "cleanup-group-contractors", setup: true, method: "DELETE", path: "/api/groups/{{g_con}}" },
  { name: "cleanup-group-budget", setup: true, method: "DELETE", path: "/api/groups/{{g_bud}}" },
];

/** One answer as recorded: the status and the body, normalised. */
export interface RecordedAnswer {
  name: string;
  method: Method;
  path: string;
  status: number;
  body: unknown;
}

export interface Recording {
  /** Which server answered, and when. */
  server: string;
  recorded: string;
  answers: RecordedAnswer[];
}

/** How the sequence gets a credential for a regular user of a role (see ./reference-login.ts for the reference). */
export type Login = (
  email: string,
  password: string | undefined,
  userId: string,
) => Promise<string | undefined>;

const TIME_KEYS = new Set(["created_at", "updated_at", "timestamp", "window_start_utc"]);

/** Fills `{{var}}` placeholders in a path or in every string of a body. */
export function fill(value: unknown, vars: Map<string, string>): unknown {
  if (typeof value === "string")
    return value.replace(/\{\{(\w+)\}\}/g, (m, name: string) => {
      const v = vars.get(name);
      if (v === undefined) throw new Error(`sequence: ${m} is not set yet`);
      return v;
    });
  if (Array.isArray(value)) return value.map((v) => fill(v, vars));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, fill(v, vars)]),
    );
  return value;
}

/**
 * An answer in comparable form: saved values (the ids of what the sequence made, the endpoint the server
 * allocated) become `{{name}}` wherever they appear, times `<time>`; members named in `ignore` go.
 */
export function normalise(
  value: unknown,
  vars: Map<string, string>,
  ignore: readonly string[] = [],
): unknown {
  const known = [...vars.entries()]
    .filter(([, v]) => v.length >= 3)
    .sort((a, b) => b[1].length - a[1].length);
  const text = (s: string) => known.reduce((acc, [name, v]) => acc.split(v).join(`{{${name}}}`), s);
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === "string") {
      if (key && TIME_KEYS.has(key) && !Number.isNaN(Date.parse(v))) return "<time>";
      return text(v);
    }
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === "object")
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => !ignore.includes(k))
          .map(([k, x]) => [k, walk(x, k)]),
      );
    return v;
  };
  return walk(value);
}

function pick(body: unknown, field: string): string | undefined {
  let v: unknown = body;
  for (const part of field.split("."))
    v = v && typeof v === "object" ? (v as Record<string, unknown>)[part] : undefined;
  return typeof v === "string" || typeof v === "number" ? String(v) : undefined;
}

async function send(url: string, auth: string, method: string, path: string, body?: string) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { Authorization: auth, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    // a plain-text answer stays text
  }
  return { status: res.status, body: parsed };
}

/** The regular users the sequence acts as, one per role below admin. */
const ROLES: Exclude<Actor, "owner">[] = ["user", "auditor", "network_admin"];

/**
 * Runs the sequence against a server (its URL and an owner's personal access token) and returns every answer,
 * normalised. Users of the roles below admin are made first (regular users, as a person would be): `login`
 * turns one into a credential, an `Authorization` header value; the default mints a personal access token as
 * the owner, which privnet-server allows and the reference does not (it needs ./reference-login.ts).
 */
export async function runSequence(
  url: string,
  ownerToken: string,
  opts: { login?: Login; steps?: readonly Step[] } = {},
): Promise<RecordedAnswer[]> {
  const owner = `Token ${ownerToken}`;
  const vars = new Map<string, string>();
  const auth: Record<Actor, string> = { owner, user: "", auditor: "", network_admin: "" };
  const users: string[] = [];
  const stamp = Date.now().toString(36);
  const mintToken: Login = async (_email, _password, userId) => {
    const r = await send(
      url,
      owner,
      "POST",
      `/api/users/${encodeURIComponent(userId)}/tokens`,
      JSON.stringify({ name: "replay", expires_in: 1 }),
    );
    return r.status === 200 ? `Token ${(r.body as { plain_token: string }).plain_token}` : undefined;
  };
  try {
    for (const role of ROLES) {
      const email = `an-${role.replace("_", "-")}-${stamp}@example.com`;
      const made = await send(
        url,
        owner,
        "POST",
        "/api/users",
        JSON.stringify({
          email,
          name: `an ${role}`,
          role,
          auto_groups: [],
          is_service_user: false,
        }),
      );
      if (made.status !== 200)
        throw new Error(
          `sequence: could not make a ${role} user: ${made.status} ${JSON.stringify(made.body)}`,
        );
      const u = made.body as { id: string; password?: string };
      users.push(u.id);
      vars.set(`u_${role}`, u.id);
      const credential =
        (await mintToken(email, u.password, u.id)) ?? (await opts.login?.(email, u.password, u.id));
      if (!credential)
        throw new Error(`sequence: no credential for the ${role} user (neither a token nor a login)`);
      auth[role] = credential;
    }
    const answers: RecordedAnswer[] = [];
    for (const step of opts.steps ?? SEQUENCE) {
      // A clean-up of what a deliberately different server did not make has nothing to clean.
      if (step.setup && [...`${step.path}`.matchAll(/\{\{(\w+)\}\}/g)].some((m) => !vars.has(m[1]!))) {
        answers.push({ name: step.name, method: step.method, path: step.path, status: 0, body: "skipped" });
        continue;
      }
      const path = fill(step.path, vars) as string;
      const body = step.raw ?? (step.body === undefined ? undefined : JSON.stringify(fill(step.body, vars)));
      const r = await send(url, auth[step.as ?? "owner"], step.method, path, body);
      if (r.status === 200 && step.save)
        for (const [name, field] of Object.entries(step.save)) {
          const v = pick(r.body, field);
          if (v !== undefined) vars.set(name, v);
        }
      answers.push({
        name: step.name,
        method: step.method,
        path: step.path,
        status: r.status,
        body: normalise(r.body, vars, step.ignore),
      });
    }
    return answers;
  } finally {
    for (const id of users) await send(url, owner, "DELETE", `/api/users/${encodeURIComponent(id)}`);
  }
}

const messageOf = (body: unknown) =>
  body && typeof body === "object" && typeof (body as { message?: unknown }).message === "string"
    ? (body as { message: string }).message
    : JSON.stringify(body);

/**
 * What differs between a step's expected answer and the actual one; empty when they agree. `flavour` says which
 * answer counts where privnet-server deliberately differs: `privnet` expects its own, `reference` the recorded
 * one, `either` accepts both (a live server of unknown make).
 */
export function compareAnswer(
  step: Step,
  expected: RecordedAnswer,
  actual: RecordedAnswer,
  flavour: "privnet" | "reference" | "either",
): string[] {
  const problems = (want: { status: number; names?: string[]; body?: unknown; compareBody: boolean }) => {
    const out: string[] = [];
    if (actual.status !== want.status) {
      out.push(`status ${actual.status}, want ${want.status} (${messageOf(actual.body)})`);
      return out;
    }
    if (actual.status >= 400) {
      const message = messageOf(actual.body).toLowerCase();
      for (const n of want.names ?? [])
        if (!message.includes(n.toLowerCase()))
          out.push(`the message does not name ${n}: ${messageOf(actual.body)}`);
    } else if (
      want.compareBody &&
      JSON.stringify(sortKeys(actual.body)) !== JSON.stringify(sortKeys(want.body))
    ) {
      out.push(
        `body ${JSON.stringify(sortKeys(actual.body))}\n  want ${JSON.stringify(sortKeys(want.body))}`,
      );
    }
    return out;
  };
  // A prerequisite or a clean-up: whether it worked shows in the steps after it; it must not fail the server.
  if (step.setup) return actual.status >= 500 ? [`status ${actual.status}: ${messageOf(actual.body)}`] : [];
  const asRecorded = problems({
    status: expected.status,
    names: step.names,
    body: expected.body,
    compareBody: !step.setup,
  });
  if (!step.privnet || flavour === "reference") return asRecorded;
  const asPrivnet = problems({ status: step.privnet.status, names: step.privnet.names, compareBody: false });
  if (flavour === "privnet") return asPrivnet;
  return asRecorded.length && asPrivnet.length
    ? [...asRecorded, "nor privnet-server's answer:", ...asPrivnet]
    : [];
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}
