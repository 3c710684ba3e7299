/**
 * The access guard and LLM use through the Agent Network gateway (access/llm.ts): the stack's planned Agent
 * Network resources mapped by the provider's own specs onto the account read now, the `+ llm:` / `- llm:` lines of
 * access-changes, and LLM tests of access-tests failing on the stack's resource of the policy or budget rule
 * responsible.
 */
import type { LiveObjects } from "../../access/live";
import { parseTests } from "../../access/expectations";
import { llmDiffLines } from "../../access/llm";
import { UNKNOWN } from "../../model/mapping";
import { Guard, type Analysis } from "../../policy/analysis";
import { accessChangeViolations, accessTestViolations } from "../../policy/checks";
import type { Listed } from "../../provider/spec";

import { resource, T, urn } from "../support/guard-stack";
const listed = (id: string, object: Record<string, unknown>): Listed => ({
  id,
  object: { id, ...object },
  parents: {},
});

const OFF = {
  token_limit: { enabled: false, group_cap: 0, user_cap: 0, window_seconds: 0 },
  budget_limit: { enabled: false, group_cap_usd: 0, user_cap_usd: 0, window_seconds: 0 },
};

/** The account now: engineering (laptop-1) uses OpenAI under a policy; contractors (laptop-2) nothing. */
function live(endpoint = "gw.proxy.example.test"): Map<string, Listed[]> {
  const peer = (id: string) => listed(id, { name: id, ip: `100.64.0.${id.slice(-1)}`, dns_label: id });
  const group = (id: string, name: string, peers: string[]) =>
    listed(id, { name, peers: peers.map((p) => ({ id: p, name: p })), resources: [] });
  return new Map<string, Listed[]>([
    ["AccountSettings", [listed("acc", { peer_login_expiration_enabled: false })]],
    ["Peer", [peer("laptop-1"), peer("laptop-2")]],
    [
      "Group",
      [
        group("g0-all", "All", ["laptop-1", "laptop-2"]),
        group("g1-eng", "engineering", ["laptop-1"]),
        group("g2-con", "contractors", ["laptop-2"]),
      ],
    ],
    [
      "AgentNetworkSettings",
      [
        {
          id: "agent-network-settings",
          object: { endpoint, proxy_address: "proxy.example.test" },
          parents: {},
        },
      ],
    ],
    [
      "AgentNetworkProvider",
      [
        listed("prov-openai", {
          name: "OpenAI API",
          provider_id: "openai_api",
          enabled: true,
          models: [{ id: "gpt-4o-mini", input_per_1k: 0.00015, output_per_1k: 0.0006 }],
          created_at: "2026-04-01T00:00:00Z",
        }),
      ],
    ],
    [
      "AgentNetworkPolicy",
      [
        listed("pol-eng", {
          name: "eng openai",
          enabled: true,
          source_groups: ["g1-eng"],
          destination_provider_ids: ["prov-openai"],
          guardrail_ids: [],
          limits: {
            ...OFF,
            budget_limit: { enabled: true, group_cap_usd: 50, user_cap_usd: 0, window_seconds: 86400 },
          },
        }),
      ],
    ],
    ["AgentNetworkGuardrail", []],
    ["AgentNetworkBudgetRule", []],
  ]);
}

/** The stack's state: it holds the policy "eng openai" and the provider. */
function state(
  extra: { urn: string; type: string; id: string; outputs: Record<string, unknown> }[] = [],
): string {
  const resources = [
    {
      urn: urn("AgentNetworkPolicy", "eng"),
      type: `${T}AgentNetworkPolicy`,
      id: "pol-eng",
      outputs: { __kind: "AgentNetworkPolicy", ...engPolicy().props },
    },
    {
      urn: urn("AgentNetworkProvider", "openai"),
      type: `${T}AgentNetworkProvider`,
      id: "prov-openai",
      outputs: { __kind: "AgentNetworkProvider", ...openai().props },
    },
    ...extra,
  ];
  return JSON.stringify({ version: 3, deployment: { resources } });
}

