/** Event records (spec 2.21) and their queries (spec 4.11): audit events, network traffic, proxy access logs. */
import { intRange, issue, z } from "./common";

export const AuditEventSchema = z
  .strictObject({
    id: z.number().int().describe("Event id"),
    timestamp: z.string().describe("When it happened"),
    activity: z.string().describe("Human-readable activity"),
    activity_code: z.string().describe("Machine-readable activity, such as group.add"),
    initiator_id: z.string().describe("Id of the user who did it"),
    initiator_name: z.string().describe("Name of the user who did it"),
    initiator_email: z.string().describe("Email of the user who did it"),
    target_id: z.string().describe("Id of the object acted on"),
    meta: z.record(z.string(), z.unknown()).describe("Free key/value details"),
  })
  .describe("Audit event");

const GeoSchema = z
  .strictObject({
    city_name: z.string().describe("City"),
    country_code: z.string().describe("Country code"),
  })
  .describe("Location");

const EndpointSchema = z
  .strictObject({
    id: z.string().describe("Peer or resource id"),
    type: z
      .enum(["PEER", "HOST_RESOURCE", "SUBNET_RESOURCE", "DOMAIN_RESOURCE", "UNKNOWN"])
      .describe("Endpoint kind"),
    name: z.string().describe("Name"),
    geo_location: GeoSchema,
    os: z.string().describe("Operating system"),
    address: z.string().describe("Address and port"),
    dns_label: z.string().describe("DNS label"),
  })
  .describe("A flow endpoint");

export const TrafficEventType = z
  .enum(["TYPE_UNKNOWN", "TYPE_START", "TYPE_END", "TYPE_DROP"])
  .describe("Flow event type");
export const ConnectionType = z.enum(["P2P", "ROUTED"]).describe("Connection type");
export const Direction = z.enum(["INGRESS", "EGRESS", "DIRECTION_UNKNOWN"]).describe("Traffic direction");

export const TrafficEventSchema = z
  .strictObject({
    flow_id: z.string().describe("Flow id"),
    reporter_id: z.string().describe("Id of the reporting peer"),
    source: EndpointSchema,
    destination: EndpointSchema,
    user: z
      .strictObject({
        id: z.string().describe("User id"),
        email: z.string().describe("User email"),
        name: z.string().describe("User name"),
      })
      .describe("User behind the flow"),
    policy: z
      .strictObject({ id: z.string().describe("Policy id"), name: z.string().describe("Policy name") })
      .describe("Policy that allowed the flow"),
    icmp: z
      .strictObject({
        type: z.number().int().describe("ICMP type"),
        code: z.number().int().describe("ICMP code"),
      })
      .describe("ICMP details"),
    protocol: z.number().int().describe("IP protocol number"),
    direction: Direction,
    connection_type: ConnectionType,
    rx_bytes: z.number().int().describe("Bytes received"),
    rx_packets: z.number().int().describe("Packets received"),
    tx_bytes: z.number().int().describe("Bytes sent"),
    tx_packets: z.number().int().describe("Packets sent"),
    events: z
      .array(
        z
          .strictObject({ type: TrafficEventType, timestamp: z.string().describe("When") })
          .describe("A flow event"),
      )
      .describe("Flow events"),
  })
  .describe("Network traffic event (flow record)");

export const ProxyLogEntrySchema = z
  .strictObject({
    id: z.string().describe("Request id"),
    service_id: z.string().describe("Proxied service id"),
    timestamp: z.string().describe("When"),
    method: z.string().describe("HTTP method"),
    host: z.string().describe("Host"),
    path: z.string().describe("Path"),
    duration_ms: z.number().int().describe("Duration in milliseconds"),
    status_code: z.number().int().describe("HTTP status code"),
    source_ip: z.string().describe("Client address"),
    reason: z.string().describe("Why the request was allowed or denied"),
    user_id: z.string().describe("Authenticated user id"),
    user_email: z.string().optional().describe("Authenticated user email"),
    user_name: z.string().optional().describe("Authenticated user name"),
    auth_method_used: z.string().describe("How the user authenticated"),
    country_code: z.string().describe("Client country"),
    city_name: z.string().describe("Client city"),
    subdivision_code: z.string().describe("Client subdivision"),
    bytes_upload: z.number().int().describe("Bytes uploaded"),
    bytes_download: z.number().int().describe("Bytes downloaded"),
    protocol: z.string().describe("Protocol, such as HTTP/1.1"),
    metadata: z.record(z.string(), z.string()).describe("Extra context"),
  })
  .describe("Reverse proxy access log entry");

