/**
 * Access policies (spec 2.9, 4.4): rules allowing traffic from source groups (or a source resource) to
 * destination groups (or a destination resource).
 *
 * Stored shape (kind "policy"); other families read it (accessible peers, group and resource usage), so keep
 * it stable and in the API's field names:
 *
 * ```
 * PolicyDoc = { id, name, description, enabled, source_posture_checks: string[], rules: RuleDoc[] }
 * RuleDoc   = { id, name, description, enabled, action, bidirectional, protocol,
 *               ports?, port_ranges?, authorized_groups?,
 *               sources: string[], destinations: string[],          // group ids
 *               sourceResource?: {id, type}, destinationResource?: {id, type} }
 * ```
 */
import type { PolicyRequest } from "../../api/policy";
import type { Ctx, Handlers, StoredKinds } from "../context";
import {
  audit,
  auditWrite,
  compact,
  groupSummary,
  holds,
  mustGet,
  requireRefs,
  type Reader,
} from "../domain";
import { invalid } from "../errors";
import { newId } from "../ids";
import type { Doc, Tx } from "../store";

/** A resource a rule points at: a network resource (host, subnet, domain) or a peer. */
export interface ResourceRefDoc {
  id: string;
  type: "host" | "subnet" | "domain" | "peer";
}

/** A stored policy rule (a type alias, not an interface, so it stays a plain record for `compact`). */
export type RuleDoc = {
  id: string;
  name: string;
  description: string;
  enabled: boolean;
  action: "accept" | "drop";
  bidirectional: boolean;
  protocol: "all" | "tcp" | "udp" | "icmp";
  ports?: string[];
  port_ranges?: { start: number; end: number }[];
  authorized_groups?: Record<string, string[]>;
  sources: string[];
  destinations: string[];
  sourceResource?: ResourceRefDoc;
  destinationResource?: ResourceRefDoc;
};

/** A stored policy. */
export interface PolicyDoc extends Doc {
  name: string;
  description: string;
  enabled: boolean;
  source_posture_checks: string[];
  rules: RuleDoc[];
}

type RuleRequest = PolicyRequest["rules"][number];

/**
 * The members a rule keeps as sent, alike in the stored rule and the response (a missing description reads as
 * empty: the peers family also writes policy docs).
 */
function ruleSettings(rule: RuleDoc | RuleRequest) {
  return {
    name: rule.name,
    description: rule.description ?? "",
    enabled: rule.enabled,
    action: rule.action,
    bidirectional: rule.bidirectional,
    protocol: rule.protocol,
    ports: rule.ports,
  };
}

/**
 * The Rule response: group ids become GroupSummary objects; unset optional fields stay absent. Tolerant of
 * missing lists and description, since the peers family also writes policy docs (temporary access).
 */
function ruleView(r: Reader, rule: RuleDoc) {
  return compact({
    id: rule.id,
    ...ruleSettings(rule),
    port_ranges: rule.port_ranges,
    authorized_groups: rule.authorized_groups,
    sources: (rule.sources ?? []).map((id) => groupSummary(r, id)),
    sourceResource: rule.sourceResource,
    destinations: (rule.destinations ?? []).map((id) => groupSummary(r, id)),
    destinationResource: rule.destinationResource,
  });
}

/** The Policy response. */
export function policyView(r: Reader, p: PolicyDoc) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    enabled: p.enabled,
    source_posture_checks: p.source_posture_checks,
    rules: p.rules.map((rule) => ruleView(r, rule)),
  };
}

/**
 * Checks a rule's resource reference: a network resource whose real type is the one given, or a peer when
 * the type is `peer`. The type must match so that a client cannot record a subnet as a host.
 */
function resolveResource(
  r: Reader,
  ref: { id: string; type: ResourceRefDoc["type"] } | undefined,
  field: string,
): ResourceRefDoc | undefined {
  if (!ref) return undefined;
  if (ref.type === "peer") {
    if (!r.get("peer", ref.id)) throw invalid(`${field}: unknown peer id ${ref.id}`);
    return { id: ref.id, type: "peer" };
  }
  const res = r.get<Doc & { type: ResourceRefDoc["type"] }>("network_resource", ref.id);
  if (!res) throw invalid(`${field}: unknown network resource id ${ref.id}`);
  if (res.type !== ref.type)
    throw invalid(`${field}: resource ${ref.id} is a ${res.type}, not a ${ref.type}`);
  return { id: res.id, type: res.type };
}

