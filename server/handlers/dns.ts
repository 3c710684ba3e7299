/**
 * DNS (spec 2.13, 4.6): the account's DNS settings, custom zones and their records (nameserver groups: nameservers.ts).
 *
 * Storage: the DNS settings live in the account document's `dns` member; zones are kind "dns_zone" docs and their records are kind
 * "dns_record" children (`parent` = the zone id), so deleting a zone deletes its records in the same transaction.
 * Group references keep the API's field names (`distribution_groups`, `disabled_management_groups`);
 * `kinds` below (and accounts.ts for the account document) says where they are, so a group they name cannot be
 * deleted.
 */
import { nameInZone, type DnsRecord } from "../../api/dns-record";
import type { DnsZone } from "../../api/dns-zone";
import { accountOf, type Ctx, type Handlers, type StoredKinds } from "../context";
import { audit, auditWrite, groupLists, mustGet, requireRefs, type Reader } from "../domain";
import { conflict, invalid } from "../errors";
import { newId } from "../ids";
import type { AccountDoc } from "../model";
import type { Doc, Tx } from "../store";

type ZoneRequest = Omit<DnsZone, "id" | "records" | "enabled"> & { enabled?: boolean };
type RecordRequest = Omit<DnsRecord, "id">;

/** A stored zone (records are separate child documents). */
export interface DnsZoneDoc extends Doc {
  name: string;
  domain: string;
  enabled: boolean;
  enable_search_domain: boolean;
  distribution_groups: string[];
}

/** A stored record; `parent` is the zone id. */
export interface DnsRecordDoc extends Doc, RecordRequest {
  parent: string;
}

/** Domains compare case-insensitively and without a trailing dot, as DNS does. */
function normDomain(d: string): string {
  return d.toLowerCase().replace(/\.$/, "");
}

// ---------------------------------------------------------------------------------------------------------------
// Zones and records

function recordView(r: DnsRecordDoc): DnsRecord {
  return { id: r.id, name: r.name, type: r.type, content: r.content, ttl: r.ttl };
}

function zoneView(r: Reader, z: DnsZoneDoc): DnsZone {
  return {
    id: z.id,
    name: z.name,
    domain: z.domain,
    enable_search_domain: z.enable_search_domain,
    distribution_groups: [...z.distribution_groups],
    enabled: z.enabled,
    records: r.all<DnsRecordDoc>("dns_record", z.id).map(recordView),
  };
}

function writeZone(tx: Tx, ctx: Ctx, body: ZoneRequest, existing?: DnsZoneDoc): DnsZoneDoc {
  const domain = normDomain(body.domain);
  const dup = tx
    .all<DnsZoneDoc>("dns_zone")
    .find((z) => normDomain(z.domain) === domain && z.id !== existing?.id);
  if (dup) throw conflict(`DNS zone for domain ${body.domain} already exists (${dup.name}, ${dup.id})`);
  requireRefs(tx, "group", body.distribution_groups, "distribution_groups", "group");
  if (existing) {
    // Moving a zone to another domain must not strand its records outside it (rule 4 keeps holding).
    const stranded = tx.all<DnsRecordDoc>("dns_record", existing.id).find((x) => !nameInZone(x.name, domain));
    if (stranded)
      throw invalid(
        `domain: record ${stranded.name} (${stranded.id}) would no longer be inside ${body.domain}; ` +
          "delete or rename it first",
      );
  }
  const doc: DnsZoneDoc = {
    id: existing?.id ?? newId(),
    name: body.name,
    domain: body.domain,
    // The spec: enabled is optional with default true; PUT replaces, so an absent value means true again.
    enabled: body.enabled ?? true,
    enable_search_domain: body.enable_search_domain,
    distribution_groups: [...body.distribution_groups],
  };
  tx.put("dns_zone", doc);
  auditWrite(tx, ctx, existing, "dns.zone", "DNS zone", doc.id, { name: doc.name, domain: doc.domain });
  return doc;
}

function writeRecord(tx: Tx, ctx: Ctx, zone: DnsZoneDoc, body: RecordRequest, existing?: DnsRecordDoc) {
  if (!nameInZone(body.name, zone.domain))
    throw invalid(`name: ${body.name} must be ${zone.domain} or a subdomain of it`);
  const same = (x: DnsRecordDoc) =>
    x.id !== existing?.id &&
    normDomain(x.name) === normDomain(body.name) &&
    x.type === body.type &&
    x.content.toLowerCase() === body.content.toLowerCase();
  const records = tx.all<DnsRecordDoc>("dns_record", zone.id);
  const dup = records.find(same);
  if (dup) throw conflict(`DNS record ${body.name} ${body.type} ${body.content} already exists (${dup.id})`);
  // As the service does: a CNAME is the only record of its name (the other records of a name form sets).
  const clash = records.find(
    (x) =>
      x.id !== existing?.id &&
      normDomain(x.name) === normDomain(body.name) &&
      (x.type === "CNAME" || body.type === "CNAME"),
  );
  if (clash)
    throw invalid(
      `name: ${body.name} already has a ${clash.type} record (${clash.id}); a CNAME is the only record of its name`,
    );
  const doc: DnsRecordDoc = {
    id: existing?.id ?? newId(),
    parent: zone.id,
    name: body.name,
    type: body.type,
    content: body.content,
    ttl: body.ttl,
  };
  tx.put("dns_record", doc);
  auditWrite(tx, ctx, existing, "dns.zone.record", "DNS zone record", doc.id, {
    zone_id: zone.id,
    name: doc.name,
    type: doc.type,
  });
  return doc;
}