const queryInt = (min: number, max: number) => z.coerce.number().pipe(intRange(min, max));

/** Accepts ISO 8601 / RFC 3339 date-times (and plain dates for traffic events). */
const dateParam = (what: string) =>
  z.string().refine((s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}/.test(s), {
    error: `must be an ${what} date-time such as 2026-01-31T12:00:00Z`,
  });

function checkBounds(q: { start_date?: string; end_date?: string }, ctx: z.RefinementCtx) {
  if (q.start_date && q.end_date && Date.parse(q.start_date) > Date.parse(q.end_date))
    issue(ctx, ["end_date"], "must not be before start_date");
}

export const TrafficQuerySchema = z
  .object({
    page: queryInt(1, 1_000_000).default(1).describe("Page number, from 1; default 1"),
    page_size: queryInt(1, 50000).default(1000).describe("Page size, 1 to 50000; default 1000"),
    user_id: z.string().optional().describe("Only flows of this user"),
    reporter_id: z.string().optional().describe("Only flows reported by this peer"),
    protocol: queryInt(0, 255).optional().describe("Only this IP protocol number"),
    type: TrafficEventType.optional().describe("Only flows with an event of this type"),
    connection_type: ConnectionType.optional().describe("Only P2P or ROUTED flows"),
    direction: Direction.optional().describe("Only this direction"),
    search: z
      .string()
      .optional()
      .describe("Case-insensitive partial match on user email, source and destination names and addresses"),
    source_id: z.string().optional().describe("Only flows from this source"),
    destination_id: z.string().optional().describe("Only flows to this destination"),
    start_date: dateParam("ISO 8601").optional().describe("Only flows with an event at or after this time"),
    end_date: dateParam("ISO 8601").optional().describe("Only flows with an event at or before this time"),
  })
  .superRefine(checkBounds)
  .describe("Network traffic query");

export const PROXY_SORT_FIELDS = [
  "timestamp",
  "url",
  "host",
  "path",
  "method",
  "status_code",
  "duration",
  "source_ip",
  "user_id",
  "auth_method",
  "reason",
] as const;

export const ProxyQuerySchema = z
  .object({
    page: queryInt(1, 1_000_000).default(1).describe("Page number, from 1; default 1"),
    page_size: queryInt(1, 100).default(50).describe("Page size, 1 to 100; default 50"),
    sort_by: z
      .enum(PROXY_SORT_FIELDS)
      .default("timestamp")
      .describe("Sort field; url sorts by host then path"),
    sort_order: z.enum(["asc", "desc"]).default("desc").describe("Sort order; default desc"),
    search: z
      .string()
      .optional()
      .describe("Partial match on request id, host, path, source IP, user email and user name"),
    source_ip: z.string().optional().describe("Only requests from this address"),
    host: z.string().optional().describe("Only requests to this host"),
    path: z.string().optional().describe("Partial match on the path"),
    user_id: z.string().optional().describe("Only requests of this user"),
    user_email: z.string().optional().describe("Partial match on the user email"),
    user_name: z.string().optional().describe("Partial match on the user name"),
    method: z
      .enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
      .optional()
      .describe("Only this HTTP method"),
    status: z.enum(["success", "failed"]).optional().describe("success: 2xx/3xx; failed: 1xx/4xx/5xx"),
    status_code: queryInt(100, 599).optional().describe("Only this status code"),
    start_date: dateParam("RFC 3339").optional().describe("Only requests at or after this time (inclusive)"),
    end_date: dateParam("RFC 3339").optional().describe("Only requests at or before this time (inclusive)"),
  })
  .superRefine(checkBounds)
  .describe("Proxy access log query");

function paged<T extends z.ZodType>(item: T, what: string) {
  return z
    .strictObject({
      data: z.array(item).describe(`The ${what} of this page`),
      page: z.number().int().describe("Page number"),
      page_size: z.number().int().describe("Page size"),
      total_records: z.number().int().describe("Records matching the query"),
      total_pages: z.number().int().describe("Pages matching the query"),
    })
    .describe(`A page of ${what}`);
}

export const TrafficPageSchema = paged(TrafficEventSchema, "traffic events");
export const ProxyLogPageSchema = paged(ProxyLogEntrySchema, "proxy log entries");

export type AuditEvent = z.infer<typeof AuditEventSchema>;
export type TrafficEvent = z.infer<typeof TrafficEventSchema>;
export type ProxyLogEntry = z.infer<typeof ProxyLogEntrySchema>;
