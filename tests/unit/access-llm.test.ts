/**
 * How privnet-access reports LLM use through the Agent Network gateway (access/llm.ts, access/llm-tests.ts): the
 * grant and budget-rule lines of show, the `+ llm:` / `- llm:` lines of a diff, and access tests about LLM use.
 */
import { diffAccess, diffText } from "../../access/diff";
import { parseTests, runTests, TestsFileError } from "../../access/expectations";
import { capsText, llmLineText, llmShowText, llmView, windowText } from "../../access/llm";
import { accountOf } from "../../access/report";
import { ALL, GA, GB, limits, LlmAccount, X, Y, Z } from "../support/llm-account";

/** engineering (peer A) on OpenAI with caps, support (peer B) on two providers, contractors with no peer. */
function company() {
  const a = new LlmAccount();
  a.s.groups = a.s.groups.map((g) =>
    g.id === GA ? { ...g, name: "engineering" } : g.id === GB ? { ...g, name: "support" } : g,
  );
  a.s.groups.push({ id: "c3contractors", name: "contractors", peers: [], resources: [] });
  const alice = a.s.peers.find((p) => p.id === "peer-a");
  if (alice) alice.user_id = "alice-id";
  a.s.users.push({ id: "alice-id", role: "user" });
  a.llmProvider({
    ...Y,
    name: "Claude",
    provider_id: "anthropic_api",
    models: [{ id: "claude-haiku-4-5", input_per_1k: 0.001, output_per_1k: 0.005 }],
  });
  a.llmPolicy("eng openai", [GA], [X.id], limits([0, 2_000_000, 86400], [50, 0, 86400]));
  a.llmPolicy("support", [GB], [X.id, Y.id], limits(undefined, [20, 0, 86400]), {
    guardrail_ids: [a.guardrail("cheap", ["gpt-4o-mini", "claude-haiku-4-5"])],
  });
  return a;
}

const acc = (a: LlmAccount) =>
  accountOf(a.s, new Map([["alice-id", { email: "alice@example.com", name: "Alice" }]]));

test("show: one line per grant with its models and caps, then the budget rules", () => {
  const a = company();
  a.budgetRule("org ceiling", [GA, GB], [], limits(undefined, [100, 0, 86400]));
  a.budgetRule("everyone", [], [], limits([10_000_000, 1_000_000, 2592000]));
  const v = llmView(a.s);
  expect(v?.lines.map(llmLineText)).toEqual([
    'engineering → stand-in openai (gpt-4o-mini, gpt-4o) tokens 2M/day per user, $50/day per group (policy "eng openai")',
    'support → stand-in openai (gpt-4o-mini) $20/day per group (policy "support")',
    'support → Claude (claude-haiku-4-5) $20/day per group (policy "support")',
  ]);
  expect(llmShowText(v)).toEqual([
    "",
    "LLM use through the Agent Network gateway deft-chambray.proxy.privnet.test:",
    '  engineering → stand-in openai (gpt-4o-mini, gpt-4o) tokens 2M/day per user, $50/day per group (policy "eng openai")',
    '  support → stand-in openai (gpt-4o-mini) $20/day per group (policy "support")',
    '  support → Claude (claude-haiku-4-5) $20/day per group (policy "support")',
    "Budget rules (every one that applies to a request must have quota left):",
    '  budget rule "org ceiling": groups engineering, support: $100/day per group',
    '  budget rule "everyone": everyone: tokens 1M/30 days per user, tokens 10M/30 days per group (its group caps bind nobody: it names no group)',
  ]);
  a.an.endpoint = "";
  expect(llmShowText(llmView(a.s))[1]).toMatch(/no Agent Network gateway/);
});

test("caps text names what never binds, and windows in words", () => {
  expect(capsText(limits([100000, 0, 43200], [0.05, 0, 46800]), { policy: true })).toBe(
    "tokens 100k/12 hours per group, $0.05/13 hours per group (the dollar cap never binds: usage is counted per 12 hours, the token limit's window)",
  );
  expect(capsText(limits())).toBe("no cap");
  expect([60, 3600, 7200, 86400, 604800, 90].map(windowText)).toEqual([
    "minute",
    "hour",
    "2 hours",
    "day",
    "week",
    "90 seconds",
  ]);
});

