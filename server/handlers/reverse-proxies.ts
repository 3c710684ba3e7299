/**
 * Reverse proxies (the service's own API document, v0.77.1; not in the spec's 137 operations): services that
 * publish a peer or network resource at a host name served by a proxy cluster, custom domains, proxy clusters and
 * the tokens self-hosted proxies register with. What the reference answers is in docs/reference-answers.md
 * ("Reverse proxies"); this module follows it, and refuses where it would store nonsense (a port above 65535, an
 * empty custom domain), each refusal a 4xx naming the field.
 *
 * Stored docs:
 * - "proxy_service": the service as answered, less the secrets, plus `auth_secrets` (password, PIN, header-auth
 *   values by header name), sealed at rest (server/secrets.ts) and never answered: responses carry "" in their
 *   place, and an update that sends "" keeps the stored value.
 * - "proxy_domain": a custom domain `{domain, target_cluster, validated, created_at}`. A cluster's own (free)
 *   domain is not stored: the list derives it from the cluster, with the id "" the reference gives it.
 * - "proxy_token": `{name, hashed_token, created_at, expires_at?, last_used?, revoked}`; the value is answered once,
 *   by create, and only its SHA-256 is kept. Delete revokes (the token stays listed, revoked).
 * - "proxy": one registered proxy (the simulated agent's `POST /sim/proxies`): its cluster address, capabilities,
 *   the token it registered with and whether it is connected. Clusters are the proxies grouped by address, plus the
 *   shared clusters the server was started with (`--proxy-cluster`).
 * - "sim_dns_record": a CNAME of the simulated DNS (`POST /sim/dns`), which custom-domain validation reads: a
 *   domain is validated when `validation.<domain>` is a CNAME of its cluster's address.
 */
import {
  authEnabled,
  canonicalDuration,
  type ReverseProxyDomainRequestSchema,
  type ProxyTokenRequestSchema,
  type ReverseProxyServiceRequestSchema,
} from "../../api/reverse-proxy";
import type { z } from "../../api/common";
import { iso } from "../clock";
import type { Ctx, Handlers, ServerState, StoredKinds } from "../context";
import { audit, auditWrite, compact, mustGet, requireRefs, type Reader } from "../domain";
import { conflict, invalid, notFound, preconditionFailed } from "../errors";
import { hashSecret, newId, newProxyToken } from "../ids";
import type { PeerDoc } from "../model";
import type { Doc, Tx } from "../store";
import type { NetworkResourceDoc } from "./networks";

type ServiceRequest = z.infer<typeof ReverseProxyServiceRequestSchema>;
type TargetRequest = NonNullable<ServiceRequest["targets"]>[number];
type DomainRequest = z.infer<typeof ReverseProxyDomainRequestSchema>;
type TokenRequest = z.infer<typeof ProxyTokenRequestSchema>;

/** A target as stored (and answered): the host filled in, durations in their stored form. */
export type TargetDoc = {
  target_id: string;
  target_type: "peer" | "host" | "domain" | "subnet" | "cluster";
  path?: string;
  protocol: string;
  host: string;
  port: number;
  enabled: boolean;
  options: Record<string, unknown>;
};

/** The auth block without its secrets (what responses show, with "" for each secret). */
export interface AuthDoc {
  password_auth?: { enabled: boolean };
  pin_auth?: { enabled: boolean };
  bearer_auth?: { enabled: boolean; distribution_groups?: string[] };
  link_auth?: { enabled: boolean };
  header_auths?: { enabled: boolean; header: string }[];
}

/** The secrets of an auth block: sealed at rest, never answered. Header values by lower-cased header name. */
export interface AuthSecrets {
  password?: string;
  pin?: string;
  headers: Record<string, string>;
}

export interface ProxyServiceDoc extends Doc {
  name: string;
  domain: string;
  mode: "http" | "tcp" | "udp" | "tls";
  listen_port: number;
  port_auto_assigned: boolean;
  proxy_cluster: string;
  targets: TargetDoc[];
  enabled: boolean;
  pass_host_header: boolean;
  rewrite_redirects: boolean;
  auth: AuthDoc;
  auth_secrets: AuthSecrets;
  access_restrictions?: Record<string, unknown>;
  private: boolean;
  access_groups?: string[];
  created_at: string;
  certificate_issued_at?: string;
}

