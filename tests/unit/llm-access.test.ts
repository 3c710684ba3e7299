/**
 * Who may use which LLM provider and models, and the caps that bind them (netmap/llm.ts). The request sequences
 * are the reference server's runs with real traffic (docs/llm-access.md, "How the rule was established"): each
 * test replays one through the module's decision and metering and expects what the reference answered, request by
 * request, and the consumption counters it showed afterwards. Prices: gpt-4o-mini $0.01/$0.02 per 1k tokens on
 * provider X, so each request (1,000 in, 500 out) costs $0.02.
 */
import {
  ceilingOf,
  callerUse,
  decideLlmRequest,
  llmGrants,
  memberOf,
  peerCaller,
  priceOf,
  windowsIn,
  windowStart,
} from "../../netmap";
import { NOW } from "../support/netmap-account";
import {
  ALL,
  countersText,
  GA,
  GB,
  limits,
  LlmAccount,
  replay,
  USAGE,
  X,
  Y,
  Z,
} from "../support/llm-account";

const A = "peer-a";
const B = "peer-b";
const times = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x);
const mini = (peer = A) => [peer, "gpt-4o-mini"] as [string, string];

describe("who reaches the gateway and which provider serves a model", () => {
  test("a group no policy names does not reach the gateway; an allowed one is served and metered", () => {
    const a = new LlmAccount();
    a.llmPolicy("allowed to openai", [GA], [X.id]);
    const r = replay(a.s, [mini(A), mini(B)]);
    expect(r.results).toEqual(["200", "unreachable"]);
    expect(r.decisions[0]).toMatchObject({ provider_id: X.id, group_ids: [GA], attribution_group: GA });
    // An uncapped policy and no budget rule: the reference kept no counter at all.
    expect(r.counters).toEqual([]);
  });

  test("no gateway before the settings are bootstrapped, nor without an enabled policy on an enabled provider", () => {
    const a = new LlmAccount();
    a.llmPolicy("p", [GA], [X.id]);
    a.an.endpoint = "";
    expect(replay(a.s, [mini()]).results).toEqual(["unreachable"]);
    a.an.endpoint = "gw.example";
    a.an.providers[0] = { ...X, enabled: false };
    expect(replay(a.s, [mini()]).results).toEqual(["unreachable"]);
    expect(llmGrants(a.s)).toEqual([]);
  });

  test("a model no routable provider lists is not routable; model ids are case-sensitive", () => {
    const a = new LlmAccount();
    a.llmPolicy("p", [GA], [X.id]);
    expect(
      replay(a.s, [
        [A, "gpt-4.1"],
        [A, "GPT-4O-MINI"],
      ]).results,
    ).toEqual(["llm_policy.model_not_routable", "llm_policy.model_not_routable"]);
  });

  test("each group is routed to the provider it may use; one listing a model the caller may not use refuses it", () => {
    const a = new LlmAccount();
    a.llmProvider(Y);
    a.llmPolicy("A to X", [GA], [X.id]);
    a.llmPolicy("B to Y", [GB], [Y.id]);
    const r = replay(a.s, [[A, "gpt-4.1"], [B, "gpt-4.1"], [B, "gpt-4o"], mini(A), mini(B)]);
    expect(r.results).toEqual([
      "llm_policy.no_authorised_provider",
      "200",
      "llm_policy.no_authorised_provider",
      "200",
      "200",
    ]);
    expect(r.decisions[3]?.provider_id).toBe(X.id);
    expect(r.decisions[4]?.provider_id).toBe(Y.id);
  });

  test("two providers the caller may use both list a model: the older serves it, at its own price", () => {
    const a = new LlmAccount();
    a.llmProvider(Y);
    a.llmPolicy("A to X and Y", [GA], [Y.id, X.id]);
    const r = replay(a.s, [mini()]);
    expect(r.decisions[0]?.provider_id).toBe(X.id);
  });

  test("a provider listing no model serves any model but those another routable provider lists", () => {
    const a = new LlmAccount();
    a.llmProvider(Z);
    a.llmPolicy("B to Z", [GB], [Z.id], limits(undefined, [0.05, 0, 72000]));
    a.llmPolicy("A to X", [GA], [X.id]);
    const r = replay(a.s, [
      [B, "my-llama"],
      [B, "gpt-4o-mini"],
      [B, "gpt-5.5"],
      [A, "my-llama"],
    ]);
    expect(r.results).toEqual([
      "200",
      "llm_policy.no_authorised_provider",
      "200",
      "llm_policy.no_authorised_provider",
    ]);
    // my-llama has no price anywhere ($0, tokens still counted); gpt-5.5 is custom, with no catalog prices here.
    expect(countersText(r.counters)).toEqual([`group ${GB} 72000: $0 3000`, `user ${B} 72000: $0 3000`]);
  });

  test("an orphan provider (no enabled policy) shadows nothing and serves nothing", () => {
    const a = new LlmAccount();
    const w = a.llmProvider({ ...Z, id: "prov-w", name: "openai no models", provider_id: "openai_api" });
    a.llmPolicy("B to W", [GB], [w]);
    const r = replay(a.s, [
      [B, "gpt-5.5"],
      [B, "my-llama"],
      [B, "gpt-4o-mini"],
    ]);
    expect(r.results).toEqual(["200", "200", "200"]);
    expect(r.decisions.map((d) => d.provider_id)).toEqual([w, w, w]);
    // Metered at the catalog's default price where the provider lists none; $0 for a model nobody prices.
    expect(priceOf(a.an, w, "gpt-4o-mini", USAGE)).toBeCloseTo(0.00045, 10);
    expect(priceOf(a.an, w, "gpt-5.5", USAGE)).toBeCloseTo(0.02, 10);
    expect(priceOf(a.an, w, "my-llama", USAGE)).toBe(0);
    expect(priceOf(a.an, X.id, "gpt-4o", USAGE)).toBeCloseTo(0.2, 10);
  });
});