test("diff: a change of caps and a new grant are + llm / - llm lines; a renamed policy is none", () => {
  const before = company();
  const after = company();
  const eng = after.an.policies[0];
  if (eng) eng.limits = limits([0, 2_000_000, 86400], [80, 0, 86400]);
  const sup = after.an.policies[1];
  if (sup) sup.name = "support renamed";
  after.llmProvider(Z);
  after.llmPolicy("contractors anything", ["c3contractors"], [Z.id]);
  after.budgetRule("org ceiling", [GA], [], limits(undefined, [100, 0, 86400]));
  const d = diffAccess(acc(before), acc(after));
  const text = diffText(d);
  expect(text.split("\n").filter((l) => l.includes("llm:"))).toEqual([
    '+ llm: engineering → stand-in openai (gpt-4o-mini, gpt-4o) tokens 2M/day per user, $80/day per group (policy "eng openai")',
    '+ llm: contractors → self-hosted (any model but claude-haiku-4-5, gpt-4o, gpt-4o-mini) no cap (policy "contractors anything")',
    '+ llm: budget rule "org ceiling": groups engineering: $100/day per group',
    '- llm: engineering → stand-in openai (gpt-4o-mini, gpt-4o) tokens 2M/day per user, $50/day per group (policy "eng openai")',
  ]);
  expect(text).toContain("LLM use through the Agent Network gateway: 3 gained, 1 lost");
  expect(diffText(diffAccess(acc(company()), acc(company())))).toContain("No change of access.");
});

const tests = (yaml: string) => parseTests(yaml, "t.yaml");

test("never / may-use: failures name the caller, the provider, the models and the policy", () => {
  const a = company();
  a.llmPolicy("contractors claude", ["c3contractors"], [Y.id]);
  const r = runTests(
    acc(a),
    tests(`
tests:
  - name: contractors never use anthropic
    from: { group: contractors }
    llm: anthropic
    expect: never
  - name: support never uses gpt-4o
    from: { group: support }
    llm: any
    model: gpt-4o
    expect: never
  - name: engineering may use claude
    from: { group: engineering }
    llm: Claude
    model: claude-haiku-4-5
    expect: may-use
  - name: alice may use gpt-4o
    from: { user: alice@example.com }
    llm: openai_api
    model: gpt-4o
    expect: may-use
`),
  );
  expect(r.map((x) => [x.name, x.passed])).toEqual([
    ["contractors never use anthropic", false],
    ["support never uses gpt-4o", true],
    ["engineering may use claude", false],
    ["alice may use gpt-4o", true],
  ]);
  expect(r[0]?.failures).toEqual([
    'a member of contractors (groups contractors) may use Claude (claude-haiku-4-5) through policy "contractors claude"',
  ]);
  expect(r[0]?.llm).toEqual([
    { kind: "policy", id: "ainpol_contractors-claude", name: "contractors claude" },
  ]);
  expect(r[2]?.failures).toEqual([
    "a member of engineering (groups engineering) may not use Claude (claude-haiku-4-5): the gateway answers llm_policy.no_authorised_provider",
    "llm-agent-A (groups engineering) may not use Claude (claude-haiku-4-5): the gateway answers llm_policy.no_authorised_provider",
  ]);
});