export interface ProxyDomainDoc extends Doc {
  domain: string;
  target_cluster: string;
  validated: boolean;
  created_at: string;
}

export interface ProxyTokenDoc extends Doc {
  name: string;
  /** base64 SHA-256 of the value. */
  hashed_token: string;
  created_at: string;
  expires_at?: string;
  last_used?: string;
  revoked: boolean;
}

/** What a proxy tells the management server about itself when it registers. */
export interface ProxyCapabilities {
  supports_custom_ports: boolean;
  require_subdomain: boolean;
  supports_crowdsec: boolean;
  private: boolean;
}

export interface ProxyDoc extends Doc, ProxyCapabilities {
  address: string;
  token_id: string;
  connected: boolean;
  last_seen: string;
}

export interface SimDnsRecordDoc extends Doc {
  /** The CNAME target. The doc id is the record's name, lower case, without a trailing dot. */
  cname: string;
}

// ---------------------------------------------------------------------------------------------------------
// Clusters

/** A proxy cluster as the API shows it, with the capabilities the domain list repeats. */
export interface ClusterView extends ProxyCapabilities {
  id: string;
  address: string;
  type: "account" | "shared";
  online: boolean;
  connected_proxies: number;
}

const SHARED_CAPABILITIES: ProxyCapabilities = {
  supports_custom_ports: true,
  require_subdomain: false,
  supports_crowdsec: false,
  private: false,
};

/** Every cluster: the shared ones the server was started with, then the account's proxies grouped by address. */
export function clusters(r: Reader, state: Pick<ServerState, "options">): ClusterView[] {
  const out: ClusterView[] = (state.options.proxyClusters ?? []).map((address) => ({
    id: `shared-${address}`,
    address,
    type: "shared",
    online: true,
    connected_proxies: 1,
    ...SHARED_CAPABILITIES,
  }));
  const byAddress = new Map<string, ProxyDoc[]>();
  for (const p of r.all<ProxyDoc>("proxy"))
    byAddress.set(p.address, [...(byAddress.get(p.address) ?? []), p]);
  for (const [address, proxies] of byAddress) {
    if (out.some((c) => c.address === address)) continue;
    const connected = proxies.filter((p) => p.connected);
    const all = connected.length ? connected : proxies;
    out.push({
      id: (all[0] as ProxyDoc).id,
      address,
      type: "account",
      online: connected.length > 0,
      connected_proxies: connected.length,
      // A capability holds for the cluster when every connected proxy has it.
      supports_custom_ports: all.every((p) => p.supports_custom_ports),
      require_subdomain: all.some((p) => p.require_subdomain),
      supports_crowdsec: all.every((p) => p.supports_crowdsec),
      private: all.some((p) => p.private),
    });
  }
  return out;
}

function clusterView(c: ClusterView) {
  return {
    id: c.id,
    address: c.address,
    type: c.type,
    online: c.online,
    connected_proxies: c.connected_proxies,
    supports_custom_ports: c.supports_custom_ports,
    require_subdomain: c.require_subdomain,
    supports_crowdsec: c.supports_crowdsec,
    private: c.private,
  };
}

/** `name` is `zone` or a name under it (exact spelling, as the reference matches them). */
function within(name: string, zone: string): boolean {
  return zone !== "" && (name === zone || name.endsWith(`.${zone}`));
}

// ---------------------------------------------------------------------------------------------------------
// Simulated DNS and custom-domain validation

function dnsName(name: string): string {
  return name.toLowerCase().replace(/\.$/, "");
}

/** Whether `validation.<domain>` is a CNAME of the cluster's address in the simulated DNS. */
function dnsValidates(r: Reader, domain: string, cluster: string): boolean {
  const record = r.get<SimDnsRecordDoc>("sim_dns_record", dnsName(`validation.${domain}`));
  return record !== undefined && dnsName(record.cname) === dnsName(cluster);
}

