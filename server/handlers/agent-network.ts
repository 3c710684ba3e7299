/**
 * Agent Networks (the service's own OpenAPI document; not in the spec): the account's gateway settings, its LLM
 * providers, the policies that let groups use them, guardrails, budget rules, and the reads of what the gateway
 * metered. What the service answers was recorded from its reference server
 * (docs/reference-answers-agent-networks.md) and these handlers answer the same, with the deliberate differences
 * listed there: unknown group, user and guardrail ids are refused, and a guardrail or group still named by a
 * policy or budget rule cannot be deleted.
 *
 * A provider's API key is write-only: sealed in the database (server/secrets.ts), never in an answer, an audit
 * event or a log. An update without a key (or with an empty one) keeps the stored key.
 *
 * The metered requests themselves come from the simulated gateway (server/sim-llm.ts, `privnet-server sim llm`);
 * this module stores them (kind `agent_network_request`) and answers the reads from them: consumption counters,
 * usage buckets, access logs and sessions are sums over the same records.
 */
import { randomInt } from "node:crypto";
import {
  normalHostname,
  type AgentNetworkBudgetRuleRequestSchema,
  type AgentNetworkGuardrailRequestSchema,
  type AgentNetworkLimitsSchema,
  type AgentNetworkPolicyRequestSchema,
  type AgentNetworkProviderRequestSchema,
  type AgentNetworkSettingsCreateSchema,
  type AgentNetworkSettingsRequestSchema,
} from "../../api/agent-network";
import { AGENT_NETWORK_CATALOG } from "../../api/agent-network-catalog";
import type { z } from "../../api/common";
import { iso } from "../clock";
import type { Ctx, Handlers, StoredKinds } from "../context";
import { audit, auditWrite, groupLists, mustGet, requireRefs, type Reader } from "../domain";
import { conflict, invalid, notFound, preconditionFailed } from "../errors";
import { newId } from "../ids";
import type { Doc, Tx } from "../store";

type SettingsCreate = z.infer<typeof AgentNetworkSettingsCreateSchema>;
type SettingsRequest = z.infer<typeof AgentNetworkSettingsRequestSchema>;
type ProviderRequest = z.infer<typeof AgentNetworkProviderRequestSchema>;
type PolicyRequest = z.infer<typeof AgentNetworkPolicyRequestSchema>;
type GuardrailRequest = z.infer<typeof AgentNetworkGuardrailRequestSchema>;
type BudgetRuleRequest = z.infer<typeof AgentNetworkBudgetRuleRequestSchema>;
type LimitsRequest = z.infer<typeof AgentNetworkLimitsSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Stored documents

/** The one settings document (kind "agent_network_settings", id {@link SETTINGS_ID}). */
export interface AgentNetworkSettingsDoc extends Doc {
  endpoint: string;
  proxy_address: string;
  dedicated: boolean;
  enable_log_collection: boolean;
  enable_prompt_collection: boolean;
  redact_pii: boolean;
  access_log_retention_days: number;
  created_at: string;
  updated_at: string;
}

export interface ProviderModelDoc {
  id: string;
  input_per_1k: number;
  output_per_1k: number;
  cached_input_per_1k?: number;
  cache_read_per_1k?: number;
  cache_creation_per_1k?: number;
}