describe("guardrails", () => {
  test("an allowlist blocks other models; two guardrails on one policy allow the union", () => {
    const a = new LlmAccount();
    const g1 = a.guardrail("only mini", ["gpt-4o-mini"]);
    const g2 = a.guardrail("only 4o", ["gpt-4o"]);
    const p1 = a.llmPolicy("mini only", [GA], [X.id], limits(), { guardrail_ids: [g1] });
    expect(replay(a.s, [mini(), [A, "gpt-4o"]]).results).toEqual(["200", "llm_policy.model_blocked"]);
    a.llmPolicy("B unrestricted", [GB], [X.id]);
    expect(replay(a.s, [[A, "gpt-4o"]]).results).toEqual(["llm_policy.model_blocked"]);
    a.an.policies.pop();
    const p3 = a.llmPolicy("both guardrails", [GA], [X.id], limits(), { guardrail_ids: [g1, g2] });
    const r = replay(a.s, [
      [A, "gpt-4o"],
      [A, "gpt-4o-mini"],
    ]);
    expect(r.results).toEqual(["200", "200"]);
    // Both uncapped: the older carries the model both permit.
    expect(r.decisions.map((d) => d.policy_id)).toEqual([p3, p1]);
  });

  test("another policy of the caller without an allowlist, or a disabled allowlist, permits every model", () => {
    const a = new LlmAccount();
    const g1 = a.guardrail("only mini", ["gpt-4o-mini"]);
    a.llmPolicy("mini only", [GA], [X.id], limits(), { guardrail_ids: [g1] });
    a.llmPolicy("unrestricted", [GA], [X.id]);
    expect(replay(a.s, [[A, "gpt-4o"]]).results).toEqual(["200"]);
    const b = new LlmAccount();
    const off = b.guardrail("disabled allowlist", ["gpt-4o-mini"], false);
    b.llmPolicy("p", [GA], [X.id], limits(), { guardrail_ids: [off] });
    expect(replay(b.s, [[A, "gpt-4o"]]).results).toEqual(["200"]);
  });

  test("a policy carries a request only for a model it permits, whatever its pool", () => {
    const a = new LlmAccount();
    const g2 = a.guardrail("only 4o", ["gpt-4o"]);
    const big = a.llmPolicy("big 4o-only", [GA], [X.id], limits(undefined, [0.9, 0, 39600]), {
      guardrail_ids: [g2],
    });
    const small = a.llmPolicy("small any", [GA], [X.id], limits(undefined, [0.5, 0, 39600]));
    const r = replay(a.s, [mini(), [A, "gpt-4o"]]);
    expect(r.decisions.map((d) => d.policy_id)).toEqual([small, big]);
  });
});

