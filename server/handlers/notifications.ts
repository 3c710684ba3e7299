/**
 * Notification channels (the service's own OpenAPI document; not in the spec): email and webhook channels that
 * report the activity codes they subscribe to, and the list of those codes. Served without `--cloud`, like the
 * other integrations (see server/handlers/scim.ts).
 *
 * A webhook's header values are credentials (a shared secret, an API key): the server must send them, so it keeps
 * them, but they are write-only. The whole target is sealed at rest (server/secrets.ts: a webhook URL often
 * carries a token in its path too), and answers mask every header value. On update, a header value sent as the
 * mask keeps the stored value, so a client can send back what it read; only while the URL stays the same, so a
 * stored secret is never sent to a new destination (as event-streaming credentials).
 */
import {
  MASKED_HEADER_VALUE,
  NOTIFICATION_EVENT_TYPES,
  type NotificationChannelRequestSchema,
} from "../../api/notifications";
import type { z } from "../../api/common";
import { iso } from "../clock";
import type { Ctx, Handlers, StoredKinds } from "../context";
import { audit, auditWrite, mustGet, type Reader } from "../domain";
import { invalid } from "../errors";
import { newId } from "../ids";
import type { Doc, Tx } from "../store";

type ChannelRequest = z.infer<typeof NotificationChannelRequestSchema>;
type Target = { emails?: string[]; url?: string; headers?: Record<string, string> };

/** A stored notification channel (kind "notification_channel"); `target` is sealed in the database. */
export interface NotificationChannelDoc extends Doc {
  type: ChannelRequest["type"];
  target: Target;
  event_types: string[];
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

function channelView(d: NotificationChannelDoc) {
  const target: Target = {};
  if (d.target.emails) target.emails = [...d.target.emails];
  if (d.target.url !== undefined) target.url = d.target.url;
  if (d.target.headers)
    target.headers = Object.fromEntries(Object.keys(d.target.headers).map((k) => [k, MASKED_HEADER_VALUE]));
  return { id: d.id, type: d.type, target, event_types: [...d.event_types], enabled: d.enabled };
}

function mustGetChannel(r: Reader, ctx: Ctx): NotificationChannelDoc {
  return mustGet<NotificationChannelDoc>(
    r,
    "notification_channel",
    ctx.params.channelId as string,
    "notification channel",
  );
}

/**
 * The target to store: as sent, with each header value sent as the mask replaced by the stored one; the mask is
 * never stored as if it were the value.
 */
function resolveTarget(sent: Target, stored?: NotificationChannelDoc): Target {
  const out: Target = { ...sent };
  if (!sent.headers) return out;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent.headers)) {
    if (value !== MASKED_HEADER_VALUE) {
      headers[name] = value;
      continue;
    }
    const field = `target.headers.${name}`;
    const kept = stored?.type === "webhook" ? stored.target.headers?.[name] : undefined;
    if (kept === undefined)
      throw invalid(
        `${field}: must be the value itself; ${MASKED_HEADER_VALUE} stands for a stored value, and this ` +
          `channel ${stored ? "has no such header" : "is new"}`,
      );
    if (stored?.target.url !== sent.url)
      throw invalid(
        `${field}: must be the value itself: target.url changes, and a stored header value is never sent ` +
          "to a new destination",
      );
    headers[name] = kept;
  }
  out.headers = headers;
  return out;
}

/** Stores a created or replaced channel, audits the write (never the target) and answers its view. */
function write(tx: Tx, ctx: Ctx, existing?: NotificationChannelDoc) {
  const body = ctx.body as ChannelRequest;
  const ts = iso(ctx.now);
  const doc: NotificationChannelDoc = {
    id: existing?.id ?? newId(),
    type: body.type,
    target: resolveTarget((body.target ?? {}) as Target, existing),
    event_types: [...body.event_types],
    enabled: body.enabled,
    created_at: existing?.created_at ?? ts,
    updated_at: ts,
  };
  tx.put("notification_channel", doc);
  auditWrite(tx, ctx, existing, "notification.channel", "Notification channel", doc.id, {
    type: doc.type,
    enabled: doc.enabled,
  });
  return channelView(doc);
}

/** The documents this module stores (see StoredKind). */
export const kinds = {
  notification_channel: {},
} satisfies StoredKinds;

export const handlers: Handlers = {
  listNotificationEventTypes: () => ({ ...NOTIFICATION_EVENT_TYPES }),

  listNotificationChannels: (ctx) =>
    ctx.state.store.all<NotificationChannelDoc>("notification_channel").map(channelView),

  createNotificationChannel: (ctx) => ctx.state.store.tx((tx) => write(tx, ctx)),

  getNotificationChannel: (ctx) => channelView(mustGetChannel(ctx.state.store, ctx)),

  updateNotificationChannel: (ctx) => ctx.state.store.tx((tx) => write(tx, ctx, mustGetChannel(tx, ctx))),

  deleteNotificationChannel: (ctx) =>
    ctx.state.store.tx((tx) => {
      const d = mustGetChannel(tx, ctx);
      tx.delete("notification_channel", d.id);
      audit(tx, ctx, "notification.channel.delete", "Notification channel deleted", d.id, { type: d.type });
      return {};
    }),
};
