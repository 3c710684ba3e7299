/**
 * Users (spec 2.4, 3, 4.2), the current user and password changes. Invite links are handlers/invites.ts.
 *
 * - A user is either a service user (automation: no email, active at once, no IdP identity) or a regular user,
 *   created "invited". With the embedded IdP a regular user gets a generated initial password, returned once by
 *   the create response and stored only as a salted scrypt hash.
 * - Object-level rules the role matrix cannot express: nobody changes the owner's role, blocks or deletes the
 *   owner (403); nobody blocks, deletes or changes the role of itself (403); `owner` cannot be assigned (422).
 */
import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import type { z } from "../../api/common";
import type { PasswordChangeSchema, UserCreateSchema, UserUpdateSchema } from "../../api/user";
import { ZERO_TIME, iso } from "../clock";
import { accountOf, actorOf, type Ctx, type Handlers, type StoredKinds } from "../context";
import { audit, groupLists, mustGet, requireRefs, sameIds, type Reader } from "../domain";
import { conflict, forbidden, invalid, preconditionFailed } from "../errors";
import { newId, newPassword } from "../ids";
import type { GroupDoc, PeerDoc, TokenDoc, UserDoc } from "../model";
import { permissionsFor } from "../roles";
import type { Tx } from "../store";
import type { InviteDoc } from "./invites";

type UserCreate = z.infer<typeof UserCreateSchema>;
type UserUpdate = z.infer<typeof UserUpdateSchema>;
type PasswordChange = z.infer<typeof PasswordChangeSchema>;

/** Stored users may remember the status they had before being blocked, to restore it on unblock. */
type StoredUser = UserDoc & { status_before_block?: UserDoc["status"] };

// ---------------------------------------------------------------------------------------------------------
// Passwords: salted scrypt, `scrypt$<salt>$<key>` (base64). Unlike tokens, passwords are low-entropy, so a plain
// SHA-256 would be cheap to brute-force from a copied database file.

const SCRYPT_KEYLEN = 32;

/** Hashes a password for storage. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, SCRYPT_KEYLEN);
  return `scrypt$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** True when `password` matches a hash made by {@link hashPassword} (constant-time comparison). */