/**
 * Sets (or, with an empty `cname`, removes) a CNAME of the simulated DNS. Like the service's, a custom domain is
 * checked when it is added and when asked to (`GET .../validate`), not when DNS changes.
 */
export function setSimDnsRecord(tx: Tx, name: string, cname: string): { name: string; cname: string } {
  const id = dnsName(name);
  if (cname === "") tx.delete("sim_dns_record", id);
  else tx.put<SimDnsRecordDoc>("sim_dns_record", { id, cname });
  return { name: id, cname };
}

// ---------------------------------------------------------------------------------------------------------
// Services: views and writes

const secretOf = (doc: AuthDoc): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  if (doc.password_auth) out.password_auth = { enabled: doc.password_auth.enabled, password: "" };
  if (doc.pin_auth) out.pin_auth = { enabled: doc.pin_auth.enabled, pin: "" };
  if (doc.bearer_auth)
    out.bearer_auth = compact({
      enabled: doc.bearer_auth.enabled,
      distribution_groups: doc.bearer_auth.distribution_groups?.length
        ? doc.bearer_auth.distribution_groups
        : undefined,
    });
  if (doc.link_auth) out.link_auth = { enabled: doc.link_auth.enabled };
  if (doc.header_auths?.length)
    out.header_auths = doc.header_auths.map((h) => ({ enabled: h.enabled, header: h.header, value: "" }));
  return out;
};

/** The service's status: active while a proxy of its cluster is connected, pending otherwise. */
function statusOf(r: Reader, state: Pick<ServerState, "options">, d: ProxyServiceDoc): "active" | "pending" {
  return clusters(r, state).some((c) => c.address === d.proxy_cluster && c.online) ? "active" : "pending";
}

/** The ReverseProxyService response: every field, secrets as "". */
export function serviceView(r: Reader, state: Pick<ServerState, "options">, d: ProxyServiceDoc) {
  return compact({
    id: d.id,
    name: d.name,
    domain: d.domain,
    mode: d.mode,
    listen_port: d.listen_port,
    port_auto_assigned: d.port_auto_assigned,
    proxy_cluster: d.proxy_cluster,
    targets: d.targets.map((t) => compact({ ...t, path: t.path })),
    enabled: d.enabled,
    terminated: false,
    pass_host_header: d.pass_host_header,
    rewrite_redirects: d.rewrite_redirects,
    auth: secretOf(d.auth),
    access_restrictions: d.access_restrictions,
    meta: compact({
      created_at: d.created_at,
      certificate_issued_at: d.certificate_issued_at,
      status: statusOf(r, state, d),
    }),
    private: d.private,
    access_groups: d.access_groups?.length ? d.access_groups : undefined,
  });
}

/** The cluster serving `domain`: a cluster's address or a name under it, else a custom domain's cluster. */
function clusterFor(r: Reader, state: Pick<ServerState, "options">, domain: string): ClusterView {
  const all = clusters(r, state);
  const direct = all
    .filter((c) => within(domain, c.address))
    .sort((a, b) => b.address.length - a.address.length)[0];
  if (direct) {
    if (direct.require_subdomain && domain === direct.address)
      throw invalid(
        `domain: cluster ${direct.address} requires a name under it, such as app.${direct.address}`,
      );
    return direct;
  }
  const custom = r
    .all<ProxyDomainDoc>("proxy_domain")
    .filter((d) => within(domain, d.domain))
    .sort((a, b) => b.domain.length - a.domain.length)[0];
  const viaCustom = custom && all.find((c) => c.address === custom.target_cluster);
  if (viaCustom) return viaCustom;
  if (custom)
    throw preconditionFailed(
      `domain: the custom domain ${custom.domain} points at proxy cluster ${custom.target_cluster}, which is not connected`,
    );
  throw preconditionFailed(
    all.length === 0
      ? `domain: no proxy cluster is connected, so ${domain} cannot be served`
      : `domain: ${domain} is neither a proxy cluster's domain (${all.map((c) => c.address).join(", ")}) nor ` +
          "under a custom domain",
  );
}

/** The address form the service gives a host resource's target: the IP without its /32 (/128). */
function hostAddress(address: string): string {
  return address.replace(/\/(32|128)$/, "");
}

