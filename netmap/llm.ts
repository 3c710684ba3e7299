/**
 * Who may use which LLM provider and models through the account's Agent Network gateway, and the token and budget
 * caps that bind them. Pure, like the network map (network-map.ts): functions of the snapshot's `agent_network`
 * (types.ts), and, for one request, of the consumption counters. docs/llm-access.md states the rule and how it
 * was established (the service's public documentation and the reference server driven with real traffic).
 *
 * A caller is what the gateway identifies a request by: the peer it comes from, that peer's groups (the built-in
 * All among them), and a user id (the peer's owner; a peer enrolled with a setup key has none, and is metered under
 * its own peer id).
 *
 * Who may use what
 * - There is a gateway only once the settings are bootstrapped (an endpoint) and an enabled policy names an enabled
 *   provider. Only peers of the enabled policies' source groups reach it at all (others are refused by the network).
 * - Routable providers: enabled, and named by an enabled policy. A provider serves the models it lists (ids, case
 *   sensitive); one that lists none serves every model, except a model another routable provider lists.
 * - A request for a model goes to the oldest routable provider serving it whose enabled policies include one of the
 *   caller's groups among their sources. None serves it: `llm_policy.model_not_routable`; none the caller may use:
 *   `llm_policy.no_authorised_provider`.
 * - The policies that may carry it: enabled, naming that provider, with one of the caller's groups among their
 *   sources, and permitting the model: a policy permits every model unless its guardrails have an enabled model
 *   allowlist, then the union of those lists. None permits it: `llm_policy.model_blocked`.
 *
 * The caps
 * - Budget rules (account-wide) come first, and every enabled rule that applies must have quota left: a rule applies
 *   to everyone when it names no group and no user, else to its target users and the members of its target groups.
 *   Its user caps count per user; its group caps count in one bucket per group: the lowest id of its target groups
 *   the caller is in (a rule that names no group the caller is in has no group bucket for them: its group cap does
 *   not bind them). Exhausted: `llm_account.token_cap_exceeded` / `llm_account.budget_cap_exceeded`.
 * - Then one policy carries the request: an uncapped one if there is one, else the one with the largest group token
 *   cap, then group budget, user token cap, user budget, the oldest; a policy whose quota is spent is passed over for
 *   the next. All spent: `llm_policy.token_cap_exceeded` / `llm_policy.budget_cap_exceeded`. A policy's group cap
 *   counts in the bucket of the lowest id of its source groups the caller is in, shared by every member and every
 *   policy with the same window; its user cap per user.
 * - Counters are per (user or group, id, window length), windows aligned to the Unix epoch. A cap binds while its
 *   counter is below it (the request that crosses it is served). A served request adds its tokens (input + output)
 *   and cost to the carrying policy's counters at its window (the token limit's when that half is on, else the
 *   budget's: a policy whose halves have different windows never counts toward its budget cap), and to every
 *   applicable rule's counters at each enabled half's window; a counter shared by several is added to once.
 */
import type {
  AccountSnapshot,
  SnapshotAgentNetwork,
  SnapshotLlmBudgetRule,
  SnapshotLlmLimits,
  SnapshotLlmModel,
  SnapshotLlmPolicy,
  SnapshotLlmProvider,
} from "./types";

/** Who sends a request: the groups of its peer and the user it is metered under. */
export interface LlmCaller {
  /** The peer, when the caller is one (absent: any member of `groups`). */
  peer_id?: string;
  /** The peer's name, or how a member of the groups is named (`a member of ops`). */
  name: string;
  /** The peer's owner, or the peer's id for a peer without one; empty: a member not known yet. */
  user_id: string;
  /** Group ids, All included. */
  groups: string[];
}