const zoneOf = (r: Reader, ctx: Ctx) =>
  mustGet<DnsZoneDoc>(r, "dns_zone", ctx.params.zoneId as string, "DNS zone");

const recordOf = (r: Reader, ctx: Ctx, zone: DnsZoneDoc) =>
  mustGet<DnsRecordDoc>(r, "dns_record", ctx.params.recordId as string, "DNS record", zone.id);

// ---------------------------------------------------------------------------------------------------------------

/** The documents this module stores (see StoredKind). */
export const kinds = {
  dns_zone: { groupUses: groupLists(["distribution_groups"], (x) => `DNS zone ${String(x.name)} (${x.id})`) },
  dns_record: {},
} satisfies StoredKinds;

export const handlers: Handlers = {
  getDnsSettings: (ctx) => ({
    items: { disabled_management_groups: [...accountOf(ctx.state.store).dns.disabled_management_groups] },
  }),

  updateDnsSettings: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as { disabled_management_groups: string[] };
      requireRefs(tx, "group", body.disabled_management_groups, "disabled_management_groups", "group");
      const account = accountOf(tx);
      const before = new Set(account.dns.disabled_management_groups);
      const after = [...body.disabled_management_groups];
      const added = after.filter((g) => !before.has(g));
      const removed = [...before].filter((g) => !after.includes(g));
      const next: AccountDoc = { ...account, dns: { ...account.dns, disabled_management_groups: after } };
      tx.put("account", next);
      // One event per request: named after what changed (the real service logs one event per group).
      const code = added.length
        ? "dns.setting.disabled.management.group.add"
        : removed.length
          ? "dns.setting.disabled.management.group.delete"
          : "dns.setting.update";
      audit(tx, ctx, code, "DNS settings updated", account.id, { added, removed });
      return { disabled_management_groups: [...after] };
    }),

  listDnsZones: (ctx) => {
    const { store } = ctx.state;
    return store.all<DnsZoneDoc>("dns_zone").map((z) => zoneView(store, z));
  },

  createDnsZone: (ctx) =>
    ctx.state.store.tx((tx) => zoneView(tx, writeZone(tx, ctx, ctx.body as ZoneRequest))),

  getDnsZone: (ctx) => zoneView(ctx.state.store, zoneOf(ctx.state.store, ctx)),

  updateDnsZone: (ctx) =>
    ctx.state.store.tx((tx) => zoneView(tx, writeZone(tx, ctx, ctx.body as ZoneRequest, zoneOf(tx, ctx)))),

  deleteDnsZone: (ctx) =>
    ctx.state.store.tx((tx) => {
      const zone = zoneOf(tx, ctx);
      const records = tx.all<DnsRecordDoc>("dns_record", zone.id);
      for (const r of records) tx.delete("dns_record", r.id);
      tx.delete("dns_zone", zone.id);
      audit(tx, ctx, "dns.zone.delete", "DNS zone deleted", zone.id, {
        name: zone.name,
        domain: zone.domain,
        records_deleted: records.length,
      });
      return {};
    }),

  listDnsRecords: (ctx) => {
    const { store } = ctx.state;
    return store.all<DnsRecordDoc>("dns_record", zoneOf(store, ctx).id).map(recordView);
  },

  createDnsRecord: (ctx) =>
    ctx.state.store.tx((tx) => recordView(writeRecord(tx, ctx, zoneOf(tx, ctx), ctx.body as RecordRequest))),

  getDnsRecord: (ctx) => {
    const { store } = ctx.state;
    return recordView(recordOf(store, ctx, zoneOf(store, ctx)));
  },

  updateDnsRecord: (ctx) =>
    ctx.state.store.tx((tx) => {
      const zone = zoneOf(tx, ctx);
      return recordView(writeRecord(tx, ctx, zone, ctx.body as RecordRequest, recordOf(tx, ctx, zone)));
    }),

  deleteDnsRecord: (ctx) =>
    ctx.state.store.tx((tx) => {
      const zone = zoneOf(tx, ctx);
      const rec = recordOf(tx, ctx, zone);
      tx.delete("dns_record", rec.id);
      audit(tx, ctx, "dns.zone.record.delete", "DNS zone record deleted", rec.id, {
        zone_id: zone.id,
        name: rec.name,
        type: rec.type,
      });
      return {};
    }),
};