describe("caps, as the reference attributed them", () => {
  test("a budget cap once spent refuses the next request; the request that crosses it is served", () => {
    const a = new LlmAccount();
    a.llmPolicy("allowed to openai", [GA], [X.id], limits(undefined, [0.05, 0, 86400]));
    const r = replay(a.s, times(5, mini()));
    expect(r.results).toEqual([
      "200",
      "200",
      "200",
      "llm_policy.budget_cap_exceeded",
      "llm_policy.budget_cap_exceeded",
    ]);
    // A user row is kept too (the peer's id: it has no user), though the policy caps no user.
    expect(countersText(r.counters)).toEqual([
      `group ${GA} 86400: $0.06 4500`,
      `user ${A} 86400: $0.06 4500`,
    ]);
    expect(r.counters[0]?.window_start_utc).toBe(
      new Date(windowStart(NOW, 86400)).toISOString().replace(".000Z", "Z"),
    );
  });

  test("the larger pool carries first; policies of one window share the group's counter", () => {
    const a = new LlmAccount();
    a.llmPolicy("P1 small", [GA], [X.id], limits(undefined, [0.05, 0, 7200]));
    const p2 = a.llmPolicy("P2 large", [GA], [X.id], limits(undefined, [0.09, 0, 7200]));
    const r = replay(a.s, times(9, mini()));
    expect(r.results.filter((x) => x === "200")).toHaveLength(5);
    expect(r.results.slice(5)).toEqual(times(4, "llm_policy.budget_cap_exceeded"));
    expect(new Set(r.decisions.filter((d) => d.allow).map((d) => d.policy_id))).toEqual(new Set([p2]));
    expect(countersText(r.counters)).toEqual([`group ${GA} 7200: $0.1 7500`, `user ${A} 7200: $0.1 7500`]);
  });

  test("a spent pool falls through to the next; each records in its own window", () => {
    const a = new LlmAccount();
    const p1 = a.llmPolicy("P1 4h", [GA], [X.id], limits(undefined, [0.05, 0, 14400]));
    const p2 = a.llmPolicy("P2 3h", [GA], [X.id], limits(undefined, [0.03, 0, 10800]));
    const r = replay(a.s, times(8, mini()));
    expect(r.decisions.map((d) => d.policy_id ?? d.deny)).toEqual([
      p1,
      p1,
      p1,
      p2,
      p2,
      "llm_policy.budget_cap_exceeded",
      "llm_policy.budget_cap_exceeded",
      "llm_policy.budget_cap_exceeded",
    ]);
    expect(countersText(r.counters)).toEqual([
      `group ${GA} 10800: $0.04 3000`,
      `group ${GA} 14400: $0.06 4500`,
      `user ${A} 10800: $0.04 3000`,
      `user ${A} 14400: $0.06 4500`,
    ]);
  });

  test("an uncapped policy carries first: nothing is counted for policies", () => {
    const a = new LlmAccount();
    a.llmPolicy("capped", [GA], [X.id], limits(undefined, [0.05, 0, 64800]));
    const free = a.llmPolicy("uncapped", [GA], [X.id]);
    const r = replay(a.s, times(4, mini()));
    expect(r.decisions.map((d) => d.policy_id)).toEqual(times(4, free));
    expect(r.counters).toEqual([]);
  });

  test("a peer its owner logged in is metered under the owner's id", () => {
    const a = new LlmAccount();
    const c = a.s.peers.find((p) => p.id === A);
    if (c) c.user_id = "user-owner";
    a.llmPolicy("userpeer", [GA], [X.id], limits(undefined, [0.05, 0.03, 79200]));
    const r = replay(a.s, times(3, mini()));
    expect(r.results).toEqual(["200", "200", "llm_policy.budget_cap_exceeded"]);
    expect(countersText(r.counters)).toEqual([
      `group ${GA} 79200: $0.04 3000`,
      "user user-owner 79200: $0.04 3000",
    ]);
  });

  test("a group token cap sorts before a budget", () => {
    const a = new LlmAccount();
    const tok = a.llmPolicy("token only", [GA], [X.id], limits([100000, 0, 68400]));
    a.llmPolicy("budget only", [GA], [X.id], limits(undefined, [10, 0, 68400]));
    expect(replay(a.s, [mini()]).decisions[0]?.policy_id).toBe(tok);
  });

  test("user caps count per peer; group buckets per source group", () => {
    const a = new LlmAccount();
    a.llmPolicy("user tokens", [GA, GB], [X.id], limits([0, 3000, 57600]));
    const r = replay(a.s, [mini(A), mini(A), mini(B), mini(B), mini(A), mini(B)]);
    expect(r.results).toEqual([
      "200",
      "200",
      "200",
      "200",
      "llm_policy.token_cap_exceeded",
      "llm_policy.token_cap_exceeded",
    ]);
    expect(countersText(r.counters)).toEqual([
      `group ${GA} 57600: $0.04 3000`,
      `group ${GB} 57600: $0.04 3000`,
      `user ${A} 57600: $0.04 3000`,
      `user ${B} 57600: $0.04 3000`,
    ]);
  });

  test("a policy's token and budget halves on different windows: only the token window counts", () => {
    const a = new LlmAccount();
    a.llmPolicy("token 12h + budget 13h", [GA], [X.id], limits([100000, 0, 43200], [0.05, 0, 46800]));
    const r = replay(a.s, times(6, mini()));
    expect(r.results).toEqual(times(6, "200"));
    expect(countersText(r.counters)).toEqual([
      `group ${GA} 43200: $0.12 9000`,
      `user ${A} 43200: $0.12 9000`,
    ]);
  });

  test("the group bucket is the lowest id of the caller's groups among the sources, shared by every member", () => {
    const a = new LlmAccount();
    a.llmPolicy("All + allowed", [GA, ALL], [X.id], limits(undefined, [0.05, 0, 36000]));
    const r = replay(a.s, [mini(A), mini(A), mini(B), mini(B), mini(A)]);
    expect(r.results).toEqual([
      "200",
      "200",
      "200",
      "llm_policy.budget_cap_exceeded",
      "llm_policy.budget_cap_exceeded",
    ]);
    expect(r.decisions[0]).toMatchObject({ attribution_group: ALL, group_ids: [ALL, GA] });
    expect(r.decisions[2]).toMatchObject({ attribution_group: ALL, group_ids: [ALL] });
    expect(countersText(r.counters)).toEqual([
      `group ${ALL} 36000: $0.06 4500`,
      `user ${A} 36000: $0.04 3000`,
      `user ${B} 36000: $0.02 1500`,
    ]);
  });

  test("a budget rule binds even under an uncapped policy; one on another group does not", () => {
    const a = new LlmAccount();
    a.llmPolicy("uncapped", [GA], [X.id]);
    const r1 = a.budgetRule("R1 allowed", [GA], [], limits(undefined, [0.03, 0, 18000]));
    a.budgetRule("R2 denied", [GB], [], limits(undefined, [0.001, 0, 18000]));
    const r = replay(a.s, times(5, mini()));
    expect(r.results).toEqual(["200", "200", ...times(3, "llm_account.budget_cap_exceeded")]);
    expect(r.decisions[2]?.spent).toMatchObject({ kind: "budget rule", id: r1 });
    expect(countersText(r.counters)).toEqual([
      `group ${GA} 18000: $0.04 3000`,
      `user ${A} 18000: $0.04 3000`,
    ]);
  });

  test("a rule naming no group binds no group bucket: its group cap binds nobody, its user cap everyone", () => {
    const a = new LlmAccount();
    a.llmPolicy("uncapped", [GA], [X.id]);
    a.budgetRule("untargeted group cap", [], [], limits(undefined, [0.03, 0, 28800]));
    a.budgetRule("untargeted user cap", [], [], limits(undefined, [0, 0.07, 32400]));
    const r = replay(a.s, times(6, mini()));
    expect(r.results).toEqual([...times(4, "200"), ...times(2, "llm_account.budget_cap_exceeded")]);
    expect(countersText(r.counters)).toEqual([`user ${A} 28800: $0.08 6000`, `user ${A} 32400: $0.08 6000`]);
  });

  test("a rule may name a peer as its user (a peer without a user is metered under its id)", () => {
    const a = new LlmAccount();
    a.llmPolicy("uncapped", [GA], [X.id]);
    a.budgetRule("untargeted", [], [], limits(undefined, [0.03, 0, 21600]));
    a.budgetRule("peer as user", [], [A], limits(undefined, [0.01, 0.01, 25200]));
    const r = replay(a.s, times(4, mini()));
    expect(r.results).toEqual(["200", ...times(3, "llm_account.budget_cap_exceeded")]);
    expect(countersText(r.counters)).toEqual([`user ${A} 21600: $0.02 1500`, `user ${A} 25200: $0.02 1500`]);
  });

  test("a rule's token and budget halves each count in their own window", () => {
    const a = new LlmAccount();
    a.llmPolicy("uncapped", [GA], [X.id]);
    a.budgetRule("token 14h + budget 15h", [GA], [], limits([100000, 0, 50400], [0.05, 0, 54000]));
    const r = replay(a.s, times(5, mini()));
    expect(r.results).toEqual([...times(3, "200"), ...times(2, "llm_account.budget_cap_exceeded")]);
    expect(countersText(r.counters)).toEqual([
      `group ${GA} 50400: $0.06 4500`,
      `group ${GA} 54000: $0.06 4500`,
      `user ${A} 50400: $0.06 4500`,
      `user ${A} 54000: $0.06 4500`,
    ]);
  });

  test("a counter a policy and two rules share is added to once per request", () => {
    const a = new LlmAccount();
    a.llmPolicy("policy 21h", [GA], [X.id], limits(undefined, [5, 0, 75600]));
    a.budgetRule("R 21h", [GA], [], limits(undefined, [5, 0, 75600]));
    a.budgetRule("R2 21h", [GA], [], limits(undefined, [5, 0, 75600]));
    expect(countersText(replay(a.s, [mini()]).counters)).toEqual([
      `group ${GA} 75600: $0.02 1500`,
      `user ${A} 75600: $0.02 1500`,
    ]);
  });

  test("disabled policies, budget rules and providers count for nothing", () => {
    const a = new LlmAccount();
    a.llmProvider(Y);
    a.llmPolicy("enabled", [GA], [X.id]);
    a.llmPolicy("disabled", [GA], [Y.id], limits(), { enabled: false });
    a.budgetRule("disabled rule", [GA], [], limits(undefined, [0.001, 0, 61200]), { enabled: false });
    expect(replay(a.s, [[A, "gpt-4.1"], mini()]).results).toEqual(["llm_policy.model_not_routable", "200"]);
    a.an.providers[0] = { ...X, enabled: false };
    expect(replay(a.s, [mini()]).results).toEqual(["unreachable"]);
  });
});

