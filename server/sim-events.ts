/**
 * Simulated feeds of the event logs (only with --simulate): what agents and the reverse proxy would report.
 *
 * - `POST /sim/traffic` `{events: [...]}`: network traffic flow records (TrafficEvent-like: only flow_id,
 *   reporter_id and events are required, everything else has a neutral default).
 * - `POST /sim/proxy-logs` `{entries: [...]}`: reverse proxy access log entries (ProxyLogEntry-like: host and
 *   status_code are required; a missing id is generated, a missing timestamp is "now").
 *
 * Both answer `{accepted, dropped, ids}`. The same feeds are exported for in-process use ({@link feedTraffic},
 * {@link feedProxyLogs}). Feeding is telemetry, not an API mutation, so it records no audit event.
 *
 * Traffic follows the account settings as real agents do: nothing is collected while
 * `settings.extra.network_traffic_logs_enabled` is false (412), only flows reported by peers of
 * `network_traffic_logs_groups` are kept when that list is set, and packet counters are zero unless
 * `network_traffic_packet_counter_enabled` is true.
 */
import type { FastifyInstance } from "fastify";
import { validate, z } from "../api/common";
import { ConnectionType, Direction, TrafficEventType } from "../api/events";
import { iso } from "./clock";
import { accountOf, type ServerState } from "./context";
import { groupPeerIds } from "./domain";
import { badRequest, invalid, preconditionFailed } from "./errors";
import type { ProxyLogDoc, TrafficDoc } from "./handlers/events";
import { newId } from "./ids";
import type { GroupDoc, PeerDoc, UserDoc } from "./model";
import type { Tx } from "./store";

const text = (def = "") => z.string().default(def);
const count = () => z.number().int().min(0, { error: "must be at least 0" }).default(0);
const timestampText = () =>
  z.string().refine((s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}T/.test(s), {
    error: "must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z",
  });

const EndpointInput = z.object({
  id: text(),
  type: z.enum(["PEER", "HOST_RESOURCE", "SUBNET_RESOURCE", "DOMAIN_RESOURCE", "UNKNOWN"]).default("PEER"),
  name: text(),
  geo_location: z
    .object({ city_name: text(), country_code: text() })
    .default({ city_name: "", country_code: "" }),
  os: text(),
  address: text(),
  dns_label: text(),
});

/** What the traffic feed accepts for one flow record. */
export const TrafficFeedEventSchema = z.object({
  flow_id: z.string().min(1, { error: "must not be empty" }),
  reporter_id: z.string().min(1, { error: "must not be empty" }),
  source: EndpointInput.default(EndpointInput.parse({})),
  destination: EndpointInput.default(EndpointInput.parse({})),
  user: z.object({ id: text(), email: text(), name: text() }).default({ id: "", email: "", name: "" }),
  policy: z.object({ id: text(), name: text() }).default({ id: "", name: "" }),
  icmp: z.object({ type: count(), code: count() }).default({ type: 0, code: 0 }),
  protocol: z.number().int().min(0).max(255, { error: "must be between 0 and 255" }).default(6),
  direction: Direction.default("INGRESS"),
  connection_type: ConnectionType.default("P2P"),
  rx_bytes: count(),
  rx_packets: count(),
  tx_bytes: count(),
  tx_packets: count(),
  events: z
    .array(z.object({ type: TrafficEventType, timestamp: timestampText() }))
    .min(1, { error: "must hold at least one event" }),
});

/** What the proxy log feed accepts for one entry. */
export const ProxyLogFeedEntrySchema = z.object({
  id: z.string().min(1, { error: "must not be empty" }).optional(),
  service_id: text(),
  timestamp: timestampText().optional(),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]).default("GET"),
  host: z.string().min(1, { error: "must not be empty" }),
  path: text("/"),
  duration_ms: count(),
  status_code: z.number().int().min(100).max(599, { error: "must be between 100 and 599" }),
  source_ip: text(),
  reason: text(),
  user_id: text(),
  user_email: z.string().optional(),
  user_name: z.string().optional(),
  auth_method_used: text(),
  country_code: text(),
  city_name: text(),
  subdivision_code: text(),
  bytes_upload: count(),
  bytes_download: count(),
  protocol: text("HTTP/1.1"),
  metadata: z.record(z.string(), z.string()).default({}),
});

const TrafficBatchSchema = z.object({ events: z.array(TrafficFeedEventSchema) });
const ProxyBatchSchema = z.object({ entries: z.array(ProxyLogFeedEntrySchema) });

/** The answer of a feed. */
export interface FeedResult {
  /** Records stored. */
  accepted: number;
  /** Records left out by the account's traffic settings (reporter not in network_traffic_logs_groups). */
  dropped: number;
  /** Ids of the stored records (traffic: `${reporter_id}:${flow_id}`; proxy logs: the entry id). */
  ids: string[];
}