export const DENY = {
  notRoutable: "llm_policy.model_not_routable",
  noProvider: "llm_policy.no_authorised_provider",
  modelBlocked: "llm_policy.model_blocked",
  policyTokens: "llm_policy.token_cap_exceeded",
  policyBudget: "llm_policy.budget_cap_exceeded",
  accountTokens: "llm_account.token_cap_exceeded",
  accountBudget: "llm_account.budget_cap_exceeded",
  /** Not the service's code: the caller's peer cannot reach the gateway (no gateway, or not a source of any policy). */
  noGateway: "unreachable",
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Routing and the policies

const byAge = <T extends { created_at?: string; id: string }>(a: T, b: T) =>
  (a.created_at ?? "").localeCompare(b.created_at ?? "") || a.id.localeCompare(b.id);

/** The lowest id among `ids` the caller is in (a group bucket), or undefined. */
export function lowestShared(ids: readonly string[], groups: readonly string[]): string | undefined {
  const mine = new Set(groups);
  return ids.filter((g) => mine.has(g)).sort()[0];
}

const shares = (ids: readonly string[], groups: readonly string[]) => lowestShared(ids, groups) !== undefined;

/** Whether the account has a gateway at all (an endpoint, and an enabled policy naming an enabled provider). */
export function hasGateway(an: SnapshotAgentNetwork | undefined): an is SnapshotAgentNetwork {
  return !!an && an.endpoint !== "" && routableProviders(an).length > 0;
}

/** Enabled providers an enabled policy names, oldest first. */
export function routableProviders(an: SnapshotAgentNetwork): SnapshotLlmProvider[] {
  const named = new Set(an.policies.filter((p) => p.enabled).flatMap((p) => p.destination_provider_ids));
  return an.providers.filter((p) => p.enabled && named.has(p.id)).sort(byAge);
}

/** Whether a caller with these groups reaches the gateway (is a source of an enabled policy of a routable provider). */
export function reachesGateway(
  an: SnapshotAgentNetwork | undefined,
  groups: readonly string[],
): an is SnapshotAgentNetwork {
  if (!hasGateway(an)) return false;
  return an.policies.some((p) => p.enabled && shares(p.source_groups, groups));
}

/** Whether an enabled policy naming this provider has one of these groups among its sources. */
function authorised(an: SnapshotAgentNetwork, providerId: string, groups: readonly string[]): boolean {
  return an.policies.some(
    (p) => p.enabled && p.destination_provider_ids.includes(providerId) && shares(p.source_groups, groups),
  );
}

/** The models a provider lists (empty: it serves every model not listed by another routable provider). */
const listed = (p: SnapshotLlmProvider) => p.models.map((m) => m.id);

/** The routable providers that serve a model: those listing it, else the catch-alls. */
export function servingProviders(an: SnapshotAgentNetwork, model: string): SnapshotLlmProvider[] {
  const routable = routableProviders(an);
  const explicit = routable.filter((p) => listed(p).includes(model));
  return explicit.length ? explicit : routable.filter((p) => p.models.length === 0);
}

/** The provider a caller's request for a model goes to, or why there is none. */
export function resolveProvider(
  an: SnapshotAgentNetwork,
  groups: readonly string[],
  model: string,
): { provider: SnapshotLlmProvider } | { deny: string } {
  const serving = servingProviders(an, model);
  if (!serving.length) return { deny: DENY.notRoutable };
  const mine = serving.find((p) => authorised(an, p.id, groups));
  return mine ? { provider: mine } : { deny: DENY.noProvider };
}

/** The models a policy permits: undefined = every model, else the union of its enabled allowlists. */
export function permittedModels(an: SnapshotAgentNetwork, policy: SnapshotLlmPolicy): string[] | undefined {
  const lists = policy.guardrail_ids
    .map((id) => an.guardrails.find((g) => g.id === id))
    .filter((g) => g?.model_allowlist.enabled)
    .map((g) => g?.model_allowlist.models ?? []);
  return lists.length ? [...new Set(lists.flat())] : undefined;
}

function permits(an: SnapshotAgentNetwork, policy: SnapshotLlmPolicy, model: string): boolean {
  const list = permittedModels(an, policy);
  return !list || list.some((m) => m.toLowerCase() === model.toLowerCase());
}

const tokenOn = (l: SnapshotLlmLimits) =>
  l.token_limit.enabled && (l.token_limit.group_cap > 0 || l.token_limit.user_cap > 0);
const budgetOn = (l: SnapshotLlmLimits) =>
  l.budget_limit.enabled && (l.budget_limit.group_cap_usd > 0 || l.budget_limit.user_cap_usd > 0);

/** The window a policy's usage is counted in: the token limit's when that half is on, else the budget's; 0: none. */
export function countingWindow(l: SnapshotLlmLimits): number {
  if (tokenOn(l)) return l.token_limit.window_seconds;
  if (budgetOn(l)) return l.budget_limit.window_seconds;
  return 0;
}

/** A policy's budget half that can never bind: its usage is counted in the token limit's (other) window. */
export function budgetNeverCounted(l: SnapshotLlmLimits): boolean {
  return tokenOn(l) && budgetOn(l) && l.token_limit.window_seconds !== l.budget_limit.window_seconds;
}

export function isUncapped(l: SnapshotLlmLimits): boolean {
  return !tokenOn(l) && !budgetOn(l);
}

/** The order in which policies carry a request: uncapped first, then the largest pools, then the oldest. */
export function selectionOrder(a: SnapshotLlmPolicy, b: SnapshotLlmPolicy): number {
  const u = Number(isUncapped(b.limits)) - Number(isUncapped(a.limits));
  if (u) return u;
  const v = (p: SnapshotLlmPolicy) => {
    const t = p.limits.token_limit.enabled ? p.limits.token_limit : { group_cap: 0, user_cap: 0 };
    const m = p.limits.budget_limit.enabled ? p.limits.budget_limit : { group_cap_usd: 0, user_cap_usd: 0 };
    return [t.group_cap, m.group_cap_usd, t.user_cap, m.user_cap_usd];
  };
  const [x, y] = [v(a), v(b)];
  for (let i = 0; i < x.length; i++)
    if ((x[i] as number) !== (y[i] as number)) return (y[i] as number) - (x[i] as number);
  return byAge(a, b);
}

/** The policies that may carry a caller's request to a provider for a model, in the order they are drawn on. */
export function carryingPolicies(
  an: SnapshotAgentNetwork,
  groups: readonly string[],
  providerId: string,
  model: string,
): SnapshotLlmPolicy[] {
  return an.policies
    .filter(
      (p) =>
        p.enabled &&
        p.destination_provider_ids.includes(providerId) &&
        shares(p.source_groups, groups) &&
        permits(an, p, model),
    )
    .sort(selectionOrder);
}

/** Whether a budget rule applies to a caller. */
export function ruleApplies(
  r: SnapshotLlmBudgetRule,
  caller: Pick<LlmCaller, "user_id" | "groups">,
): boolean {
  if (!r.enabled) return false;
  if (!r.target_groups.length && !r.target_users.length) return true;
  return (
    (caller.user_id !== "" && r.target_users.includes(caller.user_id)) ||
    shares(r.target_groups, caller.groups)
  );
}

/** The enabled budget rules that apply to a caller, oldest first. */
export function applicableRules(an: SnapshotAgentNetwork, caller: Pick<LlmCaller, "user_id" | "groups">) {
  return an.budget_rules.filter((r) => ruleApplies(r, caller)).sort(byAge);
}

// ---------------------------------------------------------------------------------------------------------------
// One request against the counters

/** A consumption counter (the API's consumption row): tokens and dollars in one window of one user or group. */
export interface LlmCounter {
  dimension_kind: "user" | "group";
  dimension_id: string;
  window_seconds: number;
  /** RFC 3339, the start of the window (aligned to the Unix epoch). */
  window_start_utc: string;
  tokens_input: number;
  tokens_output: number;
  cost_usd: number;
}

export interface LlmRequest {
  caller: LlmCaller;
  model: string;
  /** When it is sent (ms since the epoch): which windows are current. */
  at: number;
}

export interface LlmDecision {
  allow: boolean;
  /** The service's deny code (see {@link DENY}). */
  deny?: string;
  provider_id?: string;
  /** The policy that carries an allowed request. */
  policy_id?: string;
  /** The caller's groups among that policy's sources (what the access log calls the authorising groups). */
  group_ids?: string[];
  /** The policy's group bucket for this caller. */
  attribution_group?: string;
  /** The budget rule or policy whose spent cap refused the request. */
  spent?: { kind: "budget rule" | "policy"; id: string; name: string };
}

/** The start (ms) of the window of this length holding `at`, windows aligned to the Unix epoch. */
export function windowStart(at: number, windowSeconds: number): number {
  const w = windowSeconds * 1000;
  return Math.floor(at / w) * w;
}

const key = (kind: string, id: string, window: number, start: number) =>
  `${kind}\u0000${id}\u0000${window}\u0000${start}`;

function counterIndex(counters: readonly LlmCounter[]): Map<string, LlmCounter> {
  return new Map(
    counters.map((c) => [
      key(c.dimension_kind, c.dimension_id, c.window_seconds, Date.parse(c.window_start_utc)),
      c,
    ]),
  );
}

/** Whether a half is spent for a caller: a user cap or a group cap whose counter has reached it. */
function spent(
  index: Map<string, LlmCounter>,
  at: number,
  half: "token" | "budget",
  l: SnapshotLlmLimits,
  user: string,
  bucket: string | undefined,
): boolean {
  const h = half === "token" ? l.token_limit : l.budget_limit;
  if (!h.enabled) return false;
  const [gcap, ucap] =
    half === "token"
      ? [l.token_limit.group_cap, l.token_limit.user_cap]
      : [l.budget_limit.group_cap_usd, l.budget_limit.user_cap_usd];
  const start = windowStart(at, h.window_seconds);
  const used = (kind: string, id: string) => {
    const c = index.get(key(kind, id, h.window_seconds, start));
    if (!c) return 0;
    return half === "token" ? c.tokens_input + c.tokens_output : c.cost_usd;
  };
  if (ucap > 0 && user !== "" && used("user", user) >= ucap) return true;
  return gcap > 0 && bucket !== undefined && used("group", bucket) >= gcap;
}

/** What the gateway decides for one request, given the counters as they stand (the API's consumption rows). */
export function decideLlmRequest(
  an: SnapshotAgentNetwork | undefined,
  counters: readonly LlmCounter[],
  req: LlmRequest,
): LlmDecision {
  const { caller, model, at } = req;
  if (!reachesGateway(an, caller.groups)) return { allow: false, deny: DENY.noGateway };
  const route = resolveProvider(an, caller.groups, model);
  if ("deny" in route) return { allow: false, deny: route.deny };
  const provider = route.provider;
  const index = counterIndex(counters);
  for (const r of applicableRules(an, caller)) {
    const bucket = lowestShared(r.target_groups, caller.groups);
    const who = { kind: "budget rule" as const, id: r.id, name: r.name };
    if (spent(index, at, "token", r.limits, caller.user_id, bucket))
      return { allow: false, deny: DENY.accountTokens, provider_id: provider.id, spent: who };
    if (spent(index, at, "budget", r.limits, caller.user_id, bucket))
      return { allow: false, deny: DENY.accountBudget, provider_id: provider.id, spent: who };
  }
  const candidates = an.policies.filter(
    (p) =>
      p.enabled && p.destination_provider_ids.includes(provider.id) && shares(p.source_groups, caller.groups),
  );
  const carrying = carryingPolicies(an, caller.groups, provider.id, model);
  if (candidates.length && !carrying.length)
    return { allow: false, deny: DENY.modelBlocked, provider_id: provider.id };
  let last: LlmDecision | undefined;
  for (const p of carrying) {
    const bucket = lowestShared(p.source_groups, caller.groups);
    const who = { kind: "policy" as const, id: p.id, name: p.name };
    if (spent(index, at, "token", p.limits, caller.user_id, bucket))
      last = { allow: false, deny: DENY.policyTokens, provider_id: provider.id, spent: who };
    else if (spent(index, at, "budget", p.limits, caller.user_id, bucket))
      last = { allow: false, deny: DENY.policyBudget, provider_id: provider.id, spent: who };
    else
      return {
        allow: true,
        provider_id: provider.id,
        policy_id: p.id,
        group_ids: p.source_groups.filter((g) => caller.groups.includes(g)).sort(),
        ...(bucket ? { attribution_group: bucket } : {}),
      };
  }
  return last ?? { allow: true, provider_id: provider.id };
}

/** One counter a served request adds to: a user or a group bucket, over windows of one length. */
export interface LlmCounterKey {
  dimension_kind: LlmCounter["dimension_kind"];
  dimension_id: string;
  window_seconds: number;
}

/**
 * The counters a served request adds to: the carrying policy's at its counting window (the user and its group
 * bucket; none for an uncapped policy), and every applicable rule's at each enabled half's window (the user, and
 * the rule's group bucket when it has one); each counter once. None for a refused request.
 */
export function usageCounters(
  an: SnapshotAgentNetwork,
  req: Pick<LlmRequest, "caller">,
  decision: LlmDecision,
): LlmCounterKey[] {
  if (!decision.allow) return [];
  const { caller } = req;
  const out = new Map<string, LlmCounterKey>();
  const add = (kind: LlmCounter["dimension_kind"], id: string | undefined, window: number) => {
    if (!id || !(window > 0)) return;
    out.set(key(kind, id, window, 0), { dimension_kind: kind, dimension_id: id, window_seconds: window });
  };
  const policy = an.policies.find((p) => p.id === decision.policy_id);
  if (policy) {
    const w = countingWindow(policy.limits);
    add("user", caller.user_id, w);
    add("group", decision.attribution_group, w);
  }
  for (const r of applicableRules(an, caller)) {
    const bucket = lowestShared(r.target_groups, caller.groups);
    for (const h of [r.limits.token_limit, r.limits.budget_limit]) {
      if (!h.enabled) continue;
      add("user", caller.user_id, h.window_seconds);
      add("group", bucket, h.window_seconds);
    }
  }
  return [...out.values()];
}

/**
 * The counters after an allowed request of these tokens and cost: each of {@link usageCounters} in the window
 * holding the request's time, added to once.
 */
export function recordLlmUsage(
  an: SnapshotAgentNetwork,
  counters: readonly LlmCounter[],
  req: LlmRequest,
  decision: LlmDecision,
  usage: { tokens_input: number; tokens_output: number; cost_usd: number },
): LlmCounter[] {
  const { at } = req;
  const out = counters.map((c) => ({ ...c }));
  const index = counterIndex(out);
  for (const { dimension_kind: kind, dimension_id: id, window_seconds: window } of usageCounters(
    an,
    req,
    decision,
  )) {
    const k = key(kind, id, window, windowStart(at, window));
    let c = index.get(k);
    if (!c) {
      c = {
        dimension_kind: kind,
        dimension_id: id,
        window_seconds: window,
        window_start_utc: new Date(windowStart(at, window)).toISOString().replace(".000Z", "Z"),
        tokens_input: 0,
        tokens_output: 0,
        cost_usd: 0,
      };
      out.push(c);
      index.set(k, c);
    }
    c.tokens_input += usage.tokens_input;
    c.tokens_output += usage.tokens_output;
    c.cost_usd += usage.cost_usd;
  }
  return out;
}

/**
 * What a request of these tokens costs through a provider: the provider's own price for the model, else the
 * catalog entry's default price, else nothing (a model the service has no price for is metered at $0).
 */
export function priceOf(
  an: SnapshotAgentNetwork,
  providerId: string,
  model: string,
  tokens: { tokens_input: number; tokens_output: number },
): number {
  const p = an.providers.find((x) => x.id === providerId);
  const rates: SnapshotLlmModel | undefined =
    p?.models.find((m) => m.id === model) ??
    an.catalog?.find((c) => c.id === p?.provider_id)?.models.find((m) => m.id === model);
  if (!rates) return 0;
  return (tokens.tokens_input * rates.input_per_1k + tokens.tokens_output * rates.output_per_1k) / 1000;
}

// ---------------------------------------------------------------------------------------------------------------
// The static answer: what each caller may use, and the caps

/** A set of models: the ones listed, or every model but some. */
export type ModelSet = { any: false; models: string[] } | { any: true; except: string[] };

/** One policy's grant to a group: a provider and the models it may serve them, and the policy's caps. */
export interface LlmGrant {
  group: { id: string; name: string };
  provider: { id: string; name: string; catalog: string };
  policy: { id: string; name: string };
  models: ModelSet;
  limits: SnapshotLlmLimits;
}

/** The models a caller (its groups) may use through a provider under one policy (routing and allowlists). */
export function grantModels(
  an: SnapshotAgentNetwork,
  groups: readonly string[],
  provider: SnapshotLlmProvider,
  policy: SnapshotLlmPolicy,
): ModelSet {
  const routable = routableProviders(an);
  const allowlist = permittedModels(an, policy);
  // A listed model goes to this provider when no older routable provider the caller may use lists it too.
  const mine = (m: string) => {
    const r = resolveProvider(an, groups, m);
    return "provider" in r && r.provider.id === provider.id;
  };
  if (provider.models.length) {
    const allowed = (m: string) => !allowlist || allowlist.some((a) => a.toLowerCase() === m.toLowerCase());
    const models = listed(provider).filter((m) => mine(m) && allowed(m));
    return { any: false, models };
  }
  // A catch-all: every model no routable provider lists (those go to the listing ones), and no older catch-all the
  // caller may use takes.
  const olderCatchAll = routable.find((p) => p.models.length === 0 && authorised(an, p.id, groups));
  if (olderCatchAll && olderCatchAll.id !== provider.id) return { any: false, models: [] };
  const taken = [...new Set(routable.flatMap(listed))].sort();
  if (allowlist) return { any: false, models: allowlist.filter((m) => !taken.includes(m)) };
  return { any: true, except: taken };
}

export function isEmptySet(s: ModelSet): boolean {
  return !s.any && s.models.length === 0;
}

/** Whether a set holds a model. */
export function holds(s: ModelSet, model: string): boolean {
  return s.any ? !s.except.includes(model) : s.models.includes(model);
}

/**
 * Every grant of the account: for each enabled policy and each of its source groups, each routable provider it
 * names and the models a member of that group (in no other group) may use through it under that policy. A grant
 * that leaves no model (another provider serves them all, or the allowlist names none the provider serves) is left
 * out. Snapshot order of policies, their groups and providers.
 */
export function llmGrants(snapshot: AccountSnapshot): LlmGrant[] {
  const an = snapshot.agent_network;
  if (!hasGateway(an)) return [];
  const routable = new Map(routableProviders(an).map((p) => [p.id, p]));
  const all = snapshot.groups.find((g) => g.all)?.id;
  const out: LlmGrant[] = [];
  for (const policy of an.policies) {
    if (!policy.enabled) continue;
    for (const gid of policy.source_groups) {
      const g = snapshot.groups.find((x) => x.id === gid);
      if (!g) continue;
      const groups = all && all !== gid ? [gid, all] : [gid];
      for (const pid of policy.destination_provider_ids) {
        const provider = routable.get(pid);
        if (!provider) continue;
        const models = grantModels(an, groups, provider, policy);
        if (isEmptySet(models)) continue;
        out.push({
          group: { id: g.id, name: g.name },
          provider: { id: provider.id, name: provider.name, catalog: provider.provider_id },
          policy: { id: policy.id, name: policy.name },
          models,
          limits: policy.limits,
        });
      }
    }
  }
  return out;
}

/** What one caller may use: each provider and the models, with the policies that may carry them. */
export interface CallerUse {
  provider: SnapshotLlmProvider;
  models: ModelSet;
  policies: SnapshotLlmPolicy[];
}

/** Everything a caller may use through the gateway (nothing when it does not reach it). */
export function callerUse(
  an: SnapshotAgentNetwork | undefined,
  caller: Pick<LlmCaller, "groups">,
): CallerUse[] {
  if (!reachesGateway(an, caller.groups)) return [];
  const out: CallerUse[] = [];
  for (const provider of routableProviders(an)) {
    const policies = an.policies
      .filter(
        (p) =>
          p.enabled &&
          p.destination_provider_ids.includes(provider.id) &&
          shares(p.source_groups, caller.groups),
      )
      .sort(selectionOrder);
    const sets = policies.map((p) => ({ p, s: grantModels(an, caller.groups, provider, p) }));
    const used = sets.filter((x) => !isEmptySet(x.s));
    if (!used.length) continue;
    out.push({ provider, models: unionOf(used.map((x) => x.s)), policies: used.map((x) => x.p) });
  }
  return out;
}

/** The union of model sets. */
export function unionOf(sets: readonly ModelSet[]): ModelSet {
  const anys = sets.filter((s): s is Extract<ModelSet, { any: true }> => s.any);
  const lists = sets.flatMap((s) => (s.any ? [] : s.models));
  if (anys.length) {
    const except = (anys[0] as { except: string[] }).except.filter(
      (m) => anys.every((s) => s.except.includes(m)) && !lists.includes(m),
    );
    return { any: true, except };
  }
  return { any: false, models: [...new Set(lists)] };
}

// ---------------------------------------------------------------------------------------------------------------
// Ceilings: the most the caps let a caller (or a group's members together) use in a period

/** A counter the caps read, and the largest cap read on it. */
export interface CapCounter {
  dimension_kind: "user" | "group";
  dimension_id: string;
  window_seconds: number;
  cap: number;
  /** The policies and budget rules whose caps are read on it. */
  by: { kind: "policy" | "budget rule"; id: string; name: string }[];
}

export interface Ceiling {
  /** undefined: no cap bounds it. */
  limit?: number;
  /** The counters whose caps make the bound (or, when unbounded, the policies that carry requests without a cap). */
  counters: CapCounter[];
  /** When unbounded: the policies that let requests through without such a cap. */
  uncapped: { id: string; name: string }[];
}

/** The most windows of this length a period of `periodSeconds` (starting at a window-aligned multiple of it) meets. */
export function windowsIn(periodSeconds: number, windowSeconds: number): number {
  const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
  const g = gcd(periodSeconds, windowSeconds);
  return Math.floor((windowSeconds - g + periodSeconds - 1) / windowSeconds) + 1;
}

type Unit = "usd" | "tokens";

function halfOf(
  l: SnapshotLlmLimits,
  unit: Unit,
): { group: number; user: number; window: number } | undefined {
  if (unit === "tokens")
    return l.token_limit.enabled
      ? { group: l.token_limit.group_cap, user: l.token_limit.user_cap, window: l.token_limit.window_seconds }
      : undefined;
  return l.budget_limit.enabled
    ? {
        group: l.budget_limit.group_cap_usd,
        user: l.budget_limit.user_cap_usd,
        window: l.budget_limit.window_seconds,
      }
    : undefined;
}

/**
 * The most a set of callers can use in a period, in dollars or tokens, as the caps bound it: an upper bound (the
 * request that crosses a cap is served, so each counter may pass its cap by one request). `groupOnly`: count only
 * group buckets (a group's members together: user caps do not bound how many members there are).
 */
export function ceilingOf(
  an: SnapshotAgentNetwork | undefined,
  callers: readonly LlmCaller[],
  unit: Unit,
  periodSeconds: number,
  groupOnly: boolean,
): Ceiling {
  const chosen = new Map<string, CapCounter>();
  const uncapped = new Map<string, { id: string; name: string }>();
  const pick = (into: Map<string, CapCounter>, c: CapCounter) => {
    const k = `${c.dimension_kind}\u0000${c.dimension_id}\u0000${c.window_seconds}`;
    const had = into.get(k);
    if (!had) into.set(k, { ...c, by: [...c.by] });
    else {
      had.cap = Math.max(had.cap, c.cap);
      for (const b of c.by) if (!had.by.some((x) => x.id === b.id)) had.by.push(b);
    }
  };
  const bound = (cs: Iterable<CapCounter>) => {
    let t = 0;
    for (const c of cs) t += c.cap * windowsIn(periodSeconds, c.window_seconds);
    return t;
  };
  for (const caller of callers) {
    const use = callerUse(an, caller);
    if (!use.length || !an) continue;
    /** The cheapest counter of one cap-holder for this caller (a user cap or its group bucket). */
    const best = (
      l: SnapshotLlmLimits,
      window: number,
      groupIds: readonly string[],
      who: CapCounter["by"][number],
    ): CapCounter | undefined => {
      const h = halfOf(l, unit);
      if (!h) return undefined;
      const options: CapCounter[] = [];
      const bucket = lowestShared(groupIds, caller.groups);
      if (h.group > 0 && bucket)
        options.push({
          dimension_kind: "group",
          dimension_id: bucket,
          window_seconds: window,
          cap: h.group,
          by: [who],
        });
      if (h.user > 0 && !groupOnly && caller.user_id !== "")
        options.push({
          dimension_kind: "user",
          dimension_id: caller.user_id,
          window_seconds: window,
          cap: h.user,
          by: [who],
        });
      return options.sort((a, b) => bound([a]) - bound([b]))[0];
    };
    // Budget rules bind every request of the caller: the tightest one bounds it all.
    const ruleBest = applicableRules(an, caller)
      .map((r) =>
        best(r.limits, halfOf(r.limits, unit)?.window ?? 0, r.target_groups, {
          kind: "budget rule",
          id: r.id,
          name: r.name,
        }),
      )
      .filter((c): c is CapCounter => !!c)
      .sort((a, b) => bound([a]) - bound([b]))[0];
    // Policies: a request is refused only once every policy that may carry it is spent.
    const family = new Map<string, CapCounter>();
    let open: { id: string; name: string } | undefined;
    for (const u of use)
      for (const p of u.policies) {
        const window = countingWindow(p.limits);
        const h = halfOf(p.limits, unit);
        // The budget half of a policy counted in its token window never binds.
        const c =
          unit === "usd" && budgetNeverCounted(p.limits)
            ? undefined
            : best(p.limits, window, p.source_groups, { kind: "policy", id: p.id, name: p.name });
        if (!c || !h) open ??= { id: p.id, name: p.name };
        else pick(family, c);
      }
    if (ruleBest && (open || bound([ruleBest]) <= bound(family.values()))) pick(chosen, ruleBest);
    else if (open) uncapped.set(open.id, open);
    else for (const c of family.values()) pick(chosen, c);
  }
  if (uncapped.size) return { counters: [...chosen.values()], uncapped: [...uncapped.values()] };
  return { limit: bound(chosen.values()), counters: [...chosen.values()], uncapped: [] };
}

/** The caller a member of a group is (its groups: that group and All), for a group with no peer to speak for it. */
export function memberOf(snapshot: AccountSnapshot, groupId: string): LlmCaller {
  const all = snapshot.groups.find((g) => g.all)?.id;
  const name = snapshot.groups.find((g) => g.id === groupId)?.name ?? groupId;
  return {
    name: `a member of ${name}`,
    user_id: "",
    groups: all && all !== groupId ? [groupId, all] : [groupId],
  };
}

/** The caller a peer is: its groups (All included) and the user it is metered under. */
export function peerCaller(snapshot: AccountSnapshot, peerId: string): LlmCaller {
  const p = snapshot.peers.find((x) => x.id === peerId);
  const groups = snapshot.groups.filter((g) => g.all || g.peers.includes(peerId)).map((g) => g.id);
  return { peer_id: peerId, name: p?.name ?? peerId, user_id: p?.user_id || peerId, groups };
}
