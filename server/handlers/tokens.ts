/**
 * Personal access tokens (spec 2.3, 4.1, part 5), under /api/users/{userId}/tokens.
 *
 * The plain value (`newPersonalAccessToken()`: prefix, 30 random base62 characters, base62 CRC32) is returned
 * once, by create; only its SHA-256 is stored. A token under another user's path is a 404, as is an unknown
 * user. Who may call these routes is decided by roles.ts (a user manages its own tokens; admins and owners
 * those of any user, service users included); one object-level rule is added here: only the owner may mint or
 * delete the owner's tokens, so an admin cannot turn itself into the owner or lock the owner out. A user holds at
 * most {@link MAX_ACTIVE_TOKENS_PER_USER} unexpired tokens.
 */
import type { z } from "../../api/common";
import type { TokenCreateSchema } from "../../api/token";
import { iso } from "../clock";
import { actorOf, type Ctx, type Handlers, type StoredKinds } from "../context";
import { audit, mustGet, type Reader } from "../domain";
import { forbidden, invalid } from "../errors";
import { hashSecret, newId, newPersonalAccessToken } from "../ids";
import type { TokenDoc, UserDoc } from "../model";

type TokenCreate = z.infer<typeof TokenCreateSchema>;

const DAY_MS = 86_400_000;

/**
 * The most personal access tokens a user may hold at once, counting only those not expired (the bootstrap owner
 * token included). Minting one more is a 422: every token is a standing credential, and one user with tens of
 * thousands of them is abuse, not automation.
 */
export const MAX_ACTIVE_TOKENS_PER_USER = 100;

/** The Token response (never the value, never its hash). */
export function tokenView(t: TokenDoc) {
  return {
    id: t.id,
    name: t.name,
    expiration_date: t.expiration_date,
    created_by: t.created_by,
    created_at: t.created_at,
    last_used: t.last_used,
  };
}

function targetUser(r: Reader, ctx: Ctx): UserDoc {
  return mustGet<UserDoc>(r, "user", ctx.params.userId as string, "user");
}

function getToken(r: Reader, ctx: Ctx, user: UserDoc): TokenDoc {
  // The parent check makes another user's token id under this path a plain 404.
  return mustGet<TokenDoc>(r, "token", ctx.params.tokenId as string, "token", user.id);
}

function checkOwnerTokens(ctx: Ctx, user: UserDoc, what: string): void {
  if (user.role === "owner" && actorOf(ctx).user.id !== user.id)
    throw forbidden(`only the account owner may ${what} the owner's personal access tokens`);
}

/** The documents this module stores (see StoredKind). */
export const kinds = {
  token: {},
} satisfies StoredKinds;

export const handlers: Handlers = {
  listTokens: (ctx) => {
    const { store } = ctx.state;
    const user = targetUser(store, ctx);
    return store.all<TokenDoc>("token", user.id).map(tokenView);
  },

  createToken: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as TokenCreate;
      const user = targetUser(tx, ctx);
      checkOwnerTokens(ctx, user, "create");
      const active = tx
        .all<TokenDoc>("token", user.id)
        .filter((t) => Date.parse(t.expiration_date) > ctx.now);
      if (active.length >= MAX_ACTIVE_TOKENS_PER_USER)
        throw invalid(
          `user ${user.id} has ${active.length} active personal access tokens, the most a user may have ` +
            `(${MAX_ACTIVE_TOKENS_PER_USER}): delete one first`,
        );
      const plain = newPersonalAccessToken();
      const doc: TokenDoc = {
        id: newId(),
        parent: user.id,
        name: body.name,
        hashed_token: hashSecret(plain),
        expiration_date: iso(ctx.now + body.expires_in * DAY_MS),
        created_by: actorOf(ctx).user.id,
        created_at: iso(ctx.now),
        last_used: null,
      };
      tx.put("token", doc);
      audit(tx, ctx, "personal.access.token.create", "Personal access token created", doc.id, {
        name: doc.name,
        user_id: user.id,
      });
      // The only response that ever carries the value.
      return { plain_token: plain, personal_access_token: tokenView(doc) };
    }),

  getToken: (ctx) => {
    const { store } = ctx.state;
    return tokenView(getToken(store, ctx, targetUser(store, ctx)));
  },

  deleteToken: (ctx) =>
    ctx.state.store.tx((tx) => {
      const user = targetUser(tx, ctx);
      const token = getToken(tx, ctx, user);
      checkOwnerTokens(ctx, user, "delete");
      tx.delete("token", token.id);
      audit(tx, ctx, "personal.access.token.delete", "Personal access token deleted", token.id, {
        name: token.name,
        user_id: user.id,
      });
      return {};
    }),
};
