/**
 * LLM use through the account's Agent Network gateway (netmap/llm.ts), as lines a person (or a diff) reads: one
 * per grant (a policy's source group, a provider it names, the models a member may use through it, the policy's
 * caps), and one per enabled budget rule (whom it binds, its caps). `llm:` lines in a diff are these, gained or lost,
 * compared by ids, models and caps (a renamed policy is no change of use).
 */
import {
  budgetNeverCounted,
  llmGrants,
  type AccountSnapshot,
  type LlmGrant,
  type ModelSet,
  type SnapshotLlmBudgetRule,
  type SnapshotLlmLimits,
} from "../netmap";

/** One grant, as `show` prints it. */
export interface LlmLine {
  group: { id: string; name: string };
  provider: { id: string; name: string; catalog: string };
  policy: { id: string; name: string };
  models: ModelSet;
  /** The caps as text: `tokens 2M/day per user, $50/day per group`, or `no cap`. */
  caps: string;
}

/** One enabled budget rule: whom it binds and its caps. */
export interface LlmRuleLine {
  rule: { id: string; name: string };
  /** Target groups (names) and users (e-mail, or id); both empty: everyone. */
  groups: { id: string; name: string }[];
  users: { id: string; name: string }[];
  caps: string;
}

export interface LlmView {
  /** The gateway's host name; empty: not bootstrapped (no gateway). */
  endpoint: string;
  lines: LlmLine[];
  rules: LlmRuleLine[];
}

/** `86400` -> `day`, `7200` -> `2 hours`, `2592000` -> `30 days`. */
export function windowText(seconds: number): string {
  const unit = (n: number, one: string) => (n === 1 ? one : `${n} ${one}s`);
  if (seconds === 604800) return "week";
  if (seconds > 0 && seconds % 86400 === 0) return unit(seconds / 86400, "day");
  if (seconds > 0 && seconds % 3600 === 0) return unit(seconds / 3600, "hour");
  if (seconds > 0 && seconds % 60 === 0) return unit(seconds / 60, "minute");
  return unit(seconds, "second");
}

/** `2000000` -> `2M`, `15000` -> `15k`, `1500` -> `1.5k`. */
export function tokensText(n: number): string {
  const short = (x: number) => String(Number(x.toPrecision(4)));
  if (n >= 1e9) return `${short(n / 1e9)}G`;
  if (n >= 1e6) return `${short(n / 1e6)}M`;
  if (n >= 1e3) return `${short(n / 1e3)}k`;
  return String(n);
}

/** `50` -> `$50`, `0.05` -> `$0.05`, `1234.5` -> `$1234.50`. */
export function usdText(n: number): string {
  if (Number.isInteger(n)) return `$${n}`;
  return n >= 1 ? `$${n.toFixed(2)}` : `$${Number(n.toPrecision(4))}`;
}

/** The caps of a policy's or rule's limits as text. `rule`: a rule naming no group has no group bucket. */
export function capsText(l: SnapshotLlmLimits, opts: { policy?: boolean; groupless?: boolean } = {}): string {
  const parts: string[] = [];
  const t = l.token_limit;
  const b = l.budget_limit;
  const w = (s: number) => windowText(s);
  if (t.enabled) {
    if (t.user_cap > 0) parts.push(`tokens ${tokensText(t.user_cap)}/${w(t.window_seconds)} per user`);
    if (t.group_cap > 0) parts.push(`tokens ${tokensText(t.group_cap)}/${w(t.window_seconds)} per group`);
  }
  if (b.enabled) {
    if (b.user_cap_usd > 0) parts.push(`${usdText(b.user_cap_usd)}/${w(b.window_seconds)} per user`);
    if (b.group_cap_usd > 0) parts.push(`${usdText(b.group_cap_usd)}/${w(b.window_seconds)} per group`);
  }
  let text = parts.length ? parts.join(", ") : "no cap";
  if (opts.policy && budgetNeverCounted(l))
    text += ` (the dollar cap never binds: usage is counted per ${w(t.window_seconds)}, the token limit's window)`;
  const groupCaps = (t.enabled && t.group_cap > 0) || (b.enabled && b.group_cap_usd > 0);
  if (opts.groupless && groupCaps) text += " (its group caps bind nobody: it names no group)";
  return text;
}

/** `gpt-4o, gpt-4o-mini`, `any model`, `any model but gpt-4o`. At most `max` names, then `+N more`. */
export function modelsText(s: ModelSet, max = 8): string {
  const list = (xs: readonly string[]) =>
    xs.length > max ? `${xs.slice(0, max).join(", ")}, +${xs.length - max} more` : xs.join(", ");
  if (!s.any) return list(s.models);
  return s.except.length ? `any model but ${list(s.except)}` : "any model";
}

function lineOf(g: LlmGrant): LlmLine {
  return {
    group: g.group,
    provider: g.provider,
    policy: g.policy,
    models: g.models,
    caps: capsText(g.limits, { policy: true }),
  };
}

