/**
 * Reverse proxies: services that publish something inside the network at a public host name (or port) served by
 * a proxy cluster, the custom domains such services may use, the proxy clusters themselves and the tokens
 * self-hosted proxies register with. The fields are the service's (its v0.77.1 API document); what it does with
 * them was observed by running it (docs/reference-answers.md, "Reverse proxies").
 *
 * Secrets: a service's password, PIN and header-auth values are write-only (answered as ""; an update that sends
 * "" keeps the stored value). A proxy token's value is answered once, by its create.
 */
import { cidr, idList, intRange, isDomain, issue, MAX_LIFETIME_SECONDS, nameString, z } from "./common";

/** How a service is proxied: `http` terminates TLS and routes by host and path; the others pass connections through. */
export const ServiceMode = z
  .enum(["http", "tcp", "udp", "tls"])
  .describe(
    "http (default): a layer-7 proxy by host name and path; tcp, udp: connections passed through on a port; " +
      "tls: TLS connections passed through by server name on a port. Cannot change after creation",
  );

/** What a target names: a peer, a network resource (by its kind of address), or a proxy cluster. */
export const ServiceTargetType = z
  .enum(["peer", "host", "domain", "subnet", "cluster"])
  .describe(
    "What targetId names: peer (a peer id); host, domain or subnet (the id of a network resource of that kind); " +
      "cluster (a proxy cluster's address, reached directly)",
  );

export const ServiceTargetProtocol = z
  .enum(["http", "https", "tcp", "udp"])
  .describe("How the proxy talks to the target");

const UNITS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
const DURATION = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/;

/** Nanoseconds of a Go-style duration (`30s`, `2m`, `1h30m`, `500ms`), or undefined when it is not one. */
export function durationNanos(text: string): number | undefined {
  if (text === "0") return 0;
  let rest = text;
  let total = 0;
  if (rest === "") return undefined;
  while (rest !== "") {
    const m = DURATION.exec(rest);
    if (!m) return undefined;
    total += Number(m[1]) * (UNITS[m[2] as string] as number);
    rest = rest.slice(m[0].length);
  }
  return Math.round(total);
}

/**
 * The form the service stores a duration in (Go's own spelling): `2m` is `2m0s`, `90s` is `1m30s`, `1h` is
 * `1h0m0s`; below a second `500ms`. Undefined when `text` is not a duration.
 */
export function canonicalDuration(text: string): string | undefined {
  const ns = durationNanos(text);
  if (ns === undefined) return undefined;
  if (ns === 0) return "0s";
  if (ns < 1e9) {
    if (ns % 1e6 === 0) return `${ns / 1e6}ms`;
    if (ns % 1e3 === 0) return `${ns / 1e3}µs`;
    return `${ns}ns`;
  }
  const h = Math.floor(ns / 3600e9);
  const m = Math.floor((ns % 3600e9) / 60e9);
  const s = (ns % 60e9) / 1e9;
  const sec = `${Number.isInteger(s) ? s : String(s).replace(/0+$/, "")}s`;
  if (h > 0) return `${h}h${m}m${sec}`;
  if (m > 0) return `${m}m${sec}`;
  return sec;
}

const duration = () =>
  z.string().refine((s) => durationNanos(s) !== undefined, {
    error: "must be a duration such as 30s, 2m or 1h30m",
  });

