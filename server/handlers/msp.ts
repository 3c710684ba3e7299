/**
 * MSP tenants (the service's v0.77.1 document; not in the spec). privnet-server holds one account, so a tenant is
 * a record of the account it would be, with the lifecycle the document gives it:
 *
 * - create: `pending` with a fresh `dns_challenge`; `POST .../dns` makes it `active` when the simulated DNS
 *   (`POST /sim/dns`, see server/sim-proxy.ts) holds the challenge at `_privnet-challenge.<domain>` (the record's
 *   value in its `cname`), else 412 naming the record;
 * - an `existing` tenant (from a seed) can be invited (`invited`), and its owner's answer accepts (`active`) or
 *   declines (`existing` again);
 * - unlink hands the tenant to an owner of its own: it leaves the list; subscription records the price.
 *
 * Stored kind "msp_tenant": `{id, name, domain, groups: [{id, role}], status, dns_challenge, created_at,
 * updated_at, activated_at?, invited_at?, price_id?}`; group ids must exist, and a group a tenant names cannot be
 * deleted.
 */
import { randomBytes } from "node:crypto";
import type { z } from "../../api/common";
import type { TenantCreateSchema, TenantUpdateSchema } from "../../api/msp";
import { UserRole } from "../../api/user";
import { iso } from "../clock";
import type { Ctx, Handlers, StoredKinds } from "../context";
import { audit, mustGet, requireRefs, type Reader } from "../domain";
import { conflict, invalid, preconditionFailed } from "../errors";
import { newId } from "../ids";
import type { Doc, Tx } from "../store";

type TenantGroup = { id: string; role: string };

export interface MspTenantDoc extends Doc {
  name: string;
  domain: string;
  groups: TenantGroup[];
  status: "existing" | "invited" | "pending" | "active";
  dns_challenge: string;
  created_at: string;
  updated_at: string;
  activated_at?: string;
  invited_at?: string;
  price_id?: string;
}

/** Where the DNS challenge of a tenant's domain is looked for in the simulated DNS. */
export const challengeName = (domain: string) => `_privnet-challenge.${domain.toLowerCase()}`;

/** The roles a tenant group may take: the account roles but the owner's. */
const ROLES = UserRole.options.filter((r) => r !== "owner");

function view(d: MspTenantDoc) {
  return {
    id: d.id,
    name: d.name,
    domain: d.domain,
    groups: d.groups.map((g) => ({ id: g.id, role: g.role })),
    ...(d.activated_at ? { activated_at: d.activated_at } : {}),
    dns_challenge: d.dns_challenge,
    created_at: d.created_at,
    updated_at: d.updated_at,
    ...(d.invited_at ? { invited_at: d.invited_at } : {}),
    status: d.status,
  };
}

const tenant = (r: Reader, ctx: Ctx) =>
  mustGet<MspTenantDoc>(r, "msp_tenant", ctx.params.id as string, "tenant");

/** 422 for an unknown group or role (naming the field); the groups as stored. */
function checkGroups(tx: Tx, groups: TenantGroup[]): TenantGroup[] {
  requireRefs(
    tx,
    "group",
    groups.map((g) => g.id),
    "groups",
    "group",
  );
  groups.forEach((g, i) => {
    if (!(ROLES as string[]).includes(g.role))
      throw invalid(`groups[${i}].role: must be one of ${ROLES.join(", ")}, not ${JSON.stringify(g.role)}`);
  });
  return groups.map((g) => ({ id: g.id, role: g.role }));
}

function save(tx: Tx, ctx: Ctx, doc: MspTenantDoc, code: string, activity: string) {
  tx.put("msp_tenant", doc);
  audit(tx, ctx, code, activity, doc.id, { name: doc.name, domain: doc.domain });
  return view(doc);
}

export const kinds = {
  msp_tenant: {
    groupUses: (doc, groupId) =>
      (doc as MspTenantDoc).groups.some((g) => g.id === groupId)
        ? [`MSP tenant ${(doc as MspTenantDoc).name} (${doc.id})`]
        : [],
  },
} satisfies StoredKinds;

