/**
 * Event logs (spec 2.21, 4.11): audit events, network traffic events (cloud-only) and reverse proxy access
 * logs. All three are read-only here; traffic events and proxy log entries are fed by the simulated agent
 * (server/sim-events.ts).
 */
import type { ProxyLogEntry, ProxyQuerySchema, TrafficEvent, TrafficQuerySchema } from "../../api/events";
import type { z } from "../../api/common";
import type { Handlers, StoredKinds } from "../context";
import type { Reader } from "../domain";
import type { UserDoc } from "../model";
import type { Doc } from "../store";

/** The real service answers at most this many audit events (the newest). */
export const AUDIT_EVENT_LIMIT = 10000;

/** A stored traffic event: the API object plus the doc id (`${reporter_id}:${flow_id}`). */
export type TrafficDoc = Doc & TrafficEvent;

/** A stored proxy log entry: the API object; the doc id is the entry's (request) id. */
export type ProxyLogDoc = Doc & ProxyLogEntry;

type TrafficQuery = z.infer<typeof TrafficQuerySchema>;
type ProxyQuery = z.infer<typeof ProxyQuerySchema>;

/** One page of `items`; a page past the end is empty (total_pages still tells how many there are). */
function paginate<T>(items: T[], page: number, pageSize: number) {
  return {
    data: items.slice((page - 1) * pageSize, page * pageSize),
    page,
    page_size: pageSize,
    total_records: items.length,
    total_pages: Math.ceil(items.length / pageSize),
  };
}

const lower = (s: string | undefined) => (s ?? "").toLowerCase();
const contains = (haystack: string | undefined, needle: string) => lower(haystack).includes(needle);

