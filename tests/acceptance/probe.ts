/**
 * What a target serves: for every resource kind, the collection its objects live in (or, for a singleton, the
 * object itself) is read once. A kind is "not served" when that read answers 404 — for a singleton, a 404 that is
 * not the service's error shape (an unknown path), since a singleton that exists but is not configured answers a
 * proper 404 too.
 */
import { routeById } from "../../api/routes";
import type { PrivnetClient } from "../../client";
import { listRouteOf } from "../../provider/list";
import { PROVIDERS } from "../../provider/registry";
import type { ResourceSpec } from "../../provider/spec";

export interface Probe {
  /** How the summary names the target. */
  label: string;
  url: string;
  external: boolean;
  served: string[];
  /** Kinds the target does not serve, with the request that showed it. */
  notServed: { kind: string; path: string; evidence: string }[];
  /** Ids of the enrolled peers found in the account. */
  peers: string[];
  /** Addresses of the online reverse-proxy clusters (services and custom domains need one). */
  proxyClusters: string[];
  /** The target's `GET /api/accounts` answered with these settings members (for the report). */
  accountSettingsMembers: string[];
}

/** Where the parent ids of nested collections come from: an existing object's id, if the account has one. */
const PARENT_LISTS: Record<string, string> = {
  networkId: "listNetworks",
  zoneId: "listDnsZones",
  userId: "listUsers",
  peerId: "listPeers",
};

/**
 * The path read to decide whether a kind is served: its collection (the read path without the object's id),
 * with parent ids from `parents` (or `probe` where the account has no parent object).
 */
export function collectionPath(spec: ResourceSpec, parents: Record<string, string> = {}): string {
  const path = (listRouteOf(spec) ?? routeById(spec.ops.read)).path;
  return path.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(parents[p] ?? "probe"));
}

async function get(url: string, token: string, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, {
    headers: { Authorization: `Token ${token}`, Accept: "application/json" },
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: an unknown path on some servers
  }
  return { status: res.status, body };
}

const isServiceError = (b: unknown) =>
  typeof b === "object" && b !== null && typeof (b as { message?: unknown }).message === "string";

export async function probeTarget(
  client: PrivnetClient,
  opts: { url: string; token: string; external: boolean },
): Promise<Probe> {
  const served: string[] = [];
  const notServed: Probe["notServed"] = [];
  const parents: Record<string, string> = {};
  for (const [param, op] of Object.entries(PARENT_LISTS)) {
    const first = ((await client.call(op)) as { id: unknown }[] | null)?.[0];
    if (first) parents[param] = String(first.id);
  }
  // The caller's own tokens are readable on every server; another regular user's may not be (403).
  parents.userId = String(((await client.call("getCurrentUser")) as { id: unknown }).id);
  for (const { spec } of PROVIDERS) {
    const path = collectionPath(spec, parents);
    const nested = /\{\w+\}/.test(routeById(spec.ops.read).path.replace(`{${spec.idParam}}`, ""));
    const realParents = (spec.parents ?? []).every((p) => parents[p.param] !== undefined);
    const r = await get(opts.url, opts.token, path);
    // A 404 means "not served" for a top-level collection; for a singleton or a collection under a placeholder
    // parent only when it is not the service's own error (an unknown path answers some other body).
    const proper = spec.singleton || (nested && !realParents);
    const absent = r.status === 404 && (!proper || !isServiceError(r.body));
    if (absent) notServed.push({ kind: spec.name, path, evidence: `GET ${path} answered 404` });
    else if (r.status >= 200 && r.status < 300) served.push(spec.name);
    else if (proper && r.status === 404) served.push(spec.name);
    else throw new Error(`probe: GET ${path} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`);
  }
  const peers = ((await client.call("listPeers")) as { id: unknown }[] | null) ?? [];
  const clusters = served.includes("ReverseProxyService")
    ? (((await client.call("listProxyClusters")) as { address: string; online: boolean }[] | null) ?? [])
    : [];
  const accounts = ((await client.call("listAccounts")) as { settings?: Record<string, unknown> }[]) ?? [];
  return {
    label: opts.external ? opts.url : "privnet-server (started by the acceptance tier)",
    url: opts.url,
    external: opts.external,
    served,
    notServed,
    peers: peers.map((p) => String(p.id)),
    proxyClusters: clusters.filter((c) => c.online).map((c) => c.address),
    accountSettingsMembers: Object.keys(accounts[0]?.settings ?? {}).sort(),
  };
}