/**
 * Builds the stored rules. A rule keeps its id when a replace sends back the id of one of the policy's own
 * rules; any other rule (new, or an id we never issued for this policy) gets a fresh id, so two policies can
 * never share a rule id.
 */
function buildRules(r: Reader, rules: RuleRequest[], existing?: PolicyDoc): RuleDoc[] {
  const reusable = new Set(existing?.rules.map((x) => x.id) ?? []);
  return rules.map((rule, i) => {
    const at = `rules[${i}]`;
    requireRefs(r, "group", rule.sources, `${at}.sources`, "group");
    requireRefs(r, "group", rule.destinations, `${at}.destinations`, "group");
    requireRefs(r, "group", Object.keys(rule.authorized_groups ?? {}), `${at}.authorized_groups`, "group");
    let id = newId();
    if (rule.id !== undefined && reusable.has(rule.id)) {
      id = rule.id;
      reusable.delete(rule.id); // the same id sent twice: only the first keeps it
    }
    return compact<RuleDoc>({
      id,
      ...ruleSettings(rule),
      port_ranges: rule.port_ranges?.map((p) => ({ start: p.start, end: p.end })),
      authorized_groups: rule.authorized_groups,
      sources: rule.sources ?? [],
      destinations: rule.destinations ?? [],
      sourceResource: resolveResource(r, rule.sourceResource, `${at}.sourceResource`),
      destinationResource: resolveResource(r, rule.destinationResource, `${at}.destinationResource`),
    });
  });
}

function write(tx: Tx, ctx: Ctx, body: PolicyRequest, existing?: PolicyDoc): PolicyDoc {
  requireRefs(tx, "posture_check", body.source_posture_checks, "source_posture_checks", "posture check");
  const doc: PolicyDoc = {
    id: existing?.id ?? newId(),
    name: body.name,
    description: body.description ?? "",
    enabled: body.enabled,
    source_posture_checks: body.source_posture_checks ?? [],
    rules: buildRules(tx, body.rules, existing),
  };
  tx.put("policy", doc);
  auditWrite(tx, ctx, existing, "policy", "Policy", doc.id, { name: doc.name }, "add");
  return doc;
}

const idOf = (ctx: Ctx) => ctx.params.policyId as string;

/** The documents this module stores (see StoredKind). */
export const kinds = {
  policy: {
    // Rules name groups as sources and destinations, and as the keys of authorized_groups (user group ->
    // local user names); the phrase lists each field that does.
    groupUses: (doc, groupId) => {
      const p = doc as PolicyDoc;
      const fields = (p.rules ?? []).flatMap((x, i) => [
        ...(holds(x.sources, groupId) ? [`rules[${i}].sources`] : []),
        ...(holds(x.destinations, groupId) ? [`rules[${i}].destinations`] : []),
        ...(x.authorized_groups && Object.hasOwn(x.authorized_groups, groupId)
          ? [`rules[${i}].authorized_groups`]
          : []),
      ]);
      return fields.length ? [`policy ${p.name} (${p.id}: ${fields.join(", ")})`] : [];
    },
  },
} satisfies StoredKinds;

export const handlers: Handlers = {
  listPolicies: (ctx) => {
    const { store } = ctx.state;
    return store.all<PolicyDoc>("policy").map((p) => policyView(store, p));
  },

  createPolicy: (ctx) =>
    ctx.state.store.tx((tx) => policyView(tx, write(tx, ctx, ctx.body as PolicyRequest))),

  getPolicy: (ctx) => {
    const { store } = ctx.state;
    return policyView(store, mustGet<PolicyDoc>(store, "policy", idOf(ctx), "policy"));
  },

  updatePolicy: (ctx) =>
    ctx.state.store.tx((tx) => {
      const existing = mustGet<PolicyDoc>(tx, "policy", idOf(ctx), "policy");
      return policyView(tx, write(tx, ctx, ctx.body as PolicyRequest, existing));
    }),

  deletePolicy: (ctx) =>
    ctx.state.store.tx((tx) => {
      const p = mustGet<PolicyDoc>(tx, "policy", idOf(ctx), "policy");
      tx.delete("policy", p.id);
      audit(tx, ctx, "policy.delete", "Policy deleted", p.id, { name: p.name });
      return {};
    }),
};