function storedOptions(options: TargetRequest["options"]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options ?? {})) {
    if (v === undefined || v === false || v === "") continue;
    if (k === "custom_headers" && Object.keys(v as object).length === 0) continue;
    out[k] = k === "request_timeout" || k === "session_idle_timeout" ? canonicalDuration(v as string) : v;
  }
  return out;
}

/** Checks each target names what exists, and fills in the host the proxy connects to. */
function resolveTargets(
  r: Reader,
  state: Pick<ServerState, "options">,
  targets: readonly TargetRequest[],
): TargetDoc[] {
  return targets.map((t, i) => {
    const at = `targets[${i}]`;
    let host = t.host ?? "";
    if (t.target_type === "peer") {
      const peer = r.get<PeerDoc>("peer", t.target_id);
      if (!peer) throw invalid(`${at}.target_id: unknown peer id ${t.target_id}`);
      host = peer.ip;
    } else if (t.target_type === "cluster") {
      if (!clusters(r, state).some((c) => c.address === t.target_id))
        throw invalid(`${at}.target_id: unknown proxy cluster ${t.target_id}`);
    } else {
      const res = r.get<NetworkResourceDoc>("network_resource", t.target_id);
      if (!res) throw invalid(`${at}.target_id: unknown network resource id ${t.target_id}`);
      if (res.type !== t.target_type)
        throw invalid(
          `${at}.target_type: network resource ${t.target_id} is a ${res.type} resource, not a ${t.target_type}`,
        );
      // A host or domain resource decides where the proxy connects; a subnet needs the host named in it.
      if (res.type !== "subnet") host = res.type === "host" ? hostAddress(res.address) : res.address;
    }
    return compact<TargetDoc>({
      target_id: t.target_id,
      target_type: t.target_type,
      path: t.path === "" ? undefined : t.path,
      protocol: t.protocol,
      host,
      port: t.port,
      enabled: t.enabled,
      options: storedOptions(t.options),
    });
  });
}

/** The auth block split into what is answered and what is sealed; "" keeps a stored secret on update. */
function splitAuth(auth: ServiceRequest["auth"], previous: AuthSecrets | undefined): [AuthDoc, AuthSecrets] {
  const doc: AuthDoc = {};
  const secrets: AuthSecrets = { headers: {} };
  if (!auth) return [doc, secrets];
  if (auth.password_auth) {
    doc.password_auth = { enabled: auth.password_auth.enabled };
    secrets.password = auth.password_auth.password || previous?.password || "";
  }
  if (auth.pin_auth) {
    doc.pin_auth = { enabled: auth.pin_auth.enabled };
    secrets.pin = auth.pin_auth.pin || previous?.pin || "";
  }
  if (auth.bearer_auth)
    doc.bearer_auth = compact({
      enabled: auth.bearer_auth.enabled,
      distribution_groups: auth.bearer_auth.distribution_groups?.length
        ? [...auth.bearer_auth.distribution_groups]
        : undefined,
    });
  if (auth.link_auth) doc.link_auth = { enabled: auth.link_auth.enabled };
  if (auth.header_auths?.length) {
    doc.header_auths = auth.header_auths.map((h, i) => {
      const key = h.header.toLowerCase();
      if (key in secrets.headers)
        throw invalid(`auth.header_auths[${i}].header: ${h.header} is checked twice`);
      const value = h.value || previous?.headers[key];
      if (!value) throw invalid(`auth.header_auths[${i}].value: is required`);
      secrets.headers[key] = value;
      return { enabled: h.enabled, header: h.header };
    });
  }
  return [doc, secrets];
}

function storedRestrictions(a: ServiceRequest["access_restrictions"]): Record<string, unknown> | undefined {
  if (!a) return undefined;
  const list = (v: string[] | undefined, upper = false) =>
    v?.length ? v.map((x) => (upper ? x.toUpperCase() : x)) : undefined;
  const out = compact({
    allowed_cidrs: list(a.allowed_cidrs),
    blocked_cidrs: list(a.blocked_cidrs),
    allowed_countries: list(a.allowed_countries, true),
    blocked_countries: list(a.blocked_countries, true),
    crowdsec_mode: a.crowdsec_mode,
  });
  return Object.keys(out).length ? out : undefined;
}

