/**
 * The simulated side of reverse proxies (only with --simulate), outside /api, next to the simulated agent
 * (server/sim.ts): a self-hosted proxy registering with a proxy token, and the DNS that custom-domain validation
 * reads. Neither exists on this machine for real: a proxy is a separate program, and the service resolves
 * `validation.<domain>` in public DNS.
 *
 * Routes (JSON in and out; errors in the service's `{message, code}` shape):
 * - `POST /sim/proxies` {token, address, supports_custom_ports?, require_subdomain?, supports_crowdsec?,
 *   private?} → {proxy, cluster}: a proxy of the cluster `address` connects with a proxy token (the token's
 *   `last_used` is set). Unknown token 401; revoked or expired 403.
 * - `POST /sim/proxies/{proxyId}/disconnect` and `/connect` → {proxy, cluster}: the proxy stops or resumes
 *   reporting; a cluster with no connected proxy is offline and its services are `pending`.
 * - `POST /sim/dns` {name, cname} → {name, cname}: sets the CNAME of `name` (an empty cname removes it). A
 *   custom domain is validated when `validation.<domain>` is a CNAME of its cluster's address, checked when the
 *   domain is added and at `GET /api/reverse-proxies/domains/{id}/validate`.
 */
import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { isDomain, validate, z } from "../api/common";
import { iso } from "./clock";
import type { ServerState } from "./context";
import { mustGet } from "./domain";
import { forbidden, invalid, unauthorized } from "./errors";
import {
  clusters,
  findProxyToken,
  setSimDnsRecord,
  type ProxyDoc,
  type ProxyTokenDoc,
} from "./handlers/reverse-proxies";

const domain = (what: string) =>
  z.string().refine((d) => isDomain(d), { error: `must be ${what} such as proxy.example.com` });

const RegisterSchema = z.object({
  token: z.string().min(1, { error: "must not be empty" }),
  address: domain("a domain name"),
  supports_custom_ports: z.boolean().optional(),
  require_subdomain: z.boolean().optional(),
  supports_crowdsec: z.boolean().optional(),
  private: z.boolean().optional(),
});

const DnsSchema = z.object({
  name: domain("a DNS name"),
  cname: z.union([z.literal(""), domain("a DNS name")]),
});

function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const v = validate(schema, data ?? {});
  if (!v.ok) throw invalid(v.message);
  return v.value;
}

function answer(state: ServerState, p: ProxyDoc) {
  return {
    proxy: { id: p.id, address: p.address, connected: p.connected, last_seen: p.last_seen },
    cluster: clusters(state.store, state).find((c) => c.address === p.address),
  };
}

/** A proxy registers with a proxy token: a new proxy of the cluster `address`, connected. */
export function registerProxy(state: ServerState, input: unknown) {
  const body = parse(RegisterSchema, input);
  const p = state.store.tx((tx) => {
    const now = state.clock.now();
    // Messages never echo the token: it is a secret.
    const token = findProxyToken(tx, body.token);
    if (!token) throw unauthorized("token: unknown proxy token");
    if (token.revoked) throw forbidden(`proxy token ${token.id} is revoked`);
    if (token.expires_at && Date.parse(token.expires_at) <= now)
      throw forbidden(`proxy token ${token.id} is expired`);
    tx.put<ProxyTokenDoc>("proxy_token", { ...token, last_used: iso(now) });
    return tx.put<ProxyDoc>("proxy", {
      id: `proxy-${randomUUID()}`,
      address: body.address,
      token_id: token.id,
      connected: true,
      last_seen: iso(now),
      supports_custom_ports: body.supports_custom_ports ?? true,
      require_subdomain: body.require_subdomain ?? false,
      supports_crowdsec: body.supports_crowdsec ?? false,
      private: body.private ?? false,
    });
  });
  return answer(state, p);
}

/** A registered proxy stops (or resumes) reporting. */
export function setProxyConnected(state: ServerState, proxyId: string, connected: boolean) {
  const p = state.store.tx((tx) => {
    const doc = mustGet<ProxyDoc>(tx, "proxy", proxyId, "proxy");
    return tx.put<ProxyDoc>("proxy", { ...doc, connected, last_seen: iso(state.clock.now()) });
  });
  return answer(state, p);
}

/** Sets a CNAME of the simulated DNS. */
export function setDns(state: ServerState, input: unknown) {
  const body = parse(DnsSchema, input);
  return state.store.tx((tx) => setSimDnsRecord(tx, body.name, body.cname));
}

/** Registers the reverse-proxy simulation routes (only with --simulate). */
export function registerProxySimulator(app: FastifyInstance, state: ServerState): void {
  type Params = { proxyId: string };
  app.post("/sim/proxies", async (req) => registerProxy(state, req.body));
  app.post<{ Params: Params }>("/sim/proxies/:proxyId/disconnect", async (req) =>
    setProxyConnected(state, req.params.proxyId, false),
  );
  app.post<{ Params: Params }>("/sim/proxies/:proxyId/connect", async (req) =>
    setProxyConnected(state, req.params.proxyId, true),
  );
  app.post("/sim/dns", async (req) => setDns(state, req.body));
}
