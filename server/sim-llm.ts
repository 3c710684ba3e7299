/**
 * The simulated Agent Network gateway (only with --simulate), next to the simulated agent and proxy: an agent's
 * request to an LLM provider through the account's endpoint, decided and metered as the gateway would, so that
 * consumption, usage, access logs and sessions have something to show. No request leaves the machine: the tokens
 * a request used are given, not counted.
 *
 * `POST /sim/llm` {model, input_tokens, output_tokens, peer? | user? | groups?, provider?, cached_input_tokens?,
 * cache_creation_tokens?, session_id?, stream?, path?, duration_ms?, status_code?, prompt?, completion?, at?}
 * → the access-log entry of the request (decision `allow` or `deny`).
 *
 * Who sent it (the caller): `peer` (a peer id: the groups holding the peer, and its owner, or for a peer enrolled
 * with a setup key the peer's own id, as the user it is metered under), or `user` (an id or email: the user's auto
 * groups, the groups its peers get), or `groups` alone (a member of those groups, no user); `groups` replaces the
 * groups either way. The built-in group All is among them always, as it is among every peer's.
 *
 * The rule is netmap/llm.ts's, the one privnet-access and the access guard answer with (docs/llm-access.md), applied
 * to the account as stored and to the consumption counters as `GET /api/agent-network/consumption` answers them:
 * which provider serves the model (`provider`, when sent, must be that one: 409 otherwise), which policy carries
 * the request, the deny codes (`llm_policy.model_not_routable`, `no_authorised_provider`, `model_blocked`,
 * `token_cap_exceeded`, `budget_cap_exceeded`, `llm_account.*` for budget rules), and which counters a served
 * request adds to. A caller that does not reach the gateway (none of its groups is a source of an enabled policy,
 * or there is no gateway) gets no answer from the service at all: here a 412 saying so, and nothing is recorded.
 * A refused request is recorded with status 403, no tokens, and the reason.
 *
 * What is the simulation's own (the module has no notion of it): an allowed request's cost splits into input and
 * output at the module's price (the provider's own price for the model, else the catalog's), and cached and
 * cache-creation tokens at the same entry's cache prices (else its input price); the access-log fields (session,
 * path, status, duration, stream); a refused entry names the policy whose spent cap refused it, with the caller's
 * groups among its sources, and otherwise no policy and no group. A request is in the access log only while the
 * settings collect logs; prompts only while the settings and one of the carrying policy's guardrails capture
 * them, with e-mail addresses and long digit runs masked where either asks for redaction.
 */
import type { FastifyInstance } from "fastify";
import { AGENT_NETWORK_CATALOG } from "../api/agent-network-catalog";
import { validate, z } from "../api/common";
import {
  decideLlmRequest,
  DENY,
  priceOf,
  usageCounters,
  type LlmCaller,
  type LlmCounter,
  type LlmDecision,
} from "../netmap";
import { iso } from "./clock";
import type { ServerState } from "./context";
import { mustGet, type Reader } from "./domain";
import { conflict, invalid, notFound, preconditionFailed } from "./errors";
import {
  agentNetworkSettings,
  consumptionCounters,
  type AgentNetworkGuardrailDoc,
  type AgentNetworkPolicyDoc,
  type AgentNetworkProviderDoc,
  type AgentNetworkRequestDoc,
  type ProviderModelDoc,
} from "./handlers/agent-network";
import { newId } from "./ids";
import type { GroupDoc, PeerDoc, UserDoc } from "./model";
import { agentNetworkSnapshot } from "./network-snapshot";

const tokens = (what: string) => z.number().int().min(0).describe(what);