const budget = (usd: number, window = 86400) => ({
  tokenLimit: { enabled: false, groupCap: 0, userCap: 0, windowSeconds: 0 },
  budgetLimit: { enabled: true, groupCapUsd: usd, userCapUsd: 0, windowSeconds: window },
});

const engPolicy = (over: Record<string, unknown> = {}) =>
  resource("AgentNetworkPolicy", "eng", {
    name: "eng openai",
    enabled: true,
    sourceGroups: ["g1-eng"],
    destinationProviderIds: ["prov-openai"],
    guardrailIds: [],
    limits: budget(50),
    ...over,
  });

const openai = () =>
  resource("AgentNetworkProvider", "openai", {
    providerId: "openai_api",
    name: "OpenAI API",
    upstreamUrl: "https://api.openai.com",
    apiKey: "sk-guard-test-secret",
    enabled: true,
    models: [{ id: "gpt-4o-mini", inputPer1k: 0.00015, outputPer1k: 0.0006 }],
  });

function guard(objects = live(), stateText = state()): Guard {
  return new Guard({
    env: {
      PULUMI_NODEJS_STACK: "dev",
      PULUMI_NODEJS_PROJECT: "proj",
      PULUMI_NODEJS_DRY_RUN: "true",
      PRIVNET_TOKEN: "t0k",
    },
    now: () => Date.parse("2026-05-01T12:00:00Z"),
    readLive: async (): Promise<LiveObjects> => ({ objects, users: new Map(), requests: 0 }),
    exportState: async () => stateText,
  });
}

const llmLines = (a: Analysis) => llmDiffLines(a.diff.llm);

const TESTS = parseTests(
  `
tests:
  - {name: contractors never use openai, from: {group: contractors}, llm: openai, expect: never}
  - {name: no group above $100 a day, from: {every: group}, llm: any, expect: at-most, usd: 100, per: day}
`,
  "llm.yaml",
);

test("an unchanged stack changes no LLM use", async () => {
  const a = await guard().analyze([engPolicy(), openai()], {});
  expect(llmLines(a)).toEqual([]);
  expect(accessChangeViolations(a)).toEqual([]);
  expect(accessTestViolations(a, TESTS, "llm.yaml")).toEqual([]);
});

test("a cap raised: - and + llm lines; a test the new cap breaks fails on the policy's resource", async () => {
  const a = await guard().analyze([engPolicy({ limits: budget(150) }), openai()], {});
  expect(llmLines(a)).toEqual([
    '+ llm: engineering → OpenAI API (gpt-4o-mini) $150/day per group (policy "eng openai")',
    '- llm: engineering → OpenAI API (gpt-4o-mini) $50/day per group (policy "eng openai")',
  ]);
  expect(accessChangeViolations(a)[0]?.message).toContain(
    "LLM use through the Agent Network gateway: 1 gained, 1 lost",
  );
  const v = accessTestViolations(a, TESTS, "llm.yaml");
  expect(v).toHaveLength(1);
  expect(v[0]?.urn).toBe(urn("AgentNetworkPolicy", "eng"));
  expect(v[0]?.message).toContain(
    "FAIL no group above $100 a day (expect at-most, 4 callers) after this change",
  );
  expect(v[0]?.message).toContain(
    'group engineering may use up to $150 per day, above $100: $150/day per group (policy "eng openai")',
  );
  expect(v[0]?.message).toContain('responsible: policy "eng openai"');
  expect(v[0]?.message).not.toContain("sk-guard-test-secret");
});

