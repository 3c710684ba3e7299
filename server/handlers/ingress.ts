/**
 * Ingress (spec 2.19, 4.9; cloud-only, app.ts answers 404 without --cloud): ingress peers expose a public
 * address, and port allocations forward public ports of an ingress peer to a peer.
 *
 * What the spec leaves to the service is computed here:
 * - an ingress peer's region comes from its peer's country, its public address is a TEST-NET-3 address
 *   (203.0.113.0/24, never routable) unique among ingress peers;
 * - public ports come from the pool {@link POOL_START}..{@link POOL_END} of the chosen ingress peer; TCP and
 *   UDP are tracked apart and `tcp/udp` takes the port in both;
 * - each requested port range gets a contiguous public block of the same size (the lowest free one), and
 *   `direct_port` takes `count` contiguous public ports that map 1:1 (the peer listens on the public number).
 */
import type {
  IngressPeerCreateSchema,
  IngressPeerUpdateSchema,
  PortAllocationRequestSchema,
} from "../../api/ingress";
import type { z } from "../../api/common";
import type { Ctx, Handlers, StoredKinds } from "../context";
import { audit, auditWrite, mustGet, type Reader } from "../domain";
import { badRequest, conflict, invalid, preconditionFailed } from "../errors";
import { newId } from "../ids";
import type { PeerDoc } from "../model";
import type { Doc, Tx } from "../store";

/** First public port an ingress peer hands out (the privileged ports below stay the host's own). */
export const POOL_START = 1024;
/** Last public port an ingress peer hands out. */
export const POOL_END = 65535;
const POOL_SIZE = POOL_END - POOL_START + 1;

type Protocol = "tcp" | "udp" | "tcp/udp";
type IngressPeerCreate = z.infer<typeof IngressPeerCreateSchema>;
type IngressPeerUpdate = z.infer<typeof IngressPeerUpdateSchema>;
type AllocationRequest = z.infer<typeof PortAllocationRequestSchema>;

/** A stored ingress peer. */
export interface IngressPeerDoc extends Doc {
  peer_id: string;
  enabled: boolean;
  fallback: boolean;
  region: string;
  ingress_ip: string;
}

export interface PortMapping {
  translated_start: number;
  translated_end: number;
  ingress_start: number;
  ingress_end: number;
  protocol: Protocol;
}

/** A stored port allocation; parent = the id of the peer whose ports are forwarded. */
export interface PortAllocationDoc extends Doc {
  parent: string;
  name: string;
  enabled: boolean;
  ingress_peer_id: string;
  port_ranges?: { start: number; end: number; protocol: Protocol }[];
  direct_port?: { count: number; protocol: Protocol };
  /** One mapping per entry of port_ranges, in the same order. */
  range_mappings: PortMapping[];
  direct_mapping?: PortMapping;
}

// ---------------------------------------------------------------------------------------------------------
// Regions and addresses
// ---------------------------------------------------------------------------------------------------------

const REGION_OF_COUNTRY: Record<string, string> = {};
const REGIONS: Record<string, string[]> = {
  "eu-central": [
    "DE",
    "AT",
    "CH",
    "PL",
    "CZ",
    "NL",
    "BE",
    "LU",
    "DK",
    "SE",
    "NO",
    "FI",
    "IT",
    "HU",
    "SK",
    "SI",
  ],
  "eu-west": ["GB", "IE", "FR", "ES", "PT"],
  "us-east": ["US", "CA", "MX", "BR", "AR"],
  "ap-southeast": ["SG", "AU", "NZ", "JP", "KR", "IN", "ID", "MY", "TH", "VN", "PH"],
};
for (const [region, countries] of Object.entries(REGIONS))
  for (const c of countries) REGION_OF_COUNTRY[c] = region;

/** The region that serves a peer, by its country; peers of unmapped countries use the default region. */
export function regionOfPeer(peer: Pick<PeerDoc, "country_code"> | undefined): string {
  return REGION_OF_COUNTRY[(peer?.country_code ?? "").toUpperCase()] ?? "eu-central";
}

function allocateIngressIp(tx: Tx): string {
  const used = new Set(tx.all<IngressPeerDoc>("ingress_peer").map((p) => p.ingress_ip));
  for (let i = 1; i <= 254; i++) {
    const ip = `203.0.113.${i}`;
    if (!used.has(ip)) return ip;
  }
  throw preconditionFailed("no public ingress address left (at most 254 ingress peers)");
}

// ---------------------------------------------------------------------------------------------------------
// Port bookkeeping
// ---------------------------------------------------------------------------------------------------------

interface Interval {
  start: number;
  end: number;
  protocol: Protocol;
}