describe("the static answer", () => {
  test("grants: per enabled policy, source group and routable provider, the models a member may use", () => {
    const a = new LlmAccount();
    a.llmProvider(Y);
    a.llmProvider(Z);
    const g1 = a.guardrail("only mini", ["gpt-4o-mini", "gpt-5"]);
    a.llmPolicy("eng", [GA], [X.id, Y.id], limits([2_000_000, 0, 86400]), { guardrail_ids: [g1] });
    a.llmPolicy("b", [GB], [Y.id, Z.id], limits(undefined, [50, 0, 86400]));
    const lines = llmGrants(a.s).map(
      (g) => `${g.group.name} → ${g.provider.name} ${JSON.stringify(g.models)} (${g.policy.name})`,
    );
    expect(lines).toEqual([
      // gpt-4o-mini goes to X (the older provider allowed members use); Y's gpt-4.1 is not in the allowlist.
      'allowed → stand-in openai {"any":false,"models":["gpt-4o-mini"]} (eng)',
      'denied → second openai {"any":false,"models":["gpt-4.1","gpt-4o-mini"]} (b)',
      'denied → self-hosted {"any":true,"except":["gpt-4.1","gpt-4o","gpt-4o-mini"]} (b)',
    ]);
  });

  test("what a caller may use: providers, the models and the policies in the order they carry requests", () => {
    const a = new LlmAccount();
    const small = a.llmPolicy("small", [GA], [X.id], limits(undefined, [1, 0, 86400]));
    const big = a.llmPolicy("big", [ALL], [X.id], limits(undefined, [5, 0, 86400]));
    const use = callerUse(a.an, peerCaller(a.s, A));
    expect(use).toHaveLength(1);
    expect(use[0]?.policies.map((p) => p.id)).toEqual([big, small]);
    expect(use[0]?.models).toEqual({ any: false, models: ["gpt-4o-mini", "gpt-4o"] });
    expect(callerUse(a.an, peerCaller(a.s, B))[0]?.policies.map((p) => p.id)).toEqual([big]);
  });
});