/** Everything `show` says about LLM use (nothing when the server does not serve Agent Networks). */
export function llmView(
  snapshot: AccountSnapshot,
  users: ReadonlyMap<string, { email: string; name: string }> = new Map(),
): LlmView | undefined {
  const an = snapshot.agent_network;
  if (!an) return undefined;
  const groupName = (id: string) => snapshot.groups.find((g) => g.id === id)?.name ?? id;
  const userName = (id: string) =>
    users.get(id)?.email || users.get(id)?.name || snapshot.peers.find((p) => p.id === id)?.name || id;
  const rules = an.budget_rules
    .filter((r) => r.enabled)
    .map((r: SnapshotLlmBudgetRule) => ({
      rule: { id: r.id, name: r.name },
      groups: r.target_groups.map((id) => ({ id, name: groupName(id) })),
      users: r.target_users.map((id) => ({ id, name: userName(id) })),
      caps: capsText(r.limits, { groupless: r.target_groups.length === 0 }),
    }));
  return { endpoint: an.endpoint, lines: llmGrants(snapshot).map(lineOf), rules };
}

/** `engineering → OpenAI API (gpt-4o, gpt-4o-mini) tokens 2M/day per user, $50/day per group (policy "eng")`. */
export function llmLineText(l: LlmLine): string {
  return `${l.group.name} → ${l.provider.name} (${modelsText(l.models)}) ${l.caps} (policy ${JSON.stringify(l.policy.name)})`;
}

/** `budget rule "org": groups engineering, contractors; users alice@example.com: $100/day per group`. */
export function llmRuleText(r: LlmRuleLine): string {
  const who = [
    ...(r.groups.length ? [`groups ${r.groups.map((g) => g.name).join(", ")}`] : []),
    ...(r.users.length ? [`users ${r.users.map((u) => u.name).join(", ")}`] : []),
  ];
  return `budget rule ${JSON.stringify(r.rule.name)}: ${who.length ? who.join("; ") : "everyone"}: ${r.caps}`;
}

/** The identity of a grant line, for a diff: ids, models and caps. */
export function llmLineKey(l: LlmLine): string {
  return ["grant", l.group.id, l.provider.id, l.policy.id, modelsText(l.models, Infinity), l.caps].join(
    "\u0000",
  );
}

export function llmRuleKey(r: LlmRuleLine): string {
  return [
    "rule",
    r.rule.id,
    r.groups.map((g) => g.id).join(","),
    r.users.map((u) => u.id).join(","),
    r.caps,
  ].join("\u0000");
}

/** The LLM lines gained and lost between two accounts (grants and budget rules), in the order of each account. */
export interface LlmDiff {
  gained: LlmLine[];
  lost: LlmLine[];
  rules_gained: LlmRuleLine[];
  rules_lost: LlmRuleLine[];
  /** The gateway's endpoint before and after, when it changes (bootstrapped, or deleted). */
  endpoint?: { before: string; after: string };
}

export function diffLlm(before: LlmView | undefined, after: LlmView | undefined): LlmDiff {
  const a = before ?? { endpoint: "", lines: [], rules: [] };
  const b = after ?? { endpoint: "", lines: [], rules: [] };
  const aKeys = new Set(a.lines.map(llmLineKey));
  const bKeys = new Set(b.lines.map(llmLineKey));
  const aRules = new Set(a.rules.map(llmRuleKey));
  const bRules = new Set(b.rules.map(llmRuleKey));
  return {
    gained: b.lines.filter((l) => !aKeys.has(llmLineKey(l))),
    lost: a.lines.filter((l) => !bKeys.has(llmLineKey(l))),
    rules_gained: b.rules.filter((r) => !aRules.has(llmRuleKey(r))),
    rules_lost: a.rules.filter((r) => !bRules.has(llmRuleKey(r))),
    ...(a.endpoint !== b.endpoint ? { endpoint: { before: a.endpoint, after: b.endpoint } } : {}),
  };
}

/** The `+ llm:` and `- llm:` lines of a diff. */
export function llmDiffLines(d: LlmDiff): string[] {
  return [
    ...d.gained.map((l) => `+ llm: ${llmLineText(l)}`),
    ...d.rules_gained.map((r) => `+ llm: ${llmRuleText(r)}`),
    ...d.lost.map((l) => `- llm: ${llmLineText(l)}`),
    ...d.rules_lost.map((r) => `- llm: ${llmRuleText(r)}`),
  ];
}

export function llmChanged(d: LlmDiff): boolean {
  return !!(d.gained.length || d.lost.length || d.rules_gained.length || d.rules_lost.length);
}

/** The text `show` prints after the peers' access (nothing when the server does not serve Agent Networks). */
export function llmShowText(v: LlmView | undefined): string[] {
  if (!v) return [];
  const out: string[] = [""];
  if (!v.endpoint) {
    out.push(
      "LLM use: no Agent Network gateway (its settings are not bootstrapped): no peer uses an LLM through it",
    );
    return out;
  }
  out.push(`LLM use through the Agent Network gateway ${v.endpoint}:`);
  if (!v.lines.length) out.push("  nobody (no enabled policy names an enabled provider)");
  for (const l of v.lines) out.push(`  ${llmLineText(l)}`);
  if (v.rules.length) {
    out.push("Budget rules (every one that applies to a request must have quota left):");
    for (const r of v.rules) out.push(`  ${llmRuleText(r)}`);
  }
  return out;
}
