/**
 * The network map (netmap/): every peer's map, and one peer's, of generated accounts of 100, 1,000 and 5,000
 * peers with 100 groups, 300 policies and 50 network resources (tests/support/netmap-account.ts,
 * randomSnapshot: each peer in two groups, so groups grow with the account; a tenth of the policies towards
 * network resources, some bidirectional, some drop, a fifth with posture checks; five networks with a routing
 * peer each; routes, a nameserver group and a zone). In process, pure computation (no server, no storage).
 *
 * Figures per size: the constructor (`new NetworkMap(snapshot)`: objects by id; rule sets come when first
 * needed), every peer's full map computed one after the other
 * (each dropped once made, as a tool streaming them would), and one peer's map from scratch (index included)
 * and with the index built, over sampled peers. Wall and CPU (process.cpuUsage), median of the repetitions.
 * Targets (issue 22): every peer of the 1,000-peer account in 1 s or less; one peer's map in 10 ms or less.
 *
 * And through privnet-server (in process, `:memory:` database, loopback HTTP) for the 1,000-peer account, the
 * same objects stored as documents: `GET /internal/network-map/{peerId}`, `GET /api/peers/{peerId}/accessible-peers`
 * (each reads the store, builds the map and answers) and `GET /api/peers` (which counts every peer's accessible
 * peers). Medians of sequential requests; no target of their own.
 */
import { NetworkMap, type AccountSnapshot } from "../netmap";
import { createServer } from "../server/index";
import { randomSnapshot, type RandomShape } from "../tests/support/netmap-account";
import { progress } from "./lib/progress";
import { median } from "./lib/stats";

export const NETMAP_ALL_TARGET_MS = 1000;
export const NETMAP_ONE_TARGET_MS = 10;
/** The account the targets are about. */
export const NETMAP_TARGET_PEERS = 1000;

const SIZES = [100, 1000, 5000];
const SHAPE: Omit<RandomShape, "peers"> = { groups: 100, policies: 300, resources: 50 };
const SEED = 22;
/** Peers sampled for the one-peer figures. */
const SAMPLES = 50;

export interface NetmapSize {
  peers: number;
  reps: number;
  indexMs: number;
  allMs: number;
  allCpuMs: number;
  /** One peer's map with the index built (median over the samples, median of the repetitions). */
  oneMs: number;
  /** One peer's map from the snapshot: index and map. */
  oneFromScratchMs: number;
  /** Size of the output: peer entries over all maps, and grants in them. */
  entries: number;
  grants: number;
}

export interface NetmapServerFigures {
  peers: number;
  getMapMs: number;
  accessibleMs: number;
  listPeersMs: number;
  requests: number;
}

