/**
 * The simulated Agent Network gateway (only with --simulate), next to the simulated agent and proxy: an agent's
 * request to an LLM provider through the account's endpoint, decided and metered as the gateway would, so that
 * consumption, usage, access logs and sessions have something to show. No request leaves the machine: the tokens
 * a request used are given, not counted.
 *
 * `POST /sim/llm` {provider, model, input_tokens, output_tokens, peer? | user?, groups?, cached_input_tokens?,
 * cache_creation_tokens?, session_id?, stream?, path?, duration_ms?, status_code?, prompt?, completion?, at?}
 * → the access-log entry of the request (decision `allow` or `deny`).
 *
 * Who sent it: `peer` (a peer id: its user and the groups holding the peer), or `user` (an id or email: the
 * user's auto groups); `groups` replaces the groups either way. The decision, in this order (a refused request is
 * recorded with status 403, no tokens and the reason):
 * 1. the provider must be enabled (`llm_policy.provider_disabled`);
 * 2. an enabled policy must name one of the caller's groups and the provider (`llm_policy.no_matching_policy`);
 *    of several, the first created whose guardrails allow the model;
 * 3. the policy's guardrails must allow the model (`llm_policy.model_not_allowed`);
 * 4. no cap that binds the caller may be spent already: the policy's token and budget caps per authorising group
 *    and per user, and those of every enabled budget rule that targets the caller or one of its groups, or
 *    nobody in particular (`llm_policy.token_cap_exceeded`, `llm_policy.budget_cap_exceeded`). A request that
 *    starts under a cap is served whole, as a gateway cannot know the answer's length beforehand.
 * An allowed request costs its tokens at the provider's model prices (its `models` entry for the model, else the
 * catalog's), and counts in a counter per user and per authorising group, for every window length of the caps
 * that bind it (a day when none does). It is in the access log only while the settings collect logs; prompts
 * only while the settings and one of the policy's guardrails capture them, with e-mail addresses and long digit
 * runs masked where either asks for redaction.
 */
import type { FastifyInstance } from "fastify";
import { AGENT_NETWORK_CATALOG } from "../api/agent-network-catalog";
import { validate, z } from "../api/common";
import { iso } from "./clock";
import type { ServerState } from "./context";
import { mustGet, type Reader } from "./domain";
import { invalid, notFound, preconditionFailed } from "./errors";
import {
  agentNetworkRequests,
  agentNetworkSettings,
  windowStart,
  type AgentNetworkBudgetRuleDoc,
  type AgentNetworkGuardrailDoc,
  type AgentNetworkPolicyDoc,
  type AgentNetworkProviderDoc,
  type AgentNetworkRequestDoc,
  type CounterDim,
  type LimitsDoc,
  type ProviderModelDoc,
} from "./handlers/agent-network";
import { newId } from "./ids";
import type { GroupDoc, PeerDoc, UserDoc } from "./model";

const tokens = (what: string) => z.number().int().min(0).describe(what);

export const LlmRequestSchema = z.object({
  provider: z.string().min(1, { error: "must name an Agent Network provider id" }),
  model: z.string().min(1, { error: "must name a model" }),
  input_tokens: tokens("input tokens"),
  output_tokens: tokens("output tokens"),
  cached_input_tokens: tokens("tokens read from the prompt cache").optional(),
  cache_creation_tokens: tokens("tokens written to the prompt cache").optional(),
  peer: z.string().optional(),
  user: z.string().optional(),
  groups: z.array(z.string()).optional(),
  session_id: z.string().optional(),
  stream: z.boolean().optional(),
  path: z.string().optional(),
  duration_ms: z.number().int().min(0).optional(),
  status_code: z.number().int().min(100).max(599).optional(),
  prompt: z.string().optional(),
  completion: z.string().optional(),
  /** When the request came (RFC 3339); default now. */
  at: z
    .string()
    .refine((s) => !Number.isNaN(Date.parse(s)), { error: "must be an RFC 3339 time" })
    .optional(),
});
export type LlmRequest = z.infer<typeof LlmRequestSchema>;

/** The caller of a request: its user and groups. */
function callerOf(r: Reader, body: LlmRequest): { userId: string; groups: string[] } {
  let userId = "";
  let groups: string[] = [];
  if (body.peer) {
    const peer = mustGet<PeerDoc>(r, "peer", body.peer, "peer");
    userId = peer.user_id;
    groups = r
      .all<GroupDoc>("group")
      .filter((g) => g.builtin === true || g.peers.includes(peer.id))
      .map((g) => g.id);
  } else if (body.user) {
    const user = r.all<UserDoc>("user").find((u) => u.id === body.user || u.email === body.user);
    if (!user) throw notFound(`user ${body.user} not found`);
    userId = user.id;
    groups = [...user.auto_groups];
  } else if (!body.groups) throw invalid("peer, user or groups: say who sends the request");
  if (body.groups) {
    for (const g of body.groups) if (!r.get("group", g)) throw invalid(`groups: unknown group id ${g}`);
    groups = [...body.groups];
  }
  return { userId, groups };
}

