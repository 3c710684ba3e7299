/**
 * The simulated Agent Network gateway (`POST /sim/llm`, `privnet-server sim llm`) decides, meters and logs with
 * netmap/llm.ts's rule, the one privnet-access and the access guard answer with. Setups the reference server was
 * driven through with real traffic (docs/llm-access.md; tests/unit/llm-access.test.ts replays them through the
 * module) are built on privnet-server with two peers enrolled by setup keys (`allowed`, `denied`), requests are
 * sent through the sim, and then:
 * - each answer (served, or the deny code, or no answer at all), the provider, the carrying policy, the authorising
 *   groups and the user metered are what the module decides for the same account read through the API, request
 *   by request against the counters as they stand;
 * - the consumption rows equal the module's counters after the same requests, and the access log holds the same
 *   decisions;
 * - and both are what the reference answered in that setup.
 * Prices: provider X lists gpt-4o-mini at $0.01/$0.02 per 1k tokens, so a request of 1,000 in and 500 out costs
 * $0.02, as the stand-in upstream answered in those runs.
 */
import { readSnapshot } from "../../access/snapshot";
import { PrivnetClient } from "../../client";
import {
  decideLlmRequest,
  peerCaller,
  priceOf,
  recordLlmUsage,
  type LlmCounter,
  type LlmDecision,
} from "../../netmap";
import { ManualClock } from "../../server/clock";
import { USAGE } from "../support/llm-account";
import { startTestServer, type CallResult, type TestServer } from "../support/server";

/** Objects are made a second apart from here (the oldest provider serves a model); requests come at {@link AT}. */
const START = Date.parse("2026-06-01T01:00:00Z");
const AT = START + 10 * 60_000;

type Half = [group: number, user: number, window: number];
/** The API's limits: a token half and a dollar half, each on only when given. */
function limits(tok?: Half, usd?: Half) {
  return {
    ...(tok
      ? { token_limit: { enabled: true, group_cap: tok[0], user_cap: tok[1], window_seconds: tok[2] } }
      : {}),
    ...(usd
      ? {
          budget_limit: {
            enabled: true,
            group_cap_usd: usd[0],
            user_cap_usd: usd[1],
            window_seconds: usd[2],
          },
        }
      : {}),
  };
}

interface Sent {
  peer: string;
  model: string;
  answer: CallResult;
}

/** The ids of what every setup holds: the groups, the two peers and provider X. */
interface Ids {
  all: string;
  allowed: string;
  denied: string;
  A: string;
  B: string;
  X: string;
}

/** A privnet-server whose gateway is bootstrapped, peer A in `allowed`, peer B in `denied`, and provider X. */
class Gateway {
  readonly ids = {} as Ids;
  readonly sent: Sent[] = [];
  private constructor(
    readonly s: TestServer,
    readonly clock: ManualClock,
    readonly client: PrivnetClient,
  ) {}

  static async start(): Promise<Gateway> {
    const clock = new ManualClock(START);
    const s = await startTestServer({ clock, simulate: true });
    const g = new Gateway(s, clock, new PrivnetClient({ apiUrl: s.url, token: s.token, rateLimit: false }));
    await g.create("createAgentNetworkSettings", { proxy_address: "proxy.privnet.test" });
    const groups = await g.client.call<{ id: string; name: string }[]>("listGroups");
    g.ids.all = groups.find((x) => x.name === "All")?.id as string;
    for (const name of ["allowed", "denied"] as const) {
      g.ids[name] = await g.create("createGroup", { name, peers: [] });
      const key = await g.client.call<{ key: string }>("createSetupKey", {
        body: { name, type: "reusable", expires_in: 86400, auto_groups: [g.ids[name]], usage_limit: 0 },
      });
      const peer = await g.post("/sim/enroll", { setup_key: key.key, hostname: `llm-agent-${name}` });
      expect(peer.status).toBe(200);
    }
    const peers = await g.client.call<{ id: string; name: string }[]>("listPeers");
    g.ids.A = peers.find((p) => p.name === "llm-agent-allowed")?.id as string;
    g.ids.B = peers.find((p) => p.name === "llm-agent-denied")?.id as string;
    g.ids.X = await g.provider("stand-in openai", "openai_api", [
      { id: "gpt-4o-mini", input_per_1k: 0.01, output_per_1k: 0.02 },
      { id: "gpt-4o", input_per_1k: 0.1, output_per_1k: 0.2 },
    ]);
    return g;
  }

