/**
 * Nameserver groups (spec 2.13, 4.6): kind "nameserver_group" docs holding the request fields as sent. The groups
 * they name (`groups`) cannot be deleted while they do (see `kinds`).
 */
import type { NameserverGroup } from "../../api/nameserver-group";
import type { Ctx, Handlers, StoredKinds } from "../context";
import { audit, auditWrite, groupLists, mustGet, requireRefs, type Reader } from "../domain";
import { invalid } from "../errors";
import { newId } from "../ids";
import type { Doc, Tx } from "../store";

type NameserverGroupRequest = Omit<NameserverGroup, "id">;

/** A stored nameserver group: the NameserverGroup response fields. */
export interface NameserverGroupDoc extends Doc, NameserverGroupRequest {}

/** The request fields of a nameserver group, copied: what is stored from a request and what a response shows. */
function nameserverGroupFields(g: NameserverGroupRequest): NameserverGroupRequest {
  return {
    name: g.name,
    description: g.description,
    nameservers: g.nameservers.map((n) => ({ ip: n.ip, ns_type: n.ns_type, port: n.port })),
    enabled: g.enabled,
    groups: [...g.groups],
    primary: g.primary,
    domains: [...g.domains],
    search_domains_enabled: g.search_domains_enabled,
  };
}

function nameserverGroupView(g: NameserverGroupDoc): NameserverGroup {
  return { id: g.id, ...nameserverGroupFields(g) };
}

const nameserverGroupOf = (r: Reader, ctx: Ctx) =>
  mustGet<NameserverGroupDoc>(r, "nameserver_group", ctx.params.nsgroupId as string, "nameserver group");

function writeNameserverGroup(
  tx: Tx,
  ctx: Ctx,
  body: NameserverGroupRequest,
  existing?: NameserverGroupDoc,
): NameserverGroupDoc {
  // Rule 3 (counts, name length, primary/domains/search domains) is enforced by the request schema.
  const dup = tx
    .all<NameserverGroupDoc>("nameserver_group")
    .find((g) => g.name === body.name && g.id !== existing?.id);
  // The service answers 422 on a duplicate name (not 409 as for groups).
  if (dup) throw invalid(`name: nameserver group with name ${body.name} already exists`);
  requireRefs(tx, "group", body.groups, "groups", "group");
  const doc: NameserverGroupDoc = { id: existing?.id ?? newId(), ...nameserverGroupFields(body) };
  tx.put("nameserver_group", doc);
  auditWrite(tx, ctx, existing, "nameserver.group", "Nameserver group", doc.id, { name: doc.name }, "add");
  return doc;
}

/** The documents this module stores (see StoredKind). */
export const kinds = {
  nameserver_group: {
    groupUses: groupLists(["groups"], (x) => `nameserver group ${String(x.name)} (${x.id})`),
  },
} satisfies StoredKinds;

export const handlers: Handlers = {
  listNameserverGroups: (ctx) =>
    ctx.state.store.all<NameserverGroupDoc>("nameserver_group").map(nameserverGroupView),

  createNameserverGroup: (ctx) =>
    ctx.state.store.tx((tx) =>
      nameserverGroupView(writeNameserverGroup(tx, ctx, ctx.body as NameserverGroupRequest)),
    ),

  getNameserverGroup: (ctx) => nameserverGroupView(nameserverGroupOf(ctx.state.store, ctx)),

  updateNameserverGroup: (ctx) =>
    ctx.state.store.tx((tx) => {
      const g = nameserverGroupOf(tx, ctx);
      return nameserverGroupView(writeNameserverGroup(tx, ctx, ctx.body as NameserverGroupRequest, g));
    }),

  deleteNameserverGroup: (ctx) =>
    ctx.state.store.tx((tx) => {
      const g = nameserverGroupOf(tx, ctx);
      tx.delete("nameserver_group", g.id);
      audit(tx, ctx, "nameserver.group.delete", "Nameserver group deleted", g.id, { name: g.name });
      return {};
    }),
};
