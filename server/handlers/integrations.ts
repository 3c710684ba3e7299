/**
 * Integrations (spec 2.16-2.18, 4.8, and the service's v0.77.1 document): the EDR singletons (sentinelone,
 * intune, falcon, huntress, fleetdm), the directory-sync collections (google-idp, azure-idp) with their manual
 * sync and logs, and event streaming integrations. The spec's neutral segments (vendor-a/b/c, vendor-d-idp,
 * vendor-e-idp) are answered as the same objects as the vendors they stand for.
 *
 * Secrets (EDR tokens and client secrets, directory-sync keys, streaming credentials) are stored because a real
 * integration needs them, but they never leave the server: the views below build responses field by field, and
 * the strict response schemas make a leaked field fail every test.
 */
import { validate, z } from "../../api/common";
import { DIRECTORY_SYNC, type DirectorySyncVendor } from "../../api/directory-sync";
import { EDR, type EdrVendor } from "../../api/edr";
import {
  DIRECTORY_SYNC_NEUTRAL_OPERATION_NAMES,
  DIRECTORY_SYNC_OPERATION_NAMES,
  EDR_NEUTRAL_OPERATION_NAMES,
  EDR_OPERATION_NAMES,
} from "../../api/routes";
import {
  CREDENTIAL_KEYS,
  MASKED_CREDENTIAL,
  PLATFORM_KEYS,
  checkStreamingConfig,
  type StreamingPlatform,
} from "../../api/event-streaming";
import { iso, ZERO_TIME } from "../clock";
import { accountOf, type Ctx, type Handlers, type StoredKinds } from "../context";
import { audit, auditWrite, groupLists, mustGet, requireRefs, type Reader } from "../domain";
import { conflict, invalid, notFound, preconditionFailed } from "../errors";
import type { GroupDoc } from "../model";
import type { Doc, Tx } from "../store";
import { groupView } from "./groups";

// ---------------------------------------------------------------------------------------------------------
// EDR singletons
// ---------------------------------------------------------------------------------------------------------

/** Request fields shared by every EDR vendor (everything else is vendor-specific). */
const EDR_COMMON = new Set(["groups", "last_synced_interval", "enabled"]);

/** Falcon takes no last_synced_interval (the spec's vendor-c may); without one a device must sync daily. */
const DEFAULT_EDR_INTERVAL_HOURS = 24;

/**
 * The id a vendor's integration is stored under. The first three were stored under the spec's neutral segments
 * before the service's names were served: databases written then keep their objects.
 */
const EDR_STORE_ID = {
  sentinelone: "vendor-a",
  intune: "vendor-b",
  falcon: "vendor-c",
  huntress: "huntress",
  fleetdm: "fleetdm",
} as const satisfies Record<EdrVendor, string>;

/** A stored EDR integration; the doc id is {@link EDR_STORE_ID}'s, so each vendor exists at most once. */
export interface EdrDoc extends Doc {
  /** The store id (as the id). */
  vendor: string;
  /** The integer id the API shows (from the shared `integration` sequence). */
  int_id: number;
  created_by: string;
  created_at: string;
  updated_at: string;
  last_synced_at: string;
  /** Group ids; kept under the API's name so group deletion sees the reference. */
  groups: string[];
  last_synced_interval: number;
  enabled: boolean;
  /** Vendor-specific fields that are returned (api_url, match_attributes, tenant_id, cloud_id, ...). */
  fields: Record<string, unknown>;
  /** Vendor-specific write-only fields (api_token, secret, vendor-c client_id). */
  secrets: Record<string, unknown>;
}

/** The answer: the spec's vendor-c answers the sync interval too; the service's Falcon has none. */
function edrView(r: Reader, d: EdrDoc, withInterval: boolean) {
  const { last_synced_interval, ...rest } = edrFields(r, d);
  return withInterval ? { ...rest, last_synced_interval } : rest;
}

function edrFields(r: Reader, d: EdrDoc) {
  return {
    id: d.int_id,
    account_id: accountOf(r).id,
    last_synced_at: d.last_synced_at,
    created_by: d.created_by,
    created_at: d.created_at,
    updated_at: d.updated_at,
    groups: d.groups
      .map((id) => r.get<GroupDoc>("group", id))
      .filter((g): g is GroupDoc => g !== undefined)
      .map((g) => groupView(r, g)),
    last_synced_interval: d.last_synced_interval,
    enabled: d.enabled,
    ...d.fields,
  };
}

