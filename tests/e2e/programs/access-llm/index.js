"use strict";
// A program whose stack config decides LLM use through the account's Agent Network gateway, so that a test changes
// the config and compares what the access guard, privnet-access diff, show and test say about the change
// (tests/e2e/access-guard-llm.test.ts).
//   ids           the account's group ids (laptops, admins)
//   proxyAddress  the cluster the gateway is bootstrapped under
//   openaiKey     (secret) the OpenAI provider's API key
//   laptopsCap    the dollars per day per group of policy "laptops openai" (default 50)
//   adminsClaude  when true, a provider "Claude" and a policy letting admins use it, uncapped
//   ceiling       when set, a budget rule capping laptops at this many dollars a day
const pulumi = require("@pulumi/pulumi");
const privnet = require("pulumi-privnet");

const config = new pulumi.Config();
const ids = config.requireObject("ids");
const day = (usd) => ({
  tokenLimit: { enabled: false, groupCap: 0, userCap: 0, windowSeconds: 0 },
  budgetLimit: { enabled: true, groupCapUsd: usd, userCapUsd: 0, windowSeconds: 86400 },
});

const gateway = new privnet.AgentNetworkSettings("gateway", { proxyAddress: config.require("proxyAddress") });
const openai = new privnet.AgentNetworkProvider(
  "openai",
  {
    providerId: "openai_api",
    name: "OpenAI API",
    upstreamUrl: "https://api.openai.com",
    apiKey: config.requireSecret("openaiKey"),
    enabled: true,
    models: [
      { id: "gpt-4o-mini", inputPer1k: 0.00015, outputPer1k: 0.0006 },
      { id: "gpt-4o", inputPer1k: 0.0025, outputPer1k: 0.01 },
    ],
  },
  { dependsOn: [gateway] },
);
new privnet.AgentNetworkPolicy("laptops", {
  name: "laptops openai",
  sourceGroups: [ids.laptops],
  destinationProviderIds: [openai.id],
  limits: day(config.getNumber("laptopsCap") ?? 50),
});
if (config.getBoolean("adminsClaude")) {
  const claude = new privnet.AgentNetworkProvider(
    "claude",
    {
      providerId: "anthropic_api",
      name: "Claude",
      upstreamUrl: "https://api.anthropic.com",
      apiKey: config.requireSecret("openaiKey"),
      enabled: true,
      models: [{ id: "claude-haiku-4-5", inputPer1k: 0.001, outputPer1k: 0.005 }],
    },
    { dependsOn: [gateway] },
  );
  new privnet.AgentNetworkPolicy("admins", {
    name: "admins claude",
    sourceGroups: [ids.admins],
    destinationProviderIds: [claude.id],
  });
}
const ceiling = config.getNumber("ceiling");
if (ceiling !== undefined)
  new privnet.AgentNetworkBudgetRule("ceiling", {
    name: "laptops ceiling",
    targetGroups: [ids.laptops],
    limits: day(ceiling),
  });