/** The lowest free port from 10000 on for a tcp or udp service of a cluster. */
function freePort(r: Reader, cluster: string, mode: string, self: string | undefined): number {
  const used = new Set(
    r
      .all<ProxyServiceDoc>("proxy_service")
      .filter((s) => s.id !== self && s.proxy_cluster === cluster && s.mode === mode)
      .map((s) => s.listen_port),
  );
  let port = 10000;
  while (used.has(port)) port++;
  return port;
}

function getService(r: Reader, ctx: Ctx): ProxyServiceDoc {
  return mustGet<ProxyServiceDoc>(
    r,
    "proxy_service",
    ctx.params.serviceId as string,
    "reverse-proxy service",
  );
}

function writeService(tx: Tx, ctx: Ctx, existing?: ProxyServiceDoc): ProxyServiceDoc {
  const body = ctx.body as ServiceRequest;
  const state = ctx.state;
  const mode = body.mode ?? "http";
  if (existing && existing.mode !== mode)
    throw invalid(`mode: cannot change from ${existing.mode} to ${mode}; a new service is needed`);
  const taken = tx
    .all<ProxyServiceDoc>("proxy_service")
    .find((s) => s.domain === body.domain && s.id !== existing?.id);
  if (taken) throw conflict(`domain: ${body.domain} is already used by reverse-proxy service ${taken.id}`);
  const cluster = clusterFor(tx, state, body.domain);
  const targets = resolveTargets(tx, state, body.targets ?? []);
  requireRefs(tx, "group", body.access_groups, "access_groups", "group");
  requireRefs(
    tx,
    "group",
    body.auth?.bearer_auth?.distribution_groups,
    "auth.bearer_auth.distribution_groups",
    "group",
  );
  const [auth, authSecrets] = splitAuth(body.auth, existing?.auth_secrets);
  let listenPort = 0;
  let autoAssigned = false;
  if (mode === "tcp" || mode === "udp" || mode === "tls") {
    if (body.listen_port) listenPort = body.listen_port;
    else if (existing?.listen_port && existing.proxy_cluster === cluster.address) {
      // The port the cluster chose stays across updates that leave it out (as the reference does).
      listenPort = existing.listen_port;
      autoAssigned = existing.port_auto_assigned;
    } else {
      if (!cluster.supports_custom_ports)
        throw invalid(`listen_port: cluster ${cluster.address} does not bind custom ports`);
      listenPort = freePort(tx, cluster.address, mode, existing?.id);
      autoAssigned = true;
    }
    if (mode !== "tls") {
      const clash = tx
        .all<ProxyServiceDoc>("proxy_service")
        .find(
          (s) =>
            s.id !== existing?.id &&
            s.mode === mode &&
            s.proxy_cluster === cluster.address &&
            s.listen_port === listenPort,
        );
      if (clash)
        throw conflict(
          `listen_port: ${mode} port ${listenPort} is already used by reverse-proxy service ${clash.name} ` +
            `(${clash.id}) on cluster ${cluster.address}`,
        );
    }
  }
  const now = iso(ctx.now);
  const doc = compact<ProxyServiceDoc>({
    id: existing?.id ?? newId(),
    name: body.name,
    domain: body.domain,
    mode,
    listen_port: listenPort,
    port_auto_assigned: autoAssigned,
    proxy_cluster: cluster.address,
    targets,
    enabled: body.enabled,
    pass_host_header: body.pass_host_header ?? false,
    rewrite_redirects: body.rewrite_redirects ?? false,
    auth,
    auth_secrets: authSecrets,
    access_restrictions: storedRestrictions(body.access_restrictions),
    private: body.private ?? false,
    access_groups: body.access_groups?.length ? [...body.access_groups] : undefined,
    created_at: existing?.created_at ?? now,
    certificate_issued_at:
      existing?.certificate_issued_at ??
      (cluster.online && mode !== "tcp" && mode !== "udp" ? now : undefined),
  });
  tx.put("proxy_service", doc);
  // The audit meta names the service and whether auth guards it, never a secret.
  auditWrite(tx, ctx, existing, "service", "Service", doc.id, {
    name: doc.name,
    domain: doc.domain,
    mode: doc.mode,
    proxy_cluster: doc.proxy_cluster,
    auth: authEnabled(body.auth),
    ...(doc.mode !== "http" ? { listen_port: doc.listen_port } : {}),
  });
  return doc;
}

