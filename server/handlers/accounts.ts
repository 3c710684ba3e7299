/**
 * The account (spec 2.20, 4.10): always exactly one per database.
 *
 * PUT semantics of `settings` (the real service's): the fields the request schema requires are replaced; an
 * optional field that is not sent keeps its stored value (so a client that does not know a newer setting does
 * not reset it); `extra`, when sent, replaces the stored extra as a whole (all its members are required). The
 * read-only members are never taken from the client: `embedded_idp_enabled` reflects the server option and
 * `local_auth_disabled` stays as stored. An empty `network_range` keeps the current range; a new range moves
 * every peer to an address inside it, as the real service does. `onboarding`, when sent, replaces the stored one.
 *
 * DELETE (owner only, see roles.ts) wipes the database: afterwards every credential is unknown (401) until the
 * server is started on a new database file. No audit event is kept, since the audit log is wiped with the rest.
 */
import type { AccountUpdateSchema } from "../../api/account";
import { canonicalCidr, parseCidr, type z } from "../../api/common";
import { defaultSettings } from "../bootstrap";
import { accountOf, type Ctx, type Handlers, type StoredKinds } from "../context";
import { audit, holds, requireRefs, type Reader } from "../domain";
import { invalid, notFound } from "../errors";
import type { AccountDoc, PeerDoc } from "../model";
import { allocateIp } from "../peer-factory";
import type { Tx } from "../store";

type AccountUpdate = z.infer<typeof AccountUpdateSchema>;
type SettingsRequest = AccountUpdate["settings"];

/** Settings members a client can never set. */
const READ_ONLY = new Set(["embedded_idp_enabled", "local_auth_disabled"]);

/** The members of the settings response (those of a new account's settings). */
const SETTINGS_KEYS = Object.keys(defaultSettings(false));

/** The Account response. */
export function accountView(acc: AccountDoc, embeddedIdp: boolean) {
  // Defaults fill members a database written by an older server may lack.
  const base = defaultSettings(embeddedIdp);
  const stored = acc.settings;
  const settings: Record<string, unknown> = {};
  for (const k of SETTINGS_KEYS) settings[k] = stored[k] ?? base[k];
  settings.embedded_idp_enabled = embeddedIdp;
  return {
    id: acc.id,
    domain: acc.domain,
    domain_category: acc.domain_category,
    created_at: acc.created_at,
    created_by: acc.created_by,
    settings,
    onboarding: { ...acc.onboarding },
  };
}

function getAccount(r: Reader, ctx: Ctx): AccountDoc {
  const acc = accountOf(r);
  if (acc.id !== ctx.params.accountId) throw notFound(`account ${ctx.params.accountId} not found`);
  return acc;
}

/** Applies the PUT semantics above; returns the new settings and the names of the members that changed. */
function mergeSettings(current: Record<string, unknown>, sent: SettingsRequest) {
  const next: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(sent)) {
    if (v === undefined || READ_ONLY.has(k)) continue;
    if (k === "network_range" && v === "") continue;
    // A range with host bits set is stored as its network (100.64.1.0/16 -> 100.64.0.0/16), as the service does.
    next[k] = k === "network_range" && typeof v === "string" ? canonicalCidr(v) : v;
  }
  const changed = Object.keys(next).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(current[k]));
  return { next, changed };
}

/** Moves every peer into a new network range (first free addresses, in creation order). */
function renumberPeers(tx: Tx, range: string): void {
  const cidr = parseCidr(range);
  if (!cidr || cidr.family !== 4)
    throw invalid("settings.network_range: must be an IPv4 range such as 100.64.0.0/10");
  const peers = tx.all<PeerDoc>("peer");
  const capacity = 2 ** (32 - cidr.bits) - 2;
  if (peers.length > capacity)
    throw invalid(
      `settings.network_range: ${range} holds ${Math.max(0, capacity)} addresses, the account has ${peers.length} peers`,
    );
  // Free every address first, so the allocation below may reuse any of them.
  for (const p of peers) tx.put("peer", { ...p, ip: "" });
  for (const p of peers) {
    const cur = tx.get<PeerDoc>("peer", p.id) as PeerDoc;
    tx.put("peer", { ...cur, ip: allocateIp(tx) });
  }
}

/** The documents this module stores (see StoredKind). */
export const kinds = {
  // The account document also holds the DNS settings (handlers/dns.ts writes its `dns` member).
  account: {
    groupUses: (doc, groupId) => {
      const acc = doc as AccountDoc;
      const extra = acc.settings.extra as { network_traffic_logs_groups?: string[] } | undefined;
      return [
        ...(holds(acc.dns.disabled_management_groups, groupId)
          ? ["DNS settings (disabled_management_groups)"]
          : []),
        ...(holds(acc.settings.peer_expose_groups, groupId) ? ["account settings (peer_expose_groups)"] : []),
        ...(holds(extra?.network_traffic_logs_groups, groupId)
          ? ["account settings (extra.network_traffic_logs_groups)"]
          : []),
      ];
    },
  },
} satisfies StoredKinds;

export const handlers: Handlers = {
  listAccounts: (ctx) => [accountView(accountOf(ctx.state.store), ctx.state.options.embeddedIdp)],

  updateAccount: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as AccountUpdate;
      const acc = getAccount(tx, ctx);
      const s = body.settings;
      requireRefs(tx, "group", s.peer_expose_groups, "settings.peer_expose_groups", "group");
      requireRefs(
        tx,
        "group",
        s.extra?.network_traffic_logs_groups,
        "settings.extra.network_traffic_logs_groups",
        "group",
      );
      const { next, changed } = mergeSettings(acc.settings, s);
      const onboarding = body.onboarding ? { ...body.onboarding } : acc.onboarding;
      const onboardingChanged = JSON.stringify(onboarding) !== JSON.stringify(acc.onboarding);
      const updated: AccountDoc = { ...acc, settings: next, onboarding };
      tx.put("account", updated);
      if (changed.includes("network_range")) renumberPeers(tx, String(next.network_range));
      audit(tx, ctx, "account.settings.update", "Account settings updated", acc.id, {
        changed: onboardingChanged ? [...changed, "onboarding"] : changed,
      });
      return accountView(updated, ctx.state.options.embeddedIdp);
    }),

  deleteAccount: (ctx) => {
    getAccount(ctx.state.store, ctx);
    ctx.state.store.wipe();
    return {};
  },
};
