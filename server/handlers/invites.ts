/**
 * Invite links (spec 2.5, 4.2; embedded IdP only): a separate object from the user it will become. The link token
 * is returned once (create, regenerate) and stored as a SHA-256 hash; accepting it (public route) creates an
 * active user and removes the invite.
 */
import {
  INVITE_DEFAULT_EXPIRES_IN,
  type InviteCreateSchema,
  type InviteRegenerateSchema,
} from "../../api/invite";
import type { z } from "../../api/common";
import { ZERO_TIME, iso } from "../clock";
import { actorOf, type Handlers, type StoredKinds } from "../context";
import { audit, groupLists, mustGet, type Reader } from "../domain";
import { notFound, preconditionFailed } from "../errors";
import { hashSecret, newId, newInviteToken } from "../ids";
import type { UserDoc } from "../model";
import type { Doc } from "../store";
import { checkAssignableRole, checkAutoGroups, checkEmailFree, hashPassword, type userView } from "./users";

type InviteCreate = z.infer<typeof InviteCreateSchema>;
type InviteRegenerate = z.infer<typeof InviteRegenerateSchema>;

/** A pending invite link (kind "invite"). The link token itself is never stored. */
export interface InviteDoc extends Doc {
  email: string;
  name: string;
  role: UserDoc["role"];
  auto_groups: string[];
  /** base64 SHA-256 of the link token. */
  hashed_token: string;
  expires_at: string;
  created_at: string;
  /** Id of the user who created (or last regenerated) the invite. */
  invited_by: string;
}

function inviteExpired(inv: InviteDoc, now: number): boolean {
  return Date.parse(inv.expires_at) <= now;
}

/** The Invite response, without the link token (only create adds it). */
function inviteView(inv: InviteDoc, now: number) {
  return {
    id: inv.id,
    email: inv.email,
    name: inv.name,
    role: inv.role as ReturnType<typeof userView>["role"],
    auto_groups: [...inv.auto_groups],
    expires_at: inv.expires_at,
    created_at: inv.created_at,
    expired: inviteExpired(inv, now),
  };
}

function findInviteByToken(r: Reader, token: string): InviteDoc {
  const inv = r.findBy<InviteDoc>("invite", "hashed_token", hashSecret(token));
  // The same answer for malformed, unknown and superseded tokens: nothing to learn by probing.
  if (!inv) throw notFound("invite not found");
  return inv;
}

/** The expiry of an invite made now: 0, a negative or no lifetime means the default (as the service takes it). */
function inviteExpiry(now: number, expiresIn: number | undefined): string {
  const seconds = expiresIn === undefined || expiresIn <= 0 ? INVITE_DEFAULT_EXPIRES_IN : expiresIn;
  return iso(now + seconds * 1000);
}

/** The documents this module stores (see StoredKind). */
export const kinds = {
  invite: { groupUses: groupLists(["auto_groups"], (x) => `invite ${String(x.email)} (${x.id})`) },
} satisfies StoredKinds;

export const handlers: Handlers = {
  listInvites: (ctx) => ctx.state.store.all<InviteDoc>("invite").map((i) => inviteView(i, ctx.now)),

  createInvite: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as InviteCreate;
      checkAssignableRole(body.role);
      checkAutoGroups(tx, body.auto_groups);
      checkEmailFree(tx, body.email);
      const token = newInviteToken();
      const doc: InviteDoc = {
        id: newId(),
        email: body.email,
        name: body.name,
        role: body.role,
        auto_groups: [...body.auto_groups],
        hashed_token: hashSecret(token),
        expires_at: inviteExpiry(ctx.now, body.expires_in),
        created_at: iso(ctx.now),
        invited_by: actorOf(ctx).user.id,
      };
      tx.put("invite", doc);
      audit(tx, ctx, "user.invite.link.create", "User invite link created", doc.id, {
        email: doc.email,
        role: doc.role,
      });
      // The link token appears in this one response (and in regenerate's); reads never show it.
      return { ...inviteView(doc, ctx.now), invite_token: token };
    }),

  deleteInvite: (ctx) =>
    ctx.state.store.tx((tx) => {
      const inv = mustGet<InviteDoc>(tx, "invite", ctx.params.inviteId as string, "invite");
      tx.delete("invite", inv.id);
      audit(tx, ctx, "user.invite.link.delete", "User invite link deleted", inv.id, { email: inv.email });
      return {};
    }),

  regenerateInvite: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = (ctx.body ?? {}) as InviteRegenerate;
      const inv = mustGet<InviteDoc>(tx, "invite", ctx.params.inviteId as string, "invite");
      const token = newInviteToken();
      // Same invite, new token: the old token's hash is overwritten, so the old link stops working at once.
      const next: InviteDoc = {
        ...inv,
        hashed_token: hashSecret(token),
        expires_at: inviteExpiry(ctx.now, body.expires_in),
        invited_by: actorOf(ctx).user.id,
      };
      tx.put("invite", next);
      audit(tx, ctx, "user.invite.link.regenerate", "User invite link regenerated", inv.id, {
        email: inv.email,
      });
      return { invite_token: token, invite_expires_at: next.expires_at };
    }),

  getInviteInfo: (ctx) => {
    const { store } = ctx.state;
    const inv = findInviteByToken(store, ctx.params.token as string);
    const inviter = store.get<UserDoc>("user", inv.invited_by);
    return {
      email: inv.email,
      name: inv.name,
      expires_at: inv.expires_at,
      valid: !inviteExpired(inv, ctx.now),
      invited_by: inviter ? inviter.name || inviter.email : "",
    };
  },

  acceptInvite: (ctx) =>
    ctx.state.store.tx((tx) => {
      const { password } = ctx.body as { password: string };
      const inv = findInviteByToken(tx, ctx.params.token as string);
      if (inviteExpired(inv, ctx.now))
        throw preconditionFailed("invite expired: ask for a new link (regenerate)");
      checkEmailFree(tx, inv.email, inv.id);
      const id = newId();
      const now = iso(ctx.now);
      const user: UserDoc = {
        id,
        email: inv.email,
        name: inv.name,
        role: inv.role,
        status: "active",
        last_login: ZERO_TIME,
        // Groups may have been deleted since the invite was made; keep only those that still exist.
        auto_groups: inv.auto_groups.filter((g) => tx.get("group", g)),
        is_service_user: false,
        is_blocked: false,
        pending_approval: false,
        issued: "api",
        idp_id: id,
        password_hash: hashPassword(password),
        created_at: now,
      };
      tx.put("user", user);
      tx.delete("invite", inv.id);
      // A public route has no caller: the new user is the initiator of its own arrival.
      tx.audit({
        timestamp: now,
        activity: "User invite link accepted",
        activity_code: "user.invite.link.accept",
        initiator_id: id,
        target_id: id,
        meta: { email: user.email, invite_id: inv.id },
      });
      return { success: true };
    }),
};