export interface NetmapBenchResult {
  shape: Omit<RandomShape, "peers">;
  sizes: NetmapSize[];
  server?: NetmapServerFigures;
  allTargetMs: number;
  oneTargetMs: number;
  targetPeers: number;
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function measure(peers: number, reps: number): NetmapSize {
  const snapshot = randomSnapshot(SEED, { peers, ...SHAPE });
  const ids = snapshot.peers.map((p) => p.id);
  const sample = Array.from({ length: SAMPLES }, (_, i) => ids[(i * 7919) % ids.length] as string);
  const index: number[] = [];
  const all: number[] = [];
  const allCpu: number[] = [];
  const one: number[] = [];
  const scratch: number[] = [];
  let entries = 0;
  let grants = 0;
  // One warm-up pass on a small slice so the first repetition does not pay for the JIT alone.
  new NetworkMap(snapshot).peerMap(ids[0] as string);
  for (let rep = 0; rep < reps; rep++) {
    let t = performance.now();
    const map = new NetworkMap(snapshot);
    index.push(performance.now() - t);
    const c = cpuMs();
    t = performance.now();
    entries = 0;
    grants = 0;
    for (const id of ids) {
      const m = map.peerMap(id);
      entries += m?.peers.length ?? 0;
      for (const p of m?.peers ?? []) grants += p.grants.length;
    }
    all.push(performance.now() - t);
    allCpu.push(cpuMs() - c);
    const per: number[] = [];
    for (const id of sample) {
      const s = performance.now();
      map.peerMap(id);
      per.push(performance.now() - s);
    }
    one.push(median(per));
    const fresh: number[] = [];
    for (const id of sample.slice(0, 10)) {
      const s = performance.now();
      new NetworkMap(snapshot).peerMap(id);
      fresh.push(performance.now() - s);
    }
    scratch.push(median(fresh));
  }
  return {
    peers,
    reps,
    indexMs: median(index),
    allMs: median(all),
    allCpuMs: median(allCpu),
    oneMs: median(one),
    oneFromScratchMs: median(scratch),
    entries,
    grants,
  };
}

/** Stores the snapshot's objects as privnet-server documents (the shapes of server/model.ts and the handlers). */
function load(state: ReturnType<typeof createServer>["state"], snap: AccountSnapshot): void {
  state.store.tx((tx) => {
    for (const p of snap.peers)
      tx.put("peer", {
        id: p.id,
        name: p.name,
        created_at: p.last_login,
        ip: p.ip,
        connection_ip: "198.51.100.10",
        connected: p.connected,
        last_seen: p.last_seen,
        os: p.meta.goos ?? "linux",
        kernel_version: p.meta.kernel_version ?? "",
        geoname_id: 0,
        version: p.meta.version ?? "",
        ssh_enabled: false,
        user_id: "",
        hostname: p.name,
        ui_version: "",
        dns_label: p.dns_label,
        login_expiration_enabled: false,
        login_expired: false,
        last_login: p.last_login,
        inactivity_expiration_enabled: false,
        approval_required: false,
        country_code: p.meta.country_code ?? "",
        city_name: p.meta.city_name ?? "",
        serial_number: "",
        extra_dns_labels: [],
        ephemeral: false,
        local_flags: {},
        wg_pub_key: p.id,
        meta: { network_addresses: p.meta.network_addresses, processes: p.meta.processes },
      });
    for (const g of snap.groups)
      if (!g.all)
        tx.put("group", { id: g.id, name: g.name, issued: "api", peers: g.peers, resources: g.resources });
    for (const p of snap.policies) tx.put("policy", { ...p, description: "" });
    for (const c of snap.posture_checks) tx.put("posture_check", { ...c, description: "" });
    for (const n of snap.networks) {
      tx.put("network", { id: n.id, name: n.name, description: "" });
      for (const r of n.resources) tx.put("network_resource", { ...r, parent: n.id, description: "" });
      for (const r of n.routers) tx.put("network_router", { ...r, parent: n.id });
    }
  });
}

async function measureServer(peers: number): Promise<NetmapServerFigures> {
  const snap = randomSnapshot(SEED, { peers, ...SHAPE });
  const { app, state, ownerToken } = createServer({ db: ":memory:" });
  load(state, snap);
  await app.listen({ host: "127.0.0.1", port: 0 });
  try {
    const addr = app.server.address();
    const base = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
    const headers = { Authorization: `Token ${ownerToken}` };
    const timed = async (path: string) => {
      const t = performance.now();
      const res = await fetch(`${base}${path}`, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
      return performance.now() - t;
    };
    const requests = 20;
    const map: number[] = [];
    const accessible: number[] = [];
    const list: number[] = [];
    for (let i = 0; i < requests + 2; i++) {
      const id = snap.peers[(i * 7919) % snap.peers.length]?.id as string;
      const m = await timed(`/internal/network-map/${id}`);
      const a = await timed(`/api/peers/${id}/accessible-peers`);
      // The first two rounds warm the server up.
      if (i >= 2) {
        map.push(m);
        accessible.push(a);
      }
      if (i % 4 === 3) list.push(await timed("/api/peers"));
    }
    return {
      peers,
      getMapMs: median(map),
      accessibleMs: median(accessible),
      listPeersMs: median(list),
      requests,
    };
  } finally {
    await app.close();
  }
}

export async function runNetmap(): Promise<NetmapBenchResult> {
  const sizes: NetmapSize[] = [];
  for (const peers of SIZES) {
    const r = measure(peers, peers > 1000 ? 1 : 3);
    progress(
      "netmap",
      `${peers} peers: index ${r.indexMs.toFixed(1)} ms, every map ${r.allMs.toFixed(0)} ms ` +
        `(${r.allCpuMs.toFixed(0)} ms CPU, ${r.entries} entries), one map ${r.oneMs.toFixed(2)} ms ` +
        `(${r.oneFromScratchMs.toFixed(1)} ms from scratch)`,
    );
    sizes.push(r);
  }
  const server = await measureServer(NETMAP_TARGET_PEERS);
  progress(
    "netmap",
    `privnet-server, ${server.peers} peers: GET map ${server.getMapMs.toFixed(1)} ms, accessible-peers ` +
      `${server.accessibleMs.toFixed(1)} ms, list peers ${server.listPeersMs.toFixed(0)} ms (medians)`,
  );
  return {
    shape: SHAPE,
    sizes,
    server,
    allTargetMs: NETMAP_ALL_TARGET_MS,
    oneTargetMs: NETMAP_ONE_TARGET_MS,
    targetPeers: NETMAP_TARGET_PEERS,
  };
}