/** True when two protocols share a port space (tcp/udp shares with both). */
function protocolsOverlap(a: Protocol, b: Protocol): boolean {
  return a === b || a === "tcp/udp" || b === "tcp/udp";
}

function mappingsOf(a: PortAllocationDoc): PortMapping[] {
  return a.direct_mapping ? [...a.range_mappings, a.direct_mapping] : a.range_mappings;
}

/** Public port blocks in use on an ingress peer, optionally ignoring one allocation (the one being replaced). */
function usedIntervals(r: Reader, ingressPeerId: string, excludeAllocationId?: string): Interval[] {
  return r
    .all<PortAllocationDoc>("port_allocation")
    .filter((a) => a.ingress_peer_id === ingressPeerId && a.id !== excludeAllocationId)
    .flatMap(mappingsOf)
    .map((m) => ({ start: m.ingress_start, end: m.ingress_end, protocol: m.protocol }));
}

/** Ports of the pool still free for one protocol. */
function freePorts(used: Interval[], protocol: "tcp" | "udp"): number {
  const blocks = used.filter((u) => protocolsOverlap(u.protocol, protocol)).sort((a, b) => a.start - b.start);
  let taken = 0;
  let cursor = POOL_START;
  for (const b of blocks) {
    const s = Math.max(b.start, cursor);
    if (b.end >= s) {
      taken += b.end - s + 1;
      cursor = b.end + 1;
    }
  }
  return POOL_SIZE - taken;
}

/** The lowest start of `size` contiguous public ports free for `protocol`, or undefined. */
function findBlock(used: Interval[], size: number, protocol: Protocol): number | undefined {
  const blocks = used.filter((u) => protocolsOverlap(u.protocol, protocol)).sort((a, b) => a.start - b.start);
  let cursor = POOL_START;
  for (const b of blocks) {
    if (b.end < cursor) continue;
    if (b.start - cursor >= size) return cursor;
    cursor = b.end + 1;
  }
  return POOL_END - cursor + 1 >= size ? cursor : undefined;
}

function sameRange(a: { start: number; end: number; protocol: string }, m: PortMapping): boolean {
  return a.start === m.translated_start && a.end === m.translated_end && a.protocol === m.protocol;
}

/**
 * Computes the mappings of an allocation on one ingress peer, or undefined when the peer has not enough free
 * ports. `keep` (the replaced allocation, when it stays on this ingress peer) lends its mappings to ranges that
 * did not change, so a PUT that only adds a range leaves the existing public ports where they were.
 */
function planOn(
  r: Reader,
  ingressPeerId: string,
  body: AllocationRequest,
  keep: PortAllocationDoc | undefined,
): Pick<PortAllocationDoc, "range_mappings" | "direct_mapping"> | undefined {
  const used = usedIntervals(r, ingressPeerId, keep?.id);
  const ranges = body.port_ranges ?? [];
  const reusable = [...(keep?.range_mappings ?? [])];
  const out: (PortMapping | undefined)[] = ranges.map((range) => {
    const i = reusable.findIndex((m) => sameRange(range, m));
    if (i < 0) return undefined;
    const [m] = reusable.splice(i, 1);
    return m;
  });
  let direct =
    keep?.direct_mapping &&
    body.direct_port &&
    keep.direct_port?.count === body.direct_port.count &&
    keep.direct_port.protocol === body.direct_port.protocol
      ? keep.direct_mapping
      : undefined;
  // Kept mappings are reserved before new ones are placed around them.
  for (const m of [...out, direct])
    if (m) used.push({ start: m.ingress_start, end: m.ingress_end, protocol: m.protocol });

  for (const [i, range] of ranges.entries()) {
    if (out[i]) continue;
    const size = range.end - range.start + 1;
    const start = findBlock(used, size, range.protocol);
    if (start === undefined) return undefined;
    const m: PortMapping = {
      translated_start: range.start,
      translated_end: range.end,
      ingress_start: start,
      ingress_end: start + size - 1,
      protocol: range.protocol,
    };
    used.push({ start: m.ingress_start, end: m.ingress_end, protocol: m.protocol });
    out[i] = m;
  }
  if (body.direct_port && !direct) {
    const { count, protocol } = body.direct_port;
    const start = findBlock(used, count, protocol);
    if (start === undefined) return undefined;
    direct = {
      translated_start: start,
      translated_end: start + count - 1,
      ingress_start: start,
      ingress_end: start + count - 1,
      protocol,
    };
  }
  return { range_mappings: out as PortMapping[], direct_mapping: direct };
}

