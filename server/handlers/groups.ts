/**
 * Groups (spec 2.2, 2.8). A group holds peer ids and network resource refs; it is the single source of truth
 * for membership (a peer's or a resource's groups are the groups that list it). The built-in `All` group holds
 * every peer and cannot be changed or deleted.
 */
import type { GroupRequest } from "../../api/group";
import type { Ctx, Handlers, ServerState, StoredKinds } from "../context";
import { audit, auditWrite, groupPeerIds, mustGet, requireRefs, type Reader } from "../domain";
import { badRequest, conflict, invalid } from "../errors";
import { newId } from "../ids";
import type { GroupDoc, PeerDoc } from "../model";
import type { Doc, Tx } from "../store";

/** The Group response. */
export function groupView(r: Reader, g: GroupDoc) {
  const peerIds = groupPeerIds(r, g);
  return {
    id: g.id,
    name: g.name,
    peers_count: peerIds.length,
    resources_count: g.resources.length,
    issued: g.issued,
    peers: peerIds.map((id) => ({ id, name: r.get<PeerDoc>("peer", id)?.name ?? "" })),
    resources: g.resources.map((x) => ({ id: x.id, type: x.type as "host" | "subnet" | "domain" | "peer" })),
  };
}

/** Checks the network resources a group request names and returns them with their real types. */
function resolveResources(r: Reader, refs: GroupRequest["resources"]): { id: string; type: string }[] {
  return (refs ?? []).map((ref, i) => {
    const res = r.get<Doc & { type: string }>("network_resource", ref.id);
    if (res) {
      if (ref.type !== res.type)
        throw invalid(`resources[${i}].type: resource ${ref.id} is a ${res.type}, not a ${ref.type}`);
      return { id: res.id, type: res.type };
    }
    if (ref.type === "peer" && r.get("peer", ref.id)) return { id: ref.id, type: "peer" };
    throw invalid(`resources[${i}].id: unknown network resource id ${ref.id}`);
  });
}

function checkName(r: Reader, name: string, selfId?: string): void {
  if (name === "All") throw conflict("group name All is reserved for the built-in group");
  const dup = r.all<GroupDoc>("group").find((g) => g.name === name && g.id !== selfId);
  if (dup) throw conflict(`group with name ${name} already exists`);
}

/**
 * What references a group, as readable phrases; empty when the group may be deleted. The phrases come from the
 * kinds that hold group ids (their `groupUses`), in the order the handler modules are listed.
 */
export function groupUsage(r: Reader, groupId: string, kinds: ServerState["kinds"]): string[] {
  return [...kinds].flatMap(([kind, { groupUses }]) =>
    groupUses ? r.all(kind).flatMap((doc) => groupUses(doc, groupId)) : [],
  );
}

function write(tx: Tx, ctx: Ctx, body: GroupRequest, existing?: GroupDoc): GroupDoc {
  requireRefs(tx, "peer", body.peers, "peers", "peer");
  const doc: GroupDoc = {
    id: existing?.id ?? newId(),
    name: body.name,
    issued: existing?.issued ?? "api",
    peers: [...new Set(body.peers ?? [])],
    resources: resolveResources(tx, body.resources),
  };
  tx.put("group", doc);
  auditWrite(tx, ctx, existing, "group", "Group", doc.id, { name: doc.name }, "add");
  return doc;
}

/** The documents this module stores (see StoredKind). */
export const kinds = {
  group: {},
} satisfies StoredKinds;

export const handlers: Handlers = {
  listGroups: (ctx) => {
    const { store } = ctx.state;
    const name = ctx.query.name as string | undefined;
    return store
      .all<GroupDoc>("group")
      .filter((g) => name === undefined || g.name === name)
      .map((g) => groupView(store, g));
  },

  createGroup: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as GroupRequest;
      checkName(tx, body.name);
      return groupView(tx, write(tx, ctx, body));
    }),

  getGroup: (ctx) => {
    const { store } = ctx.state;
    return groupView(store, mustGet<GroupDoc>(store, "group", ctx.params.groupId as string, "group"));
  },

  updateGroup: (ctx) =>
    ctx.state.store.tx((tx) => {
      const g = mustGet<GroupDoc>(tx, "group", ctx.params.groupId as string, "group");
      const body = ctx.body as GroupRequest;
      if (g.builtin) throw badRequest("the All group cannot be changed");
      checkName(tx, body.name, g.id);
      return groupView(tx, write(tx, ctx, body, g));
    }),

  deleteGroup: (ctx) =>
    ctx.state.store.tx((tx) => {
      const g = mustGet<GroupDoc>(tx, "group", ctx.params.groupId as string, "group");
      if (g.builtin) throw badRequest("the All group cannot be deleted");
      const uses = groupUsage(tx, g.id, ctx.state.kinds);
      if (uses.length) throw badRequest(`group ${g.name} is in use by ${uses.join(", ")}`);
      tx.delete("group", g.id);
      audit(tx, ctx, "group.delete", "Group deleted", g.id, { name: g.name });
      return {};
    }),
};