  close() {
    return this.s.close();
  }

  async post(path: string, body: unknown): Promise<CallResult> {
    return this.s.raw("POST", path, {
      body: JSON.stringify(body),
      headers: { "Content-Type": "application/json" },
    });
  }

  /** Creates an object a second after the last one; answers its id. */
  async create(op: string, body: Record<string, unknown>): Promise<string> {
    const made = await this.client.call<{ id?: string }>(op, { body });
    this.clock.advance(1000);
    return made.id ?? "";
  }

  provider(name: string, catalog: string, models: unknown[], enabled = true): Promise<string> {
    return this.create("createAgentNetworkProvider", {
      provider_id: catalog,
      name,
      upstream_url: "http://127.0.0.1:18080",
      api_key: `sk-${name.replace(/\W/g, "")}`,
      ...(enabled ? { enabled } : {}),
      models,
    });
  }

  policy(name: string, groups: string[], providers: string[], l = limits(), guardrails: string[] = []) {
    return this.create("createAgentNetworkPolicy", {
      name,
      source_groups: groups,
      destination_provider_ids: providers,
      guardrail_ids: guardrails,
      limits: l,
    });
  }

  rule(name: string, groups: string[], users: string[], l: ReturnType<typeof limits>) {
    return this.create("createAgentNetworkBudgetRule", {
      name,
      target_groups: groups,
      target_users: users,
      limits: l,
    });
  }

  guardrail(name: string, models: string[]) {
    return this.create("createAgentNetworkGuardrail", {
      name,
      checks: {
        model_allowlist: { enabled: true, models },
        prompt_capture: { enabled: false, redact_pii: false },
      },
    });
  }

  /** Sends requests of 1,000 input and 500 output tokens through the sim, all at {@link AT}. */
  async send(requests: [peer: "A" | "B", model: string][]): Promise<string[]> {
    const out: string[] = [];
    for (const [peer, model] of requests) {
      const answer = await this.post("/sim/llm", {
        peer: this.ids[peer],
        model,
        input_tokens: USAGE.tokens_input,
        output_tokens: USAGE.tokens_output,
        at: new Date(AT).toISOString(),
      });
      this.sent.push({ peer: this.ids[peer], model, answer });
      out.push(resultOf(answer));
    }
    return out;
  }

  consumption() {
    return this.client.call<(LlmCounter & { updated_at: string })[]>("listAgentNetworkConsumption");
  }

  /** The module's decision for each request sent, on the account as the API shows it, and its counters after. */
  async module() {
    const snapshot = await readSnapshot(this.client, AT);
    const an = snapshot.agent_network;
    if (!an) throw new Error("the snapshot has no Agent Network");
    let counters: LlmCounter[] = [];
    const decisions: LlmDecision[] = [];
    const users: string[] = [];
    for (const r of this.sent) {
      const req = { caller: peerCaller(snapshot, r.peer), model: r.model, at: AT };
      const d = decideLlmRequest(an, counters, req);
      if (d.allow)
        counters = recordLlmUsage(an, counters, req, d, {
          ...USAGE,
          cost_usd: priceOf(an, d.provider_id as string, r.model, USAGE),
        });
      decisions.push(d);
      users.push(req.caller.user_id);
    }
    return { an, decisions, counters, users };
  }