export function passwordMatches(password: string, stored: string | undefined): boolean {
  const [scheme, saltText, keyText] = (stored ?? "").split("$");
  if (scheme !== "scrypt" || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, "base64");
  const actual = scryptSync(password, Buffer.from(saltText, "base64"), expected.length || SCRYPT_KEYLEN);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

// ---------------------------------------------------------------------------------------------------------
// Views

/** The User response; `is_current` is true only for the caller. */
export function userView(u: UserDoc, currentUserId: string | undefined) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role as "owner" | "admin" | "user" | "billing_admin" | "auditor" | "network_admin",
    status: u.status,
    last_login: u.last_login,
    auto_groups: [...u.auto_groups],
    is_current: u.id === currentUserId,
    is_service_user: u.is_service_user,
    is_blocked: u.is_blocked,
    pending_approval: u.pending_approval,
    issued: u.issued,
    idp_id: u.idp_id,
    permissions: permissionsFor(u.role),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Checks shared by users and invites

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** A regular user or a pending invite must not already use the address (409). */
export function checkEmailFree(r: Reader, email: string, exceptInviteId?: string): void {
  if (r.all<UserDoc>("user").some((u) => u.email !== "" && sameEmail(u.email, email)))
    throw conflict(`a user with email ${email} already exists`);
  const inv = r.all<InviteDoc>("invite").find((i) => i.id !== exceptInviteId && sameEmail(i.email, email));
  if (inv) throw conflict(`an invite for ${email} already exists (${inv.id}); regenerate or delete it`);
}

/** auto_groups must name existing groups, and not the built-in All group (every peer is in it anyway). */
export function checkAutoGroups(r: Reader, ids: readonly string[]): void {
  requireRefs(r, "group", ids, "auto_groups", "group");
  for (const id of ids) {
    if (r.get<GroupDoc>("group", id)?.builtin)
      throw invalid(`auto_groups: the All group (${id}) cannot be an auto group; every peer is in it`);
  }
}

export function checkAssignableRole(role: string): void {
  if (role === "owner") throw invalid("role: owner cannot be assigned; the account has one owner");
}

/**
 * With `groups_propagation_enabled`, a change of a user's auto groups also moves the user's existing peers:
 * they join the added groups and leave the removed ones (membership lives in the group documents).
 */
function propagateAutoGroups(tx: Tx, userId: string, before: readonly string[], after: readonly string[]) {
  if (accountOf(tx).settings.groups_propagation_enabled !== true) return;
  const peerIds = tx
    .all<PeerDoc>("peer")
    .filter((p) => p.user_id === userId)
    .map((p) => p.id);
  if (peerIds.length === 0) return;
  for (const id of after.filter((g) => !before.includes(g))) {
    const g = tx.get<GroupDoc>("group", id);
    if (g && !g.builtin) tx.put("group", { ...g, peers: [...new Set([...g.peers, ...peerIds])] });
  }
  for (const id of before.filter((g) => !after.includes(g))) {
    const g = tx.get<GroupDoc>("group", id);
    if (g && !g.builtin) tx.put("group", { ...g, peers: g.peers.filter((p) => !peerIds.includes(p)) });
  }
}

/** Removes a user and everything that only exists for it (its personal access tokens). */
function removeUser(tx: Tx, user: UserDoc): void {
  for (const t of tx.all<TokenDoc>("token", user.id)) tx.delete("token", t.id);
  tx.delete("user", user.id);
}

function getUser(r: Reader, ctx: Ctx): StoredUser {
  return mustGet<StoredUser>(r, "user", ctx.params.userId as string, "user");
}

// ---------------------------------------------------------------------------------------------------------

/** The documents this module stores (see StoredKind). */
export const kinds = {
  user: { groupUses: groupLists(["auto_groups"], (x) => `user ${String(x.email || x.name)} (${x.id})`) },
} satisfies StoredKinds;

export const handlers: Handlers = {
  listUsers: (ctx) => {
    const me = actorOf(ctx).user.id;
    const filter = ctx.query.service_user as "true" | "false" | undefined;
    return ctx.state.store
      .all<UserDoc>("user")
      .filter((u) => filter === undefined || u.is_service_user === (filter === "true"))
      .map((u) => userView(u, me));
  },

  createUser: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as UserCreate;
      const me = actorOf(ctx).user.id;
      checkAssignableRole(body.role);
      checkAutoGroups(tx, body.auto_groups);
      const id = newId();
      const now = iso(ctx.now);
      let password: string | undefined;
      let doc: UserDoc;
      if (body.is_service_user) {
        // The service ignores an address sent for a service user and stores one without a name.
        doc = {
          id,
          email: "",
          name: body.name ?? "",
          role: body.role,
          status: "active",
          last_login: ZERO_TIME,
          auto_groups: [...body.auto_groups],
          is_service_user: true,
          is_blocked: false,
          pending_approval: false,
          issued: "api",
          // A service user has no identity at an IdP; only its PATs authenticate it.
          idp_id: "",
          created_at: now,
        };
      } else {
        const email = body.email as string; // the schema requires it for regular users
        checkEmailFree(tx, email);
        if (ctx.state.options.embeddedIdp) password = newPassword();
        doc = {
          id,
          email,
          name: body.name ?? email,
          role: body.role,
          status: "invited",
          last_login: ZERO_TIME,
          auto_groups: [...body.auto_groups],
          is_service_user: false,
          is_blocked: false,
          pending_approval: false,
          issued: "api",
          // With an embedded IdP the user's IdP identity is its own id (what a bearer token's `sub` carries).
          idp_id: id,
          created_at: now,
        };
        if (password !== undefined) doc.password_hash = hashPassword(password);
      }
      tx.put("user", doc);
      if (doc.is_service_user) {
        audit(tx, ctx, "service.user.create", "Service user created", id, { name: doc.name, role: doc.role });
      } else {
        audit(tx, ctx, "user.invite", "User invited", id, { email: doc.email, role: doc.role });
      }
      // The initial password appears in this one response and nowhere else.
      return password === undefined ? userView(doc, me) : { ...userView(doc, me), password };
    }),

  updateUser: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as UserUpdate;
      const me = actorOf(ctx).user;
      const user = getUser(tx, ctx);
      if (user.role === "owner") {
        if (body.role !== "owner") throw forbidden("the owner's role cannot be changed");
        if (body.is_blocked) throw forbidden("the owner cannot be blocked");
      } else {
        checkAssignableRole(body.role);
      }
      if (user.id === me.id) {
        if (body.is_blocked) throw forbidden("a user cannot block itself");
        if (body.role !== user.role) throw forbidden("a user cannot change its own role");
      }
      checkAutoGroups(tx, body.auto_groups);
      const next: StoredUser = { ...user, role: body.role, auto_groups: [...body.auto_groups] };
      const blockChanged = body.is_blocked !== user.is_blocked;
      if (blockChanged && body.is_blocked) {
        next.is_blocked = true;
        next.status_before_block = user.status;
        next.status = "blocked";
      } else if (blockChanged) {
        next.is_blocked = false;
        next.status = user.status_before_block ?? "active";
        delete next.status_before_block;
      }
      tx.put("user", next);
      propagateAutoGroups(tx, user.id, user.auto_groups, next.auto_groups);
      const changed = user.role !== next.role || !sameIds(user.auto_groups, next.auto_groups);
      if (blockChanged) {
        audit(
          tx,
          ctx,
          next.is_blocked ? "user.block" : "user.unblock",
          next.is_blocked ? "User blocked" : "User unblocked",
          user.id,
        );
      }
      if (changed || !blockChanged) {
        audit(tx, ctx, "user.update", "User updated", user.id, {
          role: next.role,
          auto_groups: next.auto_groups,
        });
      }
      return userView(next, me.id);
    }),

  deleteUser: (ctx) =>
    ctx.state.store.tx((tx) => {
      const user = getUser(tx, ctx);
      if (user.role === "owner") throw forbidden("the account owner cannot be deleted");
      if (user.id === actorOf(ctx).user.id) throw forbidden("a user cannot delete itself");
      // The user's peers stay (their user_id keeps the old id), as an agent outlives its user's account entry.
      removeUser(tx, user);
      audit(
        tx,
        ctx,
        user.is_service_user ? "service.user.delete" : "user.delete",
        user.is_service_user ? "Service user deleted" : "User deleted",
        user.id,
        { email: user.email, name: user.name },
      );
      return {};
    }),

  resendUserInvite: (ctx) =>
    ctx.state.store.tx((tx) => {
      const user = getUser(tx, ctx);
      if (user.status !== "invited")
        throw preconditionFailed(`user ${user.id} is ${user.status}, not invited: nothing to resend`);
      audit(tx, ctx, "user.invite", "User invite resent", user.id, { email: user.email, resend: true });
      return {};
    }),

  approveUser: (ctx) =>
    ctx.state.store.tx((tx) => {
      const user = getUser(tx, ctx);
      if (!user.pending_approval) throw preconditionFailed(`user ${user.id} is not pending approval`);
      const next: StoredUser = { ...user, pending_approval: false };
      tx.put("user", next);
      audit(tx, ctx, "user.approve", "User approved", user.id, { email: user.email });
      return userView(next, actorOf(ctx).user.id);
    }),

  rejectUser: (ctx) =>
    ctx.state.store.tx((tx) => {
      const user = getUser(tx, ctx);
      if (!user.pending_approval) throw preconditionFailed(`user ${user.id} is not pending approval`);
      removeUser(tx, user);
      audit(tx, ctx, "user.reject", "User rejected", user.id, { email: user.email });
      return {};
    }),

  changeUserPassword: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as PasswordChange;
      const user = getUser(tx, ctx);
      // roles.ts already limits this route to the user itself; checked again where the password changes.
      if (user.id !== actorOf(ctx).user.id) throw forbidden("a user may change only its own password");
      if (!user.password_hash)
        throw preconditionFailed(
          `user ${user.id} has no password with the embedded identity provider (service users and users ` +
            "created before it was enabled sign in elsewhere)",
        );
      if (!passwordMatches(body.old_password, user.password_hash))
        throw invalid("old_password: does not match the current password");
      tx.put("user", { ...user, password_hash: hashPassword(body.new_password) });
      audit(tx, ctx, "user.password.change", "User password changed", user.id);
      return {};
    }),

  getCurrentUser: (ctx) => {
    const me = actorOf(ctx).user;
    // Re-read: the actor was resolved before any write of this request.
    const fresh = ctx.state.store.get<UserDoc>("user", me.id) ?? me;
    return userView(fresh, me.id);
  },
};