/** A provider (kind "agent_network_provider"); `api_key` is sealed in the database and never answered. */
export interface AgentNetworkProviderDoc extends Doc {
  provider_id: string;
  name: string;
  upstream_url: string;
  api_key: string;
  models: ProviderModelDoc[];
  extra_values: Record<string, string>;
  identity_header_user_id: string;
  identity_header_groups: string;
  enabled: boolean;
  skip_tls_verification: boolean;
  metadata_disabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface LimitsDoc {
  token_limit: { enabled: boolean; group_cap: number; user_cap: number; window_seconds: number };
  budget_limit: { enabled: boolean; group_cap_usd: number; user_cap_usd: number; window_seconds: number };
}

export interface AgentNetworkPolicyDoc extends Doc {
  name: string;
  description: string;
  enabled: boolean;
  source_groups: string[];
  destination_provider_ids: string[];
  guardrail_ids: string[];
  limits: LimitsDoc;
  created_at: string;
  updated_at: string;
}

export interface AgentNetworkGuardrailDoc extends Doc {
  name: string;
  description: string;
  checks: {
    model_allowlist: { enabled: boolean; models: string[] };
    prompt_capture: { enabled: boolean; redact_pii: boolean };
  };
  created_at: string;
  updated_at: string;
}

export interface AgentNetworkBudgetRuleDoc extends Doc {
  name: string;
  enabled: boolean;
  target_groups: string[];
  target_users: string[];
  limits: LimitsDoc;
  created_at: string;
  updated_at: string;
}

/** One counter a request counts in: a user or a group, over windows of one length. */
export interface CounterDim {
  kind: "user" | "group";
  id: string;
  window_seconds: number;
}

/**
 * One request through the (simulated) gateway, allowed or refused (kind "agent_network_request"): what the
 * access log, the sessions, the usage buckets and the consumption counters are made of.
 */
export interface AgentNetworkRequestDoc extends Doc {
  timestamp: string;
  /** Whether the access log keeps it (the settings' log collection was on); usage counts it either way. */
  logged: boolean;
  status_code: number;
  duration_ms: number;
  user_id: string;
  source_ip: string;
  method: string;
  host: string;
  path: string;
  provider: string;
  model: string;
  session_id: string;
  resolved_provider_id: string;
  selected_policy_id: string;
  decision: "allow" | "deny";
  deny_reason: string;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  cache_creation_tokens: number;
  input_cost_usd: number;
  cached_input_cost_usd: number;
  cache_creation_cost_usd: number;
  output_cost_usd: number;
  stream: boolean;
  group_ids: string[];
  /** The counters an allowed request adds to. */
  counters: CounterDim[];
  request_prompt?: string;
  response_completion?: string;
}

export const SETTINGS_ID = "settings";

// ---------------------------------------------------------------------------------------------------------------
// Settings

const SETTINGS_DEFAULTS = {
  endpoint: "",
  proxy_address: "",
  dedicated: false,
  enable_log_collection: true,
  enable_prompt_collection: false,
  redact_pii: false,
  access_log_retention_days: 30,
};

/** The settings as stored, or undefined before the bootstrap. */
export function agentNetworkSettings(r: Reader): AgentNetworkSettingsDoc | undefined {
  return r.get<AgentNetworkSettingsDoc>("agent_network_settings", SETTINGS_ID);
}

function settingsView(d: AgentNetworkSettingsDoc | undefined) {
  if (!d) return { ...SETTINGS_DEFAULTS };
  return {
    endpoint: d.endpoint,
    proxy_address: d.proxy_address,
    dedicated: d.dedicated,
    enable_log_collection: d.enable_log_collection,
    enable_prompt_collection: d.enable_prompt_collection,
    redact_pii: d.redact_pii,
    access_log_retention_days: d.access_log_retention_days,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

// Our own words for the label the server puts in front of a proxy address (`calm-heron.proxy.example.com`).
const LABEL_FIRST = [
  "amber",
  "brisk",
  "calm",
  "clever",
  "eager",
  "gentle",
  "hardy",
  "jolly",
  "keen",
  "lively",
  "mellow",
  "nimble",
  "plucky",
  "quiet",
  "rapid",
  "steady",
  "sunny",
  "tidy",
  "vivid",
  "witty",
];
const LABEL_SECOND = [
  "badger",
  "cedar",
  "comet",
  "falcon",
  "fern",
  "harbor",
  "heron",
  "lantern",
  "maple",
  "meadow",
  "otter",
  "pebble",
  "quarry",
  "river",
  "saffron",
  "spruce",
  "thistle",
  "walnut",
  "willow",
  "wren",
];

function newLabel(): string {
  return `${LABEL_FIRST[randomInt(LABEL_FIRST.length)]}-${LABEL_SECOND[randomInt(LABEL_SECOND.length)]}`;
}

function notBootstrapped(what: string) {
  return notFound(
    `agent network settings are not bootstrapped yet; ${what} (POST /api/agent-network/settings bootstraps them)`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Limits

function limitsDoc(l: LimitsRequest | undefined): LimitsDoc {
  const t = l?.token_limit;
  const b = l?.budget_limit;
  return {
    token_limit: {
      enabled: t?.enabled ?? false,
      group_cap: t?.group_cap ?? 0,
      user_cap: t?.user_cap ?? 0,
      window_seconds: t?.window_seconds ?? 0,
    },
    budget_limit: {
      enabled: b?.enabled ?? false,
      group_cap_usd: b?.group_cap_usd ?? 0,
      user_cap_usd: b?.user_cap_usd ?? 0,
      window_seconds: b?.window_seconds ?? 0,
    },
  };
}

const limitsView = (l: LimitsDoc) => ({
  token_limit: { ...l.token_limit },
  budget_limit: { ...l.budget_limit },
});

// ---------------------------------------------------------------------------------------------------------------
// Providers

function providerView(d: AgentNetworkProviderDoc) {
  return {
    id: d.id,
    provider_id: d.provider_id,
    name: d.name,
    upstream_url: d.upstream_url,
    models: d.models.map((m) => ({ ...m })),
    ...(Object.keys(d.extra_values).length ? { extra_values: { ...d.extra_values } } : {}),
    identity_header_user_id: d.identity_header_user_id,
    identity_header_groups: d.identity_header_groups,
    enabled: d.enabled,
    skip_tls_verification: d.skip_tls_verification,
    metadata_disabled: d.metadata_disabled,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

function modelDoc(m: NonNullable<ProviderRequest["models"]>[number]): ProviderModelDoc {
  const out: ProviderModelDoc = {
    id: m.id,
    input_per_1k: m.input_per_1k ?? 0,
    output_per_1k: m.output_per_1k ?? 0,
  };
  if (m.cached_input_per_1k !== undefined) out.cached_input_per_1k = m.cached_input_per_1k;
  if (m.cache_read_per_1k !== undefined) out.cache_read_per_1k = m.cache_read_per_1k;
  if (m.cache_creation_per_1k !== undefined) out.cache_creation_per_1k = m.cache_creation_per_1k;
  return out;
}

function writeProvider(tx: Tx, ctx: Ctx, existing?: AgentNetworkProviderDoc) {
  const body = ctx.body as ProviderRequest;
  const ts = iso(ctx.now);
  // The service keeps the stored key when an update sends none; an empty key is none.
  const apiKey = body.api_key ? body.api_key : existing?.api_key;
  if (!apiKey) throw invalid("api_key: is required");
  const doc: AgentNetworkProviderDoc = {
    id: existing?.id ?? newId(),
    provider_id: body.provider_id,
    name: body.name,
    upstream_url: body.upstream_url,
    api_key: apiKey,
    models: (body.models ?? []).map(modelDoc),
    // An empty value means no header: the service drops it.
    extra_values: Object.fromEntries(Object.entries(body.extra_values ?? {}).filter(([, v]) => v !== "")),
    identity_header_user_id: body.identity_header_user_id ?? "",
    identity_header_groups: body.identity_header_groups ?? "",
    enabled: body.enabled ?? false,
    skip_tls_verification: body.skip_tls_verification ?? false,
    metadata_disabled: body.metadata_disabled ?? false,
    created_at: existing?.created_at ?? ts,
    updated_at: ts,
  };
  tx.put("agent_network_provider", doc);
  auditWrite(tx, ctx, existing, "agent_network.provider", "Agent Network provider", doc.id, {
    name: doc.name,
    provider_id: doc.provider_id,
  });
  return providerView(doc);
}

const mustGetProvider = (r: Reader, id: string) =>
  mustGet<AgentNetworkProviderDoc>(r, "agent_network_provider", id, "agent network provider");

// ---------------------------------------------------------------------------------------------------------------
// Guardrails

function guardrailView(d: AgentNetworkGuardrailDoc) {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    checks: {
      model_allowlist: {
        enabled: d.checks.model_allowlist.enabled,
        models: [...d.checks.model_allowlist.models],
      },
      prompt_capture: { ...d.checks.prompt_capture },
    },
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

function writeGuardrail(tx: Tx, ctx: Ctx, existing?: AgentNetworkGuardrailDoc) {
  const body = ctx.body as GuardrailRequest;
  const ts = iso(ctx.now);
  const list = body.checks?.model_allowlist;
  const capture = body.checks?.prompt_capture;
  const doc: AgentNetworkGuardrailDoc = {
    id: existing?.id ?? `ainguard_${newId()}`,
    name: body.name,
    description: body.description ?? "",
    checks: {
      model_allowlist: { enabled: list?.enabled ?? false, models: [...(list?.models ?? [])] },
      prompt_capture: { enabled: capture?.enabled ?? false, redact_pii: capture?.redact_pii ?? false },
    },
    created_at: existing?.created_at ?? ts,
    updated_at: ts,
  };
  tx.put("agent_network_guardrail", doc);
  auditWrite(tx, ctx, existing, "agent_network.guardrail", "Agent Network guardrail", doc.id, {
    name: doc.name,
  });
  return guardrailView(doc);
}

const mustGetGuardrail = (r: Reader, id: string) =>
  mustGet<AgentNetworkGuardrailDoc>(r, "agent_network_guardrail", id, "agent network guardrail");

// ---------------------------------------------------------------------------------------------------------------
// Policies

function policyView(d: AgentNetworkPolicyDoc) {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    enabled: d.enabled,
    source_groups: [...d.source_groups],
    destination_provider_ids: [...d.destination_provider_ids],
    guardrail_ids: [...d.guardrail_ids],
    limits: limitsView(d.limits),
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

function writePolicy(tx: Tx, ctx: Ctx, existing?: AgentNetworkPolicyDoc) {
  const body = ctx.body as PolicyRequest;
  requireRefs(
    tx,
    "agent_network_provider",
    body.destination_provider_ids,
    "destination_provider_ids",
    "agent network provider",
  );
  requireRefs(tx, "group", body.source_groups, "source_groups", "group");
  requireRefs(tx, "agent_network_guardrail", body.guardrail_ids, "guardrail_ids", "agent network guardrail");
  const ts = iso(ctx.now);
  const doc: AgentNetworkPolicyDoc = {
    id: existing?.id ?? `ainpol_${newId()}`,
    name: body.name,
    description: body.description ?? "",
    // A create defaults to enabled; a replace that leaves it out disables (the service's PUT replaces whole).
    enabled: body.enabled ?? !existing,
    source_groups: [...body.source_groups],
    destination_provider_ids: [...body.destination_provider_ids],
    guardrail_ids: [...(body.guardrail_ids ?? [])],
    limits: limitsDoc(body.limits),
    created_at: existing?.created_at ?? ts,
    updated_at: ts,
  };
  tx.put("agent_network_policy", doc);
  auditWrite(tx, ctx, existing, "agent_network.policy", "Agent Network policy", doc.id, {
    name: doc.name,
    enabled: String(doc.enabled),
  });
  return policyView(doc);
}

const mustGetPolicy = (r: Reader, id: string) =>
  mustGet<AgentNetworkPolicyDoc>(r, "agent_network_policy", id, "agent network policy");

// ---------------------------------------------------------------------------------------------------------------
// Budget rules

function budgetRuleView(d: AgentNetworkBudgetRuleDoc) {
  return {
    id: d.id,
    name: d.name,
    enabled: d.enabled,
    target_groups: [...d.target_groups],
    target_users: [...d.target_users],
    limits: limitsView(d.limits),
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

function writeBudgetRule(tx: Tx, ctx: Ctx, existing?: AgentNetworkBudgetRuleDoc) {
  const body = ctx.body as BudgetRuleRequest;
  requireRefs(tx, "group", body.target_groups, "target_groups", "group");
  requireRefs(tx, "user", body.target_users, "target_users", "user");
  const ts = iso(ctx.now);
  const doc: AgentNetworkBudgetRuleDoc = {
    id: existing?.id ?? `ainbud_${newId()}`,
    name: body.name,
    enabled: body.enabled ?? !existing,
    target_groups: [...(body.target_groups ?? [])],
    target_users: [...(body.target_users ?? [])],
    limits: limitsDoc(body.limits),
    created_at: existing?.created_at ?? ts,
    updated_at: ts,
  };
  tx.put("agent_network_budget_rule", doc);
  auditWrite(tx, ctx, existing, "agent_network.budget_rule", "Agent Network budget rule", doc.id, {
    name: doc.name,
    enabled: String(doc.enabled),
  });
  return budgetRuleView(doc);
}

const mustGetBudgetRule = (r: Reader, id: string) =>
  mustGet<AgentNetworkBudgetRuleDoc>(r, "agent_network_budget_rule", id, "agent network budget rule");

// ---------------------------------------------------------------------------------------------------------------
// What the gateway metered

const round = (n: number) => Math.round(n * 1e9) / 1e9;

/** The cost members of a request or of a sum of requests. */
function costsOf(rs: readonly AgentNetworkRequestDoc[]) {
  const sum = (f: (r: AgentNetworkRequestDoc) => number) => rs.reduce((a, r) => a + f(r), 0);
  const input = sum((r) => r.input_cost_usd);
  const cached = sum((r) => r.cached_input_cost_usd);
  const creation = sum((r) => r.cache_creation_cost_usd);
  const output = sum((r) => r.output_cost_usd);
  const inTok = sum((r) => r.input_tokens);
  const outTok = sum((r) => r.output_tokens);
  const cachedTok = sum((r) => r.cached_input_tokens);
  const creationTok = sum((r) => r.cache_creation_tokens);
  return {
    input_tokens: inTok,
    output_tokens: outTok,
    total_tokens: inTok + outTok + cachedTok + creationTok,
    cached_input_tokens: cachedTok,
    cache_creation_tokens: creationTok,
    input_cost_usd: round(input),
    cached_input_cost_usd: round(cached),
    cache_creation_cost_usd: round(creation),
    output_cost_usd: round(output),
    cost_usd: round(input + cached + creation + output),
    cache_cost_usd: round(cached + creation),
  };
}

function accessLogView(d: AgentNetworkRequestDoc) {
  const out: Record<string, unknown> = {
    id: d.id,
    service_id: "agent-network",
    timestamp: d.timestamp,
    status_code: d.status_code,
    duration_ms: d.duration_ms,
    user_id: d.user_id,
    source_ip: d.source_ip,
    method: d.method,
    host: d.host,
    path: d.path,
    provider: d.provider,
    model: d.model,
    session_id: d.session_id,
    resolved_provider_id: d.resolved_provider_id,
    selected_policy_id: d.selected_policy_id,
    decision: d.decision,
    ...(d.deny_reason ? { deny_reason: d.deny_reason } : {}),
    ...costsOf([d]),
    stream: d.stream,
    group_ids: [...d.group_ids],
  };
  if (d.request_prompt !== undefined) out.request_prompt = d.request_prompt;
  if (d.response_completion !== undefined) out.response_completion = d.response_completion;
  return out;
}

/** The window of length `seconds` that holds `ms`, aligned to the Unix epoch. */
export function windowStart(ms: number, seconds: number): number {
  const w = seconds * 1000;
  return Math.floor(ms / w) * w;
}

/** Every recorded request, oldest first. */
export function agentNetworkRequests(r: Reader): AgentNetworkRequestDoc[] {
  return r.all<AgentNetworkRequestDoc>("agent_network_request");
}

/**
 * The consumption counters: one per (dimension, window length, window), summed over the allowed requests that
 * count in it; newest window first, then user before group, then by id.
 */
export function consumptionCounters(r: Reader) {
  const rows = new Map<
    string,
    {
      dim: CounterDim;
      start: number;
      tokens_input: number;
      tokens_output: number;
      cost: number;
      last: string;
    }
  >();
  for (const req of agentNetworkRequests(r)) {
    if (req.decision !== "allow") continue;
    const t = Date.parse(req.timestamp);
    const cost = costsOf([req]).cost_usd;
    for (const dim of req.counters) {
      const start = windowStart(t, dim.window_seconds);
      const key = `${dim.kind}|${dim.id}|${dim.window_seconds}|${start}`;
      const row = rows.get(key) ?? {
        dim,
        start,
        tokens_input: 0,
        tokens_output: 0,
        cost: 0,
        last: req.timestamp,
      };
      row.tokens_input += req.input_tokens;
      row.tokens_output += req.output_tokens;
      row.cost += cost;
      row.last = req.timestamp;
      rows.set(key, row);
    }
  }
  return [...rows.values()]
    .sort(
      (a, b) =>
        b.start - a.start ||
        a.dim.window_seconds - b.dim.window_seconds ||
        (a.dim.kind === b.dim.kind ? 0 : a.dim.kind === "user" ? -1 : 1) ||
        a.dim.id.localeCompare(b.dim.id),
    )
    .map((row) => ({
      dimension_kind: row.dim.kind,
      dimension_id: row.dim.id,
      window_seconds: row.dim.window_seconds,
      window_start_utc: iso(row.start),
      tokens_input: row.tokens_input,
      tokens_output: row.tokens_output,
      cost_usd: round(row.cost),
      updated_at: row.last,
    }));
}

type LogQuery = {
  page: number;
  page_size: number;
  sort_by: string;
  sort_order: "asc" | "desc";
  search?: string;
  user_id?: string;
  session_id?: string;
  group_id?: string[];
  provider_id?: string[];
  model?: string[];
  decision?: string;
  path?: string;
  start_date?: string;
  end_date?: string;
};

/** The requests a query's filters select (the access log's own view: only logged ones, within the retention). */
function selectRequests(ctx: Ctx, q: Partial<LogQuery>, loggedOnly: boolean): AgentNetworkRequestDoc[] {
  const r = ctx.state.store;
  const settings = agentNetworkSettings(r);
  const retention = settings?.access_log_retention_days ?? SETTINGS_DEFAULTS.access_log_retention_days;
  const oldest = loggedOnly && retention > 0 ? ctx.now - retention * 86_400_000 : -Infinity;
  const users = new Map(r.all<Doc & { email?: string; name?: string }>("user").map((u) => [u.id, u]));
  const search = q.search?.toLowerCase();
  return agentNetworkRequests(r).filter((d) => {
    const t = Date.parse(d.timestamp);
    if (loggedOnly && (!d.logged || t < oldest)) return false;
    if (q.user_id && d.user_id !== q.user_id) return false;
    if (q.session_id && d.session_id !== q.session_id) return false;
    if (q.group_id?.length && !d.group_ids.some((g) => q.group_id!.includes(g))) return false;
    if (q.provider_id?.length && !q.provider_id.includes(d.resolved_provider_id)) return false;
    if (q.model?.length && !q.model.includes(d.model)) return false;
    if (q.decision && d.decision !== q.decision) return false;
    if (q.path && !d.path.startsWith(q.path)) return false;
    if (q.start_date && t < Date.parse(q.start_date)) return false;
    if (q.end_date && t > Date.parse(q.end_date)) return false;
    if (search) {
      const u = users.get(d.user_id);
      const hay = [d.id, d.host, d.path, d.model, u?.email ?? "", u?.name ?? ""].join("\n").toLowerCase();
      if (!hay.includes(search)) return false;
    }
    return true;
  });
}

function page<T>(items: T[], q: { page: number; page_size: number }) {
  const start = (q.page - 1) * q.page_size;
  return {
    data: items.slice(start, start + q.page_size),
    page: q.page,
    page_size: q.page_size,
    total_records: items.length,
    total_pages: Math.ceil(items.length / q.page_size),
  };
}

function compareBy<T>(key: (x: T) => string | number, order: "asc" | "desc") {
  return (a: T, b: T) => {
    const x = key(a);
    const y = key(b);
    const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return order === "asc" ? c : -c;
  };
}

function logSortKey(sortBy: string): (d: AgentNetworkRequestDoc) => string | number {
  switch (sortBy) {
    case "model":
    case "provider":
    case "user_id":
    case "decision":
      return (d) => d[sortBy];
    case "status_code":
      return (d) => d.status_code;
    case "duration":
      return (d) => d.duration_ms;
    case "cost_usd":
      return (d) => costsOf([d]).cost_usd;
    case "total_tokens":
      return (d) => costsOf([d]).total_tokens;
    default:
      return (d) => Date.parse(d.timestamp);
  }
}

function sessionsOf(rs: AgentNetworkRequestDoc[]) {
  const groups = new Map<string, AgentNetworkRequestDoc[]>();
  // A request without a session id is a session of its own.
  for (const d of rs) {
    const key = d.session_id ? `s:${d.session_id}` : `r:${d.id}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  return [...groups.values()].map((entries) => {
    const sorted = [...entries].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
    const first = sorted[0]!;
    const last = sorted[sorted.length - 1]!;
    return {
      session_id: first.session_id,
      user_id: first.user_id,
      group_ids: [...new Set(sorted.flatMap((d) => d.group_ids))],
      started_at: first.timestamp,
      ended_at: last.timestamp,
      request_count: sorted.length,
      ...costsOf(sorted),
      providers: [...new Set(sorted.map((d) => d.provider).filter(Boolean))],
      models: [...new Set(sorted.map((d) => d.model).filter(Boolean))],
      decision: sorted.some((d) => d.decision === "deny") ? "deny" : "allow",
      entries: sorted.map(accessLogView),
      // For sorting only.
      _duration: sorted.reduce((a, d) => a + d.duration_ms, 0),
      _status: last.status_code,
    };
  });
}

function sessionSortKey(sortBy: string) {
  type S = ReturnType<typeof sessionsOf>[number];
  switch (sortBy) {
    case "started_at":
      return (s: S) => Date.parse(s.started_at);
    case "cost_usd":
      return (s: S) => s.cost_usd;
    case "total_tokens":
      return (s: S) => s.total_tokens;
    case "duration":
      return (s: S) => s._duration;
    case "request_count":
      return (s: S) => s.request_count;
    case "status_code":
      return (s: S) => s._status;
    case "user_id":
      return (s: S) => s.user_id;
    case "decision":
      return (s: S) => s.decision;
    default:
      return (s: S) => Date.parse(s.ended_at);
  }
}

/** YYYY-MM-DD of the day, Monday or first of the month that starts the bucket holding `ms` (UTC). */
function bucketStart(ms: number, granularity: string): string {
  const d = new Date(ms);
  let day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  if (granularity === "week") day = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
  if (granularity === "month") day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  return day.toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------------------------
// What uses what

/** Policies that name a provider (a provider in use cannot be deleted: the service refuses it too). */
function policiesUsing(r: Reader, field: "destination_provider_ids" | "guardrail_ids", id: string) {
  return r.all<AgentNetworkPolicyDoc>("agent_network_policy").filter((p) => p[field].includes(id));
}

/** The documents this module stores (see StoredKind). */
export const kinds = {
  agent_network_settings: {},
  agent_network_provider: {},
  agent_network_guardrail: {},
  agent_network_policy: {
    groupUses: groupLists(["source_groups"], (x) => `agent network policy ${String(x.name)} (${x.id})`),
  },
  agent_network_budget_rule: {
    groupUses: groupLists(["target_groups"], (x) => `agent network budget rule ${String(x.name)} (${x.id})`),
  },
  agent_network_request: {},
} satisfies StoredKinds;

export const handlers: Handlers = {
  getAgentNetworkSettings: (ctx) => settingsView(agentNetworkSettings(ctx.state.store)),

  createAgentNetworkSettings: (ctx) =>
    ctx.state.store.tx((tx) => {
      if (agentNetworkSettings(tx))
        throw conflict(
          "agent network settings are already bootstrapped: PUT changes them, DELETE releases them",
        );
      const body = ctx.body as SettingsCreate;
      const proxy = body.proxy_address ? normalHostname(body.proxy_address) : "";
      const endpoint = proxy ? `${newLabel()}.${proxy}` : normalHostname(body.endpoint ?? "");
      const ts = iso(ctx.now);
      const doc: AgentNetworkSettingsDoc = {
        id: SETTINGS_ID,
        endpoint,
        proxy_address: proxy || endpoint,
        dedicated: !proxy,
        enable_log_collection: body.enable_log_collection ?? SETTINGS_DEFAULTS.enable_log_collection,
        enable_prompt_collection: body.enable_prompt_collection ?? SETTINGS_DEFAULTS.enable_prompt_collection,
        redact_pii: body.redact_pii ?? SETTINGS_DEFAULTS.redact_pii,
        access_log_retention_days:
          body.access_log_retention_days ?? SETTINGS_DEFAULTS.access_log_retention_days,
        created_at: ts,
        updated_at: ts,
      };
      tx.put("agent_network_settings", doc);
      audit(tx, ctx, "agent_network.settings.update", "Agent Network settings updated", SETTINGS_ID, {
        bootstrapped: "true",
        dedicated: String(doc.dedicated),
        endpoint: doc.endpoint,
      });
      return settingsView(doc);
    }),

  updateAgentNetworkSettings: (ctx) =>
    ctx.state.store.tx((tx) => {
      const existing = agentNetworkSettings(tx);
      if (!existing) throw notBootstrapped("there is nothing to replace");
      const body = ctx.body as SettingsRequest;
      for (const field of ["endpoint", "proxy_address"] as const)
        if (normalHostname(body[field]) !== existing[field])
          throw invalid(
            `${field}: cannot change: it must be ${JSON.stringify(existing[field])} as assigned at bootstrap ` +
              "(DELETE releases it; a new bootstrap assigns a new one)",
          );
      const doc: AgentNetworkSettingsDoc = {
        ...existing,
        // A replace: what it leaves out is off (the service does the same).
        enable_log_collection: body.enable_log_collection ?? false,
        enable_prompt_collection: body.enable_prompt_collection ?? false,
        redact_pii: body.redact_pii ?? false,
        access_log_retention_days: body.access_log_retention_days ?? 0,
        updated_at: iso(ctx.now),
      };
      tx.put("agent_network_settings", doc);
      audit(tx, ctx, "agent_network.settings.update", "Agent Network settings updated", SETTINGS_ID, {
        log_collection: String(doc.enable_log_collection),
        prompt_collection: String(doc.enable_prompt_collection),
        redact_pii: String(doc.redact_pii),
      });
      return settingsView(doc);
    }),

  deleteAgentNetworkSettings: (ctx) =>
    ctx.state.store.tx((tx) => {
      const existing = agentNetworkSettings(tx);
      if (!existing) throw notBootstrapped("there is nothing to delete");
      const providers = tx.all("agent_network_provider").length;
      if (providers)
        throw preconditionFailed(
          `agent network settings cannot be deleted while ${providers} provider(s) exist: delete the providers first`,
        );
      tx.delete("agent_network_settings", SETTINGS_ID);
      audit(tx, ctx, "agent_network.settings.delete", "Agent Network settings deleted", SETTINGS_ID, {
        endpoint: existing.endpoint,
        proxy_address: existing.proxy_address,
      });
      return {};
    }),

  listAgentNetworkCatalogProviders: () => AGENT_NETWORK_CATALOG.map((p) => structuredClone(p)),

  listAgentNetworkProviders: (ctx) =>
    ctx.state.store.all<AgentNetworkProviderDoc>("agent_network_provider").map(providerView),
  createAgentNetworkProvider: (ctx) => ctx.state.store.tx((tx) => writeProvider(tx, ctx)),
  getAgentNetworkProvider: (ctx) => providerView(mustGetProvider(ctx.state.store, ctx.params.providerId!)),
  updateAgentNetworkProvider: (ctx) =>
    ctx.state.store.tx((tx) => writeProvider(tx, ctx, mustGetProvider(tx, ctx.params.providerId!))),
  deleteAgentNetworkProvider: (ctx) =>
    ctx.state.store.tx((tx) => {
      const d = mustGetProvider(tx, ctx.params.providerId!);
      const users = policiesUsing(tx, "destination_provider_ids", d.id);
      if (users.length)
        throw invalid(
          `provider ${d.id} is in use by ${users.length} agent network ${users.length === 1 ? "policy" : "policies"} ` +
            `(${users.map((p) => p.name).join(", ")}): detach it before deleting`,
        );
      tx.delete("agent_network_provider", d.id);
      audit(tx, ctx, "agent_network.provider.delete", "Agent Network provider deleted", d.id, {
        name: d.name,
        provider_id: d.provider_id,
      });
      return {};
    }),

  listAgentNetworkGuardrails: (ctx) =>
    ctx.state.store.all<AgentNetworkGuardrailDoc>("agent_network_guardrail").map(guardrailView),
  createAgentNetworkGuardrail: (ctx) => ctx.state.store.tx((tx) => writeGuardrail(tx, ctx)),
  getAgentNetworkGuardrail: (ctx) =>
    guardrailView(mustGetGuardrail(ctx.state.store, ctx.params.guardrailId!)),
  updateAgentNetworkGuardrail: (ctx) =>
    ctx.state.store.tx((tx) => writeGuardrail(tx, ctx, mustGetGuardrail(tx, ctx.params.guardrailId!))),
  deleteAgentNetworkGuardrail: (ctx) =>
    ctx.state.store.tx((tx) => {
      const d = mustGetGuardrail(tx, ctx.params.guardrailId!);
      const users = policiesUsing(tx, "guardrail_ids", d.id);
      // The service deletes it and leaves the policies naming nothing; we refuse, naming them.
      if (users.length)
        throw preconditionFailed(
          `guardrail ${d.id} is in use by ${users.map((p) => `agent network policy ${p.name} (${p.id})`).join(", ")}: ` +
            "detach it before deleting",
        );
      tx.delete("agent_network_guardrail", d.id);
      audit(tx, ctx, "agent_network.guardrail.delete", "Agent Network guardrail deleted", d.id, {
        name: d.name,
      });
      return {};
    }),

  listAgentNetworkPolicies: (ctx) =>
    ctx.state.store.all<AgentNetworkPolicyDoc>("agent_network_policy").map(policyView),
  createAgentNetworkPolicy: (ctx) => ctx.state.store.tx((tx) => writePolicy(tx, ctx)),
  getAgentNetworkPolicy: (ctx) => policyView(mustGetPolicy(ctx.state.store, ctx.params.policyId!)),
  updateAgentNetworkPolicy: (ctx) =>
    ctx.state.store.tx((tx) => writePolicy(tx, ctx, mustGetPolicy(tx, ctx.params.policyId!))),
  deleteAgentNetworkPolicy: (ctx) =>
    ctx.state.store.tx((tx) => {
      const d = mustGetPolicy(tx, ctx.params.policyId!);
      tx.delete("agent_network_policy", d.id);
      audit(tx, ctx, "agent_network.policy.delete", "Agent Network policy deleted", d.id, {
        name: d.name,
        enabled: String(d.enabled),
      });
      return {};
    }),

  listAgentNetworkBudgetRules: (ctx) =>
    ctx.state.store.all<AgentNetworkBudgetRuleDoc>("agent_network_budget_rule").map(budgetRuleView),
  createAgentNetworkBudgetRule: (ctx) => ctx.state.store.tx((tx) => writeBudgetRule(tx, ctx)),
  getAgentNetworkBudgetRule: (ctx) => budgetRuleView(mustGetBudgetRule(ctx.state.store, ctx.params.ruleId!)),
  updateAgentNetworkBudgetRule: (ctx) =>
    ctx.state.store.tx((tx) => writeBudgetRule(tx, ctx, mustGetBudgetRule(tx, ctx.params.ruleId!))),
  deleteAgentNetworkBudgetRule: (ctx) =>
    ctx.state.store.tx((tx) => {
      const d = mustGetBudgetRule(tx, ctx.params.ruleId!);
      tx.delete("agent_network_budget_rule", d.id);
      audit(tx, ctx, "agent_network.budget_rule.delete", "Agent Network budget rule deleted", d.id, {
        name: d.name,
        enabled: String(d.enabled),
      });
      return {};
    }),

  listAgentNetworkConsumption: (ctx) => consumptionCounters(ctx.state.store),

  getAgentNetworkUsageOverview: (ctx) => {
    const q = ctx.query as Partial<LogQuery> & { granularity: string };
    // Usage is kept whether or not the access log is: every request counts, refused ones with no tokens.
    const rs = selectRequests(ctx, q, false);
    const buckets = new Map<string, AgentNetworkRequestDoc[]>();
    for (const d of rs) {
      const k = bucketStart(Date.parse(d.timestamp), q.granularity);
      buckets.set(k, [...(buckets.get(k) ?? []), d]);
    }
    return [...buckets.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([period_start, items]) => ({ period_start, ...costsOf(items) }));
  },

  listAgentNetworkAccessLogs: (ctx) => {
    const q = ctx.query as LogQuery;
    const rs = selectRequests(ctx, q, true).sort(compareBy(logSortKey(q.sort_by), q.sort_order));
    return page(rs.map(accessLogView), q);
  },

  listAgentNetworkAccessLogSessions: (ctx) => {
    const q = ctx.query as LogQuery;
    const sessions = sessionsOf(selectRequests(ctx, q, true)).sort(
      compareBy(sessionSortKey(q.sort_by), q.sort_order),
    );
    const p = page(sessions, q);
    return { ...p, data: p.data.map(({ _duration: _d, _status: _s, ...s }) => s) };
  },
};