test("only-models: a model outside the list, or a catch-all, fails naming the provider and policy", () => {
  const a = company();
  const r = runTests(
    acc(a),
    tests(`
tests:
  - name: support may use only cheap models
    from: { group: support }
    llm: any
    expect: only-models
    models: [gpt-4o-mini, claude-haiku-4-5]
  - name: engineering may use only mini
    from: { group: engineering }
    llm: any
    expect: only-models
    models: [gpt-4o-mini]
`),
  );
  expect(r[0]?.passed).toBe(true);
  expect(r[1]?.failures).toEqual([
    'a member of engineering (groups engineering) may use gpt-4o through stand-in openai (policy "eng openai")',
    'llm-agent-A (groups engineering) may use gpt-4o through stand-in openai (policy "eng openai")',
  ]);
  a.llmProvider(Z);
  a.llmPolicy("support anything", [GB], [Z.id]);
  const r2 = runTests(
    acc(a),
    tests(`
tests:
  - name: support may use only cheap models
    from: { group: support }
    llm: any
    expect: only-models
    models: [gpt-4o-mini, claude-haiku-4-5]
`),
  );
  expect(r2[0]?.failures[0]).toBe(
    'a member of support (groups support) may use any model but claude-haiku-4-5, gpt-4o, gpt-4o-mini through self-hosted (policy "support anything")',
  );
});

test("at-most: no group above $100 a day; an uncapped group and a budget rule", () => {
  const a = company();
  const file = tests(`
tests:
  - name: no group above $100 a day
    from: { every: group }
    llm: any
    expect: at-most
    usd: 100
    per: day
`);
  expect(runTests(acc(a), file)[0]?.passed).toBe(true);
  a.llmPolicy("support hourly", [GB], [X.id], limits(undefined, [10, 0, 3600]));
  let r = runTests(acc(a), file)[0];
  expect(r?.passed).toBe(false);
  expect(r?.failures).toEqual([
    'group support may use up to $260 per day, above $100: $20/day per group (policy "support") + $10/hour per group (policy "support hourly")',
  ]);
  expect(r?.llm?.map((x) => x.name)).toEqual(["support", "support hourly"]);
  a.budgetRule("support ceiling", [GB], [], limits(undefined, [90, 0, 86400]));
  expect(runTests(acc(a), file)[0]?.passed).toBe(true);
  // The account as a whole: All's members are everyone.
  const all = tests(`
tests:
  - name: the account under $120 a day
    from: { group: All }
    llm: any
    expect: at-most
    usd: 120
    per: day
`);
  expect(runTests(acc(a), all)[0]?.failures).toEqual([
    'group All may use up to $140 per day, above $120: $50/day per group (policy "eng openai") + $90/day per group (budget rule "support ceiling")',
  ]);
  a.llmPolicy("all unlimited", [ALL], [X.id]);
  r = runTests(acc(a), file)[0];
  // support's budget rule bounds every request of its members, the uncapped policy's included.
  expect(r?.failures).toEqual(
    ["engineering", "contractors"].map(
      (g) =>
        `group ${g} may use any provider without a dollar limit: policy "all unlimited" carries requests with no such cap on a group`,
    ),
  );
});

test("the tests file: LLM entries validate with their own fields, and unknown providers are errors", () => {
  expect(() =>
    tests(`
tests:
  - name: x
    from: { group: support }
    llm: any
    expect: at-most
    usd: 5
`),
  ).toThrow('t.yaml: tests[0] ("x").per: is required for at-most');
  expect(() =>
    tests(`
tests:
  - name: x
    from: { group: support }
    llm: any
    expect: never
    models: [a]
`),
  ).toThrow('tests[0] ("x").models: is not allowed with expect never (only with only-models)');
  expect(() =>
    tests(`
tests:
  - name: x
    from: { every: user }
    llm: any
    expect: never
`),
  ).toThrow(TestsFileError);
  const a = company();
  expect(() =>
    runTests(
      acc(a),
      tests(`
tests:
  - name: x
    from: { group: support }
    llm: nosuch
    expect: never
`),
    ),
  ).toThrow('tests[0] ("x").llm: no provider "nosuch" in the account');
  // A catalog entry with no provider yet is fine: the test guards the change that adds one.
  expect(
    runTests(
      acc(a),
      tests(`
tests:
  - name: x
    from: { group: support }
    llm: openai
    expect: may-use
`),
    )[0]?.passed,
  ).toBe(true);
});