/** Rejects requests no ingress peer could ever serve, and ranges that forward the same peer port twice. */
function checkRequest(body: AllocationRequest): void {
  const ranges = body.port_ranges ?? [];
  for (const [i, a] of ranges.entries()) {
    if (a.end - a.start + 1 > POOL_SIZE)
      throw invalid(`port_ranges[${i}]: at most ${POOL_SIZE} ports fit on an ingress peer`);
    for (let j = 0; j < i; j++) {
      const b = ranges[j] as Interval;
      if (protocolsOverlap(a.protocol, b.protocol) && a.start <= b.end && b.start <= a.end)
        throw invalid(`port_ranges[${i}]: overlaps port_ranges[${j}] (${b.start}-${b.end}/${b.protocol})`);
    }
  }
}

/**
 * Picks the ingress peer for a forwarded peer and computes the mappings. Candidates are the enabled ingress
 * peers of the forwarded peer's region, then enabled fallback peers of other regions; the current one (on PUT)
 * is tried first so an unchanged allocation keeps its public ports.
 */
function plan(
  tx: Tx,
  peer: PeerDoc,
  body: AllocationRequest,
  existing?: PortAllocationDoc,
): Pick<PortAllocationDoc, "ingress_peer_id" | "range_mappings" | "direct_mapping"> {
  const region = regionOfPeer(peer);
  const enabled = tx.all<IngressPeerDoc>("ingress_peer").filter((p) => p.enabled);
  const candidates = [
    ...enabled.filter((p) => p.region === region),
    ...enabled.filter((p) => p.region !== region && p.fallback),
  ];
  if (existing) {
    const i = candidates.findIndex((p) => p.id === existing.ingress_peer_id);
    if (i > 0) candidates.unshift(...candidates.splice(i, 1));
  }
  if (!candidates.length)
    throw preconditionFailed(
      `no ingress peer available for peer ${peer.name} (region ${region}): add an enabled ingress peer ` +
        "in that region or an enabled one with fallback",
    );
  for (const c of candidates) {
    const keep = existing?.ingress_peer_id === c.id ? existing : undefined;
    const p = planOn(tx, c.id, body, keep);
    if (p) return { ingress_peer_id: c.id, ...p };
  }
  throw preconditionFailed(
    `no ingress peer available for peer ${peer.name}: none has enough free public ports for this allocation`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------------------

function ingressPeerView(r: Reader, d: IngressPeerDoc) {
  const used = usedIntervals(r, d.id);
  return {
    id: d.id,
    peer_id: d.peer_id,
    ingress_ip: d.ingress_ip,
    available_ports: { tcp: freePorts(used, "tcp"), udp: freePorts(used, "udp") },
    enabled: d.enabled,
    connected: r.get<PeerDoc>("peer", d.peer_id)?.connected ?? false,
    fallback: d.fallback,
    region: d.region,
  };
}

function allocationView(r: Reader, a: PortAllocationDoc) {
  const ingress = r.get<IngressPeerDoc>("ingress_peer", a.ingress_peer_id);
  const view: Record<string, unknown> = {
    id: a.id,
    name: a.name,
    enabled: a.enabled,
    ingress_peer_id: a.ingress_peer_id,
    region: ingress?.region ?? "",
    ingress_ip: ingress?.ingress_ip ?? "",
  };
  if (a.port_ranges) view.port_ranges = a.port_ranges;
  if (a.direct_port) view.direct_port = a.direct_port;
  view.port_range_mappings = mappingsOf(a);
  return view;
}

// ---------------------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------------------

function mustGetPeer(r: Reader, ctx: Ctx): PeerDoc {
  return mustGet<PeerDoc>(r, "peer", ctx.params.peerId as string, "peer");
}

function mustGetAllocation(r: Reader, ctx: Ctx, peerId: string): PortAllocationDoc {
  return mustGet<PortAllocationDoc>(
    r,
    "port_allocation",
    ctx.params.allocationId as string,
    "port allocation",
    peerId,
  );
}

function writeAllocation(tx: Tx, ctx: Ctx, peer: PeerDoc, existing?: PortAllocationDoc) {
  const body = ctx.body as AllocationRequest;
  checkRequest(body);
  const planned = plan(tx, peer, body, existing);
  const doc: PortAllocationDoc = {
    id: existing?.id ?? newId(),
    parent: peer.id,
    name: body.name,
    enabled: body.enabled,
    ...planned,
  };
  // Empty port_ranges is the same as none (the schema accepts it when direct_port is set).
  if (body.port_ranges?.length) doc.port_ranges = body.port_ranges.map((x) => ({ ...x }));
  if (body.direct_port) doc.direct_port = { ...body.direct_port };
  if (!doc.direct_mapping) delete doc.direct_mapping;
  tx.put("port_allocation", doc);
  auditWrite(tx, ctx, existing, "ingress.port.allocation", "Ingress port allocation", doc.id, {
    name: doc.name,
    peer_id: peer.id,
    ingress_peer_id: doc.ingress_peer_id,
  });
  return allocationView(tx, doc);
}

/** The documents this module stores (see StoredKind). */
export const kinds = {
  ingress_peer: {},
  port_allocation: {},
} satisfies StoredKinds;

export const handlers: Handlers = {
  listIngressPeers: (ctx) =>
    ctx.state.store.all<IngressPeerDoc>("ingress_peer").map((d) => ingressPeerView(ctx.state.store, d)),

  createIngressPeer: (ctx) =>
    ctx.state.store.tx((tx) => {
      const body = ctx.body as IngressPeerCreate;
      const peer = tx.get<PeerDoc>("peer", body.peer_id);
      if (!peer) throw invalid(`peer_id: unknown peer id ${body.peer_id}`);
      if (tx.all<IngressPeerDoc>("ingress_peer").some((p) => p.peer_id === peer.id))
        throw conflict(`peer ${peer.name} (${peer.id}) is already an ingress peer`);
      const doc: IngressPeerDoc = {
        id: newId(),
        peer_id: peer.id,
        enabled: body.enabled,
        fallback: body.fallback,
        region: regionOfPeer(peer),
        ingress_ip: allocateIngressIp(tx),
      };
      tx.put("ingress_peer", doc);
      audit(tx, ctx, "ingress.peer.create", "Ingress peer created", doc.id, { peer_id: peer.id });
      return ingressPeerView(tx, doc);
    }),

  getIngressPeer: (ctx) => {
    const { store } = ctx.state;
    const id = ctx.params.ingressPeerId as string;
    return ingressPeerView(store, mustGet<IngressPeerDoc>(store, "ingress_peer", id, "ingress peer"));
  },

  updateIngressPeer: (ctx) =>
    ctx.state.store.tx((tx) => {
      const id = ctx.params.ingressPeerId as string;
      const old = mustGet<IngressPeerDoc>(tx, "ingress_peer", id, "ingress peer");
      const body = ctx.body as IngressPeerUpdate;
      // Existing allocations stay on a disabled ingress peer: disabling stops forwarding, not ownership.
      const doc: IngressPeerDoc = { ...old, enabled: body.enabled, fallback: body.fallback };
      tx.put("ingress_peer", doc);
      audit(tx, ctx, "ingress.peer.update", "Ingress peer updated", doc.id, { peer_id: doc.peer_id });
      return ingressPeerView(tx, doc);
    }),

  deleteIngressPeer: (ctx) =>
    ctx.state.store.tx((tx) => {
      const id = ctx.params.ingressPeerId as string;
      const d = mustGet<IngressPeerDoc>(tx, "ingress_peer", id, "ingress peer");
      const users = tx.all<PortAllocationDoc>("port_allocation").filter((a) => a.ingress_peer_id === d.id);
      if (users.length)
        throw badRequest(
          `ingress peer ${d.id} is in use by port allocations ${users.map((a) => `${a.name} (${a.id})`).join(", ")}`,
        );
      tx.delete("ingress_peer", d.id);
      audit(tx, ctx, "ingress.peer.delete", "Ingress peer deleted", d.id, { peer_id: d.peer_id });
      return {};
    }),

  listPortAllocations: (ctx) => {
    const { store } = ctx.state;
    const peer = mustGetPeer(store, ctx);
    const name = ctx.query.name as string | undefined;
    return store
      .all<PortAllocationDoc>("port_allocation", peer.id)
      .filter((a) => name === undefined || a.name === name)
      .map((a) => allocationView(store, a));
  },

  createPortAllocation: (ctx) => ctx.state.store.tx((tx) => writeAllocation(tx, ctx, mustGetPeer(tx, ctx))),

  getPortAllocation: (ctx) => {
    const { store } = ctx.state;
    const peer = mustGetPeer(store, ctx);
    return allocationView(store, mustGetAllocation(store, ctx, peer.id));
  },

  updatePortAllocation: (ctx) =>
    ctx.state.store.tx((tx) => {
      const peer = mustGetPeer(tx, ctx);
      return writeAllocation(tx, ctx, peer, mustGetAllocation(tx, ctx, peer.id));
    }),

  deletePortAllocation: (ctx) =>
    ctx.state.store.tx((tx) => {
      const peer = mustGetPeer(tx, ctx);
      const a = mustGetAllocation(tx, ctx, peer.id);
      tx.delete("port_allocation", a.id);
      audit(tx, ctx, "ingress.port.allocation.delete", "Ingress port allocation deleted", a.id, {
        name: a.name,
        peer_id: peer.id,
        ingress_peer_id: a.ingress_peer_id,
      });
      return {};
    }),
};