/** Milliseconds of a timestamp; unparseable values sort first and match no date bound. */
function ms(ts: string): number {
  const t = Date.parse(ts);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

/**
 * The inclusive upper bound of an `end_date`: a plain date (`2026-01-31`, accepted for traffic events) means
 * the whole of that day, a date-time means that instant.
 */
function endBound(endDate: string): number {
  const t = Date.parse(endDate);
  return /^\d{4}-\d{2}-\d{2}$/.test(endDate) ? t + 86_400_000 - 1 : t;
}

// ---------------------------------------------------------------------------------------------------------
// Network traffic
// ---------------------------------------------------------------------------------------------------------

/** The time of a flow's latest event: flows are listed newest first by it. */
function lastEventMs(t: TrafficDoc): number {
  return t.events.reduce((m, e) => Math.max(m, ms(e.timestamp)), Number.NEGATIVE_INFINITY);
}

function trafficMatches(t: TrafficDoc, q: TrafficQuery): boolean {
  if (q.user_id !== undefined && t.user.id !== q.user_id) return false;
  if (q.reporter_id !== undefined && t.reporter_id !== q.reporter_id) return false;
  if (q.protocol !== undefined && t.protocol !== q.protocol) return false;
  if (q.type !== undefined && !t.events.some((e) => e.type === q.type)) return false;
  if (q.connection_type !== undefined && t.connection_type !== q.connection_type) return false;
  if (q.direction !== undefined && t.direction !== q.direction) return false;
  if (q.source_id !== undefined && t.source.id !== q.source_id) return false;
  if (q.destination_id !== undefined && t.destination.id !== q.destination_id) return false;
  if (q.search !== undefined && q.search !== "") {
    const s = q.search.toLowerCase();
    const fields = [t.user.email, t.source.name, t.source.address, t.destination.name, t.destination.address];
    if (!fields.some((f) => contains(f, s))) return false;
  }
  if (q.start_date !== undefined || q.end_date !== undefined) {
    // Both bounds apply to the same event: the flow had some event inside the window.
    const from = q.start_date !== undefined ? Date.parse(q.start_date) : Number.NEGATIVE_INFINITY;
    const to = q.end_date !== undefined ? endBound(q.end_date) : Number.POSITIVE_INFINITY;
    if (!t.events.some((e) => ms(e.timestamp) >= from && ms(e.timestamp) <= to)) return false;
  }
  return true;
}

function trafficView(t: TrafficDoc): TrafficEvent {
  const { id: _id, parent: _parent, ...rest } = t;
  return rest as TrafficEvent;
}

// ---------------------------------------------------------------------------------------------------------
// Proxy access logs
// ---------------------------------------------------------------------------------------------------------

type SortKey = ProxyQuery["sort_by"];

/** An entry with its user's email and name resolved (from the entry, else from the user it names). */
type ResolvedEntry = ProxyLogEntry & { user_email?: string; user_name?: string };

function resolveUser(r: Reader, e: ProxyLogDoc): ResolvedEntry {
  const { id, parent: _parent, ...rest } = e;
  const out: ResolvedEntry = { ...(rest as Omit<ProxyLogEntry, "id">), id };
  const user = e.user_id ? r.get<UserDoc>("user", e.user_id) : undefined;
  if (out.user_email === undefined && user) out.user_email = user.email;
  if (out.user_name === undefined && user) out.user_name = user.name;
  return out;
}

/** IPv4 addresses compare by value (10.0.0.9 < 10.0.0.10); anything else as text. */
function compareAddress(a: string, b: string): number {
  const v4 = (s: string) => (/^\d{1,3}(\.\d{1,3}){3}$/.test(s) ? s.split(".").map(Number) : undefined);
  const x = v4(a);
  const y = v4(b);
  if (x && y) {
    for (let i = 0; i < 4; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    return 0;
  }
  return compareText(a, b);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const SORTERS: Record<SortKey, (a: ResolvedEntry, b: ResolvedEntry) => number> = {
  timestamp: (a, b) => ms(a.timestamp) - ms(b.timestamp),
  url: (a, b) => compareText(a.host, b.host) || compareText(a.path, b.path),
  host: (a, b) => compareText(a.host, b.host),
  path: (a, b) => compareText(a.path, b.path),
  method: (a, b) => compareText(a.method, b.method),
  status_code: (a, b) => a.status_code - b.status_code,
  duration: (a, b) => a.duration_ms - b.duration_ms,
  source_ip: (a, b) => compareAddress(a.source_ip, b.source_ip),
  user_id: (a, b) => compareText(a.user_id, b.user_id),
  auth_method: (a, b) => compareText(a.auth_method_used, b.auth_method_used),
  reason: (a, b) => compareText(a.reason, b.reason),
};

function proxyMatches(e: ResolvedEntry, q: ProxyQuery): boolean {
  if (q.search !== undefined && q.search !== "") {
    const s = q.search.toLowerCase();
    const fields = [e.id, e.host, e.path, e.source_ip, e.user_email, e.user_name];
    if (!fields.some((f) => contains(f, s))) return false;
  }
  if (q.source_ip !== undefined && e.source_ip !== q.source_ip) return false;
  // Host names are case-insensitive; the match is exact otherwise (the spec's partial match is path's).
  if (q.host !== undefined && lower(e.host) !== lower(q.host)) return false;
  if (q.path !== undefined && !contains(e.path, q.path.toLowerCase())) return false;
  if (q.user_id !== undefined && e.user_id !== q.user_id) return false;
  if (q.user_email !== undefined && !contains(e.user_email, q.user_email.toLowerCase())) return false;
  if (q.user_name !== undefined && !contains(e.user_name, q.user_name.toLowerCase())) return false;
  if (q.method !== undefined && e.method.toUpperCase() !== q.method) return false;
  if (q.status !== undefined) {
    const ok = e.status_code >= 200 && e.status_code < 400;
    if (ok !== (q.status === "success")) return false;
  }
  if (q.status_code !== undefined && e.status_code !== q.status_code) return false;
  if (q.start_date !== undefined && !(ms(e.timestamp) >= Date.parse(q.start_date))) return false;
  if (q.end_date !== undefined && !(ms(e.timestamp) <= Date.parse(q.end_date))) return false;
  return true;
}

/** The event log operations, keyed by operationId. */
/** The documents this module stores (see StoredKind). */
export const kinds = {
  // Written by the simulator's feeds (sim-events.ts); read here.
  traffic_event: {},
  proxy_log: {},
} satisfies StoredKinds;

export const handlers: Handlers = {
  /**
   * Audit events, newest first, as the real service answers them (it reads the newest 10000 in descending
   * order). The initiator's name and email come from the user as it is now; for a deleted user (or an event
   * without initiator) the ids stay and name and email are empty.
   */
  listAuditEvents: (ctx) => {
    const { store } = ctx.state;
    const users = new Map(store.all<UserDoc>("user").map((u) => [u.id, u]));
    return store
      .auditEvents()
      .reverse()
      .slice(0, AUDIT_EVENT_LIMIT)
      .map((e) => {
        const user = users.get(e.initiator_id);
        return {
          id: e.id,
          timestamp: e.timestamp,
          activity: e.activity,
          activity_code: e.activity_code,
          initiator_id: e.initiator_id,
          initiator_name: user?.name ?? "",
          initiator_email: user?.email ?? "",
          target_id: e.target_id,
          meta: e.meta,
        };
      });
  },

  listTrafficEvents: (ctx) => {
    const q = ctx.query as TrafficQuery;
    const rows = ctx.state.store
      .all<TrafficDoc>("traffic_event")
      .filter((t) => trafficMatches(t, q))
      .map((t) => ({ t, at: lastEventMs(t) }))
      // Newest first; equal times fall back to the doc id so pages never shuffle between requests.
      .sort((a, b) => b.at - a.at || compareText(a.t.id, b.t.id))
      .map((x) => trafficView(x.t));
    return paginate(rows, q.page, q.page_size);
  },

  listProxyLogs: (ctx) => {
    const q = ctx.query as ProxyQuery;
    const { store } = ctx.state;
    const sorter = SORTERS[q.sort_by];
    const dir = q.sort_order === "asc" ? 1 : -1;
    const rows = store
      .all<ProxyLogDoc>("proxy_log")
      .map((e) => resolveUser(store, e))
      .filter((e) => proxyMatches(e, q))
      // The id breaks ties, in the same direction, so desc is exactly asc reversed and paging is stable.
      .sort((a, b) => dir * (sorter(a, b) || compareText(a.id, b.id)));
    return paginate(rows, q.page, q.page_size);
  },
};