describe("ceilings", () => {
  test("windows a period meets: aligned divisors exactly, others one more", () => {
    expect(windowsIn(86400, 3600)).toBe(24);
    expect(windowsIn(86400, 86400)).toBe(1);
    expect(windowsIn(86400, 2592000)).toBe(1);
    expect(windowsIn(86400, 7000)).toBe(14);
    expect(windowsIn(86400, 100000)).toBe(2);
    expect(windowsIn(3600, 86400)).toBe(1);
  });

  test("a group's members together: the group buckets' caps, not the user caps", () => {
    const a = new LlmAccount();
    a.llmPolicy("eng", [GA], [X.id], limits([2_000_000, 1_000_000, 86400], [50, 10, 86400]));
    const group = ceilingOf(a.an, [memberOf(a.s, GA), peerCaller(a.s, A)], "usd", 86400, true);
    expect(group.limit).toBe(50);
    expect(group.counters.map((c) => [c.dimension_kind, c.dimension_id, c.cap])).toEqual([["group", GA, 50]]);
    const user = ceilingOf(a.an, [peerCaller(a.s, A)], "usd", 86400, false);
    expect(user.limit).toBe(10);
    const hourly = new LlmAccount();
    hourly.llmPolicy("eng", [GA], [X.id], limits(undefined, [5, 0, 3600]));
    expect(ceilingOf(hourly.an, [memberOf(hourly.s, GA)], "usd", 86400, true).limit).toBe(120);
  });

  test("unbounded when a policy that may carry a request has no cap in that unit", () => {
    const a = new LlmAccount();
    a.llmPolicy("tokens only", [GA], [X.id], limits([2_000_000, 0, 86400]));
    const c = ceilingOf(a.an, [memberOf(a.s, GA)], "usd", 86400, true);
    expect(c.limit).toBeUndefined();
    expect(c.uncapped.map((p) => p.name)).toEqual(["tokens only"]);
    expect(ceilingOf(a.an, [memberOf(a.s, GA)], "tokens", 86400, true).limit).toBe(2_000_000);
  });

  test("policies add up (each is drawn on until spent); a budget rule bounds them all", () => {
    const a = new LlmAccount();
    a.llmPolicy("P1", [GA], [X.id], limits(undefined, [50, 0, 86400]));
    a.llmPolicy("P2", [GA], [X.id], limits(undefined, [30, 0, 3600]));
    a.llmPolicy("P3 same window as P1", [GA], [X.id], limits(undefined, [40, 0, 86400]));
    expect(ceilingOf(a.an, [memberOf(a.s, GA)], "usd", 86400, true).limit).toBe(50 + 30 * 24);
    a.budgetRule("ceiling", [GA], [], limits(undefined, [100, 0, 86400]));
    const c = ceilingOf(a.an, [memberOf(a.s, GA)], "usd", 86400, true);
    expect(c.limit).toBe(100);
    expect(c.counters[0]?.by).toEqual([{ kind: "budget rule", id: "ainbud_ceiling", name: "ceiling" }]);
  });

  test("a policy's budget never counted (token window differs) bounds no dollars", () => {
    const a = new LlmAccount();
    a.llmPolicy("quirk", [GA], [X.id], limits([100000, 0, 43200], [0.05, 0, 46800]));
    expect(ceilingOf(a.an, [memberOf(a.s, GA)], "usd", 86400, true).limit).toBeUndefined();
  });

  test("a member of a group outside every source reaches nothing: ceiling 0", () => {
    const a = new LlmAccount();
    a.llmPolicy("eng", [GA], [X.id]);
    expect(ceilingOf(a.an, [memberOf(a.s, GB)], "usd", 86400, true).limit).toBe(0);
    expect(
      decideLlmRequest(a.an, [], { caller: memberOf(a.s, GB), model: "gpt-4o-mini", at: NOW }).deny,
    ).toBe("unreachable");
  });
});
