/**
 * What each policy of the access guard reports, from one {@link Analysis}: pure functions from the accounts before
 * and after the change to violations (a message, and the URN of the stack's resource responsible when there is
 * one).
 */
import { diffText } from "../access/diff";
import { llmChanged } from "../access/llm";
import {
  countText,
  isLlmTest,
  isPublishedTest,
  runTests,
  testEndpoints,
  type AccessTest,
  type TestResult,
} from "../access/expectations";
import type { Account } from "../access/report";
import type { SnapshotPolicy } from "../netmap";
import type { Undecided } from "./after";
import type { Analysis } from "./analysis";

export interface Violation {
  message: string;
  urn?: string;
}

// --- access-tests ----------------------------------------------------------------------------------------------

/** The peers and the network resources a set of undecided tokens stands for, in an account. */
function resolveTokens(
  set: Set<string> | "all",
  account: Account,
): { peers: Set<string>; resources: Set<string> } | "all" {
  if (set === "all") return "all";
  const s = account.snapshot;
  const peers = new Set<string>();
  const resources = new Set<string>();
  for (const token of set) {
    const [kind, id] = [token.slice(0, token.indexOf(":")), token.slice(token.indexOf(":") + 1)];
    if (kind === "group") {
      const g = s.groups.find((x) => x.id === id);
      if (!g) continue;
      for (const p of g.all ? s.peers.map((x) => x.id) : g.peers) peers.add(p);
      for (const r of g.resources) resources.add(r.id);
    } else if (kind === "resource") {
      resources.add(id);
      peers.add(id); // a `peer` resource names a peer by its id
    } else if (kind === "network") {
      for (const r of s.networks.find((n) => n.id === id)?.resources ?? []) resources.add(r.id);
    }
  }
  return { peers, resources };
}

/** Whether something undecided may carry traffic between a test's endpoints. */
export function touches(
  u: Undecided,
  ep: { from: string[]; to: { kind: "peer" | "resource"; id: string }[] },
  accounts: readonly Account[],
): boolean {
  const sides = (set: Set<string> | "all") => accounts.map((a) => resolveTokens(set, a));
  const fromIn = (s: ReturnType<typeof resolveTokens>[]) =>
    s.some((x) => x === "all" || ep.from.some((p) => x.peers.has(p)));
  const toIn = (s: ReturnType<typeof resolveTokens>[]) =>
    s.some(
      (x) =>
        x === "all" || ep.to.some((t) => (t.kind === "peer" ? x.peers.has(t.id) : x.resources.has(t.id))),
    );
  const src = sides(u.sources);
  const dst = sides(u.targets);
  if (fromIn(src) && toIn(dst)) return true;
  // Both ways: the test's source among the targets, its target among the sources.
  const targetsAsSources = dst.map((x) =>
    x === "all" ? x : { peers: x.peers, resources: new Set<string>() },
  );
  return u.both && fromIn(targetsAsSources) && toIn(src);
}

function testText(r: TestResult, what: string): string {
  return `${what} ${r.name} (expect ${r.expect}, ${countText(r)})`;
}

/**
 * The violations of the access tests on the account after the change: tests of who reaches what, and tests of what
 * reverse-proxy services publish. Something undecided is weighed only by the tests of its sort: a service carries
 * no traffic between peers, and a policy publishes nothing.
 */
export function accessTestViolations(a: Analysis, tests: readonly AccessTest[], file: string): Violation[] {
  const results = runTests(a.after, tests);
  const endpoints = testEndpoints(a.after, tests);
  const out: Violation[] = [];
  const when = a.dryRun ? "after this change" : "after the change (already applied)";
  results.forEach((r, i) => {
    const ep = endpoints[i] as (typeof endpoints)[number];
    const published = isPublishedTest(tests[i] as AccessTest);
    const llm = isLlmTest(tests[i] as AccessTest);
    // Something undecided about LLM use may touch any LLM test (the gateway is one, shared by every group).
    const open = a.result.undecided.filter((u) =>
      llm
        ? u.llm === true
        : !u.llm && (u.publishes ?? false) === published && touches(u, ep, [a.before, a.after]),
    );
    if (open.length) {
      out.push({
        message: [
          `${testText(r, "UNDECIDED")}: cannot be decided before apply; with what is known it would ${
            r.passed ? "pass" : "fail"
          }. Unknown until apply:`,
          ...open.map((u) => `  ${u.message}`),
          "(apply the new objects first, e.g. with pulumi up --target, or run this change with access-tests advisory)",
          `(access test from ${file})`,
        ].join("\n"),
      });
      return;
    }
    if (r.passed) return;
    const shown = r.failures.slice(0, 20);
    const services = r.services ?? [];
    const urns = published
      ? [...new Set(services.flatMap((s) => a.owners.get(s.id) ?? []))]
      : llm
        ? [...new Set((r.llm ?? []).flatMap((x) => a.owners.get(x.id) ?? []))]
        : ownersOf(a, r.policies);
    out.push({
      message: [
        `${testText(r, "FAIL")} ${when}`,
        ...shown.map((f) => `  ${f}`),
        ...(r.failures.length > shown.length
          ? [`  ... and ${r.failures.length - shown.length} more pairs`]
          : []),
        published
          ? `services responsible: ${services.length ? services.map((s) => JSON.stringify(s.name)).join(", ") : "none (no enabled service publishes it)"}`
          : llm
            ? `responsible: ${(r.llm ?? []).length ? (r.llm ?? []).map((x) => `${x.kind} ${JSON.stringify(x.name)}`).join(", ") : "none (no policy lets them use it)"}`
            : `policies responsible: ${r.policies.length ? r.policies.map((p) => JSON.stringify(p)).join(", ") : "none (no rule grants it)"}`,
        `(access test from ${file})`,
      ].join("\n"),
      ...(urns.length === 1 ? { urn: urns[0] } : {}),
    });
  });
  return out;
}