/** `segment`: the path segment the request named (a neutral one for the spec's paths), for messages. */
function mustGetEdr(r: Reader, vendor: EdrVendor, segment: string = vendor): EdrDoc {
  const d = r.get<EdrDoc>("edr", EDR_STORE_ID[vendor]);
  if (!d) throw notFound(`EDR integration ${segment} not found`);
  return d;
}

/** Creates (no `existing`) or replaces the vendor's integration. */
function writeEdr(tx: Tx, ctx: Ctx, vendor: EdrVendor, existing?: EdrDoc): EdrDoc {
  const body = ctx.body as Record<string, unknown> & { groups: string[] };
  requireRefs(tx, "group", body.groups, "groups", "group");
  const secretKeys = new Set<string>(EDR[vendor].secrets);
  const fields: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  // The request schemas strip unknown keys, so every key left is a field of this vendor.
  for (const [k, v] of Object.entries(body)) {
    if (EDR_COMMON.has(k) || v === undefined) continue;
    if (secretKeys.has(k)) secrets[k] = v;
    else fields[k] = v;
  }
  const ts = iso(ctx.now);
  const interval = body.last_synced_interval as number | undefined;
  const enabled = body.enabled as boolean | undefined;
  const doc: EdrDoc = {
    id: EDR_STORE_ID[vendor],
    vendor: EDR_STORE_ID[vendor],
    int_id: existing?.int_id ?? tx.nextInt("integration"),
    created_by: existing?.created_by ?? ctx.actor?.user.id ?? "",
    created_at: existing?.created_at ?? ts,
    updated_at: ts,
    last_synced_at: existing?.last_synced_at ?? ZERO_TIME,
    groups: [...body.groups],
    // On replace, an omitted optional field keeps its value rather than silently resetting to the default
    // (a disabled integration must not come back on because a client left `enabled` out).
    last_synced_interval: interval ?? existing?.last_synced_interval ?? DEFAULT_EDR_INTERVAL_HOURS,
    enabled: enabled ?? existing?.enabled ?? true,
    fields,
    secrets,
  };
  tx.put("edr", doc);
  auditWrite(tx, ctx, existing, "integration", "Integration", String(doc.int_id), { vendor });
  return doc;
}