/** Header names as HTTP defines tokens. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers that belong to one connection, not to the request: a proxy cannot forward a fixed value of them. */
export const HOP_BY_HOP_HEADERS = [
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

/** Headers the proxy sets itself on every request it forwards (Host has a setting of its own: passHostHeader). */
export const PROXY_MANAGED_HEADERS = [
  "content-length",
  "content-type",
  "cookie",
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-port",
  "x-forwarded-proto",
  "x-real-ip",
];

/** Why a custom header cannot be set, or undefined when it can. */
export function customHeaderProblem(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (!HEADER_NAME.test(name)) return "must be an HTTP header name";
  if (lower === "host") return "cannot be set: passHostHeader sends the visitor's Host header";
  if (HOP_BY_HOP_HEADERS.includes(lower)) return "is a hop-by-hop header and cannot be set";
  if (PROXY_MANAGED_HEADERS.includes(lower)) return "is set by the proxy and cannot be overridden";
  return undefined;
}

const targetOptionFields = {
  skip_tls_verify: z.boolean().optional().describe("Accept any TLS certificate from an https target"),
  request_timeout: duration()
    .optional()
    .describe("How long to wait for the target's answer, e.g. 30s (stored in the form 1m0s)"),
  path_rewrite: z
    .enum(["preserve"])
    .optional()
    .describe("preserve: forward the request path whole (by default the matched path prefix is removed)"),
  custom_headers: z
    .record(z.string(), z.string().regex(/^[^\r\n]*$/, { error: "must not contain line breaks" }))
    .superRefine((headers, ctx) => {
      for (const name of Object.keys(headers)) {
        const problem = customHeaderProblem(name);
        if (problem) issue(ctx, [name], problem);
      }
    })
    .optional()
    .describe(
      "Headers added to every request sent to the target, by name (not Host, hop-by-hop or proxy-set headers). " +
        "The service stores and answers them as they are: they are not secrets",
    ),
  proxy_protocol: z
    .boolean()
    .optional()
    .describe("Prefix connections to the target with a PROXY protocol v2 header (tcp and tls modes)"),
  session_idle_timeout: duration()
    .optional()
    .describe("How long an idle UDP session lives before it is dropped, e.g. 2m (stored as 2m0s)"),
  direct_upstream: z
    .boolean()
    .optional()
    .describe("Reach the target from the proxy's own host network instead of through the overlay network"),
};

export const ServiceTargetOptionsSchema = z.object(targetOptionFields).describe("Per-target proxy settings");

export const ServiceTargetSchema = z
  .object({
    target_id: z
      .string()
      .min(1, { error: "must not be empty" })
      .describe("Id of the peer or network resource, or the cluster's address"),
    target_type: ServiceTargetType,
    path: z.string().optional().describe("Path prefix routed to this target (http mode), e.g. / or /api"),
    protocol: ServiceTargetProtocol,
    host: z
      .string()
      .optional()
      .describe(
        "Address the proxy connects to: required for subnet and cluster targets; for a peer, host or domain " +
          "target the server sets the peer's IP or the resource's address",
      ),
    port: intRange(1, 65535).describe("Port of the target, 1 to 65535"),
    enabled: z.boolean().describe("Whether traffic goes to this target"),
    options: ServiceTargetOptionsSchema.optional().describe("Per-target proxy settings"),
  })
  .superRefine((t, ctx) => {
    const noHost = typeof t.host !== "string" || t.host === "";
    if (t.target_type === "subnet" && noHost) issue(ctx, ["host"], "is required for a subnet target");
    if (t.target_type === "cluster") {
      if (noHost) issue(ctx, ["host"], "is required for a cluster target");
      if (t.options?.direct_upstream !== true)
        issue(ctx, ["options", "direct_upstream"], "must be true for a cluster target");
    }
  })
  .describe("Where a service sends its traffic");

const enabledFlag = (what: string) => z.boolean().describe(`Whether ${what} is on`);

export const PasswordAuthSchema = z
  .object({
    enabled: enabledFlag("the password"),
    password: z.string().describe("The password visitors enter; write-only (answered empty)"),
  })
  .describe("A password visitors enter before they reach the service");

export const PinAuthSchema = z
  .object({
    enabled: enabledFlag("the PIN"),
    pin: z.string().describe("The PIN visitors enter; write-only (answered empty)"),
  })
  .describe("A PIN visitors enter before they reach the service");

export const BearerAuthSchema = z
  .object({
    enabled: enabledFlag("sign-in through the account's identity provider"),
    distribution_groups: idList()
      .optional()
      .describe("Ids of the groups whose users may sign in; empty for every user of the account"),
  })
  .describe("Sign-in through the account's identity provider (SSO)");

export const LinkAuthSchema = z
  .object({ enabled: enabledFlag("sign-in by an emailed link") })
  .describe("Sign-in by a link sent by email");

export const HeaderAuthSchema = z
  .object({
    enabled: enabledFlag("this header check"),
    header: z
      .string()
      .regex(HEADER_NAME, { error: "must be an HTTP header name" })
      .refine((h) => h.toLowerCase() !== "host", { error: "cannot be Host" })
      .describe("Header name, e.g. X-Api-Key"),
    value: z
      .string()
      .describe(
        "The value the header must carry (e.g. `Bearer <token>`); write-only (answered empty). Required when " +
          "the check is created; an update that sends it empty keeps the stored value",
      ),
  })
  .describe("A request header that must carry a fixed value");

export const ServiceAuthSchema = z
  .object({
    password_auth: PasswordAuthSchema.optional().describe("A password visitors enter"),
    pin_auth: PinAuthSchema.optional().describe("A PIN visitors enter"),
    bearer_auth: BearerAuthSchema.optional().describe(
      "Sign-in through the account's identity provider (SSO)",
    ),
    link_auth: LinkAuthSchema.optional().describe("Sign-in by a link sent by email"),
    header_auths: z.array(HeaderAuthSchema).optional().describe("Header checks; one that matches admits"),
  })
  .describe(
    "How visitors prove who they are before the proxy lets them through (http mode only); none enabled: anyone " +
      "who can connect reaches the targets",
  );

const countryCode = () =>
  z
    .string()
    .regex(/^[a-zA-Z]{2}$/, { error: "must be a two-letter country code such as DE" })
    .describe("ISO 3166-1 alpha-2 country code (stored in upper case)");

export const AccessRestrictionsSchema = z
  .object({
    allowed_cidrs: z
      .array(cidr())
      .optional()
      .describe("When set, only clients from these ranges may connect"),
    blocked_cidrs: z.array(cidr()).optional().describe("Clients from these ranges are refused"),
    allowed_countries: z
      .array(countryCode())
      .optional()
      .describe("When set, only clients located in these countries may connect"),
    blocked_countries: z
      .array(countryCode())
      .optional()
      .describe("Clients located in these countries are refused"),
    crowdsec_mode: z
      .enum(["off", "enforce", "observe"])
      .optional()
      .describe("IP reputation through CrowdSec: off, enforce (refuse bad addresses) or observe (log them)"),
  })
  .describe("Which client addresses may connect at all, checked before any auth");

/** Whether an auth block turns any check on. */
export function authEnabled(auth: z.infer<typeof ServiceAuthSchema> | undefined): boolean {
  if (!auth) return false;
  return (
    auth.password_auth?.enabled === true ||
    auth.pin_auth?.enabled === true ||
    auth.bearer_auth?.enabled === true ||
    auth.link_auth?.enabled === true ||
    (auth.header_auths ?? []).some((h) => h.enabled)
  );
}

export const ReverseProxyServiceRequestSchema = z
  .object({
    name: nameString({ max: 255 }).describe("Service name (names may repeat)"),
    domain: z
      .string()
      .min(1, { error: "must not be empty" })
      .refine((d) => isDomain(d), { error: "must be a host name such as app.example.com" })
      .describe(
        "Host name the service is published at: a cluster's address or a name under it, or a custom domain or " +
          "a name under it. Unique in the account; matched as written (use lower case)",
      ),
    mode: ServiceMode.optional().describe(ServiceMode.description as string),
    listen_port: intRange(0, 65535)
      .optional()
      .describe(
        "Port the proxy listens on (tcp, udp and tls modes; required for tls); 0 or absent lets the cluster " +
          "choose one for tcp and udp, and keeps it on later updates",
      ),
    targets: z
      .array(ServiceTargetSchema)
      .optional()
      .describe("Where the service sends traffic: at least one; exactly one in tcp, udp and tls modes"),
    enabled: z.boolean().describe("Whether the service is published"),
    pass_host_header: z
      .boolean()
      .optional()
      .describe("Send the visitor's Host header to the target instead of the target's own address"),
    rewrite_redirects: z
      .boolean()
      .optional()
      .describe("Rewrite the target's redirects (Location headers) to the published domain"),
    auth: ServiceAuthSchema.optional().describe(
      "How visitors prove who they are before the proxy lets them through (http mode only); none enabled: " +
        "anyone who can connect reaches the targets",
    ),
    access_restrictions: AccessRestrictionsSchema.optional().describe(
      "Which client addresses may connect at all, checked before any auth",
    ),
    private: z
      .boolean()
      .optional()
      .describe(
        "Reachable only from inside the network, by the peers of accessGroups, which authenticate by their " +
          "tunnel (http mode only; not with bearerAuth)",
      ),
    access_groups: idList()
      .optional()
      .describe("Ids of the groups whose peers may reach a private service; required when private"),
  })
  .superRefine((s, ctx) => {
    const mode = s.mode ?? "http";
    const targets = Array.isArray(s.targets) ? s.targets : [];
    if (targets.length === 0) issue(ctx, ["targets"], "must name at least one target");
    else if (mode !== "http" && targets.length > 1)
      issue(ctx, ["targets"], `must name exactly one target in ${mode} mode`);
    if (mode === "http" && typeof s.listen_port === "number" && s.listen_port !== 0)
      issue(ctx, ["listen_port"], "is only for tcp, udp and tls services");
    if (mode === "tls" && !s.listen_port) issue(ctx, ["listen_port"], "is required for tls services");
    if (mode !== "http" && authEnabled(s.auth)) issue(ctx, ["auth"], `cannot be enabled in ${mode} mode`);
    if (s.private === true) {
      if (!Array.isArray(s.access_groups) || s.access_groups.length === 0)
        issue(ctx, ["access_groups"], "is required when private is true");
      if (mode !== "http") issue(ctx, ["mode"], "must be http when private is true");
      if (s.auth?.bearer_auth?.enabled === true)
        issue(ctx, ["auth", "bearer_auth", "enabled"], "cannot be true when private is true");
    }
  })
  .describe("Reverse-proxy service create or replace body");

/** The response forms: what the server answers (secrets answered empty). */
const targetAnswer = z
  .strictObject({
    target_id: z.string().describe("Id of the peer or network resource, or the cluster's address"),
    target_type: z.string().describe("peer, host, domain, subnet or cluster"),
    path: z.string().optional().describe("Path prefix routed to this target"),
    protocol: z.string().describe("How the proxy talks to the target"),
    host: z.string().optional().describe("Address the proxy connects to"),
    port: z.number().int().describe("Port of the target"),
    enabled: z.boolean().describe("Whether traffic goes to this target"),
    options: z
      .strictObject({
        skip_tls_verify: z.boolean().optional().describe("Whether any TLS certificate is accepted"),
        request_timeout: z.string().optional().describe("How long the proxy waits for an answer"),
        path_rewrite: z.string().optional().describe("preserve: the request path is forwarded whole"),
        custom_headers: z.record(z.string(), z.string()).optional().describe("Headers added to requests"),
        proxy_protocol: z.boolean().optional().describe("Whether connections carry a PROXY protocol header"),
        session_idle_timeout: z.string().optional().describe("Idle UDP session lifetime"),
        direct_upstream: z.boolean().optional().describe("Whether the target is reached outside the overlay"),
      })
      .optional()
      .describe("Per-target proxy settings"),
  })
  .describe("A target of a service");

export const ServiceMetaSchema = z
  .strictObject({
    created_at: z.string().describe("Creation time"),
    certificate_issued_at: z.string().optional().describe("When the TLS certificate was issued, if it was"),
    status: z
      .enum(["pending", "active", "tunnel_not_created", "certificate_pending", "certificate_failed", "error"])
      .describe("Where the service stands: pending until a proxy of its cluster serves it, then active"),
  })
  .describe("What the server reports about a service");

const enabledAnswer = () => z.boolean().describe("Whether the check is on");

export const ReverseProxyServiceSchema = z
  .strictObject({
    id: z.string().describe("Service id"),
    name: z.string().describe("Service name"),
    domain: z.string().describe("Host name the service is published at"),
    mode: z.string().optional().describe("http, tcp, udp or tls"),
    listen_port: z.number().int().optional().describe("Port the proxy listens on (tcp, udp and tls)"),
    port_auto_assigned: z.boolean().optional().describe("Whether the cluster chose listenPort"),
    proxy_cluster: z.string().optional().describe("Address of the proxy cluster serving the service"),
    targets: z.array(targetAnswer).describe("Where the service sends traffic"),
    enabled: z.boolean().describe("Whether the service is published"),
    terminated: z
      .boolean()
      .optional()
      .describe("Set by the operator for a service stopped for abuse; such a service cannot be changed"),
    pass_host_header: z.boolean().optional().describe("Whether the visitor's Host header reaches the target"),
    rewrite_redirects: z.boolean().optional().describe("Whether redirects are rewritten to the domain"),
    auth: z
      .strictObject({
        password_auth: z
          .strictObject({ enabled: enabledAnswer(), password: z.string().describe("Always empty") })
          .optional()
          .describe("Password check"),
        pin_auth: z
          .strictObject({ enabled: enabledAnswer(), pin: z.string().describe("Always empty") })
          .optional()
          .describe("PIN check"),
        bearer_auth: z
          .strictObject({
            enabled: enabledAnswer(),
            distribution_groups: z.array(z.string()).optional().describe("Groups whose users may sign in"),
          })
          .optional()
          .describe("Sign-in through the identity provider"),
        link_auth: z
          .strictObject({ enabled: enabledAnswer() })
          .optional()
          .describe("Sign-in by emailed link"),
        header_auths: z
          .array(
            z.strictObject({
              enabled: enabledAnswer(),
              header: z.string().describe("Header name"),
              value: z.string().describe("Always empty"),
            }),
          )
          .optional()
          .describe("Header checks"),
      })
      .describe("How visitors prove who they are; secret values answered empty"),
    access_restrictions: z
      .strictObject({
        allowed_cidrs: z.array(z.string()).optional().describe("Only these client ranges"),
        blocked_cidrs: z.array(z.string()).optional().describe("Refused client ranges"),
        allowed_countries: z.array(z.string()).optional().describe("Only these countries"),
        blocked_countries: z.array(z.string()).optional().describe("Refused countries"),
        crowdsec_mode: z.string().optional().describe("off, enforce or observe"),
      })
      .optional()
      .describe("Which client addresses may connect"),
    meta: ServiceMetaSchema,
    private: z.boolean().optional().describe("Whether only peers of accessGroups may reach the service"),
    access_groups: z.array(z.string()).optional().describe("Groups whose peers may reach a private service"),
  })
  .describe("Reverse-proxy service");

// -------------------------------------------------------------------------------------------------------------
// Custom domains

export const ReverseProxyDomainRequestSchema = z
  .object({
    domain: z
      .string()
      .refine((d) => isDomain(d), { error: "must be a domain name such as example.com" })
      .describe(
        "The domain. It is validated once `validation.<domain>` is a CNAME of the cluster's address; services " +
          "may use it (or names under it) before that",
      ),
    target_cluster: z
      .string()
      .min(1, { error: "must not be empty" })
      .describe("Address of the proxy cluster that serves the domain (a connected cluster)"),
  })
  .describe("Custom domain create body");

export const ReverseProxyDomainSchema = z
  .strictObject({
    id: z.string().describe("Domain id; empty for a cluster's own (free) domain"),
    domain: z.string().describe("The domain"),
    validated: z.boolean().describe("Whether DNS shows the domain pointing at its cluster"),
    type: z.enum(["free", "custom"]).describe("free: a cluster's own domain; custom: one the account added"),
    target_cluster: z.string().optional().describe("The cluster a custom domain points at"),
    supports_custom_ports: z.boolean().optional().describe("Whether services here may listen on any port"),
    require_subdomain: z.boolean().optional().describe("Whether a service must use a name under the domain"),
    supports_crowdsec: z.boolean().optional().describe("Whether the cluster checks IP reputation"),
    supports_private: z.boolean().optional().describe("Whether the cluster serves private services"),
  })
  .describe("A domain services can be published under");

// -------------------------------------------------------------------------------------------------------------
// Clusters and proxy tokens

export const ProxyClusterSchema = z
  .strictObject({
    id: z.string().describe("Id of one proxy of the cluster"),
    address: z.string().describe("The cluster's address: the domain services are published under"),
    type: z
      .enum(["account", "shared"])
      .describe("account: run by the account itself; shared: by the operator"),
    online: z.boolean().describe("Whether a proxy of the cluster reported recently"),
    connected_proxies: z.number().int().describe("How many proxies of the cluster are connected"),
    supports_custom_ports: z.boolean().optional().describe("Whether services may listen on any port"),
    require_subdomain: z.boolean().optional().describe("Whether services must use a name under the address"),
    supports_crowdsec: z.boolean().optional().describe("Whether every proxy checks IP reputation"),
    private: z
      .boolean()
      .optional()
      .describe("Whether a proxy of the cluster runs inside the overlay network"),
  })
  .describe("A proxy cluster: the proxies serving one address");

/**
 * The longest proxy token lifetime, in seconds: the longest duration the service can represent (2^63 ns, about 292
 * years; {@link MAX_LIFETIME_SECONDS}). The reference takes any non-negative number and overflows past it into a
 * wrong expiry (9223372037: none at all).
 */
export const MAX_PROXY_TOKEN_SECONDS = MAX_LIFETIME_SECONDS;

export const ProxyTokenRequestSchema = z
  .object({
    name: nameString({ max: 255 }).describe("Token name (names may repeat)"),
    expires_in: intRange(0, MAX_PROXY_TOKEN_SECONDS, "seconds")
      .optional()
      .describe(
        "Lifetime in seconds, at most 9223372036 (about 292 years); 0 or absent: the token does not expire",
      ),
  })
  .describe("Proxy token create body");

const tokenFields = {
  id: z.string().describe("Token id"),
  name: z.string().describe("Token name"),
  expires_at: z.string().optional().describe("Expiry time; absent when the token does not expire"),
  created_at: z.string().describe("Creation time"),
  last_used: z.string().optional().describe("Last time a proxy used it"),
  revoked: z.boolean().describe("Whether the token was revoked (a deleted token stays listed, revoked)"),
};

export const ProxyTokenSchema = z.strictObject(tokenFields).describe("A proxy token, without its value");

export const ProxyTokenCreatedSchema = z
  .strictObject({
    ...tokenFields,
    plain_token: z.string().describe("The token value; answered only by the create"),
  })
  .describe("A new proxy token with its value");

export type ReverseProxyServiceRequest = z.infer<typeof ReverseProxyServiceRequestSchema>;
export type ReverseProxyService = z.infer<typeof ReverseProxyServiceSchema>;
export type ReverseProxyDomain = z.infer<typeof ReverseProxyDomainSchema>;
export type ProxyCluster = z.infer<typeof ProxyClusterSchema>;
export type ProxyToken = z.infer<typeof ProxyTokenSchema>;