/** The URNs of the stack's resources that hold the policies of these names after the change. */
function ownersOf(a: Analysis, names: readonly string[]): string[] {
  const urns = a.after.snapshot.policies
    .filter((p) => names.includes(p.name))
    .flatMap((p) => {
      const urn = a.owners.get(p.id);
      return urn ? [urn] : [];
    });
  return [...new Set(urns)];
}

// --- access-changes --------------------------------------------------------------------------------------------

/** The gained and lost access of the change, in `privnet-access diff`'s format, with what cannot be decided. */
export function accessChangeViolations(a: Analysis): Violation[] {
  if (!a.dryRun) return []; // the change is applied: the account before it is gone; the preview listed it
  const d = a.diff;
  const quiet =
    !d.gained.length &&
    !d.lost.length &&
    !d.published.gained.length &&
    !d.published.lost.length &&
    !llmChanged(d.llm) &&
    !d.llm.endpoint;
  if (quiet && !a.result.undecided.length && !a.notes.length) return [];
  const lines = [diffText(d).trimEnd()];
  if (a.result.undecided.length) {
    lines.push(
      "Cannot decide before apply (values unknown until the change is applied; their lines are not listed):",
    );
    for (const u of a.result.undecided) lines.push(`  ${u.message}`);
  }
  if (a.notes.length) {
    lines.push("Notes:");
    for (const n of a.notes) lines.push(`  ${n}`);
  }
  return [{ message: lines.join("\n") }];
}

// --- no-broad-access -------------------------------------------------------------------------------------------

export interface BroadOptions {
  sensitiveGroups: readonly string[];
  ignorePolicies: readonly string[];
}

/** Rules of the stack's policies that open access broadly (see the module comment of the pack). */
export function broadAccessViolations(a: Analysis, o: BroadOptions): Violation[] {
  const s = a.after.snapshot;
  const groups = new Map(s.groups.map((g) => [g.id, g]));
  const sensitive = new Set(
    s.groups
      .filter((g) => o.sensitiveGroups.includes(g.name) || o.sensitiveGroups.includes(g.id))
      .map((g) => g.id),
  );
  const named = (id: string) => JSON.stringify(groups.get(id)?.name ?? id);
  const out: Violation[] = [];
  const policies: SnapshotPolicy[] = s.policies.filter(
    (p) => a.owners.has(p.id) && p.enabled && !o.ignorePolicies.includes(p.name),
  );
  for (const p of policies) {
    const urn = a.owners.get(p.id) as string;
    for (const r of p.rules) {
      if (!r.enabled) continue;
      if (r.action !== "accept") continue; // a drop rule takes access away
      const where = `policy ${JSON.stringify(p.name)}, rule ${JSON.stringify(r.name)}`;
      for (const [side, list] of [
        ["sources", r.sources],
        ["destinations", r.destinations],
      ] as const) {
        const all = (list ?? []).find((g) => groups.get(g)?.all);
        if (all)
          out.push({
            message: `${where}: its ${side} are the built-in All group (every peer): it lets ${
              side === "sources" ? "every peer reach its destinations" : "its sources reach every peer"
            }`,
            urn,
          });
      }
      const open = r.protocol === "all" && !r.ports?.length && !r.port_ranges?.length;
      if (!open) continue;
      const hit = [
        ...(r.destinations ?? [])
          .filter((g) => sensitive.has(g))
          .map((g) => `to the sensitive group ${named(g)}`),
        ...(r.sources ?? [])
          .filter((g) => sensitive.has(g))
          .map((g) => `from the sensitive group ${named(g)}`),
      ];
      if (hit.length)
        out.push({
          message: `${where}: it opens all traffic (protocol all, no ports) ${hit.join(" and ")}`,
          urn,
        });
    }
  }
  return out;
}
