/**
 * The difference between two access maps of one account (before and after a change): the lines gained and lost
 * (access/report.ts: from, to, traffic, policy and rule), and totals: pairs that gain or lose all access, and the
 * peers affected. Lines are compared by ids, so a renamed policy or peer is no change of access. What
 * reverse-proxy services publish is compared the same way: a target newly published (or published to more, or
 * with other guards) is gained, one no longer published so is lost. LLM use through the Agent Network gateway
 * (access/llm.ts) too: a grant (a group, a provider, its models and the policy's caps) or a budget rule that appears
 * is a `+ llm:` line, one that goes a `- llm:` line.
 */
import {
  accessLines,
  lineKey,
  lineText,
  publishedKey,
  publishedLines,
  publishedText,
  undecided,
  type AccessLine,
  type Account,
  type PublishedLine,
} from "./report";
import { diffLlm, llmChanged, llmDiffLines, llmView, type LlmDiff } from "./llm";

export interface AccessDiff {
  gained: AccessLine[];
  lost: AccessLine[];
  totals: {
    gained_lines: number;
    lost_lines: number;
    /** Pairs (peer to peer or resource) with no access before and some after (access that holds for sure). */
    gained_pairs: number;
    /** Pairs with access before and none after. */
    lost_pairs: number;
    /** Peers at either end of a changed line. */
    peers_affected: number;
  };
  /** What the map cannot decide after the change (posture checks on metadata the API does not show). */
  cannot_decide: string[];
  /** Targets reverse-proxy services publish after the change and not before, and the other way round. */
  published: { gained: PublishedLine[]; lost: PublishedLine[] };
  /** LLM use through the Agent Network gateway: grants and budget rules gained and lost (access/llm.ts). */
  llm: LlmDiff;
}

const pairKey = (l: AccessLine) => `${l.from.id}\u0000${l.to.kind}\u0000${l.to.id}`;

/**
 * The difference between two accounts. `peerIds` limits it to those peers' lines (in snapshot order of each
 * account): the caller knows every other peer's lines are the same in both (policy/affected.ts).
 */
export function diffAccess(before: Account, after: Account, peerIds?: ReadonlySet<string>): AccessDiff {
  const only = (account: Account) =>
    peerIds ? account.map.peerIds().filter((id) => peerIds.has(id)) : undefined;
  const a = accessLines(before, only(before));
  const b = accessLines(after, only(after));
  const aKeys = new Set(a.map(lineKey));
  const bKeys = new Set(b.map(lineKey));
  const gained = b.filter((l) => !aKeys.has(lineKey(l)));
  const lost = a.filter((l) => !bKeys.has(lineKey(l)));
  // Pairs count access that holds for sure: a pair left only with a grant behind an undecidable posture check
  // is no longer reachable for sure.
  const aPairs = new Set(a.filter((l) => !l.conditional).map(pairKey));
  const bPairs = new Set(b.filter((l) => !l.conditional).map(pairKey));
  const peers = new Set<string>();
  for (const l of [...gained, ...lost]) {
    peers.add(l.from.id);
    if (l.to.kind === "peer") peers.add(l.to.id);
  }
  return {
    gained,
    lost,
    totals: {
      gained_lines: gained.length,
      lost_lines: lost.length,
      gained_pairs: [...bPairs].filter((p) => !aPairs.has(p)).length,
      lost_pairs: [...aPairs].filter((p) => !bPairs.has(p)).length,
      peers_affected: peers.size,
    },
    cannot_decide: undecided(after, only(after)),
    // Not narrowed to `peerIds`: what services publish belongs to no peer, and there are few services.
    published: publishedDiff(before, after),
    // Not narrowed either: grants belong to groups.
    llm: diffLlm(llmView(before.snapshot, before.users), llmView(after.snapshot, after.users)),
  };
}

function publishedDiff(before: Account, after: Account): AccessDiff["published"] {
  const a = publishedLines(before);
  const b = publishedLines(after);
  const aKeys = new Set(a.map(publishedKey));
  const bKeys = new Set(b.map(publishedKey));
  return {
    gained: b.filter((l) => !aKeys.has(publishedKey(l))),
    lost: a.filter((l) => !bKeys.has(publishedKey(l))),
  };
}

export function diffText(d: AccessDiff): string {
  const out: string[] = [];
  for (const l of d.gained) out.push(`+ ${lineText(l)}`);
  for (const l of d.lost) out.push(`- ${lineText(l)}`);
  for (const l of d.published.gained) out.push(`+ ${publishedText(l)}`);
  for (const l of d.published.lost) out.push(`- ${publishedText(l)}`);
  out.push(...llmDiffLines(d.llm));
  if (d.llm.endpoint)
    out.push(
      d.llm.endpoint.after
        ? `  (the Agent Network gateway ${d.llm.endpoint.before ? `moves from ${d.llm.endpoint.before} ` : ""}is at ${d.llm.endpoint.after})`
        : `  (the Agent Network gateway ${d.llm.endpoint.before} goes away: nobody uses an LLM through it)`,
    );
  if (!out.length) out.push("No change of access.");
  const t = d.totals;
  out.push(
    "",
    `${t.gained_lines} gained, ${t.lost_lines} lost; pairs: ${t.gained_pairs} newly reachable, ${t.lost_pairs} no longer reachable; peers affected: ${t.peers_affected}`,
  );
  if (d.published.gained.length || d.published.lost.length)
    out.push(
      `published through reverse proxies: ${d.published.gained.length} gained, ${d.published.lost.length} lost`,
    );
  if (llmChanged(d.llm))
    out.push(
      `LLM use through the Agent Network gateway: ${d.llm.gained.length + d.llm.rules_gained.length} gained, ${
        d.llm.lost.length + d.llm.rules_lost.length
      } lost`,
    );
  if (d.cannot_decide.length) {
    out.push("Cannot decide (posture checks on metadata the API does not show; lines marked [only if ...]):");
    for (const x of d.cannot_decide) out.push(`  ${x}`);
  }
  return `${out.join("\n")}\n`;
}
