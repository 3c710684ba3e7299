/**
 * Posture checks (spec 2.10, 4.4): conditions a peer must meet to be a policy source. A check is referenced by
 * policies through `source_posture_checks`; it cannot be deleted while a policy uses it.
 *
 * Stored doc (kind "posture_check"): `{id, name, description, checks}` where `checks` is the validated request
 * object (the five optional members of ChecksSchema, at least one set), so it can be returned as is.
 */
import type { z } from "zod";
import type { ChecksSchema, PostureCheckRequestSchema } from "../../api/posture-check";
import type { Ctx, Handlers, StoredKinds } from "../context";
import { audit, auditWrite, mustGet, type Reader } from "../domain";
import { badRequest, invalid } from "../errors";
import { newId } from "../ids";
import type { Doc, Tx } from "../store";

type PostureCheckRequest = z.infer<typeof PostureCheckRequestSchema>;

/** A stored posture check. */
export interface PostureCheckDoc extends Doc {
  name: string;
  description: string;
  checks: z.infer<typeof ChecksSchema>;
}

/** The PostureCheck response. */
function view(p: PostureCheckDoc) {
  return { id: p.id, name: p.name, description: p.description, checks: p.checks };
}

/** Names are unique in the account (the service answers 422 on a duplicate, not 409 as for groups). */
function checkName(r: Reader, name: string, selfId?: string): void {
  const dup = r.all<PostureCheckDoc>("posture_check").find((p) => p.name === name && p.id !== selfId);
  if (dup) throw invalid(`name: posture check with name ${name} already exists`);
}

/** The policies whose `source_posture_checks` list `id`, as readable phrases. */
function postureCheckUsage(r: Reader, id: string): string[] {
  return r
    .all("policy")
    .filter((p) => Array.isArray(p.source_posture_checks) && p.source_posture_checks.includes(id))
    .map((p) => `policy ${String(p.name)} (${p.id})`);
}

function write(tx: Tx, ctx: Ctx, body: PostureCheckRequest, existing?: PostureCheckDoc): PostureCheckDoc {
  checkName(tx, body.name, existing?.id);
  const doc: PostureCheckDoc = {
    id: existing?.id ?? newId(),
    name: body.name,
    description: body.description,
    checks: body.checks,
  };
  tx.put("posture_check", doc);
  auditWrite(tx, ctx, existing, "posture.check", "Posture check", doc.id, { name: doc.name });
  return doc;
}

const idOf = (ctx: Ctx) => ctx.params.postureCheckId as string;

/** The documents this module stores (see StoredKind). */
export const kinds = {
  posture_check: {},
} satisfies StoredKinds;

export const handlers: Handlers = {
  listPostureChecks: (ctx) => ctx.state.store.all<PostureCheckDoc>("posture_check").map(view),

  createPostureCheck: (ctx) =>
    ctx.state.store.tx((tx) => view(write(tx, ctx, ctx.body as PostureCheckRequest))),

  getPostureCheck: (ctx) =>
    view(mustGet<PostureCheckDoc>(ctx.state.store, "posture_check", idOf(ctx), "posture check")),

  updatePostureCheck: (ctx) =>
    ctx.state.store.tx((tx) => {
      const existing = mustGet<PostureCheckDoc>(tx, "posture_check", idOf(ctx), "posture check");
      return view(write(tx, ctx, ctx.body as PostureCheckRequest, existing));
    }),

  deletePostureCheck: (ctx) =>
    ctx.state.store.tx((tx) => {
      const p = mustGet<PostureCheckDoc>(tx, "posture_check", idOf(ctx), "posture check");
      const uses = postureCheckUsage(tx, p.id);
      if (uses.length) throw badRequest(`posture check ${p.name} is in use by ${uses.join(", ")}`);
      tx.delete("posture_check", p.id);
      audit(tx, ctx, "posture.check.delete", "Posture check deleted", p.id, { name: p.name });
      return {};
    }),
};