/** A vendor's four operations under `name` (its own, or a neutral segment's: the same object). */
function edrHandlers(
  vendor: EdrVendor,
  name: string,
  withInterval: boolean,
  segment: string = vendor,
): Handlers {
  const view = (r: Reader, d: EdrDoc) => edrView(r, d, withInterval);
  return {
    [`create${name}`]: (ctx) =>
      ctx.state.store.tx((tx) => {
        if (tx.get("edr", EDR_STORE_ID[vendor])) throw conflict(`EDR integration ${segment} already exists`);
        return view(tx, writeEdr(tx, ctx, vendor));
      }),
    [`get${name}`]: (ctx) => view(ctx.state.store, mustGetEdr(ctx.state.store, vendor, segment)),
    [`update${name}`]: (ctx) =>
      ctx.state.store.tx((tx) => view(tx, writeEdr(tx, ctx, vendor, mustGetEdr(tx, vendor, segment)))),
    [`delete${name}`]: (ctx) =>
      ctx.state.store.tx((tx) => {
        const d = mustGetEdr(tx, vendor, segment);
        tx.delete("edr", d.id);
        audit(tx, ctx, "integration.delete", "Integration deleted", String(d.int_id), { vendor });
        // Falcon answers 202 without a body (the route table has no response schema for it).
        return vendor === "falcon" ? undefined : {};
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Directory sync
// ---------------------------------------------------------------------------------------------------------

const DEFAULT_SYNC_INTERVAL = 300;
/** Request fields shared by both directory-sync vendors. */
const SYNC_COMMON = ["group_prefixes", "user_group_prefixes", "connector_id", "sync_interval", "enabled"];

/**
 * The vendor name stored with a directory-sync integration: the spec's neutral segments, as they were stored
 * before the service's names were served (databases written then keep their objects).
 */
const SYNC_STORE_VENDOR = {
  "google-idp": "vendor-d-idp",
  "azure-idp": "vendor-e-idp",
} as const satisfies Record<DirectorySyncVendor, string>;

/** A stored directory-sync integration (doc id = the integer id as a string). */
export interface DirectorySyncDoc extends Doc {
  /** {@link SYNC_STORE_VENDOR}'s name of its vendor. */
  vendor: string;
  enabled: boolean;
  group_prefixes: string[];
  user_group_prefixes: string[];
  connector_id: string;
  sync_interval: number;
  last_synced_at: string;
  created_at: string;
  updated_at: string;
  /** Vendor-specific returned fields (customer_id; client_id, tenant_id, host). */
  fields: Record<string, unknown>;
  /** Write-only fields (service_account_key; client_secret). */
  secrets: Record<string, unknown>;
}

/** A sync log entry; parent = `${stored vendor}:${integrationId}`. */
export interface SyncLogDoc extends Doc {
  parent: string;
  level: "info" | "warning" | "error";
  timestamp: string;
  message: string;
}

function syncView(d: DirectorySyncDoc) {
  return {
    id: Number(d.id),
    enabled: d.enabled,
    group_prefixes: d.group_prefixes,
    user_group_prefixes: d.user_group_prefixes,
    connector_id: d.connector_id,
    sync_interval: d.sync_interval,
    last_synced_at: d.last_synced_at,
    ...d.fields,
  };
}

/** The integration `{id}` of `vendor`; an id that belongs to the other vendor is as unknown as a missing one. */
function mustGetSync(r: Reader, vendor: DirectorySyncVendor, id: string): DirectorySyncDoc {
  const d = r.get<DirectorySyncDoc>("directory_sync", id);
  if (!d || d.vendor !== SYNC_STORE_VENDOR[vendor]) throw notFound(`${vendor} integration ${id} not found`);
  return d;
}

/** Applies the sent fields of a create or update body onto `doc` (only sent fields change). */
function applySyncBody(
  vendor: DirectorySyncVendor,
  doc: DirectorySyncDoc,
  body: Record<string, unknown>,
  creating: boolean,
): void {
  const secretKeys = new Set<string>(DIRECTORY_SYNC[vendor].secrets);
  for (const [k, v] of Object.entries(body)) {
    // Azure's host is fixed at creation (no update schema takes it); never let it through here either.
    if (v === undefined || (k === "host" && !creating)) continue;
    if (SYNC_COMMON.includes(k)) (doc as Record<string, unknown>)[k] = v;
    else if (secretKeys.has(k)) doc.secrets[k] = v;
    else doc.fields[k] = v;
  }
}

/** A vendor's seven operations under `name` (its own, or a neutral segment's: the same objects). */
function syncHandlers(vendor: DirectorySyncVendor, name: string): Handlers {
  const stored = SYNC_STORE_VENDOR[vendor];
  const logParent = (id: string) => `${stored}:${id}`;
  return {
    [`create${name}`]: (ctx) =>
      ctx.state.store.tx((tx) => {
        const ts = iso(ctx.now);
        const doc: DirectorySyncDoc = {
          id: String(tx.nextInt("integration")),
          vendor: stored,
          enabled: true,
          group_prefixes: [],
          user_group_prefixes: [],
          connector_id: "",
          sync_interval: DEFAULT_SYNC_INTERVAL,
          last_synced_at: ZERO_TIME,
          created_at: ts,
          updated_at: ts,
          fields: {},
          secrets: {},
        };
        applySyncBody(vendor, doc, ctx.body as Record<string, unknown>, true);
        tx.put("directory_sync", doc);
        audit(tx, ctx, "integration.create", "Integration created", doc.id, { vendor });
        return syncView(doc);
      }),

    [`list${name}s`]: (ctx) =>
      ctx.state.store
        .all<DirectorySyncDoc>("directory_sync")
        .filter((d) => d.vendor === stored)
        .map(syncView),

    [`get${name}`]: (ctx) => syncView(mustGetSync(ctx.state.store, vendor, ctx.params.id as string)),

    [`update${name}`]: (ctx) =>
      ctx.state.store.tx((tx) => {
        const old = mustGetSync(tx, vendor, ctx.params.id as string);
        const doc: DirectorySyncDoc = {
          ...old,
          fields: { ...old.fields },
          secrets: { ...old.secrets },
          updated_at: iso(ctx.now),
        };
        applySyncBody(vendor, doc, ctx.body as Record<string, unknown>, false);
        tx.put("directory_sync", doc);
        audit(tx, ctx, "integration.update", "Integration updated", doc.id, { vendor });
        return syncView(doc);
      }),

    [`delete${name}`]: (ctx) =>
      ctx.state.store.tx((tx) => {
        const d = mustGetSync(tx, vendor, ctx.params.id as string);
        for (const log of tx.all("sync_log", logParent(d.id))) tx.delete("sync_log", log.id);
        tx.delete("directory_sync", d.id);
        audit(tx, ctx, "integration.delete", "Integration deleted", d.id, { vendor });
        return {};
      }),

    [`sync${name}`]: (ctx) =>
      ctx.state.store.tx((tx) => {
        const d = mustGetSync(tx, vendor, ctx.params.id as string);
        // A disabled integration does not talk to its directory; a manual sync of it is a client mistake.
        if (!d.enabled)
          throw preconditionFailed(`${vendor} integration ${d.id} is disabled; enable it first`);
        const ts = iso(ctx.now);
        const log: SyncLogDoc = {
          id: String(tx.nextInt("sync_log")),
          parent: logParent(d.id),
          level: "info",
          timestamp: ts,
          message: `manual sync completed (group prefixes: ${d.group_prefixes.join(", ") || "all"})`,
        };
        tx.put("sync_log", log);
        tx.put("directory_sync", { ...d, last_synced_at: ts });
        audit(tx, ctx, "integration.sync", "Integration synced", d.id, { vendor });
        return { result: "ok" as const };
      }),

    [`list${name}Logs`]: (ctx) => {
      const { store } = ctx.state;
      const d = mustGetSync(store, vendor, ctx.params.id as string);
      return store
        .all<SyncLogDoc>("sync_log", logParent(d.id))
        .sort((a, b) => Number(a.id) - Number(b.id))
        .map((l) => ({ id: Number(l.id), level: l.level, timestamp: l.timestamp, message: l.message }));
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Event streaming
// ---------------------------------------------------------------------------------------------------------

type Platform = z.infer<typeof StreamingPlatform>;

/** A stored event streaming integration (doc id = the integer id as a string); config holds real secrets. */
export interface EventStreamingDoc extends Doc {
  platform: Platform;
  config: Record<string, string>;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

const CREDENTIALS = new Set(CREDENTIAL_KEYS);

function streamingView(r: Reader, d: EventStreamingDoc) {
  const config: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.config)) config[k] = CREDENTIALS.has(k) ? MASKED_CREDENTIAL : v;
  return {
    id: Number(d.id),
    account_id: accountOf(r).id,
    enabled: d.enabled,
    platform: d.platform,
    config,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

function mustGetStreaming(r: Reader, id: string): EventStreamingDoc {
  return mustGet<EventStreamingDoc>(r, "event_streaming", id, "event streaming integration");
}

/**
 * Resolves the config of a write: a credential sent back as the mask keeps the stored secret, so a client can
 * round-trip what it read. The mask is never stored as if it were the credential, and it keeps the stored
 * secret only while the destination stays the same: a stored credential is never sent somewhere new (as EDR
 * and identity-provider writes, which always need the secret).
 */
function resolveConfig(
  sent: Record<string, string>,
  stored?: { platform: Platform; config: Record<string, string> },
): Record<string, string> {
  const moved = stored
    ? PLATFORM_KEYS[stored.platform].destination.filter((k) => sent[k] !== stored.config[k])
    : [];
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(sent)) {
    if (CREDENTIALS.has(k) && v === MASKED_CREDENTIAL) {
      const kept = stored?.config[k];
      if (kept === undefined)
        throw invalid(`config.${k}: must be the credential itself; the masked value stands for a stored one`);
      if (moved.length)
        throw invalid(
          `config.${k}: must be the credential itself: the destination changes ` +
            `(${moved.map((m) => `config.${m}`).join(", ")}), and a stored credential is never sent to a new one`,
        );
      out[k] = kept;
    } else out[k] = v;
  }
  return out;
}

/** Checks a config against the stored platform (the platform sent on update is ignored). */
function checkConfigFor(platform: Platform, config: Record<string, string>): void {
  const schema = z
    .object({ config: z.record(z.string(), z.string()) })
    .superRefine((b, rctx) => checkStreamingConfig(platform, b.config, rctx));
  const r = validate(schema, { config });
  if (!r.ok) throw invalid(r.message);
}

/** The audit meta of an event-streaming integration's events. */
function streamingMeta(d: EventStreamingDoc) {
  return { type: "event_streaming", platform: d.platform };
}

/** Stores a created or replaced event-streaming integration, audits the write and answers its view. */
function saveStreaming(tx: Tx, ctx: Ctx, doc: EventStreamingDoc, existing?: EventStreamingDoc) {
  tx.put("event_streaming", doc);
  auditWrite(tx, ctx, existing, "integration", "Integration", doc.id, streamingMeta(doc));
  return streamingView(tx, doc);
}

const streamingHandlers: Handlers = {
  createEventStreaming: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as { platform: Platform; config: Record<string, string>; enabled: boolean };
      const ts = iso(ctx.now);
      const doc: EventStreamingDoc = {
        id: String(tx.nextInt("event_streaming")),
        platform: body.platform,
        config: resolveConfig(body.config),
        enabled: body.enabled,
        created_at: ts,
        updated_at: ts,
      };
      return saveStreaming(tx, ctx, doc);
    }),

  listEventStreamings: (ctx) =>
    ctx.state.store.all<EventStreamingDoc>("event_streaming").map((d) => streamingView(ctx.state.store, d)),

  getEventStreaming: (ctx) =>
    streamingView(ctx.state.store, mustGetStreaming(ctx.state.store, ctx.params.id as string)),

  updateEventStreaming: (ctx) =>
    ctx.state.store.tx((tx) => {
      const old = mustGetStreaming(tx, ctx.params.id as string);
      const body = ctx.body as { config: Record<string, string>; enabled: boolean };
      const config = resolveConfig(body.config, old);
      checkConfigFor(old.platform, config);
      const doc: EventStreamingDoc = { ...old, config, enabled: body.enabled, updated_at: iso(ctx.now) };
      return saveStreaming(tx, ctx, doc, old);
    }),

  deleteEventStreaming: (ctx) =>
    ctx.state.store.tx((tx) => {
      const d = mustGetStreaming(tx, ctx.params.id as string);
      tx.delete("event_streaming", d.id);
      audit(tx, ctx, "integration.delete", "Integration deleted", d.id, streamingMeta(d));
      return {};
    }),
};

/** Every integration operation, keyed by operationId. */
/** The documents this module stores (see StoredKind). */
export const kinds = {
  edr: { groupUses: groupLists(["groups"], (x) => `EDR integration ${x.id}`) },
  directory_sync: {},
  sync_log: {},
  event_streaming: {},
} satisfies StoredKinds;

export const handlers: Handlers = {
  ...edrHandlers("sentinelone", EDR_NEUTRAL_OPERATION_NAMES["vendor-a"], true, "vendor-a"),
  ...edrHandlers("intune", EDR_NEUTRAL_OPERATION_NAMES["vendor-b"], true, "vendor-b"),
  ...edrHandlers("falcon", EDR_NEUTRAL_OPERATION_NAMES["vendor-c"], true, "vendor-c"),
  ...syncHandlers("google-idp", DIRECTORY_SYNC_NEUTRAL_OPERATION_NAMES["vendor-d-idp"]),
  ...syncHandlers("azure-idp", DIRECTORY_SYNC_NEUTRAL_OPERATION_NAMES["vendor-e-idp"]),
  ...streamingHandlers,
  // The service's names (beyond the spec): the same objects as the neutral segments above.
  ...edrHandlers("sentinelone", EDR_OPERATION_NAMES.sentinelone, true),
  ...edrHandlers("intune", EDR_OPERATION_NAMES.intune, true),
  ...edrHandlers("falcon", EDR_OPERATION_NAMES.falcon, false),
  ...edrHandlers("huntress", EDR_OPERATION_NAMES.huntress, true),
  ...edrHandlers("fleetdm", EDR_OPERATION_NAMES.fleetdm, true),
  ...syncHandlers("google-idp", DIRECTORY_SYNC_OPERATION_NAMES["google-idp"]),
  ...syncHandlers("azure-idp", DIRECTORY_SYNC_OPERATION_NAMES["azure-idp"]),
};
