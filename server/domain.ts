/**
 * Helpers shared by the handlers: audit events, referential integrity, lookups that 404, group summaries.
 */
import type { Ctx, StoredKind } from "./context";
import { iso } from "./clock";
import { invalid, notFound } from "./errors";
import type { GroupDoc, PeerDoc } from "./model";
import type { Doc, Kind, Store, Tx } from "./store";

export type Reader = Pick<Store | Tx, "get" | "all" | "findBy">;

/** Records an audit event for a mutation, inside the mutation's transaction. */
export function audit(
  tx: Tx,
  ctx: Ctx,
  activityCode: string,
  activity: string,
  targetId: string,
  meta: Record<string, unknown> = {},
): void {
  tx.audit({
    timestamp: iso(ctx.now),
    activity,
    activity_code: activityCode,
    initiator_id: ctx.actor?.user.id ?? "",
    target_id: targetId,
    meta,
  });
}

/**
 * Records the audit event of a create-or-replace write: when `existing` is set the code is `<prefix>.update`
 * and the activity "<what> updated", else `<prefix>.<createVerb>` and "<what> created" (the service logs some
 * kinds' creation as `add`).
 */
export function auditWrite(
  tx: Tx,
  ctx: Ctx,
  existing: Doc | undefined,
  prefix: string,
  what: string,
  targetId: string,
  meta: Record<string, unknown>,
  createVerb: "create" | "add" = "create",
): void {
  if (existing) audit(tx, ctx, `${prefix}.update`, `${what} updated`, targetId, meta);
  else audit(tx, ctx, `${prefix}.${createVerb}`, `${what} created`, targetId, meta);
}

/** Gets an object or answers 404 naming what was not found. */
export function mustGet<T extends Doc>(r: Reader, kind: Kind, id: string, what: string, parent?: string): T {
  const doc = r.get<T>(kind, id);
  if (!doc || (parent !== undefined && (doc.parent ?? "") !== parent))
    throw notFound(`${what} ${id} not found`);
  return doc;
}

/**
 * Referential integrity: every id in `ids` must exist as `kind`, else a 422 naming the field and the id.
 */
export function requireRefs(
  r: Reader,
  kind: Kind,
  ids: readonly string[] | undefined,
  field: string,
  what: string,
): void {
  for (const id of ids ?? []) {
    if (!r.get(kind, id)) throw invalid(`${field}: unknown ${what} id ${id}`);
  }
}

/** Like {@link requireRefs} for a single optional id. */
export function requireRef(
  r: Reader,
  kind: Kind,
  id: string | undefined | null,
  field: string,
  what: string,
): void {
  if (id !== undefined && id !== null && id !== "") requireRefs(r, kind, [id], field, what);
}

/** True when a stored id list (which may be absent) holds `id`. */
export function holds(ids: unknown, id: string): boolean {
  return Array.isArray(ids) && ids.includes(id);
}

/**
 * The {@link StoredKind.groupUses} of a kind whose documents keep group ids in top-level lists: one phrase,
 * `name(doc)`, when any of `fields` holds the group.
 */
export function groupLists(fields: readonly string[], name: (doc: Doc) => string): StoredKind["groupUses"] {
  return (doc, groupId) => (fields.some((f) => holds(doc[f], groupId)) ? [name(doc)] : []);
}

/** Group ids that name the built-in `All` group. */
export function allGroup(r: Reader): GroupDoc | undefined {
  return r.all<GroupDoc>("group").find((g) => g.name === "All" && g.issued === "api" && g.builtin === true);
}

/** The peers of a group: for `All`, every peer. */
export function groupPeerIds(r: Reader, g: GroupDoc): string[] {
  if (g.builtin === true) return r.all<PeerDoc>("peer").map((p) => p.id);
  return g.peers;
}

/** GroupSummary of a group id (for policies, peers, resources). */
export function groupSummary(r: Reader, id: string) {
  const g = r.get<GroupDoc>("group", id);
  if (!g) return { id, name: "", peers_count: 0, resources_count: 0, issued: "api" as const };
  return {
    id: g.id,
    name: g.name,
    peers_count: groupPeerIds(r, g).length,
    resources_count: g.resources.length,
    issued: g.issued,
  };
}

/** Removes undefined members so responses never carry them. */
export function compact<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** True when two id lists hold the same ids (order-insensitive). */
export function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}