export const LlmRequestSchema = z.object({
  model: z.string().min(1, { error: "must name a model" }),
  input_tokens: tokens("input tokens"),
  output_tokens: tokens("output tokens"),
  /** The provider the agent means; the gateway routes by model, and this must be where it routes. */
  provider: z.string().min(1, { error: "must name an Agent Network provider id" }).optional(),
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

/** The caller of a request as netmap/llm.ts sees it: its groups (All among them) and the user it is metered under. */
function callerOf(r: Reader, body: LlmRequest): LlmCaller {
  const groupDocs = r.all<GroupDoc>("group");
  const all = groupDocs.filter((g) => g.builtin === true).map((g) => g.id);
  let caller: LlmCaller;
  if (body.peer) {
    const peer = mustGet<PeerDoc>(r, "peer", body.peer, "peer");
    caller = {
      peer_id: peer.id,
      name: peer.name,
      // A peer enrolled with a setup key has no owner: the gateway meters it under its own id.
      user_id: peer.user_id || peer.id,
      groups: groupDocs.filter((g) => g.builtin === true || g.peers.includes(peer.id)).map((g) => g.id),
    };
  } else if (body.user) {
    const user = r.all<UserDoc>("user").find((u) => u.id === body.user || u.email === body.user);
    if (!user) throw notFound(`user ${body.user} not found`);
    caller = { name: user.email || user.id, user_id: user.id, groups: [...user.auto_groups] };
  } else if (body.groups) caller = { name: "a member of the groups given", user_id: "", groups: [] };
  else throw invalid("peer, user or groups: say who sends the request");
  if (body.groups) {
    for (const g of body.groups) if (!r.get("group", g)) throw invalid(`groups: unknown group id ${g}`);
    caller.groups = [...body.groups];
  }
  caller.groups = [...new Set([...caller.groups, ...all])];
  return caller;
}

/**
 * The prices of a model through a provider, cache prices included: its own models list, else the catalog's entry
 * for its type (the order netmap/llm.ts's `priceOf` reads input and output prices in).
 */
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

/** The counters as the consumption read answers them (the module decides on what privnet-access would read). */
function countersOf(r: Reader): LlmCounter[] {
  return consumptionCounters(r).map(({ updated_at: _u, ...c }) => c);
}

/** The policy and groups an access-log entry names: the carrying policy, or the one whose spent cap refused it. */
function policyOf(r: Reader, d: LlmDecision, caller: LlmCaller): { id: string; groups: string[] } {
  if (d.allow) return { id: d.policy_id ?? "", groups: d.group_ids ?? [] };
  if (d.spent?.kind !== "policy") return { id: "", groups: [] };
  const p = r.get<AgentNetworkPolicyDoc>("agent_network_policy", d.spent.id);
  return { id: d.spent.id, groups: (p?.source_groups ?? []).filter((g) => caller.groups.includes(g)).sort() };
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
    const named = body.provider
      ? mustGet<AgentNetworkProviderDoc>(
          tx,
          "agent_network_provider",
          body.provider,
          "agent network provider",
        )
      : undefined;
    const now = body.at ? Date.parse(body.at) : state.clock.now();
    const caller = callerOf(tx, body);
    const an = agentNetworkSnapshot(tx);
    const req = { caller, model: body.model, at: now };
    const decision = decideLlmRequest(an, countersOf(tx), req);
    if (decision.deny === DENY.noGateway)
      throw preconditionFailed(
        `no answer: the caller does not reach the gateway (none of its groups is a source of an enabled policy ` +
          `naming an enabled provider), so the request is neither metered nor logged`,
      );
    if (named && decision.provider_id && decision.provider_id !== named.id)
      throw conflict(
        `provider: the gateway routes ${body.model} from this caller to provider ${decision.provider_id}, ` +
          `not ${named.id} (the oldest routable provider serving the model that the caller may use)`,
      );
    const provider = decision.provider_id
      ? tx.get<AgentNetworkProviderDoc>("agent_network_provider", decision.provider_id)
      : undefined;
    const allowed = decision.allow;
    const logPolicy = policyOf(tx, decision, caller);
    const inTok = allowed ? body.input_tokens : 0;
    const outTok = allowed ? body.output_tokens : 0;
    const cachedTok = allowed ? (body.cached_input_tokens ?? 0) : 0;
    const creationTok = allowed ? (body.cache_creation_tokens ?? 0) : 0;
    const cost = (tokens_input: number, tokens_output: number) =>
      provider ? priceOf(an, provider.id, body.model, { tokens_input, tokens_output }) : 0;
    const price = provider ? modelPrices(provider, body.model) : undefined;
    const per1k = (n: number, rate: number | undefined) => (n / 1000) * (rate ?? 0);
    const policy = allowed ? tx.get<AgentNetworkPolicyDoc>("agent_network_policy", logPolicy.id) : undefined;
    const capture =
      allowed && settings.enable_prompt_collection && policy
        ? policy.guardrail_ids
            .map((id) => tx.get<AgentNetworkGuardrailDoc>("agent_network_guardrail", id))
            .filter((g): g is AgentNetworkGuardrailDoc => g?.checks.prompt_capture.enabled === true)
        : [];
    const redacting = settings.redact_pii || capture.some((g) => g.checks.prompt_capture.redact_pii);
    const captured = (s: string | undefined) =>
      s === undefined || !capture.length ? undefined : redacting ? redact(s) : s;
    const host = (() => {
      try {
        return new URL((provider?.upstream_url ?? "").trim()).host;
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
      user_id: caller.user_id,
      source_ip: "",
      method: "POST",
      host,
      path: body.path ?? "/v1/chat/completions",
      provider: provider ? vendorOf(provider) : "",
      model: body.model,
      session_id: body.session_id ?? "",
      resolved_provider_id: provider?.id ?? "",
      selected_policy_id: logPolicy.id,
      decision: allowed ? "allow" : "deny",
      deny_reason: decision.deny ?? "",
      input_tokens: inTok,
      output_tokens: outTok,
      cached_input_tokens: cachedTok,
      cache_creation_tokens: creationTok,
      input_cost_usd: cost(inTok, 0),
      cached_input_cost_usd: per1k(
        cachedTok,
        price?.cached_input_per_1k ?? price?.cache_read_per_1k ?? price?.input_per_1k,
      ),
      cache_creation_cost_usd: per1k(creationTok, price?.cache_creation_per_1k ?? price?.input_per_1k),
      output_cost_usd: cost(0, outTok),
      stream: body.stream ?? false,
      group_ids: logPolicy.groups,
      counters: usageCounters(an, req, decision).map((c) => ({
        kind: c.dimension_kind,
        id: c.dimension_id,
        window_seconds: c.window_seconds,
      })),
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
