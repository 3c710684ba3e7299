/**
 * Accounts with an Agent Network for the LLM-access tests: two peers in two groups (ids sorted as the reference
 * mints them: All oldest, then `allowed`, then `denied`), the providers, policies, guardrails and budget rules of
 * the reference runs of docs/llm-access.md, and a replay of requests through the module's decide and record.
 */
import {
  decideLlmRequest,
  peerCaller,
  priceOf,
  recordLlmUsage,
  type AccountSnapshot,
  type LlmCounter,
  type LlmDecision,
  type SnapshotLlmBudgetRule,
  type SnapshotLlmLimits,
  type SnapshotLlmPolicy,
  type SnapshotLlmProvider,
} from "../../netmap";
import { Account, NOW } from "./netmap-account";

export const ALL = "c0all";
export const GA = "c1allowed";
export const GB = "c2denied";

export function limits(
  tok?: [group: number, user: number, window: number],
  bud?: [group: number, user: number, window: number],
): SnapshotLlmLimits {
  return {
    token_limit: tok
      ? { enabled: true, group_cap: tok[0], user_cap: tok[1], window_seconds: tok[2] }
      : { enabled: false, group_cap: 0, user_cap: 0, window_seconds: 0 },
    budget_limit: bud
      ? { enabled: true, group_cap_usd: bud[0], user_cap_usd: bud[1], window_seconds: bud[2] }
      : { enabled: false, group_cap_usd: 0, user_cap_usd: 0, window_seconds: 0 },
  };
}

const at = (n: number) => new Date(NOW - 86400_000 + n * 1000).toISOString();

export const X: SnapshotLlmProvider = {
  id: "prov-x",
  name: "stand-in openai",
  provider_id: "openai_api",
  enabled: true,
  models: [
    { id: "gpt-4o-mini", input_per_1k: 0.01, output_per_1k: 0.02 },
    { id: "gpt-4o", input_per_1k: 0.1, output_per_1k: 0.2 },
  ],
  created_at: at(1),
};
export const Y: SnapshotLlmProvider = {
  id: "prov-y",
  name: "second openai",
  provider_id: "openai_api",
  enabled: true,
  models: [
    { id: "gpt-4.1", input_per_1k: 0.001, output_per_1k: 0.002 },
    { id: "gpt-4o-mini", input_per_1k: 0.003, output_per_1k: 0.004 },
  ],
  created_at: at(2),
};
export const Z: SnapshotLlmProvider = {
  id: "prov-z",
  name: "self-hosted",
  provider_id: "custom",
  enabled: true,
  models: [],
  created_at: at(3),
};

/** An account whose gateway is bootstrapped, with peer A in `allowed` and peer B in `denied`. */
export class LlmAccount extends Account {
  private t = 10;
  constructor() {
    super();
    this.s.groups = [{ id: ALL, name: "All", peers: [], resources: [], all: true }];
    this.peer("llm-agent-A", { id: "peer-a" });
    this.peer("llm-agent-B", { id: "peer-b" });
    this.s.groups.push({ id: GA, name: "allowed", peers: ["peer-a"], resources: [] });
    this.s.groups.push({ id: GB, name: "denied", peers: ["peer-b"], resources: [] });
    this.s.agent_network = {
      endpoint: "deft-chambray.proxy.privnet.test",
      providers: [{ ...X }],
      policies: [],
      guardrails: [],
      budget_rules: [],
      catalog: [
        {
          id: "openai_api",
          models: [
            { id: "gpt-5.5", input_per_1k: 0.005, output_per_1k: 0.03 },
            { id: "gpt-4o-mini", input_per_1k: 0.00015, output_per_1k: 0.0006 },
          ],
        },
      ],
    };
  }

  get an() {
    return this.s.agent_network as NonNullable<AccountSnapshot["agent_network"]>;
  }

  llmProvider(p: SnapshotLlmProvider): string {
    this.an.providers.push({ ...p });
    return p.id;
  }

  llmPolicy(
    name: string,
    groups: string[],
    providers: string[],
    l: SnapshotLlmLimits = limits(),
    over: Partial<SnapshotLlmPolicy> = {},
  ): string {
    const id = `ainpol_${name.replace(/\W+/g, "-")}`;
    this.an.policies.push({
      id,
      name,
      enabled: true,
      source_groups: groups,
      destination_provider_ids: providers,
      guardrail_ids: [],
      limits: l,
      created_at: at(this.t++),
      ...over,
    });
    return id;
  }

  guardrail(name: string, models: string[], enabled = true): string {
    const id = `ainguard_${name.replace(/\W+/g, "-")}`;
    this.an.guardrails.push({ id, name, model_allowlist: { enabled, models } });
    return id;
  }

  budgetRule(
    name: string,
    groups: string[],
    users: string[],
    l: SnapshotLlmLimits,
    over: Partial<SnapshotLlmBudgetRule> = {},
  ): string {
    const id = `ainbud_${name.replace(/\W+/g, "-")}`;
    this.an.budget_rules.push({
      id,
      name,
      enabled: true,
      target_groups: groups,
      target_users: users,
      limits: l,
      created_at: at(this.t++),
      ...over,
    });
    return id;
  }
}

/** The stand-in upstream's answer to every request: 1,000 input and 500 output tokens. */
export const USAGE = { tokens_input: 1000, tokens_output: 500 };

export interface Replayed {
  /** `200` or the deny code, per request. */
  results: string[];
  decisions: LlmDecision[];
  counters: LlmCounter[];
}

/** Sends requests through the module's decision and records what the allowed ones cost, as the gateway does. */
export function replay(
  s: AccountSnapshot,
  requests: readonly [peer: string, model: string][],
  counters: LlmCounter[] = [],
  when = NOW,
): Replayed {
  const an = s.agent_network;
  const results: string[] = [];
  const decisions: LlmDecision[] = [];
  for (const [peer, model] of requests) {
    const req = { caller: peerCaller(s, peer), model, at: when };
    const d = decideLlmRequest(an, counters, req);
    decisions.push(d);
    results.push(d.allow ? "200" : (d.deny as string));
    if (d.allow && an)
      counters = recordLlmUsage(an, counters, req, d, {
        ...USAGE,
        cost_usd: priceOf(an, d.provider_id as string, model, USAGE),
      });
  }
  return { results, decisions, counters };
}

/** Counters as `kind id window: $cost tokens`, sorted, for comparisons. */
export function countersText(cs: readonly LlmCounter[]): string[] {
  return cs
    .map(
      (c) =>
        `${c.dimension_kind} ${c.dimension_id} ${c.window_seconds}: $${Number(c.cost_usd.toFixed(6))} ${c.tokens_input + c.tokens_output}`,
    )
    .sort();
}
