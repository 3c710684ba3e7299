/**
 * Sets of traffic (protocol and ports) with union and difference: what accept rules allow minus what drop rules
 * take away. tcp and udp carry port intervals in 1..65535; icmp and any other protocol are all or nothing.
 * `all` stands for tcp, udp, icmp and every other protocol.
 */
import type { Traffic } from "./types";

type Intervals = [number, number][];

const FULL: Intervals = [[1, 65535]];
const PORTED = new Set(["tcp", "udp"]);
/** Key of "every protocol not named": what `all` covers beyond tcp, udp and icmp. */
const OTHER = "*";

function union(a: Intervals, b: Intervals): Intervals {
  const all = [...a, ...b].sort((x, y) => x[0] - y[0]);
  const out: Intervals = [];
  for (const [s, e] of all) {
    const last = out[out.length - 1];
    if (last && s <= last[1] + 1) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

function minus(a: Intervals, b: Intervals): Intervals {
  let out = a.map(([s, e]) => [s, e] as [number, number]);
  for (const [bs, be] of b) {
    const next: Intervals = [];
    for (const [s, e] of out) {
      if (be < s || bs > e) next.push([s, e]);
      else {
        if (bs > s) next.push([s, bs - 1]);
        if (be < e) next.push([be + 1, e]);
      }
    }
    out = next;
  }
  return out;
}

/**
 * The port intervals of a rule: its ports and port ranges, or every port when it names none. A range whose end
 * is below its start (the service stores one as given) holds no port: a rule naming only such ranges matches none.
 */
export function ruleIntervals(
  ports: string[] | undefined,
  ranges: { start: number; end: number }[] | undefined,
) {
  const out: Intervals = [];
  for (const p of ports ?? []) {
    const [s, e] = p.split("-").map(Number) as [number, number | undefined];
    if (Number.isFinite(s)) out.push([s, e !== undefined && Number.isFinite(e) ? e : s]);
  }
  for (const r of ranges ?? []) if (r.start <= r.end) out.push([r.start, r.end]);
  if (!(ports ?? []).length && !(ranges ?? []).length) return FULL;
  return union(out, []);
}

/** Ports as the API writes them: `22`, `8000-8999`. */
export function portStrings(iv: Intervals): string[] {
  return iv.map(([s, e]) => (s === e ? String(s) : `${s}-${e}`));
}

/**
 * A mutable set of traffic. `named` are the protocols other than all/tcp/udp/icmp that the rules name: `all`
 * covers each of them as well as "every other protocol", so a drop of one of them leaves the rest allowed.
 */
export class TrafficSet {
  private readonly byProto = new Map<string, Intervals>();

  constructor(private readonly named: readonly string[] = []) {}

  /** Adds (accept) or removes (drop) one rule's traffic. */
  apply(action: "add" | "remove", protocol: string, ports: Intervals): void {
    const protos = protocol === "all" ? ["tcp", "udp", "icmp", OTHER, ...this.named] : [protocol];
    for (const p of protos) {
      const iv = PORTED.has(p) ? ports : FULL;
      if (action === "add") this.byProto.set(p, union(this.byProto.get(p) ?? [], iv));
      else if (protocol === "all") this.byProto.delete(p);
      else this.byProto.set(p, minus(this.byProto.get(p) ?? [], iv));
    }
    // A drop of `all` takes every named protocol too.
    if (action === "remove" && protocol === "all") this.byProto.clear();
  }

  /** The set as a list: `[{protocol: "all"}]` when everything is allowed; ports left out when all are. */
  toList(): Traffic[] {
    const full = (p: string) => {
      const iv = this.byProto.get(p);
      return iv?.length === 1 && iv[0]?.[0] === 1 && iv[0][1] === 65535;
    };
    if (["tcp", "udp", "icmp", OTHER].every(full)) {
      const named = [...this.byProto.keys()].filter((p) => !["tcp", "udp", "icmp", OTHER].includes(p));
      if (named.every(full) && this.named.every(full)) return [{ protocol: "all" }];
    }
    const out: Traffic[] = [];
    for (const [p, iv] of this.byProto) {
      if (!iv.length) continue;
      const protocol = p === OTHER ? "other" : p;
      out.push(PORTED.has(p) && !full(p) ? { protocol, ports: portStrings(iv) } : { protocol });
    }
    return out.sort((a, b) => a.protocol.localeCompare(b.protocol));
  }
}
