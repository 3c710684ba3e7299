/**
 * Creating peer documents: overlay IP allocation from the account's network range and unique DNS labels.
 * Peers are never created by the API; the simulated agent (enrollment, temporary access) uses this.
 */
import { iso } from "./clock";
import { accountOf } from "./context";
import { preconditionFailed } from "./errors";
import { newId } from "./ids";
import type { AgentMeta, PeerDoc } from "./model";
import type { Tx } from "./store";

function ipToInt(ip: string): number {
  return ip.split(".").reduce((acc, o) => acc * 256 + Number(o), 0);
}

function intToIp(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join(".");
}

/** The first free address of the account's IPv4 network range (skipping network and broadcast). */
export function allocateIp(tx: Tx): string {
  const range = String(accountOf(tx).settings.network_range || "100.64.0.0/10");
  const [base, bitsText] = range.split("/");
  const bits = Number(bitsText);
  const size = 2 ** (32 - bits);
  const start = ipToInt(base as string) - (ipToInt(base as string) % size);
  const used = new Set(tx.all<PeerDoc>("peer").map((p) => p.ip));
  for (let i = 1; i < size - 1; i++) {
    const ip = intToIp(start + i);
    if (!used.has(ip)) return ip;
  }
  // A client-visible condition (the account's range is exhausted or not IPv4), not a server fault.
  throw preconditionFailed(`network range ${range} has no free IPv4 address for a new peer`);
}

/** True when `ip` lies in the account's network range. */
export function inNetworkRange(tx: Tx, ip: string): boolean {
  const range = String(accountOf(tx).settings.network_range || "100.64.0.0/10");
  const [base, bitsText] = range.split("/");
  const size = 2 ** (32 - Number(bitsText));
  const start = ipToInt(base as string) - (ipToInt(base as string) % size);
  const n = ipToInt(ip);
  return n > start && n < start + size - 1;
}

/** A DNS label derived from the host name, made unique among peers (`web`, `web-1`, ...). */
export function uniqueDnsLabel(tx: Tx, hostname: string, selfId?: string): string {
  const base =
    hostname
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 50) || "peer";
  const taken = new Set(
    tx
      .all<PeerDoc>("peer")
      .filter((p) => p.id !== selfId)
      .map((p) => p.dns_label),
  );
  if (!taken.has(base)) return base;
  for (let i = 1; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

/** Metadata an agent reports (server/sim.ts validates it): API fields of the peer and {@link AgentMeta}. */
export interface AgentReportFields {
  version?: string;
  os?: string;
  goos?: string;
  os_version?: string;
  kernel_version?: string;
  country_code?: string;
  city_name?: string;
  connection_ip?: string;
  network_addresses?: string[];
  processes?: string[];
}

/** The operating-system family `os` names (linux, darwin, windows, android, ios), if it names one. */
export function familyOf(os: string): string | undefined {
  if (/^mac\s?os/i.test(os)) return "darwin";
  return /^(linux|darwin|windows|android|ios)\b/i.exec(os)?.[1]?.toLowerCase();
}

/** The peer with the members of `r` applied: API fields in place, the rest in `meta`. */
export function applyReport(p: PeerDoc, r: AgentReportFields): PeerDoc {
  const next: PeerDoc = { ...p, meta: { ...p.meta } };
  const meta = next.meta as AgentMeta;
  if (r.version !== undefined) next.version = r.version;
  if (r.os !== undefined) {
    next.os = r.os;
    // A new OS without a family of its own changes the family it implies.
    if (r.goos === undefined) {
      const family = familyOf(r.os);
      if (family) meta.goos = family;
      else delete meta.goos;
    }
  }
  if (r.goos !== undefined) meta.goos = r.goos;
  if (r.os_version !== undefined) meta.os_version = r.os_version;
  if (r.kernel_version !== undefined) next.kernel_version = r.kernel_version;
  if (r.country_code !== undefined) next.country_code = r.country_code;
  if (r.city_name !== undefined) next.city_name = r.city_name;
  if (r.connection_ip !== undefined) next.connection_ip = r.connection_ip;
  if (r.network_addresses !== undefined) meta.network_addresses = [...r.network_addresses];
  if (r.processes !== undefined) meta.processes = [...r.processes];
  return next;
}

export interface NewPeer {
  hostname: string;
  wgPubKey: string;
  now: number;
  userId?: string;
  /** What the agent reports; the rest is the default agent's (see the header of server/sim.ts). */
  report?: AgentReportFields;
  ephemeral?: boolean;
  setupKeyId?: number;
  extraDnsLabels?: string[];
  approvalRequired?: boolean;
  /** Temporary access peers: the only peer this one may reach, and the policies that grant it. */
  temporaryFor?: string;
  temporaryPolicies?: string[];
}

/** Builds and stores a new peer (not connected yet). */
export function createPeerDoc(tx: Tx, p: NewPeer): PeerDoc {
  const ts = iso(p.now);
  const doc: PeerDoc = {
    id: newId(),
    name: p.hostname,
    created_at: ts,
    ip: allocateIp(tx),
    connection_ip: "198.51.100.10",
    connected: false,
    last_seen: ts,
    os: "linux",
    kernel_version: "6.1.0",
    geoname_id: 2950159,
    version: "0.40.0",
    ssh_enabled: false,
    user_id: p.userId ?? "",
    hostname: p.hostname,
    ui_version: "",
    dns_label: uniqueDnsLabel(tx, p.hostname),
    login_expiration_enabled: Boolean(p.userId),
    login_expired: false,
    last_login: ts,
    inactivity_expiration_enabled: false,
    approval_required: p.approvalRequired ?? false,
    country_code: "DE",
    city_name: "Berlin",
    serial_number: "",
    extra_dns_labels: p.extraDnsLabels ?? [],
    ephemeral: p.ephemeral ?? false,
    local_flags: {
      rosenpass_enabled: false,
      rosenpass_permissive: false,
      server_ssh_allowed: false,
      disable_client_routes: false,
      disable_server_routes: false,
      disable_dns: false,
      disable_firewall: false,
      block_lan_access: false,
      block_inbound: false,
      lazy_connection_enabled: false,
    },
    wg_pub_key: p.wgPubKey,
    setup_key_id: p.setupKeyId,
    temporary_for: p.temporaryFor,
    temporary_policies: p.temporaryPolicies,
  };
  // The default agent's metadata, then what this one reports.
  Object.assign(
    doc,
    applyReport(doc, { network_addresses: ["192.168.1.10/24"], processes: [], ...p.report }),
  );
  // Optional members are left out rather than stored as undefined (the JSON round trip would drop them anyway).
  if (doc.setup_key_id === undefined) delete doc.setup_key_id;
  if (doc.temporary_for === undefined) delete doc.temporary_for;
  if (doc.temporary_policies === undefined) delete doc.temporary_policies;
  return tx.put("peer", doc);
}