export const handlers: Handlers = {
  listMspTenants: (ctx) =>
    ctx.state.store
      .all<MspTenantDoc>("msp_tenant")
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
      .map(view),

  createMspTenant: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as z.infer<typeof TenantCreateSchema>;
      const domain = body.domain.toLowerCase();
      if (tx.all<MspTenantDoc>("msp_tenant").some((t) => t.domain === domain))
        throw conflict(`a tenant with the domain ${domain} already exists`);
      const ts = iso(ctx.now);
      const doc: MspTenantDoc = {
        id: newId(),
        name: body.name,
        domain,
        groups: checkGroups(tx, body.groups),
        status: "pending",
        dns_challenge: `privnet-verify=${randomBytes(16).toString("hex")}`,
        created_at: ts,
        updated_at: ts,
      };
      return save(tx, ctx, doc, "msp.tenant.create", "MSP tenant created");
    }),

  updateMspTenant: (ctx) =>
    ctx.state.store.tx((tx) => {
      const old = tenant(tx, ctx);
      const body = ctx.body as z.infer<typeof TenantUpdateSchema>;
      const doc: MspTenantDoc = {
        ...old,
        name: body.name,
        groups: checkGroups(tx, body.groups),
        updated_at: iso(ctx.now),
      };
      return save(tx, ctx, doc, "msp.tenant.update", "MSP tenant updated");
    }),

  verifyMspTenantDns: (ctx) =>
    ctx.state.store.tx((tx) => {
      const t = tenant(tx, ctx);
      if (t.status === "active") return undefined;
      const name = challengeName(t.domain);
      const record = tx.get<Doc & { cname: string }>("sim_dns_record", name);
      if (record?.cname !== t.dns_challenge)
        throw preconditionFailed(`the DNS record ${name} does not hold the tenant's dns_challenge`);
      const ts = iso(ctx.now);
      save(
        tx,
        ctx,
        { ...t, status: "active", activated_at: ts, updated_at: ts },
        "msp.tenant.verify",
        "MSP tenant domain verified",
      );
      return undefined;
    }),

  inviteMspTenant: (ctx) =>
    ctx.state.store.tx((tx) => {
      const t = tenant(tx, ctx);
      if (t.status !== "existing")
        throw preconditionFailed(`tenant ${t.id} is ${t.status}: only an existing account can be invited`);
      const ts = iso(ctx.now);
      return save(
        tx,
        ctx,
        { ...t, status: "invited", invited_at: ts, updated_at: ts },
        "msp.tenant.invite",
        "MSP tenant invited",
      );
    }),

  answerMspTenantInvite: (ctx) =>
    ctx.state.store.tx((tx) => {
      const t = tenant(tx, ctx);
      if (t.status !== "invited") throw preconditionFailed(`tenant ${t.id} is ${t.status}, not invited`);
      const ts = iso(ctx.now);
      const accepted = (ctx.body as { value: "accept" | "decline" }).value === "accept";
      const doc: MspTenantDoc = accepted
        ? { ...t, status: "active", activated_at: ts, updated_at: ts }
        : { ...t, status: "existing", invited_at: undefined, updated_at: ts };
      save(
        tx,
        ctx,
        doc,
        accepted ? "msp.tenant.accept" : "msp.tenant.decline",
        accepted ? "MSP tenant invitation accepted" : "MSP tenant invitation declined",
      );
      return undefined;
    }),

  unlinkMspTenant: (ctx) =>
    ctx.state.store.tx((tx) => {
      const t = tenant(tx, ctx);
      tx.delete("msp_tenant", t.id);
      audit(tx, ctx, "msp.tenant.unlink", "MSP tenant unlinked", t.id, {
        name: t.name,
        owner: (ctx.body as { owner: string }).owner,
      });
      return undefined;
    }),

  createMspTenantSubscription: (ctx) =>
    ctx.state.store.tx((tx) => {
      const t = tenant(tx, ctx);
      const price = (ctx.body as { priceID: string }).priceID;
      save(
        tx,
        ctx,
        { ...t, price_id: price, updated_at: iso(ctx.now) },
        "msp.tenant.subscription",
        "MSP tenant subscription changed",
      );
      return undefined;
    }),
};