  /**
   * The sim agrees with the module: every answer, the consumption rows and the access log. Answers the module's
   * counters as text, for the setup's own expectations.
   */
  async agreesWithModule(): Promise<string[]> {
    const m = await this.module();
    expect(this.sent.map((r) => resultOf(r.answer))).toEqual(
      m.decisions.map((d) => (d.allow ? "200" : (d.deny as string))),
    );
    const entries = this.sent.map((r, i) => ({ ...r, d: m.decisions[i] as LlmDecision, user: m.users[i] }));
    const logged = entries.filter((e) => e.answer.status === 200);
    for (const e of logged) {
      expect(e.answer.body).toMatchObject({
        decision: e.d.allow ? "allow" : "deny",
        resolved_provider_id: e.d.provider_id ?? "",
        user_id: e.user,
        ...(e.d.allow
          ? { selected_policy_id: e.d.policy_id, group_ids: e.d.group_ids, input_tokens: USAGE.tokens_input }
          : { deny_reason: e.d.deny, input_tokens: 0, cost_usd: 0 }),
      });
      if (e.d.allow && e.d.provider_id)
        expect(e.answer.body.cost_usd).toBeCloseTo(priceOf(m.an, e.d.provider_id, e.model, USAGE), 12);
    }
    // A request that got no answer is neither metered nor logged.
    for (const e of entries.filter((x) => x.answer.status !== 200)) expect(e.answer.status).toBe(412);
    const rows = await this.consumption();
    expect(countersText(rows)).toEqual(countersText(m.counters));
    const log = await this.client.call<{ data: Record<string, unknown>[] }>("listAgentNetworkAccessLogs", {
      query: { sort_by: "timestamp", sort_order: "asc", page_size: 100 },
    });
    const view = (e: Record<string, unknown>) => ({
      decision: e.decision,
      deny_reason: e.deny_reason ?? "",
      selected_policy_id: e.selected_policy_id,
      resolved_provider_id: e.resolved_provider_id,
      group_ids: e.group_ids,
      user_id: e.user_id,
      model: e.model,
    });
    expect(log.data.map(view)).toEqual(logged.map((e) => view(e.answer.body as Record<string, unknown>)));
    expect(log.data.map((e) => [e.decision, e.deny_reason ?? "", e.selected_policy_id])).toEqual(
      logged.map((e) => [
        e.d.allow ? "allow" : "deny",
        e.d.deny ?? "",
        e.d.policy_id ?? (e.d.spent?.kind === "policy" ? e.d.spent.id : ""),
      ]),
    );
    return countersText(m.counters);
  }
}

/** `200`, the deny code, or `unreachable` (no answer from the gateway: the sim's 412). */
function resultOf(r: CallResult): string {
  if (r.status === 412) return "unreachable";
  if (r.status !== 200) return `HTTP ${r.status}: ${JSON.stringify(r.body)}`;
  return r.body.decision === "allow" ? "200" : String(r.body.deny_reason);
}

/** Counters as `kind id window start: $cost tokens`, sorted. */
function countersText(cs: readonly LlmCounter[]): string[] {
  return cs
    .map(
      (c) =>
        `${c.dimension_kind} ${c.dimension_id} ${c.window_seconds} ${c.window_start_utc}: ` +
        `$${Number(c.cost_usd.toFixed(9))} ${c.tokens_input + c.tokens_output}`,
    )
    .sort();
}

const times = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x);
const start = (window: number) => new Date(Math.floor(AT / 1000 / window) * window * 1000).toISOString();
const row = (kind: string, id: string, window: number, usd: number, tokens: number) =>
  `${kind} ${id} ${window} ${start(window).replace(".000Z", "Z")}: $${usd} ${tokens}`;

let g: Gateway;
afterEach(async () => {
  await g?.close();
});

