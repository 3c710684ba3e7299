/**
 * Setup keys (spec 2.14, 4.7): credentials agents enroll peers with (see server/sim.ts for enrollment).
 *
 * Security: the full key is returned once, by create, and never stored. The document keeps only its masked form
 * (for reads) and its base64 SHA-256 (for the enrollment lookup), like personal access tokens.
 *
 * Ids are integers (a per-database sequence) stored as string document ids and returned as numbers.
 */
import type { SetupKey } from "../../api/setup-key";
import { ZERO_TIME, iso } from "../clock";
import type { Ctx, Handlers, StoredKinds } from "../context";
import { audit, groupLists, mustGet, requireRefs, type Reader } from "../domain";
import { invalid } from "../errors";
import { hashSecret, maskSetupKey, newSetupKey } from "../ids";
import type { Doc } from "../store";

/** A stored setup key. */
export interface SetupKeyDoc extends Doc {
  name: string;
  type: "one-off" | "reusable";
  /** Expiry time (RFC 3339). */
  expires: string;
  revoked: boolean;
  used_times: number;
  /** ZERO_TIME until the first enrollment. */
  last_used: string;
  auto_groups: string[];
  updated_at: string;
  created_at: string;
  /** As requested; 0 = unlimited. A one-off key is limited to one use whatever this says. */
  usage_limit: number;
  ephemeral: boolean;
  allow_extra_dns_labels: boolean;
  /** The first characters of the key followed by asterisks. */
  masked_key: string;
  /** base64 SHA-256 of the full key; the full key itself is never stored. */
  key_hash: string;
}

export type SetupKeyState = SetupKey["state"];

/** How many enrollments a key allows; undefined = unlimited. */
export function effectiveUsageLimit(k: SetupKeyDoc): number | undefined {
  if (k.type === "one-off") return 1;
  return k.usage_limit > 0 ? k.usage_limit : undefined;
}

/** The key's state at `now`: revoked wins over expired, expired over overused. */
export function setupKeyState(k: SetupKeyDoc, now: number): SetupKeyState {
  if (k.revoked) return "revoked";
  // A key made with expires_in 0 never expires: its expiry is the zero time.
  if (k.expires !== ZERO_TIME && Date.parse(k.expires) <= now) return "expired";
  const limit = effectiveUsageLimit(k);
  if (limit !== undefined && k.used_times >= limit) return "overused";
  return "valid";
}

/** The SetupKey response; `fullKey` only for the create response. */
export function setupKeyView(k: SetupKeyDoc, now: number, fullKey?: string): SetupKey {
  const state = setupKeyState(k, now);
  return {
    id: Number(k.id),
    name: k.name,
    type: k.type,
    expires: k.expires,
    valid: state === "valid",
    revoked: k.revoked,
    used_times: k.used_times,
    last_used: k.last_used,
    state,
    auto_groups: [...k.auto_groups],
    updated_at: k.updated_at,
    usage_limit: k.usage_limit,
    ephemeral: k.ephemeral,
    allow_extra_dns_labels: k.allow_extra_dns_labels,
    key: fullKey ?? k.masked_key,
  };
}

/** The stored key matching a full key value (enrollment), if any. */
export function findSetupKeyByValue(r: Reader, value: string): SetupKeyDoc | undefined {
  const hash = hashSecret(value);
  return r.all<SetupKeyDoc>("setup_key").find((k) => k.key_hash === hash);
}

const keyOf = (r: Reader, ctx: Ctx) =>
  mustGet<SetupKeyDoc>(r, "setup_key", ctx.params.keyId as string, "setup key");

interface CreateBody {
  name: string;
  type: "one-off" | "reusable";
  expires_in: number;
  auto_groups: string[];
  usage_limit: number;
  ephemeral?: boolean;
  allow_extra_dns_labels?: boolean;
}

/** The documents this module stores (see StoredKind). */
export const kinds = {
  setup_key: { groupUses: groupLists(["auto_groups"], (x) => `setup key ${String(x.name)} (${x.id})`) },
} satisfies StoredKinds;

export const handlers: Handlers = {
  listSetupKeys: (ctx) => ctx.state.store.all<SetupKeyDoc>("setup_key").map((k) => setupKeyView(k, ctx.now)),

  createSetupKey: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as CreateBody;
      requireRefs(tx, "group", body.auto_groups, "auto_groups", "group");
      const plain = newSetupKey();
      const ts = iso(ctx.now);
      const doc: SetupKeyDoc = {
        id: String(tx.nextInt("setup_key")),
        name: body.name,
        type: body.type,
        // expires_in is seconds; 0 is a key that never expires (the service answers the zero time for it).
        expires: body.expires_in === 0 ? ZERO_TIME : iso(ctx.now + body.expires_in * 1000),
        revoked: false,
        used_times: 0,
        last_used: ZERO_TIME,
        auto_groups: [...body.auto_groups],
        updated_at: ts,
        created_at: ts,
        usage_limit: body.usage_limit,
        ephemeral: body.ephemeral ?? false,
        allow_extra_dns_labels: body.allow_extra_dns_labels ?? false,
        masked_key: maskSetupKey(plain),
        key_hash: hashSecret(plain),
      };
      tx.put("setup_key", doc);
      audit(tx, ctx, "setupkey.add", "Setup key created", doc.id, { name: doc.name, type: doc.type });
      // The only response that ever carries the full key.
      return setupKeyView(doc, ctx.now, plain);
    }),

  getSetupKey: (ctx) => setupKeyView(keyOf(ctx.state.store, ctx), ctx.now),

  updateSetupKey: (ctx) =>
    ctx.state.store.tx((tx) => {
      const k = keyOf(tx, ctx);
      const body = ctx.body as { revoked: boolean; auto_groups: string[] };
      // Revocation is final: the real service refuses to bring a revoked key back.
      if (k.revoked && !body.revoked)
        throw invalid(`revoked: setup key ${k.id} is revoked and cannot be un-revoked; create a new key`);
      requireRefs(tx, "group", body.auto_groups, "auto_groups", "group");
      const revoking = !k.revoked && body.revoked;
      const doc: SetupKeyDoc = {
        ...k,
        revoked: body.revoked,
        auto_groups: [...body.auto_groups],
        updated_at: iso(ctx.now),
      };
      tx.put("setup_key", doc);
      audit(
        tx,
        ctx,
        revoking ? "setupkey.revoke" : "setupkey.update",
        revoking ? "Setup key revoked" : "Setup key updated",
        doc.id,
        { name: doc.name, auto_groups: doc.auto_groups },
      );
      return setupKeyView(doc, ctx.now);
    }),

  deleteSetupKey: (ctx) =>
    ctx.state.store.tx((tx) => {
      const k = keyOf(tx, ctx);
      // Peers enrolled with the key stay: they are enrolled already and keep working.
      tx.delete("setup_key", k.id);
      audit(tx, ctx, "setupkey.delete", "Setup key deleted", k.id, { name: k.name });
      return {};
    }),
};