function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const r = validate(schema, data);
  if (!r.ok) throw invalid(r.message);
  return r.value;
}

type Endpoint = z.output<typeof EndpointInput>;

/** A peer endpoint given only by id gets the peer's own name, address and location, as an agent reports it. */
function fillEndpoint(tx: Tx, e: Endpoint): Endpoint {
  const peer = e.type === "PEER" && e.id ? tx.get<PeerDoc>("peer", e.id) : undefined;
  if (!peer) return e;
  return {
    ...e,
    name: e.name || peer.name,
    address: e.address || peer.ip,
    dns_label: e.dns_label || peer.dns_label,
    os: e.os || peer.os,
    geo_location: {
      city_name: e.geo_location.city_name || peer.city_name,
      country_code: e.geo_location.country_code || peer.country_code,
    },
  };
}

/** Stores traffic flow records (a flow already reported by the same peer gets the new events merged in). */
export function feedTraffic(state: ServerState, events: unknown[]): FeedResult {
  const batch = parse(TrafficBatchSchema, { events });
  return state.store.tx((tx) => {
    const extra = (accountOf(tx).settings.extra ?? {}) as {
      network_traffic_logs_enabled?: boolean;
      network_traffic_logs_groups?: string[];
      network_traffic_packet_counter_enabled?: boolean;
    };
    if (!extra.network_traffic_logs_enabled)
      throw preconditionFailed(
        "network traffic logging is disabled: set settings.extra.network_traffic_logs_enabled on the account",
      );
    const groups = extra.network_traffic_logs_groups ?? [];
    let logged: Set<string> | undefined;
    if (groups.length) {
      logged = new Set(
        groups
          .map((id) => tx.get<GroupDoc>("group", id))
          .filter((g): g is GroupDoc => g !== undefined)
          .flatMap((g) => groupPeerIds(tx, g)),
      );
    }
    const result: FeedResult = { accepted: 0, dropped: 0, ids: [] };
    for (const ev of batch.events) {
      if (logged && !logged.has(ev.reporter_id)) {
        result.dropped++;
        continue;
      }
      const id = `${ev.reporter_id}:${ev.flow_id}`;
      const previous = tx.get<TrafficDoc>("traffic_event", id);
      const seen = new Set((previous?.events ?? []).map((e) => `${e.type}@${e.timestamp}`));
      const merged = [
        ...(previous?.events ?? []),
        ...ev.events.filter((e) => !seen.has(`${e.type}@${e.timestamp}`)),
      ];
      merged.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
      const user = ev.user.id ? tx.get<UserDoc>("user", ev.user.id) : undefined;
      const counters = extra.network_traffic_packet_counter_enabled === true;
      const doc: TrafficDoc = {
        ...ev,
        id,
        source: fillEndpoint(tx, ev.source),
        destination: fillEndpoint(tx, ev.destination),
        user: {
          id: ev.user.id,
          email: ev.user.email || user?.email || "",
          name: ev.user.name || user?.name || "",
        },
        rx_packets: counters ? ev.rx_packets : 0,
        tx_packets: counters ? ev.tx_packets : 0,
        events: merged,
      };
      tx.put("traffic_event", doc);
      result.accepted++;
      result.ids.push(id);
    }
    return result;
  });
}

/** Stores proxy access log entries (an entry with an id already stored replaces it). */
export function feedProxyLogs(state: ServerState, entries: unknown[]): FeedResult {
  const batch = parse(ProxyBatchSchema, { entries });
  const now = iso(state.clock.now());
  return state.store.tx((tx) => {
    const result: FeedResult = { accepted: 0, dropped: 0, ids: [] };
    for (const e of batch.entries) {
      const doc = { ...e, id: e.id ?? newId(), timestamp: e.timestamp ?? now } as ProxyLogDoc;
      if (doc.user_email === undefined) delete doc.user_email;
      if (doc.user_name === undefined) delete doc.user_name;
      tx.put("proxy_log", doc);
      result.accepted++;
      result.ids.push(doc.id);
    }
    return result;
  });
}

/** Registers the feed routes under /sim (the caller registers them only with --simulate). */
export function registerEventFeed(app: FastifyInstance, state: ServerState): void {
  app.post("/sim/traffic", async (req) => {
    const body = req.body as { events?: unknown } | undefined;
    if (typeof body !== "object" || body === null || !Array.isArray(body.events))
      throw badRequest("request body must be a JSON object with an array member events");
    return feedTraffic(state, body.events);
  });
  app.post("/sim/proxy-logs", async (req) => {
    const body = req.body as { entries?: unknown } | undefined;
    if (typeof body !== "object" || body === null || !Array.isArray(body.entries))
      throw badRequest("request body must be a JSON object with an array member entries");
    return feedProxyLogs(state, body.entries);
  });
}
