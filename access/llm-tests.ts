/**
 * Access tests about LLM use through the Agent Network gateway (netmap/llm.ts): who may use which provider and
 * models, and how much the caps let them spend. The form (in a tests file beside the reach and publishing tests):
 *
 *   - name: contractors never use anthropic
 *     from: { group: contractors }   # or { peer: NAME }, { user: EMAIL|NAME|ID }, { every: group }
 *     llm: anthropic                 # a provider: its name, id or catalog id (anthropic_api, or anthropic); or any
 *     model: claude-haiku-4-5        # optional (may-use and never)
 *     expect: never                  # may-use | never | only-models | at-most
 *     models: [gpt-4o-mini]          # only-models: the models allowed
 *     usd: 100                       # at-most: usd or tokens,
 *     per: day                       #   per hour | day | week | month (30 days)
 *
 * Who: a group is a member of it (in no other group but All) and each of its peers; a user is the user's peers;
 * `every: group` checks each group of the account in turn but the built-in All (everyone: `from: {group: All}`
 * checks the account as a whole). A group with no peer is still checked (a member of it): a policy grants groups,
 * not peers.
 *
 * - `may-use`: every one of them may use the provider (and the model): the gateway routes it there and a policy
 *   carries it. `never`: none may.
 * - `only-models`: every model they may use (through the provider, or any) is in `models`.
 * - `at-most`: the caps let them use at most that much in any period of that length: a group's members together
 *   (its group buckets: user caps do not bound how many members there are), a peer or a user alone (its user caps
 *   too). An upper bound from the caps (the request that crosses a cap is served).
 *
 * A broken one names the callers, the providers and models, and the policies or budget rules responsible.
 */
import { z } from "zod";
import {
  callerUse,
  ceilingOf,
  decideLlmRequest,
  holds,
  memberOf,
  peerCaller,
  unionOf,
  type AccountSnapshot,
  type CallerUse,
  type LlmCaller,
  type SnapshotLlmProvider,
} from "../netmap";
import { modelsText, tokensText, usdText, windowText } from "./llm";

const Name = z.string().min(1);

export const LLM_EXPECTATIONS = ["may-use", "never", "only-models", "at-most"] as const;
export const PERIODS = { hour: 3600, day: 86400, week: 604800, month: 2592000 } as const;

export const LlmSourceSchema = z.union([
  z.strictObject({ peer: Name.describe("A peer: its name, DNS label, IP or id") }),
  z.strictObject({ group: Name.describe("A group (name or id): a member of it, and each of its peers") }),
  z.strictObject({ user: Name.describe("Every peer of a user (e-mail, name or id)") }),
  z.strictObject({ every: z.literal("group").describe("Each group of the account in turn") }),
]);

export const LlmTestSchema = z
  .strictObject({
    name: Name.describe("What the test checks; failures are reported under this name"),
    from: LlmSourceSchema.describe("Whose requests"),
    llm: Name.describe("A provider (its name, id or catalog id, e.g. anthropic_api or anthropic), or any"),
    model: Name.optional().describe("A model (may-use and never)"),
    expect: z
      .enum(LLM_EXPECTATIONS)
      .describe(
        "may-use: each may use it; never: none may; only-models: each uses only `models`; at-most: the caps let " +
          "them use at most `usd` or `tokens` per `per`",
      ),
    models: z.array(Name).min(1).optional().describe("only-models: the models allowed"),
    usd: z.number().min(0).optional().describe("at-most: US dollars"),
    tokens: z.number().int().min(0).optional().describe("at-most: tokens (input and output)"),
    per: z
      .enum(Object.keys(PERIODS) as [keyof typeof PERIODS, ...(keyof typeof PERIODS)[]])
      .optional()
      .describe("at-most: the period (month: 30 days)"),
  })
  .superRefine((t, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const only = (field: "models" | "usd" | "tokens" | "per" | "model", expects: readonly string[]) => {
      if (t[field] !== undefined && !expects.includes(t.expect))
        issue(field, `is not allowed with expect ${t.expect} (only with ${expects.join(", ")})`);
    };
    only("models", ["only-models"]);
    only("usd", ["at-most"]);
    only("tokens", ["at-most"]);
    only("per", ["at-most"]);
    only("model", ["may-use", "never"]);
    if (t.expect === "only-models" && !t.models) issue("models", "is required for only-models");
    if (t.expect === "at-most") {
      if ((t.usd === undefined) === (t.tokens === undefined))
        issue("usd", "at-most needs one of usd and tokens");
      if (!t.per) issue("per", "is required for at-most");
    }
  })
  .describe("An expectation about LLM use through the Agent Network gateway");