test("an uncapped policy carries first and counts nothing; a group no policy names gets no answer", async () => {
  g = await Gateway.start();
  await g.policy("capped", [g.ids.allowed], [g.ids.X], limits(undefined, [0.05, 0, 86400]));
  const free = await g.policy("uncapped", [g.ids.allowed], [g.ids.X]);
  expect(await g.send([...times(4, ["A", "gpt-4o-mini"] as ["A", string]), ["B", "gpt-4o-mini"]])).toEqual([
    ...times(4, "200"),
    "unreachable",
  ]);
  expect(g.sent.slice(0, 4).map((r) => r.answer.body.selected_policy_id)).toEqual(times(4, free));
  // The peer was enrolled with a setup key: it is metered, and logged, under its own id.
  expect(g.sent[0]?.answer.body).toMatchObject({ user_id: g.ids.A, group_ids: [g.ids.allowed] });
  expect(await g.agreesWithModule()).toEqual([]);
});

test("the largest cap carries until spent, then the next, each counted in its own window", async () => {
  g = await Gateway.start();
  // The smaller pool is the older one: the larger still carries first.
  const small = await g.policy("small 3h", [g.ids.allowed], [g.ids.X], limits(undefined, [0.03, 0, 10800]));
  const large = await g.policy("large 4h", [g.ids.allowed], [g.ids.X], limits(undefined, [0.05, 0, 14400]));
  const results = await g.send(times(8, ["A", "gpt-4o-mini"] as ["A", string]));
  expect(results).toEqual([...times(5, "200"), ...times(3, "llm_policy.budget_cap_exceeded")]);
  expect(g.sent.slice(0, 5).map((r) => r.answer.body.selected_policy_id)).toEqual([
    large,
    large,
    large,
    small,
    small,
  ]);
  const { allowed, A } = g.ids;
  expect(await g.agreesWithModule()).toEqual([
    row("group", allowed, 10800, 0.04, 3000),
    row("group", allowed, 14400, 0.06, 4500),
    row("user", A, 10800, 0.04, 3000),
    row("user", A, 14400, 0.06, 4500),
  ]);
});

test("a caller in two of a policy's source groups is charged to the lowest id of them, once", async () => {
  g = await Gateway.start();
  const { all, allowed, A, B } = g.ids;
  await g.policy("All + allowed", [allowed, all], [g.ids.X], limits(undefined, [0.05, 0, 36000]));
  const results = await g.send([
    ["A", "gpt-4o-mini"],
    ["A", "gpt-4o-mini"],
    ["B", "gpt-4o-mini"],
    ["B", "gpt-4o-mini"],
    ["A", "gpt-4o-mini"],
  ]);
  // The access log names both of A's groups among the sources; B (in All only) reaches the gateway through All.
  expect(g.sent[0]?.answer.body.group_ids).toEqual([all, allowed].sort());
  expect(g.sent[2]?.answer.body.group_ids).toEqual([all]);
  const counters = await g.agreesWithModule();
  const lowest = [all, allowed].sort()[0] as string;
  if (lowest === all) {
    // One bucket for both peers, as the reference showed.
    expect(results).toEqual(["200", "200", "200", ...times(2, "llm_policy.budget_cap_exceeded")]);
    expect(counters).toEqual(
      [
        row("group", all, 36000, 0.06, 4500),
        row("user", A, 36000, 0.04, 3000),
        row("user", B, 36000, 0.02, 1500),
      ].sort(),
    );
  } else {
    expect(results).toEqual(times(5, "200"));
    expect(counters).toEqual(
      [
        row("group", all, 36000, 0.04, 3000),
        row("group", allowed, 36000, 0.06, 4500),
        row("user", A, 36000, 0.06, 4500),
        row("user", B, 36000, 0.04, 3000),
      ].sort(),
    );
  }
});

