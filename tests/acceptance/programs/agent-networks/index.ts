// Every Agent Network kind and its lookups, in two stages: stage 2 changes every resource in place (the
// provider's API key rotated too). With `adopt` (a JSON map of ids), the resources adopt those objects instead
// of creating new ones (the settings adopt the account's by their address).
//
// Config: prefix (names), proxyAddress (the gateway's cluster address), apiKey (secret), stage (1 or 2),
// adopt (optional).
import * as pulumi from "@pulumi/pulumi";
import * as privnet from "pulumi-privnet";

const config = new pulumi.Config();
const two = config.getNumber("stage") === 2;
const adopt = config.getObject<Record<string, string>>("adopt") ?? {};
const prefix = config.require("prefix");

const engineering = new privnet.Group("engineering", { adoptId: adopt.group, name: `${prefix}-engineering` });

const gateway = new privnet.AgentNetworkSettings("gateway", {
  proxyAddress: config.require("proxyAddress"),
  enableLogCollection: true,
  redactPii: two,
  accessLogRetentionDays: two ? 7 : 30,
});

// Providers need the settings to outlive them: the service refuses to release settings while providers exist.
const openai = new privnet.AgentNetworkProvider(
  "openai",
  {
    adoptId: adopt.provider,
    providerId: "openai_api",
    name: two ? `${prefix} OpenAI (production)` : `${prefix} OpenAI`,
    upstreamUrl: "https://api.openai.com",
    apiKey: config.requireSecret("apiKey"),
    enabled: true,
    models: two
      ? [
          { id: "gpt-4o-mini", inputPer1k: 0.00015, outputPer1k: 0.0006 },
          { id: "gpt-4o", inputPer1k: 0.0025, outputPer1k: 0.01, cachedInputPer1k: 0.00125 },
        ]
      : [{ id: "gpt-4o-mini", inputPer1k: 0.00015, outputPer1k: 0.0006 }],
  },
  { dependsOn: [gateway] },
);

const small = new privnet.AgentNetworkGuardrail("small", {
  adoptId: adopt.guardrail,
  name: `${prefix} small models`,
  description: two ? "small models, prompts captured without personal data" : undefined,
  checks: {
    modelAllowlist: { enabled: true, models: two ? ["gpt-4o-mini", "gpt-4o"] : ["gpt-4o-mini"] },
    promptCapture: two ? { enabled: true, redactPii: true } : undefined,
  },
});

const policy = new privnet.AgentNetworkPolicy("engineering-openai", {
  adoptId: adopt.policy,
  name: `${prefix} engineering to openai`,
  sourceGroups: [engineering.id],
  destinationProviderIds: [openai.id],
  guardrailIds: [small.id],
  limits: {
    tokenLimit: { enabled: true, groupCap: 0, userCap: two ? 1_000_000 : 2_000_000, windowSeconds: 86400 },
    budgetLimit: two ? { enabled: true, groupCapUsd: 50, userCapUsd: 0, windowSeconds: 86400 } : undefined,
  },
});

const budget = new privnet.AgentNetworkBudgetRule("daily", {
  adoptId: adopt.budget,
  name: `${prefix} daily ceiling`,
  enabled: !two,
  targetGroups: [engineering.id],
  limits: {
    budgetLimit: { enabled: true, groupCapUsd: two ? 80 : 100, userCapUsd: 0, windowSeconds: 86400 },
  },
});

// The lookups: the catalog's defaults, the settings, the objects read back, and the reads of usage.
const catalog = privnet.getAgentNetworkCatalogProviderOutput("openai_api");
export const catalogHost = catalog.defaultHost;
export const catalogModels = catalog.models.apply((m) => m.length);
export const endpoint = gateway.endpoint;
// Lookups without inputs run at once: these wait for the objects they should find.
export const settingsEndpoint = gateway.endpoint.apply(
  async () => (await privnet.getAgentNetworkSettings()).endpoint,
);
export const policyName = privnet.getAgentNetworkPolicyOutput({ id: policy.id }).name;
export const providerNames = pulumi
  .all([openai.id, policy.id])
  .apply(async () => (await privnet.getAgentNetworkProviders()).map((p) => p.name).sort());
export const consumption = privnet.getAgentNetworkConsumptionOutput().apply((c) => c.length);
export const usageBuckets = privnet
  .getAgentNetworkUsageOutput({ granularity: "month" })
  .apply((u) => u.length);
export const accessLogRecords = privnet.getAgentNetworkAccessLogsOutput({ pageSize: 10 }).totalRecords;
export const ids = {
  group: engineering.id,
  provider: openai.id,
  guardrail: small.id,
  policy: policy.id,
  budget: budget.id,
};