/**
 * The services that send traffic to a peer or a network resource: deleting one of those is refused while a
 * service targets it (412, as the reference answers), naming the services.
 */
export function servicesTargeting(r: Reader, type: "peer" | "resource", id: string): string[] {
  return r
    .all<ProxyServiceDoc>("proxy_service")
    .filter((s) =>
      s.targets.some((t) => t.target_id === id && (type === "peer") === (t.target_type === "peer")),
    )
    .map((s) => `reverse-proxy service ${s.domain} (${s.id})`);
}

/** Refuses to delete a peer or network resource a service still targets. */
export function refuseIfTargeted(r: Reader, type: "peer" | "resource", id: string, what: string): void {
  const uses = servicesTargeting(r, type, id);
  if (uses.length) throw preconditionFailed(`${what} is in use by ${uses.join(", ")}`);
}

// ---------------------------------------------------------------------------------------------------------
// Domains

function domainView(r: Reader, state: Pick<ServerState, "options">, d: ProxyDomainDoc) {
  const cluster = clusters(r, state).find((c) => c.address === d.target_cluster);
  return compact({
    id: d.id,
    domain: d.domain,
    validated: d.validated,
    type: "custom" as const,
    target_cluster: d.target_cluster,
    supports_custom_ports: cluster?.supports_custom_ports,
    supports_crowdsec: cluster?.supports_crowdsec,
    supports_private: cluster?.private,
  });
}

function freeDomainView(c: ClusterView) {
  return {
    id: "",
    domain: c.address,
    validated: true,
    type: "free" as const,
    supports_custom_ports: c.supports_custom_ports,
    require_subdomain: c.require_subdomain,
    supports_crowdsec: c.supports_crowdsec,
    supports_private: c.private,
  };
}

function getDomain(r: Reader, ctx: Ctx): ProxyDomainDoc {
  return mustGet<ProxyDomainDoc>(r, "proxy_domain", ctx.params.domainId as string, "custom domain");
}

/** Validates a custom domain against the simulated DNS; writes only when the verdict changes. */
function revalidate(tx: Tx, d: ProxyDomainDoc): ProxyDomainDoc {
  const validated = dnsValidates(tx, d.domain, d.target_cluster);
  if (validated === d.validated) return d;
  return tx.put("proxy_domain", { ...d, validated });
}

// ---------------------------------------------------------------------------------------------------------
// Tokens

function tokenView(t: ProxyTokenDoc) {
  return compact({
    id: t.id,
    name: t.name,
    expires_at: t.expires_at,
    created_at: t.created_at,
    last_used: t.last_used,
    revoked: t.revoked,
  });
}

/** The proxy token with this value, if one is stored (revoked and expired ones included). */
export function findProxyToken(r: Reader, value: string): ProxyTokenDoc | undefined {
  const hash = hashSecret(value);
  return r.all<ProxyTokenDoc>("proxy_token").find((t) => t.hashed_token === hash);
}

// ---------------------------------------------------------------------------------------------------------
// Seeding (the offline twin of privnet-access diff: server/seed.ts)

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const text = (v: unknown, d = ""): string => (typeof v === "string" ? v : d);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * A service document from a service as an API answers it (ids kept). The answer holds no secret, so none is
 * seeded: an update through the twin that sends them sets them, one that sends them empty keeps them empty.
 */