/** The prices of a model through a provider: its own models list, else the catalog's entry for its type. */
export function modelPrices(p: AgentNetworkProviderDoc, model: string): ProviderModelDoc {
  const own = p.models.find((m) => m.id === model);
  if (own) return own;
  const cat = AGENT_NETWORK_CATALOG.find((c) => c.id === p.provider_id)?.models.find((m) => m.id === model);
  return cat ?? { id: model, input_per_1k: 0, output_per_1k: 0 };
}

/** The vendor a catalog type meters as (`openai`, `anthropic`); the type itself where the catalog says none. */
function vendorOf(p: AgentNetworkProviderDoc): string {
  const cat = AGENT_NETWORK_CATALOG.find((c) => c.id === p.provider_id);
  return cat?.pricing_surfaces?.[0] ?? p.provider_id.replace(/_api$/, "");
}

/** One cap that binds a request: where it counts and how much it allows. */
interface Cap {
  dim: CounterDim;
  tokens?: number;
  usd?: number;
}

/** The caps of one set of limits, for the given groups and user. */
function capsOf(limits: LimitsDoc, groups: readonly string[], userId: string): Cap[] {
  const out: Cap[] = [];
  const t = limits.token_limit;
  const b = limits.budget_limit;
  if (t.enabled) {
    const w = t.window_seconds;
    if (t.group_cap > 0)
      for (const g of groups)
        out.push({ dim: { kind: "group", id: g, window_seconds: w }, tokens: t.group_cap });
    if (t.user_cap > 0 && userId)
      out.push({ dim: { kind: "user", id: userId, window_seconds: w }, tokens: t.user_cap });
  }
  if (b.enabled) {
    const w = b.window_seconds;
    if (b.group_cap_usd > 0)
      for (const g of groups)
        out.push({ dim: { kind: "group", id: g, window_seconds: w }, usd: b.group_cap_usd });
    if (b.user_cap_usd > 0 && userId)
      out.push({ dim: { kind: "user", id: userId, window_seconds: w }, usd: b.user_cap_usd });
  }
  return out;
}

/** What a counter holds now: tokens and USD of the allowed requests in its current window. */
function spent(r: Reader, dim: CounterDim, now: number): { tokens: number; usd: number } {
  const start = windowStart(now, dim.window_seconds);
  let tokensUsed = 0;
  let usd = 0;
  for (const req of agentNetworkRequests(r)) {
    if (req.decision !== "allow") continue;
    const t = Date.parse(req.timestamp);
    if (windowStart(t, dim.window_seconds) !== start) continue;
    if (
      !req.counters.some(
        (c) => c.kind === dim.kind && c.id === dim.id && c.window_seconds === dim.window_seconds,
      )
    )
      continue;
    tokensUsed += req.input_tokens + req.output_tokens;
    usd += req.input_cost_usd + req.cached_input_cost_usd + req.cache_creation_cost_usd + req.output_cost_usd;
  }
  return { tokens: tokensUsed, usd };
}

const redact = (s: string) =>
  s.replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, "[redacted email]").replace(/\d{6,}/g, "[redacted number]");