test("a new policy naming a new provider (an id unknown at preview) grants contractors: the never test fails on it", async () => {
  const claude = resource("AgentNetworkProvider", "claude", {
    providerId: "openai_api",
    name: "Second OpenAI",
    upstreamUrl: "https://gw.example.test",
    apiKey: "sk-2",
    enabled: true,
    models: [{ id: "gpt-4.1", inputPer1k: 0.001, outputPer1k: 0.002 }],
  });
  const con = resource(
    "AgentNetworkPolicy",
    "con",
    {
      name: "contractors",
      enabled: true,
      sourceGroups: ["g2-con"],
      destinationProviderIds: [UNKNOWN],
      guardrailIds: [],
      limits: budget(20),
    },
    { destinationProviderIds: [claude.urn] },
  );
  const a = await guard().analyze([engPolicy(), openai(), claude, con], {});
  expect(a.result.undecided).toEqual([]);
  expect(llmLines(a)).toEqual([
    '+ llm: contractors → Second OpenAI (gpt-4.1) $20/day per group (policy "contractors")',
  ]);
  const v = accessTestViolations(a, TESTS, "llm.yaml");
  expect(v.map((x) => x.urn)).toEqual([urn("AgentNetworkPolicy", "con")]);
  expect(v[0]?.message).toContain("FAIL contractors never use openai");
  expect(v[0]?.message).toContain('may use Second OpenAI (gpt-4.1) through policy "contractors"');
});

test("a budget rule bounds the group whose policy cap is raised: the at-most test passes", async () => {
  const rule = resource("AgentNetworkBudgetRule", "ceiling", {
    name: "eng ceiling",
    enabled: true,
    targetGroups: ["g1-eng"],
    targetUsers: [],
    limits: budget(90),
  });
  const a = await guard().analyze([engPolicy({ limits: budget(150) }), openai(), rule], {});
  expect(llmLines(a)).toContain('+ llm: budget rule "eng ceiling": groups engineering: $90/day per group');
  expect(accessTestViolations(a, TESTS, "llm.yaml")).toEqual([]);
});

test("the gateway bootstrapped in the same change: grants hold (endpoint known after apply); released: all lost", async () => {
  const objects = live("");
  const settings = resource("AgentNetworkSettings", "gw", { proxyAddress: "proxy.example.test" });
  const a = await guard(objects).analyze([settings, engPolicy(), openai()], {});
  expect(llmLines(a)).toEqual([
    '+ llm: engineering → OpenAI API (gpt-4o-mini) $50/day per group (policy "eng openai")',
  ]);
  const bootstrapped = state([
    {
      urn: urn("AgentNetworkSettings", "gw"),
      type: `${T}AgentNetworkSettings`,
      id: "agent-network-settings",
      outputs: {
        __kind: "AgentNetworkSettings",
        proxyAddress: "proxy.example.test",
        bootstrappedByResource: true,
      },
    },
  ]);
  const gone = await guard(live(), bootstrapped).analyze([engPolicy(), openai()], {});
  expect(llmLines(gone)).toEqual([
    '- llm: engineering → OpenAI API (gpt-4o-mini) $50/day per group (policy "eng openai")',
  ]);
  expect(gone.diff.llm.endpoint).toEqual({ before: "gw.proxy.example.test", after: "" });
});

test("a policy whose source group is one of two new groups holding peers: LLM tests are undecided, reach tests not", async () => {
  const g1 = resource("Group", "a", { name: "a", peers: ["laptop-1"] });
  const g2 = resource("Group", "b", { name: "b", peers: ["laptop-2"] });
  const p = resource(
    "AgentNetworkPolicy",
    "new",
    {
      name: "new",
      enabled: true,
      sourceGroups: [UNKNOWN],
      destinationProviderIds: ["prov-openai"],
      guardrailIds: [],
      limits: budget(10),
    },
    { sourceGroups: [g1.urn, g2.urn] },
  );
  const a = await guard().analyze([engPolicy(), openai(), g1, g2, p], {});
  expect(a.result.undecided.map((u) => [u.llm, u.message])).toEqual([
    [
      true,
      'AgentNetworkPolicy "new": sourceGroups[0] is one of 2 objects this change creates (Group "a", Group "b")',
    ],
  ]);
  const v = accessTestViolations(a, TESTS, "llm.yaml");
  expect(v.map((x) => x.message.split("\n")[0])).toEqual([
    "UNDECIDED contractors never use openai (expect never, 2 callers): cannot be decided before apply; with what is known it would pass. Unknown until apply:",
    "UNDECIDED no group above $100 a day (expect at-most, 8 callers): cannot be decided before apply; with what is known it would pass. Unknown until apply:",
  ]);
});