export function serviceDocFromAnswer(a: Obj, now: string): ProxyServiceDoc {
  const auth = o(a.auth);
  const doc: AuthDoc = {};
  if (auth.password_auth) doc.password_auth = { enabled: o(auth.password_auth).enabled === true };
  if (auth.pin_auth) doc.pin_auth = { enabled: o(auth.pin_auth).enabled === true };
  if (auth.bearer_auth) {
    const groups = list(o(auth.bearer_auth).distribution_groups).map((x) => text(x));
    doc.bearer_auth = compact({
      enabled: o(auth.bearer_auth).enabled === true,
      distribution_groups: groups.length ? groups : undefined,
    });
  }
  if (auth.link_auth) doc.link_auth = { enabled: o(auth.link_auth).enabled === true };
  const headers = list(auth.header_auths).map(o);
  if (headers.length)
    doc.header_auths = headers.map((h) => ({ enabled: h.enabled === true, header: text(h.header) }));
  const mode = ["http", "tcp", "udp", "tls"].includes(text(a.mode))
    ? (a.mode as ProxyServiceDoc["mode"])
    : "http";
  const groups = list(a.access_groups).map((x) => text(x));
  const restrictions = o(a.access_restrictions);
  return compact<ProxyServiceDoc>({
    id: text(a.id),
    name: text(a.name),
    domain: text(a.domain),
    mode,
    listen_port: typeof a.listen_port === "number" ? a.listen_port : 0,
    port_auto_assigned: a.port_auto_assigned === true,
    proxy_cluster: text(a.proxy_cluster),
    targets: list(a.targets).map((x) => {
      const t = o(x);
      return compact<TargetDoc>({
        target_id: text(t.target_id),
        target_type: text(t.target_type) as TargetDoc["target_type"],
        path: typeof t.path === "string" && t.path !== "" ? t.path : undefined,
        protocol: text(t.protocol),
        host: text(t.host),
        port: typeof t.port === "number" ? t.port : 0,
        enabled: t.enabled === true,
        options: o(t.options),
      });
    }),
    enabled: a.enabled === true,
    pass_host_header: a.pass_host_header === true,
    rewrite_redirects: a.rewrite_redirects === true,
    auth: doc,
    auth_secrets: { headers: {} },
    access_restrictions: Object.keys(restrictions).length ? restrictions : undefined,
    private: a.private === true,
    access_groups: groups.length ? groups : undefined,
    created_at: text(o(a.meta).created_at, now),
  });
}