/** Decides, meters and records one request; answers its access-log entry. */
export function recordLlmRequest(state: ServerState, input: unknown) {
  const v = validate(LlmRequestSchema, input ?? {});
  if (!v.ok) throw invalid(v.message);
  const body = v.value;
  return state.store.tx((tx) => {
    const settings = agentNetworkSettings(tx);
    if (!settings)
      throw preconditionFailed(
        "agent network settings are not bootstrapped: the account has no endpoint an agent could call",
      );
    const provider = mustGet<AgentNetworkProviderDoc>(
      tx,
      "agent_network_provider",
      body.provider,
      "agent network provider",
    );
    const now = body.at ? Date.parse(body.at) : state.clock.now();
    const { userId, groups } = callerOf(tx, body);
    const guardrails = (p: AgentNetworkPolicyDoc) =>
      p.guardrail_ids
        .map((id) => tx.get<AgentNetworkGuardrailDoc>("agent_network_guardrail", id))
        .filter((g): g is AgentNetworkGuardrailDoc => g !== undefined);
    const allowsModel = (p: AgentNetworkPolicyDoc) =>
      guardrails(p).every(
        (g) => !g.checks.model_allowlist.enabled || g.checks.model_allowlist.models.includes(body.model),
      );
    const candidates = tx
      .all<AgentNetworkPolicyDoc>("agent_network_policy")
      .filter(
        (p) =>
          p.enabled &&
          p.destination_provider_ids.includes(provider.id) &&
          p.source_groups.some((g) => groups.includes(g)),
      );
    const policy = candidates.find(allowsModel) ?? candidates[0];
    const authorising = policy ? groups.filter((g) => policy.source_groups.includes(g)) : [];
    let denyReason = "";
    if (!provider.enabled) denyReason = "llm_policy.provider_disabled";
    else if (!policy) denyReason = "llm_policy.no_matching_policy";
    else if (!allowsModel(policy)) denyReason = "llm_policy.model_not_allowed";
    const caps: Cap[] = policy ? capsOf(policy.limits, authorising, userId) : [];
    for (const rule of tx.all<AgentNetworkBudgetRuleDoc>("agent_network_budget_rule")) {
      if (!rule.enabled) continue;
      const everyone = !rule.target_groups.length && !rule.target_users.length;
      const ruleGroups = everyone ? authorising : groups.filter((g) => rule.target_groups.includes(g));
      const binds = everyone || ruleGroups.length > 0 || rule.target_users.includes(userId);
      if (binds) caps.push(...capsOf(rule.limits, ruleGroups, userId));
    }
    if (!denyReason)
      for (const cap of caps) {
        const used = spent(tx, cap.dim, now);
        if (cap.tokens !== undefined && used.tokens >= cap.tokens) {
          denyReason = "llm_policy.token_cap_exceeded";
          break;
        }
        if (cap.usd !== undefined && used.usd >= cap.usd) {
          denyReason = "llm_policy.budget_cap_exceeded";
          break;
        }
      }
    const allowed = denyReason === "";
    const price = modelPrices(provider, body.model);
    const per1k = (n: number, rate: number | undefined) => (allowed ? (n / 1000) * (rate ?? 0) : 0);
    const inTok = allowed ? body.input_tokens : 0;
    const outTok = allowed ? body.output_tokens : 0;
    const cachedTok = allowed ? (body.cached_input_tokens ?? 0) : 0;
    const creationTok = allowed ? (body.cache_creation_tokens ?? 0) : 0;
    const windows = [...new Set(caps.map((c) => c.dim.window_seconds))];
    const counters: CounterDim[] = allowed
      ? (windows.length ? windows : [86_400]).flatMap((w) => [
          ...(userId ? [{ kind: "user" as const, id: userId, window_seconds: w }] : []),
          ...authorising.map((g) => ({ kind: "group" as const, id: g, window_seconds: w })),
        ])
      : [];
    // Bound also the counters of budget-rule groups that are not authorising groups.
    for (const cap of caps)
      if (
        allowed &&
        !counters.some(
          (c) =>
            c.kind === cap.dim.kind && c.id === cap.dim.id && c.window_seconds === cap.dim.window_seconds,
        )
      )
        counters.push(cap.dim);
    const capture =
      allowed && settings.enable_prompt_collection && policy
        ? guardrails(policy).filter((g) => g.checks.prompt_capture.enabled)
        : [];
    const redacting = settings.redact_pii || capture.some((g) => g.checks.prompt_capture.redact_pii);
    const captured = (s: string | undefined) =>
      s === undefined || !capture.length ? undefined : redacting ? redact(s) : s;
    const host = (() => {
      try {
        return new URL(provider.upstream_url.trim()).host;
      } catch {
        return "";
      }
    })();
    const doc: AgentNetworkRequestDoc = {
      id: newId(),
      timestamp: iso(now),
      logged: settings.enable_log_collection,
      status_code: allowed ? (body.status_code ?? 200) : 403,
      duration_ms: body.duration_ms ?? 0,
      user_id: userId,
      source_ip: "",
      method: "POST",
      host,
      path: body.path ?? "/v1/chat/completions",
      provider: vendorOf(provider),
      model: body.model,
      session_id: body.session_id ?? "",
      resolved_provider_id: provider.id,
      selected_policy_id: policy?.id ?? "",
      decision: allowed ? "allow" : "deny",
      deny_reason: denyReason,
      input_tokens: inTok,
      output_tokens: outTok,
      cached_input_tokens: cachedTok,
      cache_creation_tokens: creationTok,
      input_cost_usd: per1k(inTok, price.input_per_1k),
      cached_input_cost_usd: per1k(
        cachedTok,
        price.cached_input_per_1k ?? price.cache_read_per_1k ?? price.input_per_1k,
      ),
      cache_creation_cost_usd: per1k(creationTok, price.cache_creation_per_1k ?? price.input_per_1k),
      output_cost_usd: per1k(outTok, price.output_per_1k),
      stream: body.stream ?? false,
      group_ids: authorising,
      counters,
    };
    const prompt = captured(body.prompt);
    const completion = captured(body.completion);
    if (prompt !== undefined) doc.request_prompt = prompt;
    if (completion !== undefined) doc.response_completion = completion;
    tx.put("agent_network_request", doc);
    const { counters: _c, logged: _l, ...entry } = doc;
    return {
      ...entry,
      cost_usd:
        doc.input_cost_usd + doc.cached_input_cost_usd + doc.cache_creation_cost_usd + doc.output_cost_usd,
      total_tokens: inTok + outTok + cachedTok + creationTok,
      logged: doc.logged,
    };
  });
}

/** Registers the simulated gateway's route (only with --simulate). */
export function registerLlmSimulator(app: FastifyInstance, state: ServerState): void {
  app.post("/sim/llm", async (req) => recordLlmRequest(state, req.body));
}