export type LlmTest = z.infer<typeof LlmTestSchema>;

export interface LlmResponsible {
  kind: "policy" | "budget rule" | "provider";
  id: string;
  name: string;
}

export interface LlmTestResult {
  passed: boolean;
  /** Callers checked. */
  pairs: number;
  failures: string[];
  /** Policies and budget rules (or providers) responsible for the failures. */
  responsible: LlmResponsible[];
}

/** What a test names as its provider: the providers it matches (all of them for `any`). */
export function providersOf(
  snapshot: AccountSnapshot,
  llm: string,
  where: string,
  fail: (m: string) => never,
): SnapshotLlmProvider[] | "any" {
  if (llm === "any") return "any";
  const an = snapshot.agent_network;
  const ps = an?.providers ?? [];
  const byName = ps.filter((p) => p.name === llm || p.id === llm);
  if (byName.length) return byName;
  const catalogId = (x: string) => (x.endsWith("_api") ? x : `${x}_api`);
  const byCatalog = ps.filter((p) => p.provider_id === llm || p.provider_id === catalogId(llm));
  if (byCatalog.length) return byCatalog;
  // A catalog entry no provider is an instance of yet: a test that a change adding one must pass.
  const catalog = an?.catalog;
  if (!catalog || catalog.some((c) => c.id === llm || c.id === catalogId(llm))) return [];
  return fail(
    `${where}.llm: no provider ${JSON.stringify(llm)} in the account (by name, id or catalog id), and no catalog entry of that id`,
  );
}

/** The groups, by name, of a caller (All left out). */
function groupsText(snapshot: AccountSnapshot, c: LlmCaller): string {
  const names = c.groups
    .map((id) => snapshot.groups.find((g) => g.id === id))
    .filter((g) => g && !g.all)
    .map((g) => g?.name);
  return names.length ? ` (groups ${names.join(", ")})` : "";
}

const policyRefs = (u: CallerUse): LlmResponsible[] =>
  u.policies.map((p) => ({ kind: "policy" as const, id: p.id, name: p.name }));

function uniq(list: LlmResponsible[]): LlmResponsible[] {
  const seen = new Map<string, LlmResponsible>();
  for (const r of list) seen.set(`${r.kind}\u0000${r.id}`, r);
  return [...seen.values()];
}