/** A custom domain document from a domain as an API answers it (a cluster's own domain is no document). */
export function domainDocFromAnswer(a: Obj, now: string): ProxyDomainDoc | undefined {
  if (a.type !== "custom" || !text(a.id)) return undefined;
  return {
    id: text(a.id),
    domain: text(a.domain),
    target_cluster: text(a.target_cluster),
    validated: a.validated === true,
    created_at: now,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Module

const serviceGroupUses = (doc: Doc, groupId: string): string[] => {
  const s = doc as ProxyServiceDoc;
  const named =
    (s.access_groups ?? []).includes(groupId) ||
    (s.auth.bearer_auth?.distribution_groups ?? []).includes(groupId);
  return named ? [`reverse-proxy service ${s.domain} (${s.id})`] : [];
};

/** The documents this module stores (see StoredKind). */
export const kinds = {
  proxy_service: { groupUses: serviceGroupUses },
  proxy_domain: {},
  proxy_token: {},
  proxy: {},
  sim_dns_record: {},
} satisfies StoredKinds;

export const handlers: Handlers = {
  listReverseProxyServices: (ctx) =>
    ctx.state.store
      .all<ProxyServiceDoc>("proxy_service")
      .map((d) => serviceView(ctx.state.store, ctx.state, d)),

  createReverseProxyService: (ctx) =>
    ctx.state.store.tx((tx) => serviceView(tx, ctx.state, writeService(tx, ctx))),

  getReverseProxyService: (ctx) => serviceView(ctx.state.store, ctx.state, getService(ctx.state.store, ctx)),

  updateReverseProxyService: (ctx) =>
    ctx.state.store.tx((tx) => serviceView(tx, ctx.state, writeService(tx, ctx, getService(tx, ctx)))),

  deleteReverseProxyService: (ctx) =>
    ctx.state.store.tx((tx) => {
      const s = getService(tx, ctx);
      tx.delete("proxy_service", s.id);
      audit(tx, ctx, "service.delete", "Service deleted", s.id, {
        name: s.name,
        domain: s.domain,
        mode: s.mode,
        proxy_cluster: s.proxy_cluster,
      });
      return {};
    }),

  listReverseProxyDomains: (ctx) => {
    const r = ctx.state.store;
    const free = clusters(r, ctx.state)
      .filter((c) => c.online)
      .map(freeDomainView);
    return [...free, ...r.all<ProxyDomainDoc>("proxy_domain").map((d) => domainView(r, ctx.state, d))];
  },

  createReverseProxyDomain: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as DomainRequest;
      const cluster = clusters(tx, ctx.state).find((c) => c.address === body.target_cluster);
      if (!cluster?.online)
        throw invalid(`target_cluster: no proxy cluster ${body.target_cluster} is connected`);
      const same = tx
        .all<ProxyDomainDoc>("proxy_domain")
        .find((d) => dnsName(d.domain) === dnsName(body.domain));
      if (same) throw conflict(`domain: ${body.domain} is already a custom domain (${same.id})`);
      const doc = tx.put<ProxyDomainDoc>("proxy_domain", {
        id: newId(),
        domain: body.domain,
        target_cluster: body.target_cluster,
        validated: dnsValidates(tx, body.domain, body.target_cluster),
        created_at: iso(ctx.now),
      });
      audit(tx, ctx, "domain.add", "Domain added", doc.id, {
        domain: doc.domain,
        target_cluster: doc.target_cluster,
        validated: doc.validated,
      });
      return domainView(tx, ctx.state, doc);
    }),

  deleteReverseProxyDomain: (ctx) =>
    ctx.state.store.tx((tx) => {
      const d = getDomain(tx, ctx);
      // Services under the domain stay, as on the reference: they keep the cluster they were given.
      tx.delete("proxy_domain", d.id);
      audit(tx, ctx, "domain.delete", "Domain deleted", d.id, {
        domain: d.domain,
        target_cluster: d.target_cluster,
        validated: d.validated,
      });
      return undefined;
    }),

  validateReverseProxyDomain: (ctx) =>
    ctx.state.store.tx((tx) => {
      revalidate(tx, getDomain(tx, ctx));
      return undefined;
    }),

  listProxyClusters: (ctx) => clusters(ctx.state.store, ctx.state).map(clusterView),

  deleteProxyCluster: (ctx) =>
    ctx.state.store.tx((tx) => {
      const address = ctx.params.clusterAddress as string;
      const own = tx.all<ProxyDoc>("proxy").filter((p) => p.address === address);
      if (!own.length) throw notFound(`proxy cluster ${address} not found among the account's own proxies`);
      for (const p of own) tx.delete("proxy", p.id);
      audit(tx, ctx, "proxy.cluster.delete", "Proxy cluster deleted", address, {
        address,
        proxies: own.length,
      });
      return {};
    }),

  listProxyTokens: (ctx) => ctx.state.store.all<ProxyTokenDoc>("proxy_token").map(tokenView),

  createProxyToken: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as TokenRequest;
      const value = newProxyToken();
      const doc = compact<ProxyTokenDoc>({
        id: newId(),
        name: body.name,
        hashed_token: hashSecret(value),
        created_at: iso(ctx.now),
        expires_at: body.expires_in ? iso(ctx.now + body.expires_in * 1000) : undefined,
        revoked: false,
      });
      tx.put("proxy_token", doc);
      // The reference writes no audit event for proxy tokens; a credential's creation deserves one here.
      audit(tx, ctx, "proxy.token.create", "Proxy token created", doc.id, { name: doc.name });
      return { ...tokenView(doc), plain_token: value };
    }),

  deleteProxyToken: (ctx) =>
    ctx.state.store.tx((tx) => {
      const t = mustGet<ProxyTokenDoc>(tx, "proxy_token", ctx.params.tokenId as string, "proxy token");
      if (!t.revoked) {
        tx.put("proxy_token", { ...t, revoked: true });
        audit(tx, ctx, "proxy.token.revoke", "Proxy token revoked", t.id, { name: t.name });
      }
      return {};
    }),
};