test("a budget rule naming no group caps each user, never a group; a rule on another group does not bind", async () => {
  g = await Gateway.start();
  const { allowed, denied, A } = g.ids;
  await g.policy("uncapped", [allowed], [g.ids.X]);
  await g.rule("untargeted group cap", [], [], limits(undefined, [0.03, 0, 28800]));
  await g.rule("untargeted user cap", [], [], limits(undefined, [0, 0.07, 32400]));
  await g.rule("another group's", [denied], [], limits(undefined, [0.001, 0, 18000]));
  expect(await g.send(times(6, ["A", "gpt-4o-mini"] as ["A", string]))).toEqual([
    ...times(4, "200"),
    ...times(2, "llm_account.budget_cap_exceeded"),
  ]);
  // Refused by a budget rule: no policy is named.
  expect(g.sent[5]?.answer.body).toMatchObject({ selected_policy_id: "", group_ids: [] });
  expect(await g.agreesWithModule()).toEqual([
    row("user", A, 28800, 0.08, 6000),
    row("user", A, 32400, 0.08, 6000),
  ]);
});

test("a catch-all provider serves any model but one an explicit list names", async () => {
  g = await Gateway.start();
  const { allowed, denied, B, X } = g.ids;
  const Z = await g.provider("self-hosted", "custom", []);
  await g.policy("B to Z", [denied], [Z], limits(undefined, [0.05, 0, 72000]));
  await g.policy("A to X", [allowed], [X]);
  expect(
    await g.send([
      ["B", "my-llama"],
      ["B", "gpt-4o-mini"],
      ["B", "gpt-5.5"],
      ["A", "my-llama"],
      ["A", "gpt-4o-mini"],
    ]),
  ).toEqual(["200", "llm_policy.no_authorised_provider", "200", "llm_policy.no_authorised_provider", "200"]);
  expect(g.sent.map((r) => r.answer.body.resolved_provider_id)).toEqual([Z, "", Z, "", X]);
  // Nobody prices my-llama or gpt-5.5 on a custom provider: $0, the tokens still count.
  expect(await g.agreesWithModule()).toEqual([
    row("group", denied, 72000, 0, 3000),
    row("user", B, 72000, 0, 3000),
  ]);
  // Naming a provider the gateway does not route the model to is refused, and nothing is recorded.
  const wrong = await g.post("/sim/llm", {
    peer: B,
    provider: X,
    model: "my-llama",
    input_tokens: 1,
    output_tokens: 1,
  });
  expect(wrong.status).toBe(409);
  expect(wrong.body.message).toContain(`routes my-llama from this caller to provider ${Z}`);
  expect(countersText(await g.consumption())).toHaveLength(2);
});

test("the service's deny codes: a model no provider lists, in another case, or a guardrail does not allow", async () => {
  g = await Gateway.start();
  const { allowed, X } = g.ids;
  const mini = await g.guardrail("only mini", ["gpt-4o-mini"]);
  await g.policy("mini only", [allowed], [X], limits([100_000, 0, 86400]), [mini]);
  // A provider created without `enabled` is disabled: it serves nothing, though a policy names it.
  const off = await g.provider(
    "second openai",
    "openai_api",
    [{ id: "gpt-4.1", input_per_1k: 0.001, output_per_1k: 0.002 }],
    false,
  );
  await g.policy("A to the disabled one", [allowed], [off], limits(), []);
  expect(
    await g.send([
      ["A", "gpt-4o"],
      ["A", "GPT-4O-MINI"],
      ["A", "gpt-4.1"],
      ["A", "gpt-4o-mini"],
    ]),
  ).toEqual([
    "llm_policy.model_blocked",
    "llm_policy.model_not_routable",
    "llm_policy.model_not_routable",
    "200",
  ]);
  expect(g.sent[0]?.answer.body).toMatchObject({ status_code: 403, resolved_provider_id: X });
  const { A } = g.ids;
  expect(await g.agreesWithModule()).toEqual([
    row("group", allowed, 86400, 0.02, 1500),
    row("user", A, 86400, 0.02, 1500),
  ]);
});
