/**
 * Groups (spec 2.2, 2.8). A group holds peer ids and network resource refs; it is the single source of truth
 * for membership (a peer's or a resource's groups are the groups that list it). The built-in `All` group holds
 * every peer and cannot be changed or deleted.
 */
import type { GroupRequest } from "../../api/group";
import type { Ctx, Handlers } from "../context";
import { audit, groupPeerIds, mustGet, requireRefs, type Reader } from "../domain";
import { badRequest, conflict, invalid } from "../errors";
import { newId } from "../ids";
import type { AccountDoc, GroupDoc, PeerDoc } from "../model";
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
 * What references a group, as readable phrases; empty when the group may be deleted. Every kind that stores
 * group ids is listed here so deletion can never leave a dangling reference.
 */
export function groupUsage(r: Reader, groupId: string): string[] {
  const uses: string[] = [];
  const has = (ids: unknown) => Array.isArray(ids) && ids.includes(groupId);
  for (const p of r.all("policy")) {
    const rules =
      (p.rules as {
        sources?: string[];
        destinations?: string[];
        authorized_groups?: Record<string, string[]>;
      }[]) ?? [];
    const fields: string[] = [];
    rules.forEach((x, i) => {
      if (has(x.sources)) fields.push(`rules[${i}].sources`);
      if (has(x.destinations)) fields.push(`rules[${i}].destinations`);
      // authorized_groups is keyed by group id (user group -> local user names).
      if (x.authorized_groups && Object.hasOwn(x.authorized_groups, groupId))
        fields.push(`rules[${i}].authorized_groups`);
    });
    if (fields.length) uses.push(`policy ${String(p.name)} (${p.id}: ${fields.join(", ")})`);
  }
  for (const x of r.all("route")) {
    if (has(x.groups) || has(x.peer_groups) || has(x.access_control_groups))
      uses.push(`route ${String(x.network_id)} (${x.id})`);
  }
  for (const x of r.all("network_router")) if (has(x.peer_groups)) uses.push(`network router ${x.id}`);
  for (const x of r.all("nameserver_group"))
    if (has(x.groups)) uses.push(`nameserver group ${String(x.name)} (${x.id})`);
  for (const x of r.all("dns_zone"))
    if (has(x.distribution_groups)) uses.push(`DNS zone ${String(x.name)} (${x.id})`);
  for (const x of r.all("setup_key"))
    if (has(x.auto_groups)) uses.push(`setup key ${String(x.name)} (${x.id})`);
  for (const x of r.all("user"))
    if (has(x.auto_groups)) uses.push(`user ${String(x.email || x.name)} (${x.id})`);
  for (const x of r.all("edr")) if (has(x.groups)) uses.push(`EDR integration ${x.id}`);
  for (const x of r.all("invite")) if (has(x.auto_groups)) uses.push(`invite ${String(x.email)} (${x.id})`);
  for (const acc of r.all<AccountDoc>("account")) {
    if (has(acc.dns.disabled_management_groups)) uses.push("DNS settings (disabled_management_groups)");
    if (has(acc.settings.peer_expose_groups)) uses.push("account settings (peer_expose_groups)");
    const extra = acc.settings.extra as { network_traffic_logs_groups?: string[] } | undefined;
    if (has(extra?.network_traffic_logs_groups))
      uses.push("account settings (extra.network_traffic_logs_groups)");
  }
  return uses;
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
  audit(
    tx,
    ctx,
    existing ? "group.update" : "group.add",
    existing ? "Group updated" : "Group created",
    doc.id,
    {
      name: doc.name,
    },
  );
  return doc;
}

export const groupHandlers: Handlers = {
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
      const uses = groupUsage(tx, g.id);
      if (uses.length) throw badRequest(`group ${g.name} is in use by ${uses.join(", ")}`);
      tx.delete("group", g.id);
      audit(tx, ctx, "group.delete", "Group deleted", g.id, { name: g.name });
      return {};
    }),
};
