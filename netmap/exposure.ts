/**
 * What reverse-proxy services publish: for each enabled service, the targets it makes reachable through a proxy
 * cluster, and who may reach them. Pure, like the network map (network-map.ts): a function of the snapshot.
 *
 * Decisions
 * - A service publishes only while it is enabled, and only its enabled targets; a service without an enabled
 *   target publishes nothing.
 * - A public service (`private` false) is reachable from outside the network by anyone who can connect to its
 *   cluster, subject to its access restrictions (client ranges, countries, CrowdSec) and its auth: each enabled
 *   check is named (password, PIN, SSO with the groups whose users may sign in, an emailed link, a header). No
 *   enabled check means anyone who can connect reaches the target. Auth applies to http services only (the API
 *   refuses it for the others).
 * - A private service is reachable only by the peers of its access groups, over the overlay network (they
 *   authenticate by their tunnel); its auth and restrictions are listed as set but do not open it to anyone else.
 * - A target is what the service forwards to: a peer (by id), a network resource of the account (host, domain or
 *   subnet: by id, with the address the proxy connects to, which for a subnet is a host inside it), or a proxy
 *   cluster reached directly (`direct_upstream`). A target naming an object the snapshot lacks is still listed,
 *   by its id: the map never hides what a service publishes.
 */
import type { AccountSnapshot, ExposedTarget, Exposure, SnapshotGroup, SnapshotProxyService } from "./types";

function urlOf(s: SnapshotProxyService): string {
  if (s.mode === "http" || s.mode === "") return `https://${s.domain}`;
  return `${s.mode}://${s.domain}:${s.listen_port ?? 0}`;
}

/** The enabled auth checks of a public service, as a person names them. */
export function authChecks(s: SnapshotProxyService, groups: readonly SnapshotGroup[]): string[] {
  const a = s.auth;
  const out: string[] = [];
  if (a.password) out.push("password");
  if (a.pin) out.push("PIN");
  if (a.bearer) {
    const names = a.bearer_groups.map((id) => groups.find((g) => g.id === id)?.name ?? id);
    out.push(names.length ? `SSO (users of ${names.join(", ")})` : "SSO (any user of the account)");
  }
  if (a.link) out.push("emailed link");
  for (const h of a.headers) out.push(`header ${h}`);
  return out;
}

/** The access restrictions of a service, one phrase each. */
export function restrictionsOf(s: SnapshotProxyService): string[] {
  const r = s.access_restrictions ?? {};
  const out: string[] = [];
  if (r.allowed_cidrs?.length) out.push(`only from ${r.allowed_cidrs.join(", ")}`);
  if (r.blocked_cidrs?.length) out.push(`not from ${r.blocked_cidrs.join(", ")}`);
  if (r.allowed_countries?.length) out.push(`only from countries ${r.allowed_countries.join(", ")}`);
  if (r.blocked_countries?.length) out.push(`not from countries ${r.blocked_countries.join(", ")}`);
  if (r.crowdsec_mode && r.crowdsec_mode !== "off") out.push(`CrowdSec ${r.crowdsec_mode}`);
  return out;
}

function targetOf(snapshot: AccountSnapshot, t: SnapshotProxyService["targets"][number]): ExposedTarget {
  const base = {
    id: t.target_id,
    port: t.port,
    protocol: t.protocol,
    ...(t.path ? { path: t.path } : {}),
  };
  if (t.target_type === "peer") {
    const p = snapshot.peers.find((x) => x.id === t.target_id);
    return { ...base, kind: "peer", name: p?.name ?? t.target_id, address: t.host || p?.ip || "" };
  }
  if (t.target_type === "cluster") return { ...base, kind: "cluster", name: t.target_id, address: t.host };
  for (const n of snapshot.networks) {
    const r = n.resources.find((x) => x.id === t.target_id);
    if (r)
      return {
        ...base,
        kind: "resource",
        name: r.name,
        address: t.host || r.address,
        network: n.name,
      };
  }
  return { ...base, kind: "resource", name: t.target_id, address: t.host };
}

/** Every publication of the snapshot's enabled services, in snapshot order. */
export function exposuresOf(snapshot: AccountSnapshot): Exposure[] {
  const out: Exposure[] = [];
  for (const s of snapshot.proxy_services ?? []) {
    if (!s.enabled) continue;
    const targets = s.targets.filter((t) => t.enabled).map((t) => targetOf(snapshot, t));
    if (!targets.length) continue;
    const groups = s.private
      ? s.access_groups.map((id) => ({ id, name: snapshot.groups.find((g) => g.id === id)?.name ?? id }))
      : [];
    const members = new Set<string>();
    for (const id of s.private ? s.access_groups : []) {
      const g = snapshot.groups.find((x) => x.id === id);
      for (const p of g?.all ? snapshot.peers.map((x) => x.id) : (g?.peers ?? [])) members.add(p);
    }
    out.push({
      service_id: s.id,
      service_name: s.name,
      url: urlOf(s),
      mode: s.mode || "http",
      cluster: s.proxy_cluster ?? "",
      audience: s.private ? "private" : "public",
      auth: authChecks(s, snapshot.groups),
      restrictions: restrictionsOf(s),
      groups,
      peers: snapshot.peers.filter((p) => members.has(p.id)).map((p) => ({ id: p.id, name: p.name })),
      targets,
    });
  }
  return out;
}