/** Checks one LLM test against a set of callers (one `from`; `every: group` is run once per group). */
export function checkLlm(
  snapshot: AccountSnapshot,
  t: LlmTest,
  callers: readonly LlmCaller[],
  providers: SnapshotLlmProvider[] | "any",
  who: string,
  groupLevel: boolean,
): LlmTestResult {
  const an = snapshot.agent_network;
  const failures: string[] = [];
  const responsible: LlmResponsible[] = [];
  const mine = (u: CallerUse) => providers === "any" || providers.some((p) => p.id === u.provider.id);
  const through = providers === "any" ? "any provider" : providers.map((p) => p.name).join(" or ") || t.llm;
  if (t.expect === "at-most") {
    const unit = t.usd !== undefined ? "usd" : "tokens";
    const limit = (t.usd ?? t.tokens) as number;
    const period = PERIODS[t.per as keyof typeof PERIODS];
    const restricted =
      providers === "any" ? callers : callers.filter((c) => callerUse(an, c).some((u) => mine(u)));
    const c = ceilingOf(an, restricted, unit, period, groupLevel);
    const amount = (n: number) => (unit === "usd" ? usdText(n) : `${tokensText(n)} tokens`);
    if (c.limit === undefined) {
      failures.push(
        `${who} may use ${through} without a ${unit === "usd" ? "dollar" : "token"} limit: ${c.uncapped
          .map((p) => `policy ${JSON.stringify(p.name)}`)
          .join(", ")} carries requests with no such cap${groupLevel ? " on a group" : ""}`,
      );
      responsible.push(...c.uncapped.map((p) => ({ kind: "policy" as const, ...p })));
    } else if (c.limit > limit) {
      failures.push(
        `${who} may use up to ${amount(c.limit)} per ${windowText(period)}, above ${amount(limit)}: ${c.counters
          .map(
            (k) =>
              `${amount(k.cap)}/${windowText(k.window_seconds)} per ${k.dimension_kind} (${k.by
                .map((b) => `${b.kind} ${JSON.stringify(b.name)}`)
                .join(", ")})`,
          )
          .join(" + ")}`,
      );
      for (const k of c.counters) responsible.push(...k.by);
    }
    return { passed: !failures.length, pairs: callers.length, failures, responsible: uniq(responsible) };
  }
  for (const caller of callers) {
    const use = callerUse(an, caller).filter(mine);
    const name = `${caller.name}${groupsText(snapshot, caller)}`;
    if (t.expect === "never") {
      const bad = use.filter((u) => !t.model || holds(u.models, t.model));
      for (const u of bad) {
        failures.push(
          `${name} may use ${u.provider.name} (${t.model ?? modelsText(u.models)}) through ${u.policies
            .map((p) => `policy ${JSON.stringify(p.name)}`)
            .join(", ")}`,
        );
        responsible.push(...policyRefs(u));
      }
    } else if (t.expect === "may-use") {
      const ok = use.some((u) => !t.model || holds(u.models, t.model));
      if (!ok) {
        let why = use.length
          ? `it may use ${through} only for ${modelsText(unionOf(use.map((u) => u.models)))}`
          : "";
        if (t.model && an) {
          const d = decideLlmRequest(an, [], { caller, model: t.model, at: snapshot.now });
          if (!d.allow) why = `the gateway answers ${d.deny}${why ? `; ${why}` : ""}`;
          else if (providers !== "any" && !providers.some((p) => p.id === d.provider_id))
            why = `the gateway routes it to ${an.providers.find((p) => p.id === d.provider_id)?.name ?? d.provider_id}`;
        }
        if (!why)
          why = callerUse(an, caller).length
            ? `no policy of its groups names ${through}`
            : "it does not reach the gateway: no enabled policy has one of its groups among its sources";
        failures.push(`${name} may not use ${through}${t.model ? ` (${t.model})` : ""}: ${why}`);
      }
    } else {
      const allowed = new Set(t.models ?? []);
      for (const u of use) {
        const extra: string[] = u.models.any ? [] : u.models.models.filter((m) => !allowed.has(m));
        if (u.models.any)
          failures.push(
            `${name} may use ${modelsText(u.models)} through ${u.provider.name} (${u.policies
              .map((p) => `policy ${JSON.stringify(p.name)}`)
              .join(", ")})`,
          );
        else if (extra.length)
          failures.push(
            `${name} may use ${extra.join(", ")} through ${u.provider.name} (${u.policies
              .map((p) => `policy ${JSON.stringify(p.name)}`)
              .join(", ")})`,
          );
        if (u.models.any || extra.length) responsible.push(...policyRefs(u));
      }
    }
  }
  return { passed: !failures.length, pairs: callers.length, failures, responsible: uniq(responsible) };
}

/** The callers a group stands for: a member of it, and each of its peers that may log in. */
export function groupCallers(
  snapshot: AccountSnapshot,
  groupId: string,
  active: (peerId: string) => boolean,
): LlmCaller[] {
  const g = snapshot.groups.find((x) => x.id === groupId);
  const peers = g?.all ? snapshot.peers.map((p) => p.id) : (g?.peers ?? []);
  return [memberOf(snapshot, groupId), ...peers.filter(active).map((id) => peerCaller(snapshot, id))];
}
